#include "models/offered_load.h"

#include <algorithm>
#include <map>

#include "models/demand_profile.h"
#include "models/network_plan.h"

namespace gpuplan {
namespace {

// Offered GPUs of class `jc` [GPU-s of work per s] with the durations as written (no slowdown).
double work_rate(const Scenario& sc, const JobClass& jc) {
  if (jc.trace) {
    const double window = sc.horizon_s - sc.warmup_s;
    double gpu_s = 0;
    for (const TraceRow& r : jc.trace_rows)
      if (r.submit_s >= sc.warmup_s && r.submit_s < sc.horizon_s) gpu_s += r.gpus * r.duration_s;
    return window > 0 ? gpu_s / window : 0;
  }
  // NOTE: load_scale and rate profiles count, at their mean over the window (as compile's load).
  const double rate = window_mean_rate(
      compile_rate(jc.rate_per_s, sc.demand, jc.profile, sc.horizon_s), sc.horizon_s, sc.warmup_s);
  return rate * jc.gpus.mean() * training_duration_s(sc, jc).value_or(jc.duration.mean());
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

}  // namespace gpuplan
