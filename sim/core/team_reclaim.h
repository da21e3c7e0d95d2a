#pragma once
//! Reclaim with Kueue's reclaimWithinCohort rules (docs/teams.md): a queued job whose team stays
//! within its nominal quota of a flavor, but finds no room, preempts running jobs of cohort peers
//! that hold more than their own nominal quota of that flavor. Victims, worst first: lowest class
//! priority, then the latest start of the current run, then the latest submission; a peer stops
//! being a candidate as soon as it is back at or under its nominal quota, so a team within its
//! quota never loses a job to reclaim. Victims are chosen by a dry run and preempted only when
//! they make the job fit (through interrupt_run: lost work since the last checkpoint, restart on
//! the next run, requeued at its rank).
#include "sim/core/preemption.h"
#include "sim/core/team_quota.h"

namespace gpuplan {

//! True when the running job in `v` may be reclaimed, under `usage`, for a job of team t and
//! class priority `prio` on flavor r.
[[nodiscard]] GPUPLAN_HD inline bool reclaimable(const ModelView& m, const ReplicaState& s,
                                                 const uint32_t* usage, uint32_t t, int32_t prio,
                                                 uint32_t r, uint32_t v) {
  const Job& j = s.jobs[v];
  if (j.phase != JobPhase::running || m.teams.pool_flavor[j.pool] != r) return false;
  const uint32_t k = m.teams.class_team[j.class_idx];
  if (k == t || m.teams.team_cohort[k] == NONE || m.teams.team_cohort[k] != m.teams.team_cohort[t])
    return false;
  if (!team_borrowing(m, usage, k, r)) return false;
  switch (m.teams.reclaim) {
    case ReclaimPolicy::any:
      return true;
    case ReclaimPolicy::lower_priority:
      return m.classes[j.class_idx].priority < prio;
    case ReclaimPolicy::never:
      return false;
  }
  return false;
}

//! True when running job a should be reclaimed before running job b: lower class priority, then
//! the later start of its current run, then the later submission.
[[nodiscard]] GPUPLAN_HD inline bool worse_reclaim_victim(const ModelView& m, const ReplicaState& s,
                                                          uint32_t a, uint32_t b) {
  const int32_t pa = m.classes[s.jobs[a].class_idx].priority;
  const int32_t pb = m.classes[s.jobs[b].class_idx].priority;
  if (pa != pb) return pa < pb;
  const SimTime sa = s.policy.jobs[a].since, sb = s.policy.jobs[b].since;
  if (sa != sb) return sa > sb;
  return submitted_before(s.jobs[b], s.jobs[a]);
}

//! Dry-run step: the worst reclaimable job on node n not yet among the first `n_victims` victims,
//! or NONE.
[[nodiscard]] GPUPLAN_HD inline uint32_t next_reclaim_victim(const ModelView& m,
                                                             const ReplicaState& s, uint32_t t,
                                                             int32_t prio, uint32_t r, uint32_t n,
                                                             uint32_t n_victims) {
  uint32_t best = NONE;
  for (uint32_t i = 0; i < s.running; ++i) {
    const uint32_t v = s.running_slots[i];
    if (!runs_on_node(m, s, v, n) || !reclaimable(m, s, s.teams.trial_usage.data, t, prio, r, v))
      continue;
    bool taken = false;
    for (uint32_t i = 0; i < n_victims && !taken; ++i) taken = s.teams.victims[i] == v;
    if (!taken && (best == NONE || worse_reclaim_victim(m, s, v, best))) best = v;
  }
  return best;
}

//! Dry-run: adds (sign +1) or removes (-1) victim v's GPUs to the trial free GPUs of its nodes
//! and the opposite to its team's trial usage.
GPUPLAN_HD inline void trial_take(const ModelView& m, ReplicaState& s, uint32_t v, int sign) {
  const Job& j = s.jobs[v];
  const uint32_t* nodes = &s.job_nodes[v * m.max_nodes_per_job];
  const uint32_t gpn = m.pools[j.pool].gpus_per_node;
  for (uint32_t i = 0; i < j.n_nodes; ++i)
    s.teams.trial_free[nodes[i]] += sign * int(j.n_nodes == 1 ? j.gpus : gpn);
  const uint32_t k = m.teams.class_team[j.class_idx];
  s.teams.trial_usage[k * m.teams.n_flavors + m.teams.pool_flavor[j.pool]] -= sign * int(j.gpus);
}

//! Dry-run: picks victims on node n until it has `gpus` trial-free GPUs; on failure takes back
//! the victims it picked. Returns the new victim count (unchanged on failure) and sets `ok`.
[[nodiscard]] GPUPLAN_HD inline uint32_t trial_clear(const ModelView& m, ReplicaState& s,
                                                     uint32_t t, int32_t prio, uint32_t r,
                                                     uint32_t n, uint32_t gpus, uint32_t n_victims,
                                                     bool& ok) {
  uint32_t count = n_victims;
  while (s.teams.trial_free[n] < gpus) {
    const uint32_t v = next_reclaim_victim(m, s, t, prio, r, n, count);
    if (v == NONE) {
      while (count > n_victims) trial_take(m, s, s.teams.victims[--count], -1);
      ok = false;
      return n_victims;
    }
    s.teams.victims[count++] = v;
    trial_take(m, s, v, +1);
  }
  ok = true;
  return count;
}

//! Starts a reclaim dry run: trial state = the replica's state now.
GPUPLAN_HD inline void trial_reset(const ModelView& m, ReplicaState& s) {
  for (uint32_t i = 0; i < s.teams.usage.size; ++i) s.teams.trial_usage[i] = s.teams.usage[i];
  for (uint32_t p = 0; p < m.pools.size; ++p)
    for (uint32_t n = m.pools[p].first_node; n < pool_slots_end(m, s, p); ++n)
      s.teams.trial_free[n] = s.node_free[n];
}

//! Dry run for the queued job in `slot` on pool p: the victims (in s.teams.victims) that give it
//! room there, 0 when reclaim cannot. A job that fits in one node takes the pool's node that can
//! be cleared with the most free GPUs now (lowest index on ties); a gang clears whole nodes by
//! index, free ones counted first.
[[nodiscard]] GPUPLAN_HD inline uint32_t plan_reclaim(const ModelView& m, ReplicaState& s,
                                                      uint32_t slot, uint32_t p) {
  const Job& j = s.jobs[slot];
  const uint32_t t = team_of(m, s, slot), r = m.teams.pool_flavor[p];
  const int32_t prio = m.classes[j.class_idx].priority;
  const PoolSpec& pool = m.pools[p];
  const uint32_t gpn = pool.gpus_per_node, end = pool_slots_end(m, s, p);
  bool ok = false;
  if (j.gpus <= m.classes[j.class_idx].node_gpus_max) {
    if (j.gpus > gpn) return 0;
    uint32_t best = NONE;
    for (uint32_t n = pool.first_node; n < end; ++n) {
      if (best != NONE && s.node_free[n] <= s.node_free[best]) continue;
      trial_reset(m, s);
      const uint32_t k = trial_clear(m, s, t, prio, r, n, j.gpus, 0, ok);
      if (ok && k > 0) best = n;
    }
    if (best == NONE) return 0;
    trial_reset(m, s);
    return trial_clear(m, s, t, prio, r, best, j.gpus, 0, ok);
  }
  const uint32_t need = (j.gpus + gpn - 1) / gpn;
  if (need > pool.n_nodes || need > m.max_nodes_per_job) return 0;
  trial_reset(m, s);
  uint32_t count = 0;
  for (uint32_t n = pool.first_node; n < end; ++n) {
    uint32_t whole = 0;  // NOTE: a cleared gang may free later nodes too: count again
    for (uint32_t i = pool.first_node; i < end; ++i) whole += s.teams.trial_free[i] == gpn;
    if (whole >= need) return count;
    if (s.teams.trial_free[n] == gpn) continue;
    count = trial_clear(m, s, t, prio, r, n, gpn, count, ok);
  }
  uint32_t whole = 0;
  for (uint32_t i = pool.first_node; i < end; ++i) whole += s.teams.trial_free[i] == gpn;
  return whole >= need ? count : 0;
}

//! Reclaims quota for the queued job in `slot` when its team stays within its nominal quota on
//! some pool it may use and preempting borrowing peers there makes it fit: tries those pools in
//! order and preempts the first plan's victims. True when it preempted.
[[nodiscard]] GPUPLAN_HD inline bool reclaim_room(const ModelView& m, ReplicaState& s,
                                                  uint32_t slot) {
  if (!teams_on(m) || m.teams.reclaim == ReclaimPolicy::never) return false;
  const uint64_t mask = job_pool_mask(m, s, slot) & team_nominal_mask(m, s, slot);
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (!((mask >> p) & 1)) continue;
    const uint32_t r = m.teams.pool_flavor[p], t = team_of(m, s, slot);
    bool lender = false;  // NOTE: the common case, no peer borrowing this flavor, costs O(teams)
    for (uint32_t k = 0; k < m.teams.n_teams && !lender; ++k)
      lender = k != t && m.teams.team_cohort[k] == m.teams.team_cohort[t] &&
               team_borrowing(m, s.teams.usage.data, k, r);
    if (!lender || m.teams.team_cohort[t] == NONE) continue;
    const uint32_t n_victims = plan_reclaim(m, s, slot, p);
    if (n_victims == 0) continue;
    for (uint32_t i = 0; i < n_victims; ++i) {
      const uint32_t v = s.teams.victims[i];
      if (in_window(m, s.now)) {
        s.runs.classes[s.jobs[v].class_idx].preemptions += 1;
        s.teams.totals[m.teams.class_team[s.jobs[v].class_idx]].reclaim_preemptions += 1;
      }
      interrupt_run(m, s, v, 0.0);
    }
    return true;
  }
  return false;
}

}  // namespace gpuplan
