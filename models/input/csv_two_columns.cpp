#include "models/input/csv_two_columns.h"

#include <algorithm>

#include "models/input/csv_records.h"
#include "models/input/field_reader.h"

namespace gpuplan::csv {

TwoColumnRead read_two_columns(std::string_view text, const TwoColumns& kind,
                               const std::string& file, const std::string& pointer, Diagnostics& d,
                               const TwoColumnRow& row) {
  text = without_bom(text);
  const auto row_error = [&](int line, std::string msg) {
    d.add(Diagnostic{file, line, pointer, DiagCode::parse_error, std::move(msg), {}});
  };
  TwoColumnRead out;
  std::size_t i = 0;
  int next_line = 1;
  std::vector<std::string> cells;
  while (true) {
    const int line = next_line;
    const Record r = next_record(text, i, next_line, cells);
    if (r == Record::end) break;
    if (r == Record::unterminated_quote) {
      row_error(line, "a quoted field is not closed; add the closing '\"'");
      out.ok = false;
      out.stop = TwoColumnEnd::unterminated_quote;
      return out;
    }
    if (blank(cells) || fields::trim(cells[0]).substr(0, 1) == "#") continue;
    const std::string_view first = fields::trim(cells[0]);
    const std::string_view second = cells.size() < 2 ? std::string_view() : fields::trim(cells[1]);
    if (!out.header) {
      out.header = true;
      const auto& names = kind.first_names;
      if (cells.size() != 2 || std::find(names.begin(), names.end(), first) == names.end() ||
          second != kind.second_name) {
        row_error(line, kind.header_message);
        out.stop = TwoColumnEnd::bad_header;
        return out;
      }
      continue;
    }
    if (cells.size() != 2) {
      row_error(line, kind.field_count_message);
      out.ok = false;
      continue;
    }
    if (std::optional<std::string> msg = row(first, second)) {
      row_error(line, std::move(*msg));
      out.ok = false;
    }
  }
  return out;
}

}  // namespace gpuplan::csv
