#pragma once
//! Moves of running jobs between GPU types (docs/scheduling-policies.md), as Gavel's
//! heterogeneity-aware policies re-solve their allocation:
//! - max_min_fairness_perf, at a round end: a job with little normalized service gets the GPUs
//!   it prefers (type_preference) that better-served jobs held. After the ranked pass at an
//!   instant where rounds end, the least-served running job that a pool it prefers could take
//!   (by its free GPUs and the GPUs of running jobs it outranks whose round also ends now) moves
//!   there: those jobs and it are preempted, then the ranked pass places them again in rank
//!   order, preferred type with room first.
//! - fifo_perf, whenever GPUs come free: the oldest job first takes the fastest type with room,
//!   running or not, so a running job moves to a strictly faster type with free room for it
//!   before any younger queued job starts.
#include "sim/core/queue_policy.h"
#include "sim/core/shared_gpus.h"

namespace gpuplan {

//! Most moves one instant may make (as RANKED_ROUNDS), so a round end costs O(moves x jobs).
inline constexpr uint32_t MAX_TYPE_MOVES = 64;

//! A node of a pool in `faster` (a mask) where the running job in `slot` fits on free GPUs plus
//! the GPUs of running single-node jobs it outranks (room_per_node); the one with the most free
//! GPUs, lowest index; or NONE.
[[nodiscard]] GPUPLAN_HD inline uint32_t node_to_move_to(const ModelView& m, ReplicaState& s,
                                                         uint32_t slot, uint64_t faster) {
  const Job& j = s.jobs[slot];
  room_per_node(m, s, slot, faster, true, false);
  return most_free_clearable(m, s, faster, j.gpus);
}

//! The pools the running job in `slot` prefers to its own (prefers) and runs faster on, among
//! those it may use. NOTE: never a slower one: a job that Gavel's rounds handed a type in their
//! fixed order keeps it while it has room (fills_in_order), though it is relatively faster on
//! another.
[[nodiscard]] GPUPLAN_HD inline uint64_t faster_pools(const ModelView& m, const ReplicaState& s,
                                                      uint32_t slot) {
  const Job& j = s.jobs[slot];
  const uint64_t mask = job_pool_mask(m, s, slot);
  const double* row = &m.slowdown[j.class_idx * m.pools.size];
  uint64_t faster = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p)
    if (((mask >> p) & 1) && prefers(m, j.class_idx, p, j.pool) && row[p] < row[j.pool])
      faster |= 1ull << p;
  return faster;
}

//! True when a pool in `pools` has room on free GPUs for the running job in `slot`: a node with
//! that many free GPUs, or, for a gang larger than a node, enough whole free nodes of one pool.
[[nodiscard]] GPUPLAN_HD inline bool free_room_in(const ModelView& m, const ReplicaState& s,
                                                  uint32_t slot, uint64_t pools) {
  const Job& j = s.jobs[slot];
  if (j.gpus <= m.classes[j.class_idx].node_gpus_max)
    return single_node_for(m, s, j.gpus, pools) != NONE;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (!((pools >> p) & 1)) continue;
    const PoolSpec& pool = m.pools[p];
    const uint32_t need = (j.gpus + pool.gpus_per_node - 1) / pool.gpus_per_node;
    if (need <= pool.n_nodes && need <= m.max_nodes_per_job &&
        free_nodes_in_range(s, pool.gpus_per_node, pool.first_node,
                            pool.first_node + pool.n_nodes) >= need)
      return true;
  }
  return false;
}

//! The least-served running single-node job whose round ends now, not yet considered at this
//! instant, on a pool other than those its class prefers most; NONE when there is none.
[[nodiscard]] GPUPLAN_HD inline uint32_t next_move_candidate(const ModelView& m,
                                                             const ReplicaState& s) {
  uint32_t best = NONE;
  for (uint32_t i = 0; i < s.running; ++i) {
    const uint32_t v = s.running_slots[i];
    const Job& r = s.jobs[v];
    if (r.n_nodes != 1 || !round_ends(s, v) || s.policy.jobs[v].moved_check == s.now) continue;
    const uint64_t mask = job_pool_mask(m, s, v);
    if (fastest_tier(m, r.class_idx, mask, 0) & (1ull << r.pool))
      continue;  // on a pool it prefers most
    if (best == NONE || ranks_before(m, s, v, best)) best = v;
  }
  return best;
}

//! Moves running jobs to faster GPU types at a round end (max_min_fairness_perf only), least
//! served first, then lets the ranked pass place the preempted jobs again.
template <class Start>
GPUPLAN_HD inline void rebalance_types(const ModelView& m, ReplicaState& s, const Start& start) {
  if (m.queue != QueuePolicy::max_min_fairness_perf || between_rounds(m, s)) return;
  bool moved = false;
  for (uint32_t k = 0; k < MAX_TYPE_MOVES; ++k) {
    const uint32_t slot = next_move_candidate(m, s);
    if (slot == NONE) break;
    s.policy.jobs[slot].moved_check = s.now;
    const Job& j = s.jobs[slot];
    const uint32_t n = node_to_move_to(m, s, slot, faster_pools(m, s, slot));
    if (n == NONE) continue;
    s.policy.deferring = true;  // victims and the mover wait in the deferred list
    clear_node(m, s, slot, n, j.gpus);
    scheduler_preempt(m, s, slot);
    s.policy.deferring = false;
    for (uint32_t i = 0; i < s.policy.n_deferred; ++i)
      if (!insert_ranked(m, s, s.policy.deferred[i])) saturate(s, SaturationCause::queue_overflow);
    s.policy.n_deferred = 0;
    moved = true;
  }
  if (moved) schedule_ranked(m, s, start);
}

//! fifo_perf's moves, before queued jobs start: while some running job of whole GPUs (a gang
//! too) whose class checkpoints, submitted before the queue's head, fits on free GPUs of a pool
//! strictly faster for it, the oldest such job stops with a final checkpoint (the move is
//! planned, as a Gavel allocation change at a round end) and starts again at once on the fastest
//! type with room. Only after something was released (a blocked head, or a scan that found no
//! move, means nothing was since).
template <class Start>
GPUPLAN_HD inline void move_to_faster_types(const ModelView& m, ReplicaState& s,
                                            const Start& start) {
  if (m.queue != QueuePolicy::fifo_perf || s.head_blocked || s.types_settled) return;
  for (uint32_t k = 0; k < MAX_TYPE_MOVES; ++k) {
    // NOTE: the pools with free GPUs (pool_gpus_free, an upper bound) rule out most jobs
    // in a few loads, before their pools and nodes are searched, and all when there is none.
    uint32_t free_gpus[64];
    uint64_t with_free = 0;
    for (uint32_t p = 0; p < m.pools.size; ++p) {
      free_gpus[p] = pool_gpus_free(m, s, p);
      if (free_gpus[p] > 0) with_free |= 1ull << p;
    }
    const Job* head = s.queue_len > 0 ? &s.jobs[s.queue[s.queue_head]] : nullptr;
    uint32_t oldest = NONE;
    for (uint32_t i = 0; with_free != 0 && i < s.running; ++i) {
      const uint32_t v = s.running_slots[i];
      const Job& r = s.jobs[v];
      if ((head != nullptr && !submitted_before(r, *head)) ||
          (oldest != NONE && !submitted_before(r, s.jobs[oldest])))
        continue;
      const double* row = &m.slowdown[r.class_idx * m.pools.size];
      uint64_t roomy = 0;
      for (uint64_t f = with_free; f != 0; f &= f - 1) {
        const uint32_t p = lowest_bit(f);
        if (row[p] < row[r.pool] && free_gpus[p] >= r.gpus) roomy |= 1ull << p;
      }
      // NOTE: a job on shared GPUs (MIG, time-sliced, milli-GPU) is placed by its share, not by
      // type, and one that does not checkpoint would lose its run: neither moves.
      if (roomy == 0 || shared_class(m, r.class_idx) || !m.class_runs[r.class_idx].checkpoints)
        continue;
      roomy &= job_pool_mask(m, s, v);
      if (roomy != 0 && free_room_in(m, s, v, roomy)) oldest = v;
    }
    if (oldest == NONE) {
      s.types_settled = true;  // until something is released
      return;
    }
    scheduler_stop(m, s, oldest, m.class_runs[s.jobs[oldest].class_idx].checkpoint_s, true);
    // NOTE: submitted before every queued job, it was requeued at the head.
    if (s.queue_len == 0 || s.queue[s.queue_head] != oldest || !start(oldest)) return;
    s.queue_head = queue_pos(s, 1);
    s.queue_len -= 1;
  }
}

}  // namespace gpuplan
