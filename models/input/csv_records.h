#pragma once
//! The one CSV record reader of the loaders (RFC 4180): trace files (models/trace/trace.cpp) and
//! rate schedule files (models/load/load_demand.cpp) split their text into records with it, so
//! quoting, line counting and a leading byte order mark behave the same in both.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::csv {

//! Outcome of reading one CSV record.
enum class Record { ok, end, unterminated_quote };

//! `text` without a leading UTF-8 byte order mark.
[[nodiscard]] std::string_view without_bom(std::string_view text);

//! Reads the record at `i` of `text` into `fields` (quoted fields may hold commas, "" and
//! newlines; a '\r' outside quotes is dropped), advancing `i` past it and `line` past every newline
//! it consumed. Returns `end` at the end of the text (fields empty), `unterminated_quote` when a
//! quoted field runs to the end.
Record next_record(std::string_view text, std::size_t& i, int& line,
                   std::vector<std::string>& fields);

//! True for a record that holds nothing but blanks (an empty line).
[[nodiscard]] bool blank(const std::vector<std::string>& fields);

}  // namespace gpuplan::csv
