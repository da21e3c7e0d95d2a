#pragma once
//! The one reader of the loaders' two-column CSV files with a header row: the hourly grid series
//! (models/load/load_energy.cpp, `hour,g_co2e_per_kwh`) and the rate schedule
//! (models/load/load_demand.cpp, `at_s,multiplier`). It handles the byte order mark, quoting, blank
//! and '#' lines, the header and the field count; each caller checks its own values in a callback.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/diagnostic.h"

namespace gpuplan::csv {

//! The header and the messages of one two-column file kind.
struct TwoColumns {
  std::vector<std::string_view> first_names;  //!< accepted names of the first column
  std::string_view second_name;               //!< the second column's name
  std::string header_message;                 //!< error when the first row is not the header
  std::string field_count_message;            //!< error when a row does not have two fields
};

//! How reading stopped: at the end of the text, at a first row that is not the header, or at a
//! quoted field that is never closed (each error already recorded).
enum class TwoColumnEnd { end, bad_header, unterminated_quote };

//! What read_two_columns saw.
struct TwoColumnRead {
  TwoColumnEnd stop = TwoColumnEnd::end;
  bool header = false;  //!< the header row was read
  bool ok = true;       //!< no row error was recorded
};

//! Checks one data row's trimmed fields, keeping the values it accepts; returns the error
//! message of a bad row, or nullopt.
using TwoColumnRow =
    std::function<std::optional<std::string>(std::string_view first, std::string_view second)>;

//! Reads `text` (a leading byte order mark dropped; blank lines and lines whose first field starts
//! with '#' skipped): the first row must be the header of `kind`, each later row has two fields
//! and is passed to `row`. Each bad row is an error at `file:line` under `pointer` in `d`;
//! reading goes on after a bad row and stops at a bad header or an unclosed quote.
TwoColumnRead read_two_columns(std::string_view text, const TwoColumns& kind,
                               const std::string& file, const std::string& pointer, Diagnostics& d,
                               const TwoColumnRow& row);

}  // namespace gpuplan::csv
