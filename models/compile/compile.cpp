#include "models/compile/compile.h"
#include "models/compile/compile_economics.h"
#include "models/compile/compile_failures.h"
#include "models/compile/compile_maintenance.h"
#include "models/compile/compile_sharing.h"
#include "models/compile/compile_teams.h"
#include "models/compile/offered_load.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "sim/core/fair_share.h"

namespace gpuplan {
namespace {

//! NOTE: compile runs only on scenarios that passed load; a violated precondition is a bug (exit
//! 1).
#define GPUPLAN_ENSURE(cond) \
  if (!(cond)) throw std::logic_error("compile: internal invariant failed: " #cond)

}  // namespace

// The queue policy's ranking parameters; the queue is ranked for every policy but plain
// fifo/backfill, and for those too when classes differ in priority.
// The fewest whole GPUs a job of `sc` asks for; 0 when a class shares GPUs.
double smallest_job_gpus(const Scenario& sc) {
  double fewest = std::numeric_limits<double>::infinity();
  for (const JobClass& jc : sc.workload) {
    if (jc.share.kind != ShareKind::whole) return 0;
    if (jc.trace) {
      for (const TraceRow& row : jc.trace_rows) fewest = std::min(fewest, double(row.gpus));
    } else if (!jc.gpus.values.empty()) {
      fewest = std::min(fewest, double(jc.gpus.values.front()));
    }
  }
  return std::isinf(fewest) ? 0 : fewest;
}

void compile_scheduler(const Scenario& sc, SchedulerSpec& out) {
  const SchedulerConfig& s = sc.scheduler;
  GPUPLAN_ENSURE(s.las_thresholds_gpu_s.size() < MAX_LAS_QUEUES);  // the loader enforces this
  // fair_share shares between teams, at most MAX_FAIR_TEAMS (the loader enforces both)
  GPUPLAN_ENSURE(s.queue != QueuePolicy::fair_share ||
                 (!sc.teams.empty() && sc.teams.size() <= MAX_FAIR_TEAMS));
  out.las_n_thresholds = static_cast<uint32_t>(s.las_thresholds_gpu_s.size());
  for (uint32_t k = 0; k < out.las_n_thresholds; ++k)
    out.las_thresholds_gpu_s[k] = s.las_thresholds_gpu_s[k];
  out.las_promote_knob = s.las_promote_knob;
  out.preemption_grace_s = s.preemption_grace_s;
  out.estimate_sigma = s.estimate_sigma;
  out.round_s = s.round_s;
  bool priorities = false;
  for (const JobClass& jc : sc.workload) priorities |= jc.priority != sc.workload[0].priority;
  out.priority_preemption = priorities && s.priority_preemption;
  // NOTE: with teams a job over its quota must not block others (sim/core/queue_policy.h), and
  // reclaim runs in the ranked pass, so teams rank the queue too.
  out.ranked = priorities || !sc.teams.empty() ||
               !(s.queue == QueuePolicy::fifo || s.queue == QueuePolicy::backfill ||
                 s.queue == QueuePolicy::fifo_perf);
}

CompiledScenario compile(const Scenario& sc) {
  CompiledScenario out;
  ModelView& v = out.scalars;
  v.seed = sc.seed;
  v.horizon = sc.horizon_s;
  v.warmup = sc.warmup_s;
  if (sc.statistics.arrivals_until_s > 0) v.count_until = sc.statistics.arrivals_until_s;
  if (sc.statistics.end_job > 0) {
    v.count_first_job = sc.statistics.first_job;
    v.count_end_job = sc.statistics.end_job;
  }
  v.queue = sc.scheduler.queue;
  v.placement = sc.scheduler.placement;
  compile_scheduler(sc, v.sched);
  GPUPLAN_ENSURE(sc.pools.size() <= 64);  // pool masks are 64-bit; the loader enforces this

  // Pools and nodes: pools in file order, nodes in order within a pool.
  std::vector<const InstanceType*> pool_instance;
  for (const Pool& p : sc.pools) {
    const InstanceType& inst = sc.instance_of(p);
    pool_instance.push_back(&inst);
    out.pools.push_back(PoolSpec{static_cast<uint32_t>(out.node_pool.size()), p.count,
                                 inst.gpus_per_node, p.price_per_node_hour / 3600.0});
    out.node_pool.insert(out.node_pool.end(), p.count, static_cast<uint8_t>(out.pools.size() - 1));
    out.pool_names.push_back(p.name);
    v.max_gpus_per_node = std::max(v.max_gpus_per_node, inst.gpus_per_node);
  }
  v.n_nodes = static_cast<uint32_t>(out.node_pool.size());

  // Job classes.
  // [GPU] each class's expected busy GPUs at its durations as written (reference speed).
  std::vector<double> class_busy_gpus;
  double provisioned_gpus = 0;
  const double window = sc.horizon_s - sc.warmup_s;
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    // NOTE: staged purchases provision their nodes only for part of the window.
    const double nodes = sc.pools[p].purchases.empty()
                             ? double(out.pools[p].n_nodes)
                             : sc.pools[p].mean_nodes(sc.warmup_s, sc.horizon_s);
    provisioned_gpus += nodes * out.pools[p].gpus_per_node;
  }
  uint32_t max_nodes_per_job = 1;
  for (const JobClass& jc : sc.workload) {
    ClassSpec c;
    c.pool_mask = 0;
    class_busy_gpus.push_back(0);
    c.priority = static_cast<int32_t>(jc.priority);
    for (size_t p = 0; p < sc.pools.size(); ++p) {
      if (may_run_on(sc, jc, p)) {  // a shared pool serves only its kind of request
        c.pool_mask |= 1ull << p;
        c.node_gpus_max = std::max(c.node_gpus_max, out.pools[p].gpus_per_node);
      }
    }
    uint32_t max_gpus = 0;
    if (jc.trace) {
      c.from_trace = true;
      c.trace_idx = static_cast<uint32_t>(out.trace.size());
      c.trace_n = static_cast<uint32_t>(jc.trace_rows.size());
      double gpu_seconds = 0;
      for (const TraceRow& r : jc.trace_rows) {
        out.trace.push_back(TraceJob{r.submit_s, r.duration_s, shared_gpus(jc, r.gpus)});
        max_gpus = std::max(max_gpus, r.gpus);
        if (r.submit_s >= sc.warmup_s && r.submit_s < sc.horizon_s)
          gpu_seconds += r.gpus * r.duration_s;
        if (r.submit_s < sc.horizon_s) out.expected_jobs += 1;
      }
      if (window > 0) class_busy_gpus.back() += gpu_seconds / window;
    } else {
      const CompiledRate rate = compile_rate(jc.rate_per_s, sc.demand, jc.profile, sc.horizon_s);
      c.rate = rate.rate;
      c.profile_idx = static_cast<uint32_t>(out.arrival_segments.size());
      c.profile_n = static_cast<uint32_t>(rate.segments.size());
      out.arrival_segments.insert(out.arrival_segments.end(), rate.segments.begin(),
                                  rate.segments.end());
      const double window_rate = window_mean_rate(rate, sc.horizon_s, sc.warmup_s);
      c.duration = compile_distribution(jc.duration.kind, jc.duration.a, jc.duration.b,
                                        jc.duration.values, jc.duration.weights, out);
      const std::optional<double> trained = training_duration_s(sc, jc);
      if (trained) c.duration = DistSpec{DistKind::fixed, *trained, 0, 0, 0};
      c.gpus_idx = static_cast<uint32_t>(out.gpu_values.size());
      c.gpus_n = static_cast<uint32_t>(jc.gpus.values.size());
      double cum = 0;
      for (size_t i = 0; i < jc.gpus.values.size(); ++i) {
        cum += jc.gpus.probs[i];
        out.gpu_values.push_back(shared_gpus(jc, jc.gpus.values[i]));
        out.gpu_cum.push_back(i + 1 == jc.gpus.values.size() ? 1.0 : cum);
      }
      max_gpus = jc.gpus.max();
      class_busy_gpus.back() +=
          window_rate * gpus_per_job(sc, jc) * trained.value_or(jc.duration.mean());
      out.expected_jobs += rate.segments.empty()
                               ? rate.rate * sc.horizon_s
                               : expected_arrivals(rate, sc.horizon_s, 0, sc.horizon_s);
    }
    for (size_t p = 0; p < sc.pools.size(); ++p) {
      const uint32_t gpn = out.pools[p].gpus_per_node;
      if (((c.pool_mask >> p) & 1) && max_gpus > c.node_gpus_max)
        max_nodes_per_job = std::max(max_nodes_per_job, (max_gpus + gpn - 1) / gpn);
    }
    out.classes.push_back(c);
    out.class_names.push_back(jc.name);
  }
  v.max_nodes_per_job = max_nodes_per_job;

  // Duration multiplier per (class, pool).
  for (size_t c = 0; c < sc.workload.size(); ++c)
    for (size_t p = 0; p < sc.pools.size(); ++p)
      out.slowdown.push_back(gpu_slowdown(sc, sc.workload[c], p));
  // Each class's capacity-weighted mean speed over its pools: max-min fairness's normalization.
  for (size_t c = 0; c < out.classes.size(); ++c) {
    double gpus = 0, speed_gpus = 0;
    for (size_t p = 0; p < out.pools.size(); ++p) {
      if (!((out.classes[c].pool_mask >> p) & 1)) continue;
      const double n = double(out.pools[p].n_nodes) * out.pools[p].gpus_per_node;
      gpus += n;
      speed_gpus += n / out.slowdown[c * out.pools.size() + p];
    }
    out.classes[c].mean_speed = gpus > 0 ? speed_gpus / gpus : 1.0;
  }
  // Each pool's mean work speed: the classes that may use it, weighted by their expected busy
  // GPUs at reference speed (max_min_fairness_perf's comparative advantage); and its fill speed,
  // their harmonic mean by the same weights (the order max_min_fairness_perf fills pools in).
  for (size_t p = 0; p < out.pools.size(); ++p) {
    double weight = 0, speed_weight = 0, time_weight = 0;
    for (size_t c = 0; c < out.classes.size(); ++c) {
      if (!((out.classes[c].pool_mask >> p) & 1) || !(class_busy_gpus[c] > 0)) continue;
      weight += class_busy_gpus[c];
      speed_weight += class_busy_gpus[c] / out.slowdown[c * out.pools.size() + p];
      time_weight += class_busy_gpus[c] * out.slowdown[c * out.pools.size() + p];
    }
    out.pools[p].mean_work_speed = weight > 0 ? speed_weight / weight : 1.0;
    out.pools[p].fill_speed = time_weight > 0 ? weight / time_weight : 1.0;
  }
  // NOTE: a class's busy GPUs on an equal share of its pools are its reference-speed busy GPUs
  // over its mean speed there (the harmonic mean of its slowdowns), as the load check counts.
  double busy_gpus_expected = 0;
  for (size_t c = 0; c < out.classes.size(); ++c)
    busy_gpus_expected += class_busy_gpus[c] / out.classes[c].mean_speed;
  out.offered_load = provisioned_gpus > 0 ? busy_gpus_expected / provisioned_gpus : 0;
  out.cluster_offered_load = out.offered_load;
  // NOTE: a class confined to some pools can swamp them while the cluster as a whole has room;
  // the load check's busiest pool set (models/compile/offered_load.h) bounds the estimate from
  // below.
  out.peak_offered_load = out.offered_load;
  out.load_set_gpus = out.peak_set_gpus = provisioned_gpus;
  for (const PoolSetLoad& set : pool_set_loads(sc)) {
    if (set.load > out.offered_load) {
      out.offered_load = set.load;
      out.load_set_gpus = set.gpus;
    }
    if (set.peak_load > out.peak_offered_load) {
      out.peak_offered_load = set.peak_load;
      out.peak_set_gpus = set.gpus;
    }
    if (set.reaches_capacity_s)
      out.reaches_capacity_s = std::min(out.reaches_capacity_s.value_or(*set.reaches_capacity_s),
                                        *set.reaches_capacity_s);
  }
  out.smallest_job_gpus = smallest_job_gpus(sc);

  out.network = plan_network(sc, out.node_pool);
  v.max_active_jobs = sc.limits.max_active_jobs;
  v.n_bins = sc.limits.time_bins;
  v.bin_width = sc.horizon_s / sc.limits.time_bins;

  compile_economics(sc, out);
  compile_failures(sc, out);
  compile_maintenance(sc, out);
  compile_teams(sc, out);
  compile_sharing(sc, out);  // after the offered load: MIG speed factors enter out.slowdown here
  // Calendar room for the scheduler: one stale finish per job slot that a preemption leaves
  // behind; under LAS one live review per slot and as many stale ones (sim/core/queue_order.h).
  if (policy_preempts(v.queue) || v.sched.priority_preemption || !sc.teams.empty())
    v.extra_events += v.max_active_jobs;
  if (v.queue == QueuePolicy::las || v.queue == QueuePolicy::max_min_fairness_perf)
    v.extra_events += 2 * v.max_active_jobs;
  // A fifo_perf job moves only to a strictly faster type, each move leaving its finish behind.
  if (v.queue == QueuePolicy::fifo_perf) {
    const std::size_t n_pools = out.pools.size();
    uint32_t most_moves = 0;
    for (std::size_t c = 0; c < out.classes.size(); ++c) {
      std::vector<double> speeds;
      for (std::size_t p = 0; p < n_pools; ++p)
        if ((out.classes[c].pool_mask >> p) & 1) speeds.push_back(out.slowdown[c * n_pools + p]);
      std::sort(speeds.begin(), speeds.end());
      const auto distinct = std::unique(speeds.begin(), speeds.end()) - speeds.begin();
      most_moves = std::max(most_moves, uint32_t(distinct > 0 ? distinct - 1 : 0));
    }
    v.extra_events += most_moves * v.max_active_jobs;
  }
  // A preemption grace adds one live review (its end) per victim under any other policy.
  if (v.queue != QueuePolicy::las && v.sched.preemption_grace_s > 0)
    v.extra_events += v.max_active_jobs;
  v.class_pools = 0;  // after compile_economics, which narrows the classes' pools
  for (const ClassSpec& c : out.classes) v.class_pools |= c.pool_mask;
  GPUPLAN_ENSURE(out.node_pool.size() == v.n_nodes);
  GPUPLAN_ENSURE(out.slowdown.size() == out.classes.size() * out.pools.size());
  GPUPLAN_ENSURE(out.dist_cum.size() == out.dist_values.size());
  GPUPLAN_ENSURE(out.gpu_cum.size() == out.gpu_values.size());
  GPUPLAN_ENSURE(out.arrival_segments.size() <= sc.limits.max_profile_segments);
  return out;
}

}  // namespace gpuplan
