#include "study/load_check.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "models/compile.h"
#include "models/network_plan.h"
#include "study/number_text.h"

namespace gpuplan::study {
namespace {

// A load as "1,722x its capacity (172,200%)" or, below 10, "1.3x its capacity (130%)".
std::string times_capacity(double load) {
  return grouped_number(load, load < 10 ? 2 : 0) + "x its capacity (" +
         grouped_number(100 * load, 0) + "%)";
}

// Offered GPUs of class `jc` [GPU-s of work per s] with the durations as written (no slowdown).
double work_rate(const Scenario& sc, const JobClass& jc) {
  if (jc.trace) {
    const double window = sc.horizon_s - sc.warmup_s;
    double gpu_s = 0;
    for (const TraceRow& r : jc.trace_rows)
      if (r.submit_s >= sc.warmup_s && r.submit_s < sc.horizon_s) gpu_s += r.gpus * r.duration_s;
    return window > 0 ? gpu_s / window : 0;
  }
  return jc.rate_per_s * jc.gpus.mean() * training_duration_s(sc, jc).value_or(jc.duration.mean());
}

// The pools class `jc` may use, ascending.
std::vector<uint32_t> pools_of(const Scenario& sc, const JobClass& jc) {
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < sc.pools.size(); ++p)
    if (jc.may_use(p)) out.push_back(p);
  return out;
}

double pool_gpus(const Scenario& sc, uint32_t p) {
  return double(sc.pools[p].count) * sc.instance_of(sc.pools[p]).gpus_per_node;
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

}  // namespace

std::vector<PoolSetLoad> pool_set_loads(const Scenario& sc) {
  // NOTE: std::map orders the sets; the size-then-first-pool order is applied below.
  std::map<std::vector<uint32_t>, PoolSetLoad> sets;
  std::vector<uint32_t> all(sc.pools.size());
  for (uint32_t p = 0; p < all.size(); ++p) all[p] = p;
  sets[all].pools = all;
  std::vector<std::vector<uint32_t>> class_pools;
  for (const JobClass& jc : sc.workload) {
    class_pools.push_back(pools_of(sc, jc));
    sets[class_pools.back()].pools = class_pools.back();
  }
  std::vector<PoolSetLoad> out;
  for (auto& [key, s] : sets) {
    for (uint32_t p : s.pools) s.gpus += pool_gpus(sc, p);
    if (!(s.gpus > 0)) continue;
    for (size_t c = 0; c < sc.workload.size(); ++c) {
      const auto& mine = class_pools[c];
      if (mine.empty() || !std::includes(s.pools.begin(), s.pools.end(), mine.begin(), mine.end()))
        continue;
      // The set's capacity for this class in reference GPUs: each pool's GPUs over its slowdown.
      double capacity = 0;
      for (uint32_t p : s.pools) capacity += pool_gpus(sc, p) / gpu_slowdown(sc, sc.workload[c], p);
      const double share = capacity > 0 ? work_rate(sc, sc.workload[c]) / capacity : 0;
      s.load += share;
      if (share > s.driver_load) {
        s.driver_load = share;
        s.driver = static_cast<uint32_t>(c);
      }
    }
    out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(), [](const PoolSetLoad& a, const PoolSetLoad& b) {
    return a.pools.size() != b.pools.size() ? a.pools.size() < b.pools.size()
                                            : a.pools.front() < b.pools.front();
  });
  return out;
}

std::vector<std::string> load_warnings(const Scenario& sc) {
  std::vector<std::string> w;
  std::vector<std::vector<uint32_t>> flagged;
  for (const PoolSetLoad& s : pool_set_loads(sc)) {
    if (!overloaded(s.load)) continue;
    const bool repeats = std::any_of(flagged.begin(), flagged.end(), [&](const auto& f) {
      return std::includes(s.pools.begin(), s.pools.end(), f.begin(), f.end());
    });
    if (repeats) continue;
    flagged.push_back(s.pools);
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
