#include "models/input/closest_names.h"
#include "models/trace/trace.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include "models/catalog/catalog.h"
#include "models/input/csv_records.h"
#include "models/input/datetime.h"
#include "models/input/data_files.h"
#include "models/input/input_file.h"

namespace gpuplan {
namespace {

// Header cells listed in a "no such column" message at most.
constexpr size_t MAX_LISTED_COLUMNS = 64;

// A header cell that reads as a column name (letters, digits, space, _ - . ( ) /, at most 40
// bytes), so echoing it shows nothing but a name.
bool looks_like_column_name(const std::string& h) {
  return h.size() <= 40 && std::all_of(h.begin(), h.end(), [](char c) {
           return std::isalnum(static_cast<unsigned char>(c)) ||
                  std::string_view(" _-.()/").find(c) != std::string_view::npos;
         });
}

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// A finite decimal number filling the whole (trimmed) field, else nullopt.
std::optional<double> to_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

// Index of column `name` (exact, else case-insensitive) in `header`, or NONE.
size_t find_column(const std::vector<std::string>& header, std::string_view name) {
  for (size_t k = 0; k < header.size(); ++k)
    if (header[k] == name) return k;
  for (size_t k = 0; k < header.size(); ++k) {
    if (header[k].size() == name.size() && std::equal(name.begin(), name.end(), header[k].begin(),
                                                      [](unsigned char a, unsigned char b) {
                                                        return std::tolower(a) == std::tolower(b);
                                                      })) {
      return k;
    }
  }
  return NONE;
}

}  // namespace

std::optional<TraceData> read_trace(const TraceFormat& fmt, const std::string& pointer,
                                    Diagnostics& diags) {
  // NOTE: the pointer, not the file, labels a failure: the trace path is a scenario value.
  const auto text = read_input_file(fmt.path, MAX_TRACE_BYTES, "trace file", pointer, diags);
  if (!text) return std::nullopt;
  if (!fmt.sha256.empty() && !check_sha256(*text, fmt.sha256, fmt.path, pointer + "/sha256", diags))
    return std::nullopt;
  return parse_trace(*text, fmt, fmt.path, pointer, diags);
}

std::optional<TraceData> parse_trace(std::string_view csv, const TraceFormat& fmt,
                                     const std::string& file, const std::string& pointer,
                                     Diagnostics& diags) {
  csv = csv::without_bom(csv);
  const size_t errors_before = diags.size() + diags.dropped();
  auto row_error = [&](int line, std::string msg) {
    diags.add(Diagnostic{file, line, "", DiagCode::parse_error, std::move(msg), {}});
  };

  size_t i = 0;
  int line = 1;
  std::vector<std::string> header;
  int header_line = 1;
  while (header.empty() || (header.size() == 1 && trim(header[0]).empty())) {
    header_line = line;
    if (csv::next_record(csv, i, line, header) == csv::Record::end) {
      diags.error(
          pointer, DiagCode::parse_error,
          "trace file " + in_quotes(file) + " is empty; it needs a header row and job rows");
      return std::nullopt;
    }
  }
  for (auto& h : header) h = std::string(trim(h));

  const std::string* names[] = {&fmt.submit_column, &fmt.gpus_column, &fmt.duration_column};
  size_t col[3];
  bool columns_ok = true;
  // NOTE: the header is echoed only when it reads as column names: a path to some other file
  // (a key file, /proc/self/environ) must not print its first line in the error.
  const bool names_shown = header.size() <= MAX_LISTED_COLUMNS &&
                           std::all_of(header.begin(), header.end(), looks_like_column_name);
  std::string what = "its first line does not read as a CSV header of column names";
  if (names_shown) {
    std::string listed;
    for (const auto& h : header) listed += (listed.empty() ? "" : ", ") + h;
    what = "its columns: " + listed;
  }
  for (int k = 0; k < 3; ++k) {
    col[k] = find_column(header, *names[k]);
    if (col[k] != NONE) continue;
    columns_ok = false;
    auto candidates = names_shown ? closest_names(*names[k], header) : std::vector<std::string>{};
    Diagnostic d{file,
                 header_line,
                 pointer,
                 DiagCode::unknown_name,
                 "trace has no column " + in_quotes(escape_for_message(*names[k])) + " (" + what +
                     "); name the right one under \"columns\"" + did_you_mean(candidates),
                 candidates};
    diags.add(std::move(d));
  }
  if (!columns_ok) return std::nullopt;

  const bool datetime = fmt.time_format == TimeFormat::datetime;
  TraceData out;
  std::vector<std::string> f;
  while (true) {
    const int row_line = line;
    const csv::Record r = csv::next_record(csv, i, line, f);
    if (r == csv::Record::end) break;
    if (r == csv::Record::unterminated_quote) {
      row_error(row_line, "a quoted field is not closed; add the closing '\"'");
      break;
    }
    if (csv::blank(f)) continue;
    if (f.size() != header.size()) {
      row_error(row_line, "row has " + std::to_string(f.size()) + " fields but the header has " +
                              std::to_string(header.size()));
      continue;
    }
    const std::string& submit_text = f[col[0]];
    const std::string& gpus_text = f[col[1]];
    const std::string& duration_text = f[col[2]];

    std::optional<double> submit = datetime ? parse_datetime(submit_text) : to_number(submit_text);
    if (!submit) {
      row_error(row_line, "column " + in_quotes(header[col[0]]) + ": cannot read " +
                              in_quotes(escape_for_message(submit_text)) +
                              (datetime ? " as a date-time (expected YYYY-MM-DD HH:MM:SS, UTC)"
                                        : " as a number"));
    }
    const auto gpus = to_number(gpus_text);
    const bool gpus_ok = gpus && *gpus >= 0 && *gpus == std::floor(*gpus) && *gpus < 2147483648.0;
    if (!gpus_ok) {
      const bool too_large = gpus && *gpus >= 2147483648.0;
      row_error(row_line, "column " + in_quotes(header[col[1]]) + ": " +
                              in_quotes(escape_for_message(gpus_text)) +
                              (too_large ? " GPUs is too large; a job asks for 0 to 2147483647"
                                         : " is not a whole number of GPUs (0 or more)"));
    }
    const auto duration = to_number(duration_text);
    if (!duration) {
      row_error(row_line, "column " + in_quotes(header[col[2]]) + ": cannot read " +
                              in_quotes(escape_for_message(duration_text)) + " as a number");
    }
    if (!submit || !gpus_ok || !duration) continue;
    if (*gpus == 0 || *duration <= 0) {
      ++out.skipped_rows;
      continue;
    }
    out.rows.push_back(TraceRow{datetime ? *submit : *submit * fmt.time_scale,
                                *duration * fmt.time_scale, static_cast<uint32_t>(*gpus),
                                static_cast<uint32_t>(row_line)});
  }
  if (diags.size() + diags.dropped() > errors_before) return std::nullopt;

  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const TraceRow& a, const TraceRow& b) { return a.submit_s < b.submit_s; });
  if (fmt.limit && out.rows.size() > *fmt.limit) out.rows.resize(*fmt.limit);
  if (out.rows.empty()) {
    diags.error(pointer, DiagCode::infeasible,
                "trace " + in_quotes(file) + " has no usable jobs (" +
                    std::to_string(out.skipped_rows) +
                    " rows skipped for 0 GPUs or a duration <= 0)");
    return std::nullopt;
  }
  const double shift = (fmt.rebase ? -out.rows.front().submit_s : 0) + fmt.offset_s;
  for (auto& r : out.rows) r.submit_s += shift;
  if (out.rows.front().submit_s < 0) {
    row_error(static_cast<int>(out.rows.front().line),
              "submit time is " + std::to_string(out.rows.front().submit_s) +
                  " s, before the scenario starts at 0; set \"rebase\": true or a larger "
                  "\"offset\"");
    return std::nullopt;
  }
  return out;
}

}  // namespace gpuplan
