#pragma once
//! max_min_fairness_perf's moves between GPU types at a round end (docs/scheduling-policies.md):
//! Gavel re-solves its allocation every round, so a job with little normalized service gets the
//! fast GPUs that better-served jobs held. Here, after the ranked pass at an instant where rounds
//! end, the least-served running job that a faster pool could take (by its free GPUs and the GPUs
//! of running jobs it outranks whose round also ends now) moves there: those jobs and it are
//! preempted, then the ranked pass places them again in rank order, fastest type with room first.
#include "sim/core/queue_policy.h"

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

//! The least-served running single-node job whose round ends now, not yet considered at this
//! instant, on a pool slower than the fastest its class may use; NONE when there is none.
[[nodiscard]] GPUPLAN_HD inline uint32_t next_move_candidate(const ModelView& m,
                                                             const ReplicaState& s) {
  uint32_t best = NONE;
  for (uint32_t i = 0; i < s.running; ++i) {
    const uint32_t v = s.running_slots[i];
    const Job& r = s.jobs[v];
    if (r.n_nodes != 1 || !round_ends(s, v) || s.policy.jobs[v].moved_check == s.now) continue;
    const uint64_t mask = job_pool_mask(m, s, v);
    if (fastest_tier(m, r.class_idx, mask, 0) & (1ull << r.pool)) continue;  // on its fastest
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
    // Pools strictly faster for the job than its own.
    const double own = m.slowdown[j.class_idx * m.pools.size + j.pool];
    uint64_t faster = 0;
    const uint64_t mask = job_pool_mask(m, s, slot);
    for (uint32_t p = 0; p < m.pools.size; ++p)
      if (((mask >> p) & 1) && m.slowdown[j.class_idx * m.pools.size + p] < own)
        faster |= 1ull << p;
    const uint32_t n = node_to_move_to(m, s, slot, faster);
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

}  // namespace gpuplan
