#pragma once
//! CSV job traces (Philly, Tiresias, ...): header row, named columns, sorted by submit time.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/diagnostic.h"
#include "models/scenario/scenario.h"

namespace gpuplan {

//! The usable rows of one trace.
struct TraceData {
  std::vector<TraceRow> rows;  //!< sorted by submit time, ties in file order; rebased, limited
  uint64_t skipped_rows = 0;   //!< rows dropped for 0 GPUs or a duration <= 0
};

//! Reads the CSV file `fmt.path`; nullopt with diagnostics when it cannot be read or a row is
//! malformed (rows as `file:line`, configuration errors such as a missing column at `pointer`).
std::optional<TraceData> read_trace(const TraceFormat& fmt, const std::string& pointer,
                                    Diagnostics& diags);

//! Same from CSV text already in memory; `file` labels the row diagnostics.
std::optional<TraceData> parse_trace(std::string_view csv, const TraceFormat& fmt,
                                     const std::string& file, const std::string& pointer,
                                     Diagnostics& diags);

}  // namespace gpuplan
