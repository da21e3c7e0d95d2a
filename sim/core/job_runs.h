#pragma once
//! A job's runs: where it may run (spot tolerance and fallback), how long a run takes with
//! restart and checkpoint overheads, how its GPUs are released, and how a run's time is booked
//! (restart, checkpoint writes, lost compute) when it ends.
#include "sim/core/capacity.h"
#include "sim/core/checkpointing.h"
#include "sim/core/compute_used.h"
#include "sim/core/features.h"
#include "sim/core/team_quota.h"

namespace gpuplan {

//! Pools the queued job in `slot` may use now: those where it fits its team's quota
//! (sim/core/team_quota.h), and a class with a spot fallback avoids its on-demand pools (spot,
//! reserved and on-prem ones are fine) until it has waited its fallback time.
[[nodiscard]] GPUPLAN_HD inline uint64_t job_pool_mask(const ModelView& m, const ReplicaState& s,
                                                       uint32_t slot) {
  const Job& j = s.jobs[slot];
  const uint64_t all = m.classes[j.class_idx].pool_mask & team_pool_mask(m, s, slot);
  if (!(m.features & FEATURE_RUNS)) return all;
  const ClassRunSpec& cr = m.class_runs[j.class_idx];
  if (!cr.spot_first) return all;
  if (s.now - s.runs.jobs[slot].queued_since >= cr.fallback_after_s) return all;
  return all & cr.first_mask;
}

//! Marks the job in `slot` as (re)entering the queue now and arms its fallback timer.
GPUPLAN_HD inline void note_job_queued(const ModelView& m, ReplicaState& s, uint32_t slot) {
  JobRun& jr = s.runs.jobs[slot];
  jr.queued_since = s.now;
  const ClassRunSpec& cr = m.class_runs[s.jobs[slot].class_idx];
  if (!cr.spot_first || !(cr.fallback_after_s < NEVER) || jr.fallback_pending) return;
  jr.fallback_pending = true;
  schedule_or_saturate(s, s.now + cr.fallback_after_s, EventKind::spot_fallback, slot, 0);
}

//! Resets the run bookkeeping of a newly arrived job in `slot`.
GPUPLAN_HD inline void note_job_arrived(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (!(m.features & FEATURE_RUNS)) return;
  JobRun& jr = s.runs.jobs[slot];
  jr.restarts = 0;
  jr.fallback_pending = false;
  if (slot + 1 > s.runs.slot_high_water) s.runs.slot_high_water = slot + 1;
  note_job_queued(m, s, slot);
}

//! Handles a fallback timer: the job may now use its non-spot pools, so retry a blocked queue.
GPUPLAN_HD inline void handle_spot_fallback(const ModelView& m, ReplicaState& s, uint32_t slot) {
  JobRun& jr = s.runs.jobs[slot];
  jr.fallback_pending = false;
  if (s.jobs[slot].phase != JobPhase::queued) return;
  const double due = jr.queued_since + m.class_runs[s.jobs[slot].class_idx].fallback_after_s;
  if (due > s.now) {  // requeued since this timer was set: wait for the new deadline
    jr.fallback_pending = true;
    schedule_or_saturate(s, due, EventKind::spot_fallback, slot, 0);
    return;
  }
  s.head_blocked = false;
}

//! Books the window share of the time the interrupted job in `slot` has waited since it was
//! requeued, up to now [GPU·s] (the wall time an interruption costs beyond its lost work).
GPUPLAN_HD inline void book_requeued(const ModelView& m, ReplicaState& s, uint32_t slot) {
  const Job& j = s.jobs[slot];
  const SimTime since = s.runs.jobs[slot].queued_since;
  const double lo = since > m.warmup ? since : m.warmup;
  const double hi = s.now < m.horizon ? s.now : m.horizon;
  if (hi > lo) s.runs.classes[j.class_idx].requeued_gpu_s += (hi - lo) * j.gpus;
}

//! Starts a run of the placed job in `slot` on `pool`, whose compute-only finish the engine has
//! just set, and returns the wall time [s] to add to it: the reload after a preemption and the
//! checkpoint writes.
[[nodiscard]] GPUPLAN_HD inline double begin_run(const ModelView& m, ReplicaState& s, uint32_t slot,
                                                 uint32_t pool) {
  const Job& j = s.jobs[slot];
  s.billing.class_pool_busy_gpus[j.class_idx * m.pools.size + pool] += j.gpus;
  note_team_start(m, s, slot, pool);
  if (m.features & FEATURE_ELASTIC) {
    const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
    for (uint32_t i = 0; i < j.n_nodes; ++i) s.capacity.node_idle_since[nodes[i]] = NEVER;
  }
  if (!(m.features & FEATURE_RUNS)) return 0.0;  // no reload, no checkpoint writes
  JobRun& jr = s.runs.jobs[slot];
  const ClassRunSpec& cr = m.class_runs[j.class_idx];
  jr.run_start = s.now;
  jr.rem_wall_s = j.finish - s.now;
  jr.slowdown = j.work > 0 ? jr.rem_wall_s / j.work : 1.0;
  jr.interval_s = checkpoint_interval(cr, m.pool_supply[pool], j.n_nodes,
                                      gang_failure_rate(m, pool, j.n_nodes));
  if (jr.restarts > 0) book_requeued(m, s, slot);
  jr.restart_s = jr.restarts > 0 ? cr.restart_s : 0.0;
  return run_wall_s(jr.rem_wall_s, jr.restart_s, jr.interval_s, cr.checkpoint_s) - jr.rem_wall_s;
}

//! Books the window share of a run's overheads [GPU·s]: the run covered [run_start, end) and
//! spent `restart_s`, `checkpoint_s` and `lost_s` of it; the part inside [warmup, horizon) counts
//! pro rata.
GPUPLAN_HD inline void book_run(const ModelView& m, ReplicaState& s, uint32_t slot, SimTime end,
                                double restart_s, double checkpoint_s, double lost_s) {
  const Job& j = s.jobs[slot];
  const SimTime start = s.runs.jobs[slot].run_start;
  const double lo = start > m.warmup ? start : m.warmup;
  const double hi = end < m.horizon ? end : m.horizon;
  if (!(hi > lo) || !(end > start)) return;
  const double share = (hi - lo) / (end - start) * j.gpus;
  ClassRunTotals& c = s.runs.classes[j.class_idx];
  c.restart_gpu_s += restart_s * share;
  c.checkpoint_gpu_s += checkpoint_s * share;
  c.lost_gpu_s += lost_s * share;
}

//! Frees the GPUs of the running job in `slot` (nodes that become fully free are noted idle).
GPUPLAN_HD inline void release_job_gpus(const ModelView& m, ReplicaState& s, uint32_t slot) {
  Job& j = s.jobs[slot];
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  const uint32_t gpn = m.pools[j.pool].gpus_per_node;
  if (j.n_nodes == 1 && j.gpus <= gpn) {
    set_node_free(s, nodes[0], s.node_free[nodes[0]] + j.gpus);
  } else {
    for (uint32_t i = 0; i < j.n_nodes; ++i) set_node_free(s, nodes[i], gpn);
  }
  // NOTE: a node draining for maintenance takes no new job, so GPUs freed there stay out.
  if (m.features & FEATURE_MAINTENANCE) {
    for (uint32_t i = 0; i < j.n_nodes; ++i)
      if (s.maintenance.node_phase[nodes[i]] == static_cast<uint8_t>(MaintenancePhase::draining))
        set_node_free(s, nodes[i], 0);
  }
  // NOTE: the last running job takes the leaving one's place: O(1), in no particular order.
  const uint32_t last = s.running_slots[--s.running];
  s.running_slots[s.running_index[slot]] = last;
  s.running_index[last] = s.running_index[slot];
  s.busy_gpus -= j.gpus;
  s.pool_busy_gpus[j.pool] -= j.gpus;
  note_whole_compute(m, s, slot, false);
  note_team_release(m, s, slot);
  s.head_blocked = s.types_settled = false;
}

//! A run that ends in completion: books its overheads and frees its class counts;
//! call before the engine releases the job's GPUs.
GPUPLAN_HD inline void note_job_finished(const ModelView& m, ReplicaState& s, uint32_t slot) {
  const Job& j = s.jobs[slot];
  s.billing.class_pool_busy_gpus[j.class_idx * m.pools.size + j.pool] -= j.gpus;
  if (!(m.features & FEATURE_RUNS)) return;  // no overheads, no restarts to book
  const JobRun& jr = s.runs.jobs[slot];
  const double ckpt = m.class_runs[j.class_idx].checkpoint_s;
  const RunSplit r = split_run(s.now - jr.run_start, jr.restart_s, jr.interval_s, ckpt);
  book_run(m, s, slot, s.now, r.restart_s, r.checkpoint_s, 0.0);
  if (j.counted) s.runs.classes[j.class_idx].restarts_of_completed += jr.restarts;
}

//! After the engine released a finished job's GPUs: nodes left fully free start idling.
GPUPLAN_HD inline void note_job_released(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (!(m.features & FEATURE_ELASTIC)) return;  // idle times matter to elastic pools only
  const Job& j = s.jobs[slot];
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  for (uint32_t i = 0; i < j.n_nodes; ++i)
    if (node_idle(m, s, nodes[i])) note_node_idle(m, s, nodes[i]);
}

//! Closes a scan's gaps in the queue: of its first `scanned` entries, the `started` ones (set to
//! NONE) leave, and the jobs that stay move up to the end of the scanned part, keeping their order.
GPUPLAN_HD inline void drop_started(ReplicaState& s, uint32_t scanned, uint32_t started) {
  ring_drop_started(s.queue, s.queue_head, s.queue_len, scanned, started);
}

//! True when job a was submitted before job b: earlier, then by class, then by the class's
//! arrival index (the queue's submission order).
[[nodiscard]] GPUPLAN_HD inline bool submitted_before(const Job& a, const Job& b) {
  return a.submit < b.submit ||
         (a.submit == b.submit &&
          (a.class_idx < b.class_idx || (a.class_idx == b.class_idx && a.job_idx < b.job_idx)));
}

//! Puts the job in `slot` back into the queue at its place in submission order
//! (submit time, then class, then arrival index); false when the queue is full.
[[nodiscard]] GPUPLAN_HD inline bool requeue_in_order(ReplicaState& s, uint32_t slot) {
  if (s.queue_len == s.queue.size) return false;
  const Job& j = s.jobs[slot];
  // NOTE: a job older than the head (a preempted or moved one, usually) goes in front in O(1).
  if (s.queue_len > 0 && submitted_before(j, s.jobs[queue_at(s, 0)])) {
    s.queue_head = s.queue_head == 0 ? s.queue.size - 1 : s.queue_head - 1;
    s.queue[s.queue_head] = slot;
    s.queue_len += 1;
    return true;
  }
  uint32_t i = s.queue_len;  // shift later jobs back by one, from the tail
  while (i > 0) {
    const uint32_t prev = queue_at(s, i - 1);
    if (!submitted_before(j, s.jobs[prev])) break;
    queue_at(s, i) = prev;
    --i;
  }
  queue_at(s, i) = slot;
  s.queue_len += 1;
  return true;
}

//! Resets the job run state: no slot used yet, no overheads booked.
GPUPLAN_HD inline void init_job_runs(const ModelView& m, ReplicaState& s) {
  for (uint32_t c = 0; c < m.classes.size; ++c) s.runs.classes[c] = ClassRunTotals{};
  s.runs.slot_high_water = 0;
}

//! Books the overheads of runs still going when the replica stopped, and the wait of interrupted
//! jobs still queued (up to s.now).
GPUPLAN_HD inline void finalize_job_runs(const ModelView& m, ReplicaState& s) {
  for (uint32_t slot = 0; slot < s.runs.slot_high_water; ++slot) {
    if (s.jobs[slot].phase == JobPhase::queued && s.runs.jobs[slot].restarts > 0)
      book_requeued(m, s, slot);
    if (s.jobs[slot].phase != JobPhase::running) continue;
    const JobRun& jr = s.runs.jobs[slot];
    const double ckpt = m.class_runs[s.jobs[slot].class_idx].checkpoint_s;
    const RunSplit r = split_run(s.now - jr.run_start, jr.restart_s, jr.interval_s, ckpt);
    book_run(m, s, slot, s.now, r.restart_s, r.checkpoint_s, 0.0);
  }
}

}  // namespace gpuplan
