// The `limits` section and the limits derived from the scenario (docs/reliability.md, "Limits"):
// what a scenario may ask of the engine is checked here, before anything is built or simulated,
// so validate refuses a run-away in well under a second with the key that raises the limit.
#include <algorithm>
#include <cmath>

#include "models/scenario/limits.h"
#include "models/load/loader.h"
#include "sim/core/event_queue.h"
#include "sim/core/exponential.h"
#include "sim/core/queue_index.h"
#include "sim/core/state.h"

namespace gpuplan {

namespace {

// -ln of the smallest uniform u01_first returns, (0 + 0.5) * 2^-53 (sim/core/rng.h).
const double NEG_LN_U_MIN = 54 * std::log(2.0);
// Largest |z| of Box-Muller, sqrt(-2 ln u) with the smallest u.
const double Z_MAX = std::sqrt(2 * NEG_LN_U_MIN);

}  // namespace

SampleRange sample_range(DistKind kind, double a, double b, const std::vector<double>& values) {
  switch (kind) {
    case DistKind::fixed:
      return {a, a};
    case DistKind::exponential:
      return {a * UNIT_EXPONENTIAL_MIN, a * UNIT_EXPONENTIAL_MAX};
    case DistKind::uniform:
    case DistKind::loguniform:
      return {a, b};
    case DistKind::lognormal:
      return {std::exp(a - b * Z_MAX), std::exp(a + b * Z_MAX)};
    case DistKind::empirical:
      if (values.empty()) return {0, 0};
      return {*std::min_element(values.begin(), values.end()),
              *std::max_element(values.begin(), values.end())};
  }
  return {a, a};
}

double topology_size(const TopologyConfig& t, uint64_t n_nodes, uint32_t gpus_per_node) {
  const double n = static_cast<double>(n_nodes);
  const auto leaves = [&](double per_leaf) { return std::ceil(n / std::max(1.0, per_leaf)); };
  switch (t.kind) {
    case TopologyKind::none:
      return 0;
    case TopologyKind::single_switch:
      return 2 * n + 1;
    case TopologyKind::two_level_tree: {
      const double l = leaves(t.nodes_per_leaf ? t.nodes_per_leaf : n);
      return 2 * n + 2 * l + 1;
    }
    case TopologyKind::leaf_spine: {
      const double l = leaves(t.nodes_per_leaf ? t.nodes_per_leaf : n);
      const double s = t.spines ? t.spines : 4;
      return 2 * n + l + s + l * s;
    }
    case TopologyKind::fat_tree: {
      double k = t.k;
      if (k == 0)
        for (k = 2; k * k * k / 4 < n;) k += 2;
      return k * k * k / 4 + 5 * k * k / 4 + 3 * k * k * k / 4;
    }
    case TopologyKind::rail_optimized: {
      const double per_su = std::max<uint32_t>(1, t.nodes_per_su);
      const double su = t.su ? t.su : std::ceil(n / per_su);
      const double spines = t.spines ? t.spines : 16;
      const double gpus = su * per_su * gpus_per_node;
      const double leaves_n = su * gpus_per_node;
      // GPUs, NVSwitches, rail leaves, spines; NVLink and rail links, leaf uplinks.
      return gpus + su * per_su + leaves_n + spines + 2 * gpus +
             leaves_n * std::max(per_su, spines);
    }
    case TopologyKind::tree_ring_hybrid: {
      const double workers = 2.0 * t.groups_per_switch * t.workers_per_group;
      return 3 * workers + 5;
    }
    case TopologyKind::custom:
      return static_cast<double>(t.vertices.size() + t.links.size());
  }
  return 0;
}

double topology_size_limit(const Limits& limits, uint64_t cluster_gpus) {
  if (limits.max_topology_size > 0) return limits.max_topology_size;
  return std::max(MIN_TOPOLOGY_SIZE, TOPOLOGY_SIZE_PER_GPU * static_cast<double>(cluster_gpus));
}

double bytes_per_job_slot(uint32_t max_nodes_per_job, bool network, uint32_t index_kinds) {
  // Job record, its node list, free list, queue and running-list entries, one finish event (two
  // with a network, whose rate changes leave stale ones), plus the per-job network and economics
  // state, and a place in each ring of the queue index (sim/core/queue_index.h).
  return static_cast<double>(sizeof(Job)) + 4.0 * max_nodes_per_job + 16 +
         sizeof(Event) * (network ? 2 : 1) + JOB_SIDE_STATE_BYTES + 4.0 * index_kinds;
}

namespace loading {

void Loader::load_limits(const json& o, Scenario& sc) {
  if (!object(o, "/limits")) return;
  check_keys(o, "/limits",
             {"max_active_jobs", "time_bins", "max_events", "max_duration", "max_topology_size",
              "max_memory", "max_profile_segments"});
  if (const json* v = get(o, "max_active_jobs")) {
    auto n = integer(*v, "/limits/max_active_jobs", 16, std::numeric_limits<uint32_t>::max());
    if (n) sc.limits.max_active_jobs = static_cast<uint32_t>(*n);
  }
  if (const json* v = get(o, "time_bins")) {
    if (auto n = integer(*v, "/limits/time_bins", 1, 100000)) {
      sc.limits.time_bins = static_cast<uint32_t>(*n);
    }
  }
  if (const json* v = get(o, "max_events")) {
    if (auto n = count(*v, "/limits/max_events", 1, 1e15)) sc.limits.max_events = *n;
  }
  if (const json* v = get(o, "max_duration")) {
    if (auto d = duration(*v, "/limits/max_duration", true)) {
      if (*d > 1e18) {
        d_.out_of_range("/limits/max_duration", *d, 0, 1e18, "s");
      } else {
        sc.limits.max_duration_s = *d;
      }
    }
  }
  if (const json* v = get(o, "max_topology_size")) {
    if (auto n = count(*v, "/limits/max_topology_size", 1, 1e9)) sc.limits.max_topology_size = *n;
  }
  if (const json* v = get(o, "max_memory")) {
    if (auto n = count(*v, "/limits/max_memory", 1e6, 1e13)) sc.limits.max_memory_bytes = *n;
  }
  if (const json* v = get(o, "max_profile_segments")) {
    if (auto n = count(*v, "/limits/max_profile_segments", 1, 1e8))
      sc.limits.max_profile_segments = *n;
  }
}

// One distribution's samples against limits.max_duration; `what` names it in the message.
void Loader::check_samples(const std::string& p, DistKind kind, double a, double b,
                           const std::vector<double>& values, const Limits& limits) {
  const SampleRange r = sample_range(kind, a, b, values);
  const std::string raise = "; check the parameters, or raise limits.max_duration (now " +
                            num(limits.max_duration_s) + " s) if such jobs are meant";
  if (!std::isfinite(r.hi)) {
    d_.error(p, DiagCode::limit_exceeded,
             "the largest samples of this distribution overflow (are not finite numbers of "
             "seconds), so no job could ever finish" +
                 raise);
  } else if (r.hi > limits.max_duration_s) {
    d_.error(p, DiagCode::limit_exceeded,
             "samples of this distribution reach " + num(r.hi) + " s, beyond limits.max_duration" +
                 raise);
  } else if (!(r.lo > 0) && kind != DistKind::uniform) {
    d_.error(p, DiagCode::limit_exceeded,
             "the smallest samples of this distribution round to 0 s, and a job must take "
             "some time; make its durations longer");
  }
}

void Loader::check_limits(const Scenario& sc) {
  const Limits& lim = sc.limits;
  // Durations: every sample finite, positive and at most limits.max_duration.
  for (const JobClass& jc : sc.workload) {
    if (jc.trace || (jc.training && jc.training->tokens)) continue;
    const Distribution& d = jc.duration;
    check_samples(jc.pointer + "/duration", d.kind, d.a, d.b, d.values, lim);
  }
  for (size_t i = 0; i < sc.pools.size(); ++i) {
    const PoolEconomics& e = sc.pools[i].econ;
    const std::string p = child("/pools", i);
    if (e.spot) {
      const DelaySpec& d = e.spot->return_delay;
      check_samples(p + "/spot/return_delay", d.kind, d.a, d.b, d.values, lim);
    }
    if (e.elastic) {
      const DelaySpec& d = e.elastic->provisioning_delay;
      check_samples(p + "/elastic/scale_out/provisioning_delay", d.kind, d.a, d.b, d.values, lim);
    }
  }
  // Expected events of one replica: every arrival and its finish, spot waves and interruptions
  // (each interrupted node is reclaimed and returned).
  double events = 0;
  std::string biggest;
  double biggest_events = -1;
  const auto add = [&](double n, const std::string& ptr) {
    events += n;
    if (n > biggest_events) {
      biggest_events = n;
      biggest = ptr;
    }
  };
  // Rate profiles: their compiled segments first (bounded before any is built), then the expected
  // arrivals of each class under its profile.
  double segments = 0;
  std::string most_segments;
  double most = -1;
  for (const JobClass& jc : sc.workload) {
    if (jc.trace) continue;
    const double n = profile_segment_bound(sc.demand.profile, jc.profile, sc.horizon_s);
    segments += n;
    if (n > most) {
      most = n;
      most_segments = jc.profile.empty() ? "/demand" : jc.pointer + "/arrival/profile";
    }
  }
  const bool profiles_ok = !(segments > lim.max_profile_segments);
  if (!profiles_ok) {
    d_.error(most_segments, DiagCode::limit_exceeded,
             "the rate profiles compile to up to " + num(segments) +
                 " segments (one per hour of a weekly shape over the horizon, one per schedule "
                 "entry), more than limits.max_profile_segments (" +
                 num(lim.max_profile_segments) +
                 "); shorten the horizon or the schedule, or raise limits.max_profile_segments");
  }
  for (const JobClass& jc : sc.workload) {
    double arrivals = static_cast<double>(jc.trace_rows.size());
    if (!jc.trace) {
      arrivals = jc.rate_per_s * sc.horizon_s;
      if (profiles_ok &&
          (!jc.profile.empty() || !sc.demand.profile.empty() || sc.demand.load_scale != 1)) {
        const CompiledRate r = compile_rate(jc.rate_per_s, sc.demand, jc.profile, sc.horizon_s);
        arrivals = expected_arrivals(r, sc.horizon_s, 0, sc.horizon_s);
      }
    }
    add(2 * arrivals, jc.pointer + (jc.trace ? "/trace" : "/arrival"));
  }
  for (size_t i = 0; i < sc.pools.size(); ++i) {
    const Pool& pool = sc.pools[i];
    if (!pool.econ.spot) continue;
    const SpotConfig& s = *pool.econ.spot;
    const std::string p = child("/pools", i) + "/spot";
    if (s.wave_rate_per_s > 0) add(s.wave_rate_per_s * sc.horizon_s, p + "/waves/rate");
    if (s.hazard_per_node_hour > 0)
      add(2 * s.hazard_per_node_hour / 3600 * pool.count * sc.horizon_s,
          p + (s.advisor_band ? "/advisor_band" : "/interruptions_per_node_hour"));
  }
  if (!(events <= lim.max_events) && !biggest.empty()) {
    d_.error(biggest, DiagCode::limit_exceeded,
             "one run would handle about " + num(std::round(events)) + " events (horizon " +
                 num(sc.horizon_s) +
                 " s times the arrival and spot rates, "
                 "most of them from here), more than limits.max_events (" +
                 num(lim.max_events) +
                 "); shorten the horizon, lower the rates, or raise limits.max_events");
  }
  // Memory of one replica's job slots, which limits.max_active_jobs sizes.
  uint32_t min_gpn = 0;
  for (const PoolInfo& info : pool_infos_)
    if (info.known)
      min_gpn = min_gpn == 0 ? info.gpus_per_node : std::min(min_gpn, info.gpus_per_node);
  uint32_t max_gpus = 1;
  for (const JobClass& jc : sc.workload) {
    max_gpus = std::max(max_gpus, jc.gpus.max());
    for (const TraceRow& r : jc.trace_rows) max_gpus = std::max(max_gpus, r.gpus);
  }
  const uint32_t nodes_per_job = min_gpn == 0 ? 1 : (max_gpus + min_gpn - 1) / min_gpn;
  // NOTE: as models/compile/compile.cpp ranks the queue (teams rank it too, but have no index).
  const QueuePolicy q = sc.scheduler.queue;
  bool ranked = q != QueuePolicy::fifo && q != QueuePolicy::backfill && q != QueuePolicy::fifo_perf;
  for (const JobClass& jc : sc.workload) ranked |= jc.priority != sc.workload[0].priority;
  uint32_t max_gpn = 0;
  for (const PoolInfo& info : pool_infos_)
    if (info.known) max_gpn = std::max(max_gpn, info.gpus_per_node);
  const uint32_t index_kinds = queue_index_kinds(q, ranked, !sc.teams.empty(), max_gpn);
  const double per_slot =
      bytes_per_job_slot(nodes_per_job, sc.topology.kind != TopologyKind::none, index_kinds);
  const double bytes = per_slot * lim.max_active_jobs;
  if (bytes > lim.max_memory_bytes) {
    d_.error(
        "/limits/max_active_jobs", DiagCode::limit_exceeded,
        std::to_string(lim.max_active_jobs) + " job slots need about " +
            num(std::round(bytes / 1e6)) + " MB per replica (" + num(std::round(per_slot)) +
            " bytes each), more than limits.max_memory (" +
            num(std::round(lim.max_memory_bytes / 1e6)) + " MB); lower max_active_jobs (at most " +
            num(std::floor(lim.max_memory_bytes / per_slot)) + " here) or raise limits.max_memory");
  }
}

}  // namespace loading
}  // namespace gpuplan
