#pragma once
//! A job's runs: where it may run (spot tolerance and fallback), how long a run takes with
//! restart and checkpoint overheads, how its GPUs are released, and how a run's time is booked
//! (restart, checkpoint writes, lost compute) when it ends.
#include "sim/core/capacity.h"
#include "sim/core/checkpointing.h"

namespace gpuplan {

//! Pools the queued job in `slot` may use now: a class with a spot fallback avoids its on-demand
//! pools (spot, reserved and on-prem ones are fine) until it has waited its fallback time.
[[nodiscard]] GPUPLAN_HD inline uint64_t job_pool_mask(const ModelView& m, const ReplicaState& s,
                                                       uint32_t slot) {
  const Job& j = s.jobs[slot];
  const uint64_t all = m.classes[j.class_idx].pool_mask;
  const ClassEconSpec& ce = m.class_econ[j.class_idx];
  if (!ce.spot_first) return all;
  if (s.now - s.econ.jobs[slot].queued_since >= ce.fallback_after_s) return all;
  return all & ce.first_mask;
}

//! Marks the job in `slot` as (re)entering the queue now and arms its fallback timer.
GPUPLAN_HD inline void note_job_queued(const ModelView& m, ReplicaState& s, uint32_t slot) {
  JobEcon& je = s.econ.jobs[slot];
  je.queued_since = s.now;
  const ClassEconSpec& ce = m.class_econ[s.jobs[slot].class_idx];
  if (!ce.spot_first || !(ce.fallback_after_s < NEVER) || je.fallback_pending) return;
  je.fallback_pending = true;
  econ_schedule(s, s.now + ce.fallback_after_s, EventKind::spot_fallback, slot, 0);
}

//! Resets the economics of a newly arrived job in `slot`.
GPUPLAN_HD inline void note_job_arrived(const ModelView& m, ReplicaState& s, uint32_t slot) {
  JobEcon& je = s.econ.jobs[slot];
  je.restarts = 0;
  je.fallback_pending = false;
  if (slot + 1 > s.econ.slot_high_water) s.econ.slot_high_water = slot + 1;
  note_job_queued(m, s, slot);
}

//! Handles a fallback timer: the job may now use its non-spot pools, so retry a blocked queue.
GPUPLAN_HD inline void handle_spot_fallback(const ModelView& m, ReplicaState& s, uint32_t slot) {
  JobEcon& je = s.econ.jobs[slot];
  je.fallback_pending = false;
  if (s.jobs[slot].phase != JobPhase::queued) return;
  const double due = je.queued_since + m.class_econ[s.jobs[slot].class_idx].fallback_after_s;
  if (due > s.now) {  // requeued since this timer was set: wait for the new deadline
    je.fallback_pending = true;
    econ_schedule(s, due, EventKind::spot_fallback, slot, 0);
    return;
  }
  s.head_blocked = false;
}

//! Starts a run of the placed job in `slot` on `pool`, whose compute-only finish the engine has
//! just set, and returns the wall time [s] to add to it: the reload after a preemption and the
//! checkpoint writes.
[[nodiscard]] GPUPLAN_HD inline double begin_run(const ModelView& m, ReplicaState& s, uint32_t slot,
                                                 uint32_t pool) {
  const Job& j = s.jobs[slot];
  JobEcon& je = s.econ.jobs[slot];
  const ClassEconSpec& ce = m.class_econ[j.class_idx];
  je.run_start = s.now;
  je.rem_wall_s = j.finish - s.now;
  je.slowdown = j.work > 0 ? je.rem_wall_s / j.work : 1.0;
  je.interval_s = checkpoint_interval(ce, m.pool_econ[pool], j.n_nodes);
  je.restart_s = je.restarts > 0 ? ce.restart_s : 0.0;
  s.econ.class_pool_busy_gpus[j.class_idx * m.pools.size + pool] += j.gpus;
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  for (uint32_t i = 0; i < j.n_nodes; ++i) s.econ.node_idle_since[nodes[i]] = NEVER;
  return run_wall_s(je.rem_wall_s, je.restart_s, je.interval_s, ce.checkpoint_s) - je.rem_wall_s;
}

//! Books the window share of a run's overheads [GPU·s]: the run covered [run_start, end) and
//! spent `restart_s`, `checkpoint_s` and `lost_s` of it; the part inside [warmup, horizon) counts
//! pro rata.
GPUPLAN_HD inline void book_run(const ModelView& m, ReplicaState& s, uint32_t slot, SimTime end,
                                double restart_s, double checkpoint_s, double lost_s) {
  const Job& j = s.jobs[slot];
  const SimTime start = s.econ.jobs[slot].run_start;
  const double lo = start > m.warmup ? start : m.warmup;
  const double hi = end < m.horizon ? end : m.horizon;
  if (!(hi > lo) || !(end > start)) return;
  const double share = (hi - lo) / (end - start) * j.gpus;
  ClassEconTotals& c = s.econ.classes[j.class_idx];
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
  s.running -= 1;
  s.busy_gpus -= j.gpus;
  s.pool_busy_gpus[j.pool] -= j.gpus;
  s.head_blocked = false;
}

//! Economics of a run that ends in completion: books its overheads and frees its class counts;
//! call before the engine releases the job's GPUs.
GPUPLAN_HD inline void note_job_finished(const ModelView& m, ReplicaState& s, uint32_t slot) {
  const Job& j = s.jobs[slot];
  const JobEcon& je = s.econ.jobs[slot];
  const double ckpt = m.class_econ[j.class_idx].checkpoint_s;
  const RunSplit r = split_run(s.now - je.run_start, je.restart_s, je.interval_s, ckpt);
  book_run(m, s, slot, s.now, r.restart_s, r.checkpoint_s, 0.0);
  s.econ.class_pool_busy_gpus[j.class_idx * m.pools.size + j.pool] -= j.gpus;
  if (j.counted) s.econ.classes[j.class_idx].restarts_of_completed += je.restarts;
}

//! After the engine released a finished job's GPUs: nodes left fully free start idling.
GPUPLAN_HD inline void note_job_released(const ModelView& m, ReplicaState& s, uint32_t slot) {
  const Job& j = s.jobs[slot];
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  for (uint32_t i = 0; i < j.n_nodes; ++i)
    if (node_idle(m, s, nodes[i])) note_node_idle(m, s, nodes[i]);
}

//! Puts the job in `slot` back into the queue at its place in submission order
//! (submit time, then class, then arrival index); false when the queue is full.
[[nodiscard]] GPUPLAN_HD inline bool requeue_in_order(ReplicaState& s, uint32_t slot) {
  if (s.queue_len == s.queue.size) return false;
  const Job& j = s.jobs[slot];
  uint32_t i = s.queue_len;  // shift later jobs back by one, from the tail
  while (i > 0) {
    const uint32_t prev = s.queue[(s.queue_head + i - 1) % s.queue.size];
    const Job& q = s.jobs[prev];
    const bool later =
        q.submit > j.submit ||
        (q.submit == j.submit &&
         (q.class_idx > j.class_idx || (q.class_idx == j.class_idx && q.job_idx > j.job_idx)));
    if (!later) break;
    s.queue[(s.queue_head + i) % s.queue.size] = prev;
    --i;
  }
  s.queue[(s.queue_head + i) % s.queue.size] = slot;
  s.queue_len += 1;
  return true;
}

}  // namespace gpuplan
