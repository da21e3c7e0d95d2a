#pragma once
//! Spot preemption in the core: each live spot node is reclaimed by its own Poisson process
//! (Stream::preemptions), and correlated waves (Stream::reclaim_waves) take a share of a pool's
//! live nodes at once. Every job with a GPU on a reclaimed node (the whole gang) loses the
//! compute since its last checkpoint (or, when the notice is at least the checkpoint write time,
//! writes a final checkpoint at the notice and loses nothing), pays its restart overhead on the
//! next run, and goes back into the queue at its place in submission order. Reclaimed capacity
//! can be bought again after a delay (Stream::spot_returns).
#include <cmath>

#include "sim/core/distribution.h"
#include "sim/core/job_runs.h"
#include "sim/core/network.h"
#include "sim/core/queue_order.h"
#include "sim/core/rng.h"

namespace gpuplan {

//! True when instant t lies in the statistics window [warmup, horizon).
[[nodiscard]] GPUPLAN_HD inline bool in_window(const ModelView& m, SimTime t) {
  return t >= m.warmup && t < m.horizon;
}

//! Ends the current run of the job in `slot` now, after a warning `notice` [s] ago (0: none):
//! books lost work and overheads, keeps the checkpointed progress, frees its GPUs and requeues
//! it. `planned`: the stop was known ahead (maintenance), so a zero notice with a free checkpoint
//! write still saves all compute. Spot reclaims, hardware failures (sim/core/failures.h),
//! maintenance (sim/core/maintenance.h) and preemptive queue policies (sim/core/queue_policy.h)
//! all end runs here; counting is the caller's.
GPUPLAN_HD inline void interrupt_run(const ModelView& m, ReplicaState& s, uint32_t slot,
                                     double notice, bool planned = false) {
  Job& j = s.jobs[slot];
  JobRun& jr = s.runs.jobs[slot];
  const ClassRunSpec& cr = m.class_runs[j.class_idx];
  const double elapsed = s.now - jr.run_start;
  double kept = 0, restart = 0, ckpt = 0, lost = 0;
  if (cr.checkpoints && (notice > 0 || planned) && notice >= cr.checkpoint_s &&
      elapsed - notice > jr.restart_s) {
    // Final checkpoint: compute stops at the notice (after the reload finished), and the write
    // fits in the notice period. A notice during the reload leaves nothing new to save.
    const double until_notice = elapsed - notice;
    const RunSplit r = split_run(until_notice, jr.restart_s, jr.interval_s, cr.checkpoint_s);
    const double tail = elapsed - until_notice;
    const double write = tail < cr.checkpoint_s ? tail : cr.checkpoint_s;
    kept = r.compute_s;
    restart = r.restart_s;
    ckpt = r.checkpoint_s + write;
    lost = tail - write;  // idle until the reclaim
  } else {
    const RunSplit r = split_run(elapsed, jr.restart_s, jr.interval_s, cr.checkpoint_s);
    kept = cr.checkpoints ? r.saved_s : 0.0;
    restart = r.restart_s;
    ckpt = r.checkpoint_s;
    lost = r.compute_s - kept;
  }
  book_run(m, s, slot, s.now, restart, ckpt, lost);
  j.work -= work_done_by(m, s, slot, kept);  // the checkpointed reference work is done for good
  if (j.work < 0) j.work = 0;
  jr.restarts += 1;
  s.billing.class_pool_busy_gpus[j.class_idx * m.pools.size + j.pool] -= j.gpus;
  if (!net_release(m, s, slot)) saturate(s, SaturationCause::event_overflow);
  release_job_gpus(m, s, slot);
  note_job_released(m, s, slot);
  j.gen += 1;  // its pending finish event is stale now
  j.phase = JobPhase::queued;
  j.pool = NONE;
  j.n_nodes = 0;
  j.finish = NEVER;
  if (!requeue_job(m, s, slot)) {
    if (s.totals.saturation == SaturationCause::none) {
      s.totals.saturation = SaturationCause::queue_overflow;
      s.totals.saturated_at = s.now;
    }
    return;
  }
  note_job_queued(m, s, slot);
}

//! Ends the running job in `slot` by a reclaim now (after its pool's notice): counts it, then
//! interrupts its run. The caller takes the node down.
GPUPLAN_HD inline void preempt_job(const ModelView& m, ReplicaState& s, uint32_t slot) {
  const Job& j = s.jobs[slot];
  if (in_window(m, s.now)) {
    s.capacity.pools[j.pool].preemptions += 1;
    s.runs.classes[j.class_idx].preemptions += 1;
  }
  interrupt_run(m, s, slot, m.pool_supply[j.pool].notice_s);
}

//! Whether the job in `slot` is running with a GPU on node n.
[[nodiscard]] GPUPLAN_HD inline bool runs_on_node(const ModelView& m, const ReplicaState& s,
                                                  uint32_t slot, uint32_t n) {
  const Job& j = s.jobs[slot];
  if (j.phase != JobPhase::running) return false;
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  for (uint32_t i = 0; i < j.n_nodes; ++i)
    if (nodes[i] == n) return true;
  return false;
}

//! Takes up node n away now: preempts every job holding a GPU on it, stops its billing, and
//! schedules the return of its capacity.
GPUPLAN_HD inline void reclaim_node(const ModelView& m, ReplicaState& s, uint32_t n) {
  for (uint32_t slot = 0; slot < s.runs.slot_high_water; ++slot)
    if (runs_on_node(m, s, slot, n)) preempt_job(m, s, slot);
  const uint32_t p = m.node_pool[n];
  close_billing(m, s, n);
  hide_node(s, n, NodeState::reclaimed);
  if (in_window(m, s.now)) s.capacity.pools[p].reclaimed_nodes += 1;
  const Draw d =
      philox_draw(m.seed, s.replica_idx, Stream::spot_returns, n, s.capacity.node_draws[n]++);
  const double delay = sample(m, m.pool_supply[p].return_delay, d);
  schedule_or_saturate(s, s.now + delay, EventKind::node_return, n, 0);
}

//! Schedules node n's next Poisson interruption from now.
GPUPLAN_HD inline void schedule_node_reclaim(const ModelView& m, ReplicaState& s, uint32_t n) {
  const double rate = m.pool_supply[m.node_pool[n]].hazard_per_node_s;
  const Draw d =
      philox_draw(m.seed, s.replica_idx, Stream::preemptions, n, s.capacity.node_draws[n]++);
  const SimTime t = s.now + exponential_first(d) / rate;
  if (t < m.horizon) schedule_or_saturate(s, t, EventKind::node_reclaim, n, 0);
}

//! A node's interruption clock fired: reclaim it if it is up; the clock runs on either way
//! (Poisson, so the next time is independent of whether this one found the node up).
GPUPLAN_HD inline void handle_node_reclaim(const ModelView& m, ReplicaState& s, uint32_t n) {
  if (s.capacity.node_state[n] == static_cast<uint8_t>(NodeState::up)) reclaim_node(m, s, n);
  schedule_node_reclaim(m, s, n);
}

//! Share of live nodes for uniform u, interpolated in pool e's quantile table.
[[nodiscard]] GPUPLAN_HD inline double wave_fraction(const ModelView& m, const PoolSupplySpec& e,
                                                     double u) {
  const double x = u * (e.wave_q_n - 1);
  uint32_t i = static_cast<uint32_t>(x);
  if (i + 1 >= e.wave_q_n) i = e.wave_q_n - 2;
  const double lo = m.wave_quantiles[e.wave_q_idx + i], hi = m.wave_quantiles[e.wave_q_idx + i + 1];
  return lo + (x - i) * (hi - lo);
}

//! Schedules pool p's next reclaim wave from now, using draw `d`'s second uniform.
GPUPLAN_HD inline void schedule_wave(const ModelView& m, ReplicaState& s, uint32_t p,
                                     const Draw& d) {
  const SimTime t = s.now + exponential_second(d) / m.pool_supply[p].wave_rate_per_s;
  if (t < m.horizon) schedule_or_saturate(s, t, EventKind::reclaim_wave, p, 0);
}

//! A reclaim wave on pool p: takes clamp(round(f·live), 1, live) live nodes chosen uniformly.
GPUPLAN_HD inline void handle_reclaim_wave(const ModelView& m, ReplicaState& s, uint32_t p) {
  const PoolSupplySpec& e = m.pool_supply[p];
  const PoolSpec& pool = m.pools[p];
  const Draw d =
      philox_draw(m.seed, s.replica_idx, Stream::reclaim_waves, p, s.capacity.pool_draws[p]++);
  uint32_t live = 0;
  for (uint32_t n = pool.first_node; n < pool_slots_end(m, s, p); ++n)
    live += s.capacity.node_state[n] == static_cast<uint8_t>(NodeState::up);
  if (live > 0) {
    const double f = wave_fraction(m, e, u01_first(d));
    uint32_t k = static_cast<uint32_t>(floor(f * live + 0.5));
    if (k < 1) k = 1;
    if (k > live) k = live;
    for (uint32_t i = 0; i < k; ++i) {
      const Draw pick =
          philox_draw(m.seed, s.replica_idx, Stream::reclaim_waves, p, s.capacity.pool_draws[p]++);
      uint32_t r = static_cast<uint32_t>(u01_first(pick) * (live - i));  // r-th live node
      for (uint32_t n = pool.first_node; n < pool_slots_end(m, s, p); ++n) {
        if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::up)) continue;
        if (r-- == 0) {
          reclaim_node(m, s, n);
          break;
        }
      }
    }
    if (in_window(m, s.now)) s.capacity.pools[p].waves += 1;
  }
  schedule_wave(m, s, p, d);
}

//! Reclaimed capacity is back: a fixed-size pool buys it again at once; an elastic pool may.
GPUPLAN_HD inline void handle_node_return(const ModelView& m, ReplicaState& s, uint32_t n) {
  if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::reclaimed)) return;
  if (m.pool_supply[m.node_pool[n]].elastic) {
    s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::absent);
    return;
  }
  open_billing(m, s, n);
  show_node(m, s, n);
}

//! Starts the interruption clocks of every spot node and the wave clock of every spot pool.
GPUPLAN_HD inline void init_preemption(const ModelView& m, ReplicaState& s) {
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const PoolSupplySpec& e = m.pool_supply[p];
    if (!e.spot) continue;
    if (e.hazard_per_node_s > 0) {
      for (uint32_t n = m.pools[p].first_node; n < m.pools[p].first_node + m.pools[p].n_nodes; ++n)
        schedule_node_reclaim(m, s, n);
    }
    if (e.wave_q_n > 0 && e.wave_rate_per_s > 0) {
      const Draw d =
          philox_draw(m.seed, s.replica_idx, Stream::reclaim_waves, p, s.capacity.pool_draws[p]++);
      schedule_wave(m, s, p, d);
    }
  }
}

}  // namespace gpuplan
