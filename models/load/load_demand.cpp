// Time-varying demand (docs/demand-profiles.md): the `demand` section and a class's
// `arrival.profile`: growth per month, a weekly shape, a schedule of multipliers (inline or CSV).
#include <charconv>
#include <cmath>

#include "models/input/csv_two_columns.h"
#include "models/input/input_file.h"
#include "models/load/loader.h"

namespace gpuplan::loading {

namespace {

inline constexpr double MAX_MULTIPLIER = 1e6;  // a multiplier beyond is a typo, not a plan
inline constexpr double MIN_GROWTH = -0.99;    // (1 + g) must stay positive
inline constexpr double MAX_GROWTH = 10;       // 1,000 % a month

// A CSV field as a finite number >= 0, or nullopt.
std::optional<double> csv_non_negative(std::string_view s) {
  s = fields::trim(s);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v) || v < 0)
    return std::nullopt;
  return v;
}

// The rows of a schedule CSV (`at_s,multiplier`, a header first; blank lines and lines starting
// with '#' skipped); each bad row is an error at `file:line` under `pointer`.
std::optional<std::vector<ProfilePoint>> parse_schedule_csv(std::string_view csv,
                                                            const std::string& file,
                                                            const std::string& pointer,
                                                            Diagnostics& d) {
  static const csv::TwoColumns KIND = {
      {"at_s", "at"},
      "multiplier",
      "the first row must be the header \"at_s,multiplier\" (time since the start, multiplier "
      "from then on)",
      "a row has two fields, at_s and multiplier, e.g. \"2592000,1.5\""};
  std::vector<ProfilePoint> out;
  const csv::TwoColumnRead r = csv::read_two_columns(
      csv, KIND, file, pointer, d,
      [&](std::string_view first, std::string_view second) -> std::optional<std::string> {
        const std::optional<double> at = parse_duration(first);
        const std::optional<double> m = csv_non_negative(second);
        if (!at || !std::isfinite(*at))
          return "at_s " + in_quotes(escape_for_message(first)) +
                 " is not a time; write seconds (>= 0) or a duration such as \"30d\"";
        if (!m || *m > MAX_MULTIPLIER)
          return "multiplier " + in_quotes(escape_for_message(second)) +
                 " must be a finite number from 0 to " + fields::num(MAX_MULTIPLIER);
        if (!out.empty() && !(*at > out.back().at_s))
          return "at_s " + fields::num(*at) + " s is not after the row before (" +
                 fields::num(out.back().at_s) + " s); list the schedule in increasing time order";
        out.push_back(ProfilePoint{*at, *m});
        return std::nullopt;
      });
  if (r.stop == csv::TwoColumnEnd::bad_header) return std::nullopt;
  if (!r.header) {
    d.error(pointer, DiagCode::parse_error,
            "schedule file " + in_quotes(file) +
                " is empty; it needs the header "
                "\"at_s,multiplier\" and at least one row");
    return std::nullopt;
  }
  if (!r.ok) return std::nullopt;
  if (out.empty()) {
    d.error(pointer, DiagCode::parse_error,
            "schedule file " + in_quotes(file) + " has a header but no rows");
    return std::nullopt;
  }
  return out;
}

}  // namespace

void Loader::load_demand(const json& o, Scenario& sc) {
  if (!object(o, "/demand", "an object, e.g. {\"load_scale\": 1.2, \"growth_per_month\": 0.08}"))
    return;
  check_keys(o, "/demand", {"load_scale", "growth_per_month", "weekly", "schedule"});
  if (const json* v = get(o, "load_scale")) {
    if (auto x = number(*v, "/demand/load_scale", 0, MAX_MULTIPLIER)) {
      if (*x > 0) {
        sc.demand.load_scale = *x;
      } else {
        d_.error("/demand/load_scale", DiagCode::out_of_range,
                 "load_scale must be greater than 0 (it multiplies every class's rate)");
      }
    }
  }
  load_profile(o, "/demand", sc.demand.profile);
}

void Loader::load_profile(const json& o, const std::string& p, RateProfile& out) {
  if (const json* v = get(o, "growth_per_month")) {
    if (auto g = number(*v, p + "/growth_per_month", MIN_GROWTH, MAX_GROWTH))
      out.growth_per_month = *g;
  }
  if (const json* v = get(o, "weekly")) {
    const std::string wp = p + "/weekly";
    if (v->is_array() && v->size() != 168 && v->size() != 24) {
      d_.error(wp, DiagCode::out_of_range,
               "a weekly shape has 168 hourly multipliers (hour 0 = the first hour of the run) or "
               "24 (one day, repeated), got " +
                   std::to_string(v->size()));
    } else if (auto w = numbers(*v, wp, 0, MAX_MULTIPLIER)) {
      out.weekly = std::move(*w);
    }
  }
  if (const json* v = get(o, "schedule")) load_schedule(*v, p + "/schedule", out);
}

void Loader::load_schedule(const json& v, const std::string& p, RateProfile& out) {
  if (v.is_string()) {
    const std::string path = v.get<std::string>();
    if (path.empty()) {
      d_.error(p, DiagCode::out_of_range, "the schedule path must not be empty");
      return;
    }
    const auto found = find_data_file(path, base_dir_, opts_.data_path, "schedule file", p, d_);
    if (!found) return;
    out.schedule_file = *found;
    if (!opts_.read_traces) return;
    const auto text = read_input_file(out.schedule_file, MAX_TRACE_BYTES, "schedule file", p, d_);
    if (!text) return;
    if (auto rows = parse_schedule_csv(*text, out.schedule_file, p, d_)) out.schedule = *rows;
    return;
  }
  if (!v.is_array() || v.empty()) {
    wrong_type(v, p,
               "a non-empty array of {\"at\": \"30d\", \"multiplier\": 1.5}, or a CSV file "
               "\"at_s,multiplier\"");
    return;
  }
  std::vector<ProfilePoint> points;
  bool ok = true;
  for (size_t k = 0; k < v.size(); ++k) {
    const std::string ep = child(p, k);
    if (!object(v[k], ep, "{\"at\": \"30d\", \"multiplier\": 1.5}")) {
      ok = false;
      continue;
    }
    check_keys(v[k], ep, {"at", "multiplier"});
    std::optional<double> at, m;
    if (const json* x = need(v[k], ep, "at", "when it starts, e.g. \"30d\"")) {
      at = duration(*x, ep + "/at", false);
    }
    if (const json* x = need(v[k], ep, "multiplier", "e.g. 1.5")) {
      m = number(*x, ep + "/multiplier", 0, MAX_MULTIPLIER);
    }
    if (!at || !m) {
      ok = false;
      continue;
    }
    if (!points.empty() && !(*at > points.back().at_s)) {
      d_.error(ep + "/at", DiagCode::out_of_range,
               "at " + num(*at) + " s is not after the entry before (" + num(points.back().at_s) +
                   " s); list the schedule in increasing time order");
      ok = false;
      continue;
    }
    points.push_back(ProfilePoint{*at, *m});
  }
  if (ok) out.schedule = std::move(points);
}

}  // namespace gpuplan::loading
