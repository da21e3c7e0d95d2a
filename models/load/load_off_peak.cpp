// Loads a pool's "off_peak" schedule: discounted hours of the day and whole days of the week
// (docs/off-peak.md).
#include <algorithm>

#include "models/load/loader.h"

namespace gpuplan::loading {
namespace {

//! Most price steps one pool's schedule may compile to over the horizon.
constexpr double MAX_OFF_PEAK_STEPS = 1e6;

const std::vector<std::string>& day_names() {
  static const std::vector<std::string> names{"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
  return names;
}

// "HH:MM" [min after midnight]; 24:00 only when `end`. nullopt when not such a time.
std::optional<uint32_t> clock_minutes(std::string_view s, bool end) {
  if (s.size() != 5 || s[2] != ':') return std::nullopt;
  for (size_t i : {0u, 1u, 3u, 4u})
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
  const uint32_t h = uint32_t(s[0] - '0') * 10 + uint32_t(s[1] - '0');
  const uint32_t m = uint32_t(s[3] - '0') * 10 + uint32_t(s[4] - '0');
  if (m > 59 || h > 24 || (h == 24 && (m != 0 || !end))) return std::nullopt;
  return h * 60 + m;
}

}  // namespace

std::optional<economics::OffPeakWindow> Loader::off_peak_window(const json& v,
                                                                const std::string& p) {
  const auto s = string(v, p);
  if (!s) return std::nullopt;
  const size_t dash = s->find('-');
  const auto from = dash == std::string::npos
                        ? std::nullopt
                        : clock_minutes(fields::trim(s->substr(0, dash)), false);
  const auto to = dash == std::string::npos
                      ? std::nullopt
                      : clock_minutes(fields::trim(s->substr(dash + 1)), true);
  if (!from || !to) {
    d_.error(p, DiagCode::bad_unit,
             "cannot read " + in_quotes(*s) +
                 " as a daily window; write \"HH:MM-HH:MM\", e.g. \"22:00-06:00\" (it may wrap "
                 "past midnight)");
    return std::nullopt;
  }
  if (*from == *to % (24 * 60)) {
    d_.error(p, DiagCode::out_of_range,
             "window " + in_quotes(*s) +
                 " starts where it ends; for the whole day list the day under \"days\"");
    return std::nullopt;
  }
  return economics::OffPeakWindow{*from, *to};
}

void Loader::load_off_peak(const json& o, const std::string& p, double horizon_s, Pool& pool) {
  if (pool.pricing != Pricing::on_demand && pool.pricing != Pricing::spot) {
    d_.error(p, DiagCode::out_of_range,
             "off-peak prices apply to pay-as-you-go pools; a " +
                 std::string(enum_name(pool.pricing)) +
                 " pool is paid for whether used or not, so use \"on_demand\" or \"spot\"");
    return;
  }
  if (!object(o, p,
              "an off-peak schedule, e.g. {\"discount\": 0.3, \"hours\": \"22:00-06:00\", "
              "\"days\": [\"sat\", \"sun\"]}"))
    return;
  check_keys(o, p, {"discount", "hours", "days", "run_starts"});
  economics::OffPeakSchedule s;
  bool ok = true;
  if (const json* v = need(o, p, "discount", "share off the price in off-peak time, e.g. 0.3")) {
    const auto x = number(*v, p + "/discount", 0, 1);
    ok = ok && x.has_value();
    s.discount = x.value_or(0);
  } else {
    ok = false;
  }
  const json* hours = get(o, "hours");
  const json* days = get(o, "days");
  if (hours == nullptr && days == nullptr) {
    d_.error(p, DiagCode::missing_key,
             "say when prices are off-peak: \"hours\" (e.g. \"22:00-06:00\"), \"days\" (e.g. "
             "[\"sat\", \"sun\"]) or both");
    ok = false;
  }
  if (hours != nullptr) {
    const std::string hp = p + "/hours";
    if (hours->is_string()) {
      const auto w = off_peak_window(*hours, hp);
      ok = ok && w.has_value();
      if (w) s.hours.push_back(*w);
    } else if (hours->is_array() && !hours->empty()) {
      for (size_t k = 0; k < hours->size(); ++k) {
        const auto w = off_peak_window((*hours)[k], child(hp, k));
        ok = ok && w.has_value();
        if (w) s.hours.push_back(*w);
      }
    } else {
      wrong_type(*hours, hp, "a daily window \"22:00-06:00\" or a non-empty array of them");
      ok = false;
    }
  }
  if (days != nullptr) {
    const auto d = names(*days, p + "/days", "day", day_names());
    ok = ok && d.has_value();
    for (const std::string& n : d.value_or(std::vector<std::string>{})) {
      const size_t idx = static_cast<size_t>(std::find(day_names().begin(), day_names().end(), n) -
                                             day_names().begin());
      s.days = static_cast<uint8_t>(s.days | (1u << idx));
    }
  }
  if (const json* v = get(o, "run_starts")) {
    const std::string rp = p + "/run_starts";
    const auto text = string(*v, rp);
    std::optional<uint32_t> minute;
    if (text && text->size() == 9 && (*text)[3] == ' ') {
      const auto day = std::find(day_names().begin(), day_names().end(), text->substr(0, 3));
      const auto clock = clock_minutes(std::string_view(*text).substr(4), false);
      if (day != day_names().end() && clock)
        minute = static_cast<uint32_t>(day - day_names().begin()) * 24 * 60 + *clock;
    }
    if (text && !minute) {
      d_.error(rp, DiagCode::bad_unit,
               "cannot read " + in_quotes(*text) +
                   " as the day and time the run starts; write e.g. \"mon 00:00\" (days mon, "
                   "tue, wed, thu, fri, sat, sun)");
    }
    ok = ok && minute.has_value();
    s.run_starts_min = minute.value_or(0);
  }
  if (!ok) return;
  const double weeks = horizon_s / (economics::MINUTES_PER_WEEK * 60.0) + 1;
  const double steps = weeks * economics::off_peak_boundaries_per_week(s);
  if (steps > MAX_OFF_PEAK_STEPS) {
    d_.error(p, DiagCode::limit_exceeded,
             "this schedule changes the price " + num(steps) +
                 " times over the horizon, more than " + num(MAX_OFF_PEAK_STEPS) +
                 "; use fewer windows or a shorter horizon");
    return;
  }
  pool.econ.off_peak = s;
}

}  // namespace gpuplan::loading
