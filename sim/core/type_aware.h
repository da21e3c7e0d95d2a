#pragma once
//! GPU-type-aware scheduling after Gavel (Narayanan et al., OSDI'20): a job's speed on each pool
//! is 1 / its compiled slowdown (the class's throughput matrix, models/perf/throughputs.h);
//! fifo_perf starts each job on the fastest pool with room for it, max_min_fairness_perf on the
//! pool where it is fastest compared with the other work (type_preference), and
//! max_min_fairness_perf ranks jobs by normalized attained service: GPU-seconds weighted by the
//! speed of the GPUs they ran on over the class's capacity-weighted mean speed
//! (docs/scheduling-policies.md).
#include "sim/core/placement.h"

namespace gpuplan {

//! True for the policies that choose the GPU type by the class's speed on it.
[[nodiscard]] GPUPLAN_HD inline bool type_aware(QueuePolicy q) {
  return q == QueuePolicy::fifo_perf || q == QueuePolicy::max_min_fairness_perf;
}

//! Speed of class c on pool p relative to its reference GPU (1 / the duration multiplier).
[[nodiscard]] GPUPLAN_HD inline double pool_speed(const ModelView& m, uint32_t c, uint32_t p) {
  return 1.0 / m.slowdown[c * m.pools.size + p];
}

//! How little class c wants pool p (lower first). fifo_perf: its duration multiplier there (the
//! fastest type first). max_min_fairness_perf: that multiplier times the pool's mean work speed,
//! the inverse of the class's speed there relative to the work's, so each job goes where it is
//! fast compared with the others (comparative advantage), as the allocations of Gavel's max-min
//! LP do under contention: a job that is relatively fast on a slow type takes it first and
//! leaves the fast types to the jobs that gain most from them.
[[nodiscard]] GPUPLAN_HD inline double type_preference(const ModelView& m, uint32_t c, uint32_t p) {
  const double slowdown = m.slowdown[c * m.pools.size + p];
  return m.queue == QueuePolicy::max_min_fairness_perf ? slowdown * m.pools[p].mean_work_speed
                                                       : slowdown;
}

//! True when class c prefers pool p to pool q: a lower type_preference, then (equal ones, as
//! every pool is to a single class) a lower duration multiplier.
[[nodiscard]] GPUPLAN_HD inline bool prefers(const ModelView& m, uint32_t c, uint32_t p,
                                             uint32_t q) {
  const double a = type_preference(m, c, p), b = type_preference(m, c, q);
  // NOTE: equal within rounding: a class alone on the pools has preference 1 on each.
  if (a < b * (1 - 1e-9)) return true;
  if (b < a * (1 - 1e-9)) return false;
  return m.slowdown[c * m.pools.size + p] < m.slowdown[c * m.pools.size + q];
}

//! The pools of `mask` not in `tried` that class c prefers most (prefers; equal ones form one
//! tier, so with one speed everywhere the tier is the whole mask); 0 when none is left.
[[nodiscard]] GPUPLAN_HD inline uint64_t fastest_tier(const ModelView& m, uint32_t c, uint64_t mask,
                                                      uint64_t tried) {
  const uint64_t left = mask & ~tried;
  if (left == 0) return 0;
  uint32_t best = lowest_bit(left);
  for (uint64_t f = left & (left - 1); f != 0; f &= f - 1)
    if (prefers(m, c, lowest_bit(f), best)) best = lowest_bit(f);
  uint64_t tier = 0;
  for (uint64_t f = left; f != 0; f &= f - 1)
    if (!prefers(m, c, best, lowest_bit(f))) tier |= 1ull << lowest_bit(f);
  return tier;
}

//! Nodes for a job of `gpus` GPUs in the pools of `mask`, per the placement policy: one node
//! (nodes[0]) when it fits in a node of the class (`one_node`), else whole nodes of one pool;
//! returns how many it wrote (0 = it does not fit now).
[[nodiscard]] GPUPLAN_HD inline uint32_t nodes_in(const ModelView& m, const ReplicaState& s,
                                                  uint32_t gpus, bool one_node, uint64_t mask,
                                                  uint32_t* nodes) {
  if (!one_node) return gang_nodes_for(m, s, gpus, mask, nodes);
  nodes[0] = single_node_for(m, s, gpus, mask);
  return nodes[0] == NONE ? 0 : 1;
}

//! [GPUs] free on the nodes of pool p that are up (nodes up x GPUs - busy: an upper bound on
//! what one job may take there).
[[nodiscard]] GPUPLAN_HD inline uint32_t pool_gpus_free(const ModelView& m, const ReplicaState& s,
                                                        uint32_t p) {
  const uint32_t up = s.pool_nodes_up[p] * m.pools[p].gpus_per_node;
  return up > s.pool_busy_gpus[p] ? up - s.pool_busy_gpus[p] : 0;
}

//! [GPUs] free on the nodes up, all pools.
[[nodiscard]] GPUPLAN_HD inline uint32_t gpus_free(const ModelView& m, const ReplicaState& s) {
  uint32_t free = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) free += pool_gpus_free(m, s, p);
  return free;
}

//! The pools of `mask` not in `tried` with the highest fill_speed (equal ones form one tier);
//! 0 when none is left.
[[nodiscard]] GPUPLAN_HD inline uint64_t fill_tier(const ModelView& m, uint64_t mask,
                                                   uint64_t tried) {
  double best = 0;
  for (uint64_t f = mask & ~tried; f != 0; f &= f - 1)
    if (m.pools[lowest_bit(f)].fill_speed > best) best = m.pools[lowest_bit(f)].fill_speed;
  uint64_t tier = 0;
  for (uint64_t f = mask & ~tried; f != 0; f &= f - 1)
    if (m.pools[lowest_bit(f)].fill_speed >= best * (1 - 1e-9)) tier |= 1ull << lowest_bit(f);
  return tier;
}

//! True when max_min_fairness_perf places by fill order now: no job waits beyond the free GPUs.
//! NOTE: Gavel's rounds hand out each type in a fixed order (scheduler.py: V100, P100, K80),
//! every job taking the first with room, those its LP allocates none of that type included; the
//! allocation decides only who holds a type too few GPUs are left of. So with room for every
//! waiting job, a job takes the pool that gets through the work fastest; under contention, the
//! pool where it is fast compared with the other work (type_preference), as the LP allocates.
[[nodiscard]] GPUPLAN_HD inline bool fills_in_order(const ModelView& m, const ReplicaState& s) {
  return m.queue == QueuePolicy::max_min_fairness_perf && s.queue_len <= gpus_free(m, s);
}

//! The pools of `mask` a job of class c may take or make room on now: while a max-min scan
//! places jobs on their preferred pools only (PolicyState::preferred_pools_only) and jobs wait
//! beyond the free GPUs, the tier it prefers most; else all of `mask`.
//! NOTE: Gavel's rounds give each type first to the jobs its LP allocates some of it, in order
//! of priority, and only what is left to those allocated none (scheduler.py,
//! _schedule_jobs_on_workers_helper), so under contention a job relatively slow on a type does
//! not hold it while a job relatively fast there waits.
[[nodiscard]] GPUPLAN_HD inline uint64_t preferred_pools(const ModelView& m, const ReplicaState& s,
                                                         uint32_t c, uint64_t mask) {
  if (!s.policy.preferred_pools_only || fills_in_order(m, s)) return mask;
  return fastest_tier(m, c, mask, 0);
}

//! nodes_in for a job of class c; type-aware policies try the pools from the fastest for the
//! class down, a tier of equally fast pools at a time, and take the first tier with room
//! (Gavel's fifo_perf rule: the fastest type with room, else the next fastest); under
//! max_min_fairness_perf, while no job waits, from the fastest for the work down (fills_in_order),
//! and in a scan by preference, its preferred tier only (preferred_pools).
[[nodiscard]] GPUPLAN_HD inline uint32_t nodes_for(const ModelView& m, const ReplicaState& s,
                                                   uint32_t c, uint32_t gpus, uint64_t mask,
                                                   uint32_t* nodes) {
  const bool one_node = gpus <= m.classes[c].node_gpus_max;
  if (!type_aware(m.queue)) return nodes_in(m, s, gpus, one_node, mask, nodes);
  mask = preferred_pools(m, s, c, mask);
  uint64_t tried = 0;
  if (fills_in_order(m, s)) {
    for (uint64_t tier = fill_tier(m, mask, 0); tier != 0; tier = fill_tier(m, mask, tried)) {
      tried |= tier;
      const uint32_t n = nodes_in(m, s, gpus, one_node, tier, nodes);
      if (n > 0) return n;
    }
    return 0;
  }
  for (uint64_t tier = fastest_tier(m, c, mask, 0); tier != 0;
       tier = fastest_tier(m, c, mask, tried)) {
    tried |= tier;
    const uint32_t n = nodes_in(m, s, gpus, one_node, tier, nodes);
    if (n > 0) return n;
  }
  return 0;
}

//! [GPU·s] normalized attained service of the job in `slot` now: its finished runs plus the
//! current one at its normalized rate (max_min_fairness_perf's key).
[[nodiscard]] GPUPLAN_HD inline double fair_service(const ReplicaState& s, uint32_t slot) {
  const PolicyJob& pj = s.policy.jobs[slot];
  return s.jobs[slot].phase == JobPhase::running ? pj.fair_s + (s.now - pj.since) * pj.fair_rate
                                                 : pj.fair_s;
}

//! [GPU] normalized GPUs of the job in `slot` on pool `pool`: gpus x speed there / the class's
//! mean speed, so a GPU-second of the class's average GPU counts one.
[[nodiscard]] GPUPLAN_HD inline double fair_rate(const ModelView& m, const ReplicaState& s,
                                                 uint32_t slot, uint32_t pool) {
  const Job& j = s.jobs[slot];
  return j.gpus * pool_speed(m, j.class_idx, pool) / m.classes[j.class_idx].mean_speed;
}

//! True when the running job in `slot` may be preempted by max_min_fairness_perf now: only at
//! the end of one of its rounds (its review event sets lease_end to that instant).
[[nodiscard]] GPUPLAN_HD inline bool round_ends(const ReplicaState& s, uint32_t slot) {
  return s.now == s.policy.jobs[slot].lease_end;
}

//! True when no round ends at this instant under max_min_fairness_perf, so no running job can be
//! a victim of the policy now (round_ends holds only at an instant where a review set
//! round_end_at).
[[nodiscard]] GPUPLAN_HD inline bool between_rounds(const ModelView& m, const ReplicaState& s) {
  return m.queue == QueuePolicy::max_min_fairness_perf && s.now != s.policy.round_end_at;
}

//! [s] The first end of a global round after `now`: rounds are [k r, (k + 1) r) with r =
//! round_s, so every running job's round ends at the same instants (Gavel's rounds).
[[nodiscard]] GPUPLAN_HD inline SimTime next_round_end(const ModelView& m, SimTime now) {
  const double r = m.sched.round_s;
  const double k = floor(now / r);
  const SimTime t = (k + 1) * r;
  return t > now ? t : (k + 2) * r;  // NOTE: now / r may round below an exact boundary
}

}  // namespace gpuplan
