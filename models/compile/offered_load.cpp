#include "models/compile/offered_load.h"
#include "models/compile/compile_sharing.h"

#include <algorithm>
#include <map>

#include "models/compile/overloaded.h"
#include "models/scenario/demand_profile.h"
#include "models/compile/network_plan.h"

namespace gpuplan {
namespace {

//! [s] the span of the peak check: a week, so a weekly or daily shape averages out.
constexpr double WEEK_S = 168 * PROFILE_HOUR_S;

// A class's offered work: its arrivals (rate profile compiled once) times the GPU-seconds of one
// job with the durations as written (no slowdown).
struct ClassWork {
  const JobClass* jc = nullptr;
  CompiledRate rate;
  double gpus = 0;        // mean GPUs of a job
  double duration_s = 0;  // [s] mean duration as written
  double window = 0;      // [GPU-s/s] mean over the statistics window

  // Mean work rate [GPU-s/s] over [a, b) of the horizon; trace classes at their window mean.
  [[nodiscard]] double over(double horizon_s, double a, double b) const {
    if (jc->trace || rate.segments.empty()) return window;
    return expected_arrivals(rate, horizon_s, a, b) / (b - a) * gpus * duration_s;
  }
};

// `horizon_s`: the span the rate profile is compiled over (the scenario's horizon, or longer to
// extend its growth past it).
ClassWork class_work(const Scenario& sc, const JobClass& jc, double horizon_s) {
  ClassWork w;
  w.jc = &jc;
  if (jc.trace) {
    const double window = sc.horizon_s - sc.warmup_s;
    double gpu_s = 0;
    for (const TraceRow& r : jc.trace_rows)
      if (r.submit_s >= sc.warmup_s && r.submit_s < sc.horizon_s) gpu_s += r.gpus * r.duration_s;
    w.window = window > 0 ? gpu_s / window : 0;
    return w;
  }
  // NOTE: load_scale and rate profiles count, at their mean over the window (as compile's load).
  w.rate = compile_rate(jc.rate_per_s, sc.demand, jc.profile, horizon_s);
  w.gpus = gpus_per_job(sc, jc);  // shared GPUs: the share a job holds (compile_sharing.h)
  w.duration_s = training_duration_s(sc, jc).value_or(jc.duration.mean());
  w.window = window_mean_rate(w.rate, sc.horizon_s, sc.warmup_s) * w.gpus * w.duration_s;
  return w;
}

// The pools class `jc` may use, ascending.
std::vector<uint32_t> pools_of(const Scenario& sc, const JobClass& jc) {
  std::vector<uint32_t> out;
  for (uint32_t p = 0; p < sc.pools.size(); ++p)
    if (may_run_on(sc, jc, p)) out.push_back(p);
  return out;
}

double gpus_per_node(const Scenario& sc, uint32_t p) {
  return sc.instance_of(sc.pools[p]).gpus_per_node;
}

}  // namespace

std::vector<PoolSetLoad> pool_set_loads(const Scenario& sc) {
  // NOTE: std::map orders the sets; the size-then-first-pool order is applied below.
  std::map<std::vector<uint32_t>, PoolSetLoad> sets;
  std::vector<uint32_t> all(sc.pools.size());
  for (uint32_t p = 0; p < all.size(); ++p) all[p] = p;
  sets[all].pools = all;
  std::vector<std::vector<uint32_t>> class_pools;
  std::vector<ClassWork> work;
  for (const JobClass& jc : sc.workload) {
    class_pools.push_back(pools_of(sc, jc));
    sets[class_pools.back()].pools = class_pools.back();
    work.push_back(class_work(sc, jc, sc.horizon_s));
  }
  std::vector<double> slowdown;  // [class][pool]
  for (const JobClass& jc : sc.workload)
    for (size_t p = 0; p < sc.pools.size(); ++p) slowdown.push_back(gpu_slowdown(sc, jc, p));
  std::vector<PoolSetLoad> out;
  for (auto& entry : sets) {
    // NOTE: a named reference, not a structured binding: clang 14 (the sanitizer build) refuses
    // lambdas that capture a binding.
    PoolSetLoad& s = entry.second;
    for (uint32_t p : s.pools) s.gpus += double(sc.pools[p].count) * gpus_per_node(sc, p);
    if (!(s.gpus > 0)) continue;
    std::vector<size_t> inside;  // the classes whose pools all lie in the set
    for (size_t c = 0; c < sc.workload.size(); ++c) {
      const auto& mine = class_pools[c];
      if (!mine.empty() && std::includes(s.pools.begin(), s.pools.end(), mine.begin(), mine.end()))
        inside.push_back(c);
    }
    // The set's load over [a, b): each class's work against the set's capacity for it in
    // reference GPUs, each pool's time-averaged GPUs over its slowdown (`nodes` of the pool).
    const auto load_over = [&](double a, double b, const auto& nodes, bool window) {
      double load = 0;
      for (const size_t c : inside) {
        double capacity = 0;
        for (uint32_t p : s.pools)
          capacity += nodes(p) * gpus_per_node(sc, p) / slowdown[c * sc.pools.size() + p];
        const double share =
            capacity > 0 ? (window ? work[c].window : work[c].over(sc.horizon_s, a, b)) / capacity
                         : 0;
        load += share;
        if (window && share > s.driver_load) {
          s.driver_load = share;
          s.driver = static_cast<uint32_t>(c);
        }
      }
      return load;
    };
    s.load = load_over(
        sc.warmup_s, sc.horizon_s, [&](uint32_t p) { return double(sc.pools[p].count); }, true);
    for (double a = 0; a < sc.horizon_s; a += WEEK_S) {
      const double b = std::min(a + WEEK_S, sc.horizon_s);
      const double load = load_over(
          a, b, [&](uint32_t p) { return sc.pools[p].mean_nodes(a, b); }, false);
      if (load > s.peak_load) {
        s.peak_load = load;
        s.peak_end_s = b;
      }
      if (!s.reaches_capacity_s && overloaded(load)) s.reaches_capacity_s = a;
    }
    out.push_back(s);
  }
  std::stable_sort(out.begin(), out.end(), [](const PoolSetLoad& a, const PoolSetLoad& b) {
    return a.pools.size() != b.pools.size() ? a.pools.size() < b.pools.size()
                                            : a.pools.front() < b.pools.front();
  });
  return out;
}

namespace {

double work_rate_of(const Scenario& sc, double a_s, double b_s, bool spot_tolerant_only) {
  const double span = std::max(sc.horizon_s, b_s);
  double sum = 0;
  for (const JobClass& jc : sc.workload)
    if (!spot_tolerant_only || jc.econ.spot_tolerant)
      sum += class_work(sc, jc, span).over(span, a_s, b_s);
  return sum;
}

}  // namespace

double offered_work_rate(const Scenario& sc, double a_s, double b_s) {
  return work_rate_of(sc, a_s, b_s, false);
}

double offered_spot_tolerant_work_rate(const Scenario& sc, double a_s, double b_s) {
  return work_rate_of(sc, a_s, b_s, true);
}

}  // namespace gpuplan
