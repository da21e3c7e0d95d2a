#include "models/input/csv_records.h"

namespace gpuplan::csv {

std::string_view without_bom(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  return text;
}

Record next_record(std::string_view t, std::size_t& i, int& line,
                   std::vector<std::string>& fields) {
  fields.clear();
  if (i >= t.size()) return Record::end;
  std::string cur;
  bool in_quotes = false;
  while (i < t.size()) {
    const char c = t[i];
    if (in_quotes) {
      if (c == '"') {
        if (i + 1 < t.size() && t[i + 1] == '"') {
          cur += '"';
          i += 2;
          continue;
        }
        in_quotes = false;
      } else {
        if (c == '\n') ++line;
        cur += c;
      }
      ++i;
      continue;
    }
    ++i;
    if (c == '"') {
      in_quotes = true;
    } else if (c == ',') {
      fields.push_back(std::move(cur));
      cur.clear();
    } else if (c == '\n') {
      ++line;
      break;
    } else if (c != '\r') {
      cur += c;
    }
  }
  fields.push_back(std::move(cur));
  return in_quotes ? Record::unterminated_quote : Record::ok;
}

bool blank(const std::vector<std::string>& fields) {
  return fields.size() == 1 && fields[0].find_first_not_of(" \t") == std::string::npos;
}

}  // namespace gpuplan::csv
