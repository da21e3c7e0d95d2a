#include "reports/csv.h"

#include "reports/format.h"

#include <algorithm>
#include <array>
#include <vector>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

// The number at `j[key]`, or "" when it is absent or not a number.
std::string number_cell(const json& j, std::string_view key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return "";
  return format_raw(it->get<double>());
}

// Element `i` of the numeric array `j[key]`, or "" when any part of it is absent.
std::string series_cell(const json& j, std::string_view key, std::size_t i) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  if (it == j.end() || !it->is_array() || i >= it->size() || !(*it)[i].is_number()) return "";
  return format_raw((*it)[i].get<double>());
}

// Length of the array `j[key]`, or 0.
std::size_t series_size(const json& j, std::string_view key) {
  if (!j.is_object()) return 0;
  const auto it = j.find(key);
  return it != j.end() && it->is_array() ? it->size() : 0;
}

const json& member_or_null(const json& j, std::string_view key) {
  static const json NONE;
  if (!j.is_object()) return NONE;
  const auto it = j.find(key);
  return it == j.end() ? NONE : *it;
}

void write_row(std::ostream& out, const std::vector<std::string>& cells) {
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) out << ',';
    out << cells[i];
  }
  out << '\n';
}

}  // namespace

std::string csv_text_field(std::string_view text) {
  std::string value;
  if (!text.empty() && (text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' ||
                        text[0] == '\t' || text[0] == '\r')) {
    value += '\'';
  }
  value.append(text);
  if (value.find_first_of(",\"\r\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (const char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

void write_timeseries_csv(const json& result, std::ostream& out) {
  static constexpr std::array<const char*, 4> SERIES{"busy_gpus", "provisioned_gpus", "queued_jobs",
                                                     "spend_usd"};
  static constexpr std::array<const char*, 3> BANDS{"busy_gpus", "queued_jobs",
                                                    "cumulative_spend_usd"};
  static constexpr std::array<const char*, 3> LEVELS{"p10", "p50", "p90"};
  const json& ts = member_or_null(result, "timeseries");
  const json& bands = member_or_null(result, "bands");
  const bool with_bands = bands.is_object();

  // NOTE: facility power (docs/energy.md) comes after the engine's own series, where present.
  const bool with_power = series_size(ts, "power_kw") > 0;
  std::vector<const char*> bands_out(BANDS.begin(), BANDS.end());
  if (with_power && member_or_null(bands, "power_kw").is_object()) bands_out.push_back("power_kw");
  std::vector<std::string> header{"t_s"};
  for (const char* s : SERIES) header.emplace_back(s);
  header.emplace_back("cumulative_spend_usd");
  if (with_power) header.emplace_back("power_kw");
  if (with_bands) {
    for (const char* b : bands_out) {
      for (const char* level : LEVELS) header.push_back(std::string(b) + "_" + level);
    }
  }
  const json& team_gpus = member_or_null(ts, "team_gpus");
  std::vector<std::string> teams;  // docs/teams.md: GPUs each team held per bin
  if (team_gpus.is_object())
    for (const auto& [name, series] : team_gpus.items()) teams.push_back(name);
  for (const std::string& t : teams) header.push_back(csv_text_field("team_gpus_" + t));
  write_row(out, header);

  std::size_t n_rows = series_size(ts, "t_s");
  for (const char* s : SERIES) n_rows = std::max(n_rows, series_size(ts, s));
  const bool have_t = series_size(ts, "t_s") > 0;
  const json& bin = member_or_null(ts, "bin_s");
  double cumulative = 0;
  for (std::size_t i = 0; i < n_rows; ++i) {
    std::vector<std::string> row;
    if (have_t) {
      row.push_back(series_cell(ts, "t_s", i));
    } else {
      row.push_back(bin.is_number() ? format_raw(static_cast<double>(i) * bin.get<double>()) : "");
    }
    for (const char* s : SERIES) row.push_back(series_cell(ts, s, i));
    const std::string spend = series_cell(ts, "spend_usd", i);
    if (!spend.empty()) cumulative += ts["spend_usd"][i].get<double>();
    row.push_back(i < series_size(ts, "spend_usd") ? format_raw(cumulative) : "");
    if (with_power) row.push_back(series_cell(ts, "power_kw", i));
    if (with_bands) {
      for (const char* b : bands_out) {
        for (const char* level : LEVELS)
          row.push_back(series_cell(member_or_null(bands, b), level, i));
      }
    }
    for (const std::string& t : teams) row.push_back(series_cell(team_gpus, t, i));
    write_row(out, row);
  }
}

void write_per_class_csv(const json& result, std::ostream& out) {
  static constexpr std::array<const char*, 4> STATS{"mean", "p50", "p90", "p99"};
  std::vector<std::string> header{"class", "jobs_submitted", "jobs_completed", "jobs_unfinished"};
  for (const char* what : {"wait", "jct"}) {
    for (const char* s : STATS) header.push_back(std::string(what) + "_" + s + "_s");
  }
  write_row(out, header);
  const json& classes = member_or_null(result, "per_class");
  if (!classes.is_array()) return;
  for (const json& c : classes) {
    const json& name = member_or_null(c, "name");
    std::vector<std::string> row{csv_text_field(name.is_string() ? name.get<std::string>() : ""),
                                 number_cell(c, "jobs_submitted"), number_cell(c, "jobs_completed"),
                                 number_cell(c, "jobs_unfinished")};
    for (const char* what : {"wait_s", "jct_s"}) {
      for (const char* s : STATS) row.push_back(number_cell(member_or_null(c, what), s));
    }
    write_row(out, row);
  }
}

void write_per_team_csv(const json& result, std::ostream& out) {
  static constexpr std::array<const char*, 4> STATS{"mean", "p50", "p90", "p99"};
  static constexpr std::array<const char*, 7> FIGURES{
      "gpu_hours_used",      "gpu_hours_borrowed", "mean_gpus", "quota_use",
      "reclaim_preemptions", "cost_share",         "cost_usd"};
  std::vector<std::string> header{"team",           "cohort",         "nominal_gpus",
                                  "jobs_submitted", "jobs_completed", "jobs_unfinished"};
  for (const char* what : {"wait", "jct"}) {
    for (const char* s : STATS) header.push_back(std::string(what) + "_" + s + "_s");
  }
  header.insert(header.end(), FIGURES.begin(), FIGURES.end());
  write_row(out, header);
  const json& teams = member_or_null(result, "per_team");
  if (!teams.is_array()) return;
  for (const json& t : teams) {
    const json& name = member_or_null(t, "name");
    const json& cohort = member_or_null(t, "cohort");
    double nominal = 0;
    const json& quota = member_or_null(t, "quota");
    if (quota.is_object())
      for (const auto& [flavor, q] : quota.items())
        if (q.is_object() && q.contains("nominal") && q["nominal"].is_number())
          nominal += q["nominal"].get<double>();
    std::vector<std::string> row{
        csv_text_field(name.is_string() ? name.get<std::string>() : ""),
        csv_text_field(cohort.is_string() ? cohort.get<std::string>() : ""),
        format_raw(nominal),
        number_cell(t, "jobs_submitted"),
        number_cell(t, "jobs_completed"),
        number_cell(t, "jobs_unfinished")};
    for (const char* what : {"wait_s", "jct_s"}) {
      for (const char* s : STATS) row.push_back(number_cell(member_or_null(t, what), s));
    }
    for (const char* f : FIGURES) row.push_back(number_cell(t, f));
    write_row(out, row);
  }
}

}  // namespace gpuplan::reports
