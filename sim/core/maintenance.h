#pragma once
//! Planned maintenance in the core (docs/failures.md, "Planned maintenance"). Each window batch
//! (sim/core/maintenance_spec.h) takes its nodes out of service at every repetition's start and
//! brings them back `duration` later. At the start, the jobs on a serving node stop as the drain
//! policy says (sim/core/preemption.h, interrupt_run: with a final checkpoint, or without notice)
//! and requeue; under `wait` no new job is placed on the nodes from `drain_ahead` before. A ready
//! hot spare in the batch goes into maintenance too and is a spare again after; spares never stand
//! in for planned maintenance. Nodes that are not up or a spare at the start (failed, reclaimed,
//! unbought) skip that repetition. Nodes in maintenance stay billed, like failed nodes. Windows
//! are deterministic: no random stream, so scenarios without maintenance draw what they drew.
#include "sim/core/failures.h"
#include "sim/core/maintenance_spec.h"

namespace gpuplan {

//! Brings the node- and GPU-seconds in maintenance up to s.now.
GPUPLAN_HD inline void maintenance_advance(const ModelView& m, ReplicaState& s) {
  MaintenanceState& ms = s.maintenance;
  const double lo = ms.since > m.warmup ? ms.since : m.warmup;
  const double hi = s.now < m.horizon ? s.now : m.horizon;
  if (hi > lo) {
    ms.totals.node_s += double(ms.n_out) * (hi - lo);
    ms.totals.gpu_s += double(ms.gpus_out) * (hi - lo);
  }
  ms.since = s.now;
}

//! Start [s] of repetition k of window batch `w`.
[[nodiscard]] GPUPLAN_HD inline SimTime repetition_start(const MaintenanceWindow& w, uint32_t k) {
  return k == 0 ? w.start : w.start + double(k) * w.period;
}

//! Schedules repetition k of window batch `w`: its drain (policy wait; at the earliest now) or its
//! start, when that comes before the horizon.
GPUPLAN_HD inline void schedule_maintenance(const ModelView& m, ReplicaState& s, uint32_t w,
                                            uint32_t k) {
  const MaintenanceWindow& mw = m.maintenance[w];
  if (k > 0 && !(mw.period < NEVER)) return;
  const SimTime t = repetition_start(mw, k);
  if (mw.drain == DrainPolicy::wait) {
    const SimTime d = t - mw.drain_ahead > s.now ? t - mw.drain_ahead : s.now;
    if (d < m.horizon) schedule_failure_event(s, d, EventKind::maint_drain, w, k);
    return;
  }
  if (t < m.horizon) schedule_failure_event(s, t, EventKind::maint_start, w, k);
}

//! Stops every job running with a GPU on node n as `drain` says, and counts them.
GPUPLAN_HD inline void stop_node_jobs(const ModelView& m, ReplicaState& s, uint32_t n,
                                      DrainPolicy drain) {
  for (uint32_t slot = 0; slot < s.runs.slot_high_water; ++slot) {
    if (!runs_on_node(m, s, slot, n)) continue;
    const uint32_t c = s.jobs[slot].class_idx;
    const double lost_before = s.runs.classes[c].lost_gpu_s;
    // NOTE: a planned stop is known ahead: the final write ends at the window start, so the
    // notice is exactly one checkpoint write (and a class without checkpoints keeps nothing).
    if (drain == DrainPolicy::kill) {
      interrupt_run(m, s, slot, 0.0);
    } else {
      interrupt_run(m, s, slot, m.class_runs[c].checkpoint_s, true);
    }
    if (in_window(m, s.now)) {
      s.maintenance.totals.interruptions += 1;
      s.maintenance.totals.lost_gpu_s += s.runs.classes[c].lost_gpu_s - lost_before;
    }
  }
}

//! Repetition k of batch `w` starts draining: its serving nodes take no new job from now on
//! (their free GPUs leave placement; release_job_gpus keeps freed ones out), then the start.
GPUPLAN_HD inline void handle_maintenance_drain(const ModelView& m, ReplicaState& s, uint32_t w,
                                                uint32_t k) {
  const MaintenanceWindow& mw = m.maintenance[w];
  for (uint32_t n = mw.first_node; n < mw.first_node + mw.n_nodes; ++n) {
    if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::up)) continue;
    s.maintenance.node_phase[n] = static_cast<uint8_t>(MaintenancePhase::draining);
    set_node_free(s, n, 0);
  }
  const SimTime t = repetition_start(mw, k);
  if (t < m.horizon) schedule_failure_event(s, t, EventKind::maint_start, w, k);
}

//! Repetition k of batch `w` starts: its serving nodes stop their jobs and go out, its ready
//! spares go out too; the end is scheduled.
GPUPLAN_HD inline void handle_maintenance_start(const ModelView& m, ReplicaState& s, uint32_t w,
                                                uint32_t k) {
  const MaintenanceWindow& mw = m.maintenance[w];
  maintenance_advance(m, s);
  if (m.features & FEATURE_FAILURES) failures_advance(m, s);
  for (uint32_t n = mw.first_node; n < mw.first_node + mw.n_nodes; ++n) {
    uint8_t& phase = s.maintenance.node_phase[n];
    const uint8_t st = s.capacity.node_state[n];
    if (st == static_cast<uint8_t>(NodeState::up)) {
      stop_node_jobs(m, s, n, mw.drain);
      hide_node(s, n, NodeState::maintenance);
      phase = static_cast<uint8_t>(MaintenancePhase::serving_out);
    } else if (st == static_cast<uint8_t>(NodeState::spare)) {
      s.failures.pool_spares_free[m.node_pool[n]] -= 1;
      s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::maintenance);
      phase = static_cast<uint8_t>(MaintenancePhase::spare_out);
    } else {
      phase = static_cast<uint8_t>(MaintenancePhase::none);  // skips this repetition
      continue;
    }
    s.maintenance.n_out += 1;
    s.maintenance.gpus_out += m.pools[m.node_pool[n]].gpus_per_node;
    if (in_window(m, s.now)) s.maintenance.totals.node_windows += 1;
  }
  const SimTime end = s.now + mw.duration;
  if (end < m.horizon) schedule_failure_event(s, end, EventKind::maint_end, w, k);
}

//! Whether the leaf switch above node n is down for repair (sim/core/failures.h).
[[nodiscard]] GPUPLAN_HD inline bool leaf_switch_down(const ModelView& m, const ReplicaState& s,
                                                      uint32_t n) {
  if (!(m.features & FEATURE_FAILURES)) return false;
  const uint32_t level = m.failures[0].switch_level;
  if (level == NONE) return false;
  return s.failures.group_down[m.net.node_group[level * m.n_nodes + n]] != 0;
}

//! Repetition k of batch `w` ends: a node that served serves again, a spare is a spare again (or
//! serves, when a failure left its pool short); under a failed leaf switch the node is out until
//! that repair, as the switch's other nodes are. Then the next repetition is scheduled.
GPUPLAN_HD inline void handle_maintenance_end(const ModelView& m, ReplicaState& s, uint32_t w,
                                              uint32_t k) {
  const MaintenanceWindow& mw = m.maintenance[w];
  maintenance_advance(m, s);
  if (m.features & FEATURE_FAILURES) failures_advance(m, s);
  for (uint32_t n = mw.first_node; n < mw.first_node + mw.n_nodes; ++n) {
    const auto phase = static_cast<MaintenancePhase>(s.maintenance.node_phase[n]);
    if (phase != MaintenancePhase::serving_out && phase != MaintenancePhase::spare_out) continue;
    s.maintenance.node_phase[n] = static_cast<uint8_t>(MaintenancePhase::none);
    s.maintenance.n_out -= 1;
    s.maintenance.gpus_out -= m.pools[m.node_pool[n]].gpus_per_node;
    const uint32_t p = m.node_pool[n];
    if (leaf_switch_down(m, s, n)) {
      if (phase == MaintenancePhase::serving_out) {
        take_node_down(m, s, n);  // a ready spare takes its place, as after a failure
      } else {
        s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::failed);
        s.failures.node_down[n] += 1;
      }
    } else if (phase == MaintenancePhase::serving_out) {
      show_node(m, s, n);
    } else if (s.failures.pool_deficit[p] > 0) {
      s.failures.pool_deficit[p] -= 1;
      show_node(m, s, n);
    } else {
      s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::spare);
      s.failures.pool_spares_free[p] += 1;
    }
  }
  schedule_maintenance(m, s, w, k + 1);
}

//! Resets the maintenance state and schedules every batch's first repetition.
GPUPLAN_HD inline void init_maintenance(const ModelView& m, ReplicaState& s) {
  if (!(m.features & FEATURE_MAINTENANCE)) return;
  MaintenanceState& ms = s.maintenance;
  ms.n_out = ms.gpus_out = 0;
  ms.since = 0;
  ms.totals = MaintenanceTotals{};
  for (uint32_t n = 0; n < m.n_nodes; ++n)
    ms.node_phase[n] = static_cast<uint8_t>(MaintenancePhase::none);
  for (uint32_t w = 0; w < m.maintenance.size; ++w) schedule_maintenance(m, s, w, 0);
}

//! Brings the maintenance integral up to where the replica stopped.
GPUPLAN_HD inline void finalize_maintenance(const ModelView& m, ReplicaState& s) {
  if (m.features & FEATURE_MAINTENANCE) maintenance_advance(m, s);
}

}  // namespace gpuplan
