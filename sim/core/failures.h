#pragma once
//! Hardware failures in the core (docs/failures.md). Each pool has one failure clock: a Poisson
//! process at the node-scope rate per GPU-second times the pool's GPUs; each event strikes a node
//! drawn uniformly from the pool and a cause drawn by rate, and counts only when that node is
//! serving (Poisson thinning: every serving node fails at its own rate). Each leaf switch has its
//! own clock at the switch-scope rate times the GPUs below it. A failure interrupts every job with
//! a GPU on a node it takes down (the whole gang: sim/core/preemption.h, without notice); a
//! job-scope cause (software) leaves the node up. A failed node is replaced at once by one of its
//! pool's hot spares when one is ready, else it is out until repaired; a repaired node serves
//! again if its pool is short of nodes, else it becomes a spare. A failed switch takes every node
//! below it out (spares there too) until the switch is repaired. Streams: Stream::failures (sub =
//! pool), Stream::switch_failures (sub = group), Stream::repairs (sub = node or n_nodes + group),
//! so scenarios without failures draw exactly what they drew before.
#include <cmath>

#include "sim/core/exponential.h"
#include "sim/core/failure_spec.h"
#include "sim/core/preemption.h"

namespace gpuplan {

//! Schedules a failure or repair event; a calendar full of live events saturates the replica.
//! NOTE: every interruption leaves its job's finish event behind, stale, often far beyond the
//! horizon where it never pops; they are dropped before the calendar counts as full.
GPUPLAN_HD inline void schedule_failure_event(ReplicaState& s, SimTime t, EventKind kind,
                                              uint32_t target, uint32_t gen) {
  if (pending_events(s.events) == s.events.heap.size) drop_stale_finishes(s);
  schedule_or_saturate(s, t, kind, target, gen);
}

//! Brings the window integrals of failed and spare nodes up to s.now.
GPUPLAN_HD inline void failures_advance(const ModelView& m, ReplicaState& s) {
  FailureState& f = s.failures;
  const double lo = f.since > m.warmup ? f.since : m.warmup;
  const double hi = s.now < m.horizon ? s.now : m.horizon;
  if (hi > lo) {
    double down_gpus = 0;
    uint32_t used = 0;
    for (uint32_t p = 0; p < m.pools.size; ++p) {
      down_gpus += double(f.pool_deficit[p]) * m.pools[p].gpus_per_node;
      used += m.pool_spares[p] - f.pool_spares_free[p];
    }
    f.totals.down_gpu_s += down_gpus * (hi - lo);
    f.totals.spares_used_node_s += used * (hi - lo);
  }
  f.since = s.now;
}

//! Index of the cause of `scope` class (switch or not) for uniform u, by rate.
[[nodiscard]] GPUPLAN_HD inline uint32_t pick_cause(const ModelView& m, bool switch_scope,
                                                    double total_rate, double u) {
  double x = u * total_rate;
  uint32_t last = NONE;
  for (uint32_t c = 0; c < m.failure_causes.size; ++c) {
    const FailureCause& fc = m.failure_causes[c];
    if ((fc.scope == FailureScope::switch_leaf) != switch_scope || !(fc.rate_per_gpu_s > 0))
      continue;
    last = c;
    x -= fc.rate_per_gpu_s;
    if (x < 0) return c;
  }
  return last;  // rounding at the top end
}

//! Interrupts every running job with a GPU on node n (no notice) and counts them.
GPUPLAN_HD inline void interrupt_node_jobs(const ModelView& m, ReplicaState& s, uint32_t n) {
  for (uint32_t slot = 0; slot < s.runs.slot_high_water; ++slot) {
    if (!runs_on_node(m, s, slot, n)) continue;
    const ClassRunTotals& c = s.runs.classes[s.jobs[slot].class_idx];
    const double lost_before = c.lost_gpu_s;
    interrupt_run(m, s, slot, 0.0);
    if (in_window(m, s.now)) {
      s.failures.totals.interruptions += 1;
      s.failures.totals.lost_gpu_s += c.lost_gpu_s - lost_before;
    }
  }
}

//! Takes the serving node n out after a failure (its jobs interrupted) and lets a ready spare of
//! its pool take over; the caller schedules the repair.
GPUPLAN_HD inline void take_node_down(const ModelView& m, ReplicaState& s, uint32_t n) {
  FailureState& f = s.failures;
  const uint32_t p = m.node_pool[n];
  interrupt_node_jobs(m, s, n);
  hide_node(s, n, NodeState::failed);
  f.node_down[n] += 1;
  if (f.pool_spares_free[p] == 0) {
    f.pool_deficit[p] += 1;
    return;
  }
  const PoolSpec& pool = m.pools[p];
  for (uint32_t x = pool.first_node; x < pool.first_node + pool.n_nodes; ++x) {
    if (s.capacity.node_state[x] != static_cast<uint8_t>(NodeState::spare)) continue;
    f.pool_spares_free[p] -= 1;
    show_node(m, s, x);
    if (in_window(m, s.now)) f.totals.spare_swaps += 1;
    return;
  }
}

//! A failed node n has one reason fewer to be out; with none left it serves again if its pool is
//! short of nodes, else it becomes a ready spare.
GPUPLAN_HD inline void release_failed_node(const ModelView& m, ReplicaState& s, uint32_t n) {
  FailureState& f = s.failures;
  f.node_down[n] -= 1;
  if (f.node_down[n] > 0) return;
  const uint32_t p = m.node_pool[n];
  if (f.pool_deficit[p] > 0) {
    f.pool_deficit[p] -= 1;
    show_node(m, s, n);
  } else {
    s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::spare);
    f.pool_spares_free[p] += 1;
  }
}

//! Schedules the repair of failed node `target` (or of switch group `target - n_nodes`).
GPUPLAN_HD inline void schedule_repair(const ModelView& m, ReplicaState& s, uint32_t target,
                                       EventKind kind) {
  const FailureSpec& fs = m.failures[0];
  uint32_t& k = kind == EventKind::node_repair ? s.failures.node_draws[target]
                                               : s.failures.group_draws[target];
  // NOTE: a group's counter serves its failure clock too; the two draw from different streams.
  const uint32_t sub = kind == EventKind::node_repair ? target : m.n_nodes + target;
  const Draw d = philox_draw(m.seed, s.replica_idx, Stream::repairs, sub, k++);
  const double t = s.now + sample(m, fs.repair, d);
  if (t < m.horizon) schedule_failure_event(s, t, kind, target, 0);
}

//! Schedules pool p's next failure; the event carries its draw index for the node and cause.
GPUPLAN_HD inline void schedule_pool_failure(const ModelView& m, ReplicaState& s, uint32_t p) {
  const FailureSpec& fs = m.failures[0];
  const double rate = fs.node_rate_per_gpu_s * m.pools[p].gpus_per_node * m.pools[p].n_nodes;
  // NOTE: an elastic pool replaces a node by provisioning another; its nodes do not fail here.
  if (!(rate > 0) || m.pool_supply[p].elastic) return;
  const uint32_t k = s.failures.pool_draws[p]++;
  const Draw d = philox_draw(m.seed, s.replica_idx, Stream::failures, p, k);
  const SimTime t = s.now + exponential_first(d) / rate;
  if (t < m.horizon) schedule_failure_event(s, t, EventKind::node_failure, p, k);
}

//! GPUs below leaf switch group g.
[[nodiscard]] GPUPLAN_HD inline double group_gpus(const ModelView& m, uint32_t g) {
  double gpus = 0;
  for (uint32_t i = m.net.group_start[g]; i < m.net.group_start[g + 1]; ++i)
    gpus += m.pools[m.node_pool[m.net.group_nodes[i]]].gpus_per_node;
  return gpus;
}

//! Schedules leaf switch g's next failure (draws from its own clock, half of its counter space).
GPUPLAN_HD inline void schedule_switch_failure(const ModelView& m, ReplicaState& s, uint32_t g) {
  const FailureSpec& fs = m.failures[0];
  const double rate = fs.switch_rate_per_gpu_s * group_gpus(m, g);
  if (!(rate > 0)) return;
  const uint32_t k = s.failures.group_draws[g]++;
  const Draw d = philox_draw(m.seed, s.replica_idx, Stream::switch_failures, g, k);
  const SimTime t = s.now + exponential_first(d) / rate;
  if (t < m.horizon) schedule_failure_event(s, t, EventKind::switch_failure, g, k);
}

//! Counts a failure of cause c in the window.
GPUPLAN_HD inline void count_failure(const ModelView& m, ReplicaState& s, uint32_t c) {
  if (!in_window(m, s.now)) return;
  s.failures.totals.failures += 1;
  if (c != NONE) s.failures.by_cause[c] += 1;
}

//! Fails node n now by cause c: job-scope causes interrupt its jobs only; node-scope causes take
//! it down until repaired. Nothing happens to a node that is not serving.
GPUPLAN_HD inline void fail_node(const ModelView& m, ReplicaState& s, uint32_t n, uint32_t c) {
  if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::up)) return;
  failures_advance(m, s);
  count_failure(m, s, c);
  if (c != NONE && m.failure_causes[c].scope == FailureScope::job) {
    interrupt_node_jobs(m, s, n);
    return;
  }
  take_node_down(m, s, n);
  schedule_repair(m, s, n, EventKind::node_repair);
}

//! Fails leaf switch group g now by cause c: every node below it is out (its jobs interrupted,
//! spares there too) until the switch is repaired; counted when it took a serving node down.
GPUPLAN_HD inline void fail_switch(const ModelView& m, ReplicaState& s, uint32_t g, uint32_t c) {
  FailureState& f = s.failures;
  if (f.group_down[g]) return;  // already being repaired
  failures_advance(m, s);
  f.group_down[g] = 1;
  bool any_serving = false;
  const uint32_t lo = m.net.group_start[g], hi = m.net.group_start[g + 1];
  // First every spare and failed node below the switch, so no spare below it takes over.
  for (uint32_t i = lo; i < hi; ++i) {
    const uint32_t n = m.net.group_nodes[i];
    const uint8_t st = s.capacity.node_state[n];
    if (st == static_cast<uint8_t>(NodeState::spare)) {
      s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::failed);
      f.pool_spares_free[m.node_pool[n]] -= 1;
      f.node_down[n] += 1;
    } else if (st == static_cast<uint8_t>(NodeState::failed)) {
      f.node_down[n] += 1;
    }
  }
  for (uint32_t i = lo; i < hi; ++i) {
    const uint32_t n = m.net.group_nodes[i];
    if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::up)) continue;
    if (m.pool_supply[m.node_pool[n]].elastic) continue;
    any_serving = true;
    take_node_down(m, s, n);
  }
  if (any_serving) count_failure(m, s, c);
  schedule_repair(m, s, g, EventKind::switch_repair);
}

//! A pool's failure clock fired: fail the node and cause its draw picks, then rearm.
GPUPLAN_HD inline void handle_node_failure(const ModelView& m, ReplicaState& s, uint32_t p,
                                           uint32_t draw) {
  const FailureSpec& fs = m.failures[0];
  const Draw d = philox_draw(m.seed, s.replica_idx, Stream::failures, p, draw);
  const PoolSpec& pool = m.pools[p];
  const uint32_t n =
      pool.first_node + static_cast<uint32_t>((uint64_t(d.w[2]) * pool.n_nodes) >> 32);
  const double u = (double(d.w[3]) + 0.5) * (1.0 / 4294967296.0);
  fail_node(m, s, n, pick_cause(m, false, fs.node_rate_per_gpu_s, u));
  schedule_pool_failure(m, s, p);
}

//! A leaf switch's failure clock fired: fail it by the cause its draw picks, then rearm.
GPUPLAN_HD inline void handle_switch_failure(const ModelView& m, ReplicaState& s, uint32_t g,
                                             uint32_t draw) {
  const FailureSpec& fs = m.failures[0];
  const Draw d = philox_draw(m.seed, s.replica_idx, Stream::switch_failures, g, draw);
  const double u = (double(d.w[3]) + 0.5) * (1.0 / 4294967296.0);
  fail_switch(m, s, g, pick_cause(m, true, fs.switch_rate_per_gpu_s, u));
  schedule_switch_failure(m, s, g);
}

//! Node n's repair is done.
GPUPLAN_HD inline void handle_node_repair(const ModelView& m, ReplicaState& s, uint32_t n) {
  failures_advance(m, s);
  release_failed_node(m, s, n);
}

//! Switch group g's repair is done: the nodes it took out are released.
GPUPLAN_HD inline void handle_switch_repair(const ModelView& m, ReplicaState& s, uint32_t g) {
  failures_advance(m, s);
  s.failures.group_down[g] = 0;
  for (uint32_t i = m.net.group_start[g]; i < m.net.group_start[g + 1]; ++i) {
    const uint32_t n = m.net.group_nodes[i];
    if (s.capacity.node_state[n] == static_cast<uint8_t>(NodeState::failed))
      release_failed_node(m, s, n);
  }
}

//! Resets the failure state, holds back each pool's spares (its last nodes) and starts the
//! failure clocks of every pool and leaf switch.
GPUPLAN_HD inline void init_failures(const ModelView& m, ReplicaState& s) {
  if (!(m.features & FEATURE_FAILURES)) return;
  FailureState& f = s.failures;
  f.since = 0;
  f.totals = FailureTotals{};
  for (uint32_t c = 0; c < f.by_cause.size; ++c) f.by_cause[c] = 0;
  for (uint32_t n = 0; n < m.n_nodes; ++n) f.node_down[n] = 0, f.node_draws[n] = 0;
  for (uint32_t g = 0; g < f.group_draws.size; ++g) f.group_draws[g] = 0, f.group_down[g] = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    f.pool_draws[p] = 0;
    f.pool_deficit[p] = 0;
    f.pool_spares_free[p] = m.pool_spares[p];
    const PoolSpec& pool = m.pools[p];
    for (uint32_t i = 0; i < m.pool_spares[p]; ++i)
      hide_node(s, pool.first_node + pool.n_nodes - 1 - i, NodeState::spare);
  }
  for (uint32_t p = 0; p < m.pools.size; ++p) schedule_pool_failure(m, s, p);
  const FailureSpec& fs = m.failures[0];
  if (fs.switch_level == NONE || !(fs.switch_rate_per_gpu_s > 0)) return;
  for (uint32_t g = m.net.level_group0[fs.switch_level];
       g < m.net.level_group0[fs.switch_level + 1]; ++g)
    schedule_switch_failure(m, s, g);
}

//! Brings the failure integrals up to where the replica stopped.
GPUPLAN_HD inline void finalize_failures(const ModelView& m, ReplicaState& s) {
  if (m.features & FEATURE_FAILURES) failures_advance(m, s);
}

}  // namespace gpuplan
