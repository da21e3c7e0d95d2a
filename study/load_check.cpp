#include "study/load_check.h"

#include <algorithm>
#include <optional>

#include <nlohmann/json.hpp>

#include "models/compile/compile.h"
#include "models/scenario/demand_profile.h"
#include "study/number_text.h"

namespace gpuplan::study {
namespace {

// A load as "1,722x its capacity (172,200%)" or, below 10, "1.3x its capacity (130%)".
std::string times_capacity(double load) {
  return grouped_number(load, load < 10 ? 2 : 0) + "x its capacity (" +
         grouped_number(100 * load, 0) + "%)";
}

// The rate of `jc` as written, when it is a bare number (per second); else nullopt.
std::optional<double> bare_rate(const Scenario& sc, const JobClass& jc) {
  if (jc.trace || !sc.source.is_object() || jc.pointer.empty()) return std::nullopt;
  const nlohmann::json::json_pointer ptr(jc.pointer + "/arrival/poisson/rate");
  if (!sc.source.contains(ptr)) return std::nullopt;
  const nlohmann::json& v = sc.source.at(ptr);
  if (!v.is_number()) return std::nullopt;
  return v.get<double>();
}

std::string set_name(const Scenario& sc, const PoolSetLoad& s) {
  const std::string gpus = grouped_number(s.gpus, 0) + " GPUs";
  if (s.pools.size() == 1) return "Pool " + sc.pools[s.pools[0]].name + " (" + gpus + ")";
  std::string names;
  for (uint32_t p : s.pools) names += (names.empty() ? "" : " + ") + sc.pools[p].name;
  return "Pools " + names + " (" + gpus + " together)";
}

// A time as "month 5.8 (day 175)": months of 730 h since the start of the run.
std::string month_text(double t_s) {
  return "month " + grouped_number(t_s / PROFILE_MONTH_S, 1) + " (day " +
         grouped_number(t_s / (24 * PROFILE_HOUR_S), 0) + ")";
}

// The warning for a set that keeps up over the window on average but not in its busiest week.
std::string peak_warning(const Scenario& sc, const PoolSetLoad& s) {
  return set_name(sc, s) + ": offered " + times_capacity(s.load) +
         " on average over the window, but the demand grows: the offered load reaches its "
         "capacity from " +
         month_text(*s.reaches_capacity_s) + " and grows to " + times_capacity(s.peak_load) +
         " by " + month_text(s.peak_end_s) +
         ", the end of its busiest week. From then on the queue grows without bound and the "
         "window's waits understate the end of the horizon; add capacity before that month "
         "(staged purchases, a burst pool).";
}

}  // namespace

std::vector<std::string> load_warnings(const Scenario& sc) {
  std::vector<std::string> w;
  std::vector<std::vector<uint32_t>> flagged;
  for (const PoolSetLoad& s : pool_set_loads(sc)) {
    const bool at_peak = s.reaches_capacity_s.has_value();
    if (!overloaded(s.load) && !at_peak) continue;
    const bool repeats = std::any_of(flagged.begin(), flagged.end(), [&](const auto& f) {
      return std::includes(s.pools.begin(), s.pools.end(), f.begin(), f.end());
    });
    if (repeats) continue;
    flagged.push_back(s.pools);
    if (!overloaded(s.load)) {
      w.push_back(peak_warning(sc, s));
      continue;
    }
    const JobClass& jc = sc.workload[s.driver];
    std::string why = "class " + jc.name + " drives it (" +
                      grouped_number(s.driver_load, s.driver_load < 10 ? 2 : 0) + "x alone";
    if (const auto r = bare_rate(sc, jc)) {
      why += "; its rate " + grouped_number(*r, 6) + " is a bare number, which means " +
             grouped_number(*r, 6) + " per second = " + grouped_number(*r * 3600, 2) +
             " per hour: write \"" + grouped_number(*r, 6) + "/h\" if you meant per hour";
    }
    w.push_back(set_name(sc, s) + " is offered " + times_capacity(s.load) + ": " + why +
                "). The queue grows without bound, so waits depend on the horizon and are not "
                "steady-state figures.");
  }
  return w;
}

}  // namespace gpuplan::study
