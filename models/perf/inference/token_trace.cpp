#include "models/perf/inference/token_trace.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "models/input/csv_records.h"
#include "models/input/data_files.h"
#include "models/input/datetime.h"
#include "models/input/input_file.h"

namespace gpuplan::inference {
namespace {

constexpr std::string_view IN_COLUMN = "ContextTokens";
constexpr std::string_view OUT_COLUMN = "GeneratedTokens";
constexpr std::string_view TIME_COLUMN = "TIMESTAMP";

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<double> whole_number(std::string_view s) {
  s = trimmed(s);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  return static_cast<double>(v);
}

double quantile(std::vector<double> v, double q) {
  const auto k = static_cast<size_t>(std::ceil(q * static_cast<double>(v.size()))) - 1;
  const auto at = v.begin() + static_cast<std::ptrdiff_t>(std::min(k, v.size() - 1));
  std::nth_element(v.begin(), at, v.end());
  return *at;
}

}  // namespace

std::optional<TokenLengths> read_token_trace(std::string_view text, const std::string& file,
                                             const std::string& pointer, Diagnostics& d,
                                             bool times) {
  text = csv::without_bom(text);
  const size_t before = d.size();
  const auto error = [&](int line, std::string message) {
    Diagnostic g;
    g.pointer = pointer;
    g.code = DiagCode::parse_error;
    g.file = file;
    g.line = line;
    g.message = std::move(message);
    d.add(std::move(g));
  };
  std::size_t i = 0;
  int line = 1;
  std::vector<std::string> fields;
  int header_line = line;
  if (csv::next_record(text, i, line, fields) != csv::Record::ok) {
    error(header_line, "the token trace is empty: it needs a header naming " +
                           std::string(IN_COLUMN) + " and " + std::string(OUT_COLUMN));
    return std::nullopt;
  }
  const auto column = [&](std::string_view name) -> std::optional<size_t> {
    for (size_t k = 0; k < fields.size(); ++k)
      if (trimmed(fields[k]) == name) return k;
    return std::nullopt;
  };
  const auto in_col = column(IN_COLUMN), out_col = column(OUT_COLUMN);
  if (!in_col || !out_col) {
    error(header_line, "the token trace's header needs the columns " + std::string(IN_COLUMN) +
                           " (prompt tokens) and " + std::string(OUT_COLUMN) +
                           " (output tokens), as the Azure LLM inference traces have");
    return std::nullopt;
  }
  const auto time_col = times ? column(TIME_COLUMN) : std::nullopt;
  if (times && !time_col) {
    error(header_line, "replaying the trace's arrivals needs a " + std::string(TIME_COLUMN) +
                           " column (\"2023-11-16 18:15:46.6805900\", as the Azure LLM inference "
                           "traces have); without one, use Poisson arrivals at a \"rate\"");
    return std::nullopt;
  }
  const size_t last_col = std::max({*in_col, *out_col, time_col.value_or(0)});
  TokenLengths t;
  t.path = file;
  double first_s = 0, previous_s = 0;
  for (;;) {
    const int row_line = line;
    const csv::Record r = csv::next_record(text, i, line, fields);
    if (r == csv::Record::end) break;
    if (r == csv::Record::unterminated_quote) {
      error(row_line, "a quoted field is never closed");
      break;
    }
    if (csv::blank(fields)) continue;
    if (fields.size() <= last_col) {
      error(row_line, "the row has " + std::to_string(fields.size()) +
                          " fields, fewer than the "
                          "header");
      continue;
    }
    const auto in = whole_number(fields[*in_col]), out = whole_number(fields[*out_col]);
    if (!in || *in > MAX_TRACE_TOKENS) {
      error(row_line, std::string(IN_COLUMN) + " must be a whole number of tokens up to 10^7");
      continue;
    }
    if (!out || *out < 1 || *out > MAX_TRACE_TOKENS) {
      error(row_line, std::string(OUT_COLUMN) + " must be a whole number from 1 to 10^7");
      continue;
    }
    if (time_col) {
      const auto at = parse_datetime(fields[*time_col]);
      if (!at) {
        error(row_line, std::string(TIME_COLUMN) +
                            " must be a time \"YYYY-MM-DD HH:MM:SS[.fraction]\", not \"" +
                            std::string(trimmed(fields[*time_col])) + "\"");
        continue;
      }
      if (t.at_s.empty()) first_s = previous_s = *at;
      if (*at < previous_s) {
        error(row_line, std::string(TIME_COLUMN) +
                            " is before the row above it; a replay takes the rows in time order, "
                            "so sort the file by " +
                            std::string(TIME_COLUMN));
        continue;
      }
      previous_s = *at;
      t.at_s.push_back(*at - first_s);
    }
    t.in.push_back(*in);
    t.out.push_back(*out);
    if (d.size() - before >= Diagnostics::MAX) break;
  }
  if (d.size() != before) return std::nullopt;
  if (t.in.empty()) {
    error(line, "the token trace has no requests");
    return std::nullopt;
  }
  summarize_lengths(t);
  return t;
}

void summarize_lengths(TokenLengths& t) {
  const double n = static_cast<double>(t.in.size());
  // NOTE: sums of whole token counts stay exact in a double up to 2^53.
  t.mean_in = t.mean_out = 0;
  for (size_t k = 0; k < t.in.size(); ++k) {
    t.mean_in += t.in[k];
    t.mean_out += t.out[k];
  }
  t.mean_in /= n;
  t.mean_out /= n;
  t.p50_in = quantile(t.in, 0.5);
  t.p99_in = quantile(t.in, 0.99);
  t.p99_out = quantile(t.out, 0.99);
}

std::optional<TokenLengths> load_token_trace(const std::string& ref, const std::string& base_dir,
                                             const std::vector<std::string>& data_path,
                                             const std::string& pointer, Diagnostics& d,
                                             bool times) {
  const auto path = find_data_file(ref, base_dir, data_path, "token trace", pointer, d);
  if (!path) return std::nullopt;
  const auto text = read_input_file(*path, MAX_TRACE_BYTES, "token trace", pointer, d);
  if (!text) return std::nullopt;
  return read_token_trace(*text, *path, pointer, d, times);
}

}  // namespace gpuplan::inference
