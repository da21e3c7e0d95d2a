#pragma once
//! Team quota admission with Kueue's ClusterQueue rules (docs/teams.md). Per flavor r, team t
//! holds U[t][r] GPUs; its nominal quota N, borrowing limit B and lending limit L split N into a
//! guaranteed part G = N − min(N, L) that only t may use and a lendable part min(N, L) that its
//! cohort shares. A job of g GPUs of team t may start on a pool of flavor r when
//!   U + g ≤ N (within its quota), or
//!   t has a cohort, U + g ≤ N + B, and the cohort's lendable pool still has the room:
//!   Σ_k max(0, U_k − G_k) + (max(0, U + g − G) − max(0, U − G)) ≤ Σ_k min(N_k, L_k)
//!   over the teams k of its cohort.
//! Reclaim (a team under its quota taking back GPUs from borrowers) is sim/core/team_reclaim.h.
#include "sim/core/state.h"

namespace gpuplan {

//! True when the model has teams (every class then belongs to one).
[[nodiscard]] GPUPLAN_HD inline bool teams_on(const ModelView& m) {
  return m.teams.n_teams > 0;
}

//! True when a team under its quota may preempt borrowing peers (sim/core/team_reclaim.h).
[[nodiscard]] GPUPLAN_HD inline bool reclaims(const ModelView& m) {
  return teams_on(m) && m.teams.reclaim != ReclaimPolicy::never;
}

//! Team t's quota of flavor r.
[[nodiscard]] GPUPLAN_HD inline const TeamQuota& quota_of(const ModelView& m, uint32_t t,
                                                          uint32_t r) {
  return m.teams.quotas[t * m.teams.n_flavors + r];
}

//! [GPUs] the part of a quota that cohort peers may borrow: min(nominal, lending limit).
[[nodiscard]] GPUPLAN_HD inline uint32_t lendable(const TeamQuota& q) {
  return q.lending_limit < q.nominal ? q.lending_limit : q.nominal;
}

//! [GPUs] the part of a quota only its team may use: nominal − lendable.
[[nodiscard]] GPUPLAN_HD inline uint32_t guaranteed(const TeamQuota& q) {
  return q.nominal - lendable(q);
}

//! True when team t, holding `usage` (by team, then flavor), may take g more GPUs of flavor r.
[[nodiscard]] GPUPLAN_HD inline bool quota_admits(const ModelView& m, const uint32_t* usage,
                                                  uint32_t t, uint32_t r, uint32_t g) {
  const uint32_t nf = m.teams.n_flavors;
  const TeamQuota& q = quota_of(m, t, r);
  const uint64_t u = usage[t * nf + r], want = u + g;
  if (want <= q.nominal) return true;
  const uint32_t cohort = m.teams.team_cohort[t];
  if (cohort == NONE) return false;
  if (q.borrowing_limit != QUOTA_UNLIMITED && want > uint64_t(q.nominal) + q.borrowing_limit)
    return false;
  uint64_t pool = 0, used = 0;  // the cohort's lendable GPUs, and those held beyond guarantees
  for (uint32_t k = 0; k < m.teams.n_teams; ++k) {
    if (m.teams.team_cohort[k] != cohort) continue;
    const TeamQuota& qk = quota_of(m, k, r);
    const uint32_t uk = usage[k * nf + r], gk = guaranteed(qk);
    pool += lendable(qk);
    used += uk > gk ? uk - gk : 0;
  }
  const uint64_t g0 = guaranteed(q);
  const uint64_t before = u > g0 ? u - g0 : 0, after = want > g0 ? want - g0 : 0;
  return used + (after - before) <= pool;
}

//! Team of the job in `slot`.
[[nodiscard]] GPUPLAN_HD inline uint32_t team_of(const ModelView& m, const ReplicaState& s,
                                                 uint32_t slot) {
  return m.teams.class_team[s.jobs[slot].class_idx];
}

//! Pools on which the queued job in `slot` fits its team's quota now (all pools without teams).
[[nodiscard]] GPUPLAN_HD inline uint64_t team_pool_mask(const ModelView& m, const ReplicaState& s,
                                                        uint32_t slot) {
  if (!teams_on(m)) return ~0ull;
  const uint32_t t = team_of(m, s, slot), g = s.jobs[slot].gpus;
  uint64_t mask = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p)
    if (quota_admits(m, s.teams.usage.data, t, m.teams.pool_flavor[p], g)) mask |= 1ull << p;
  return mask;
}

//! True when the queued job in `slot` fits its team's quota on none of its class's pools now.
[[nodiscard]] GPUPLAN_HD inline bool quota_blocked(const ModelView& m, const ReplicaState& s,
                                                   uint32_t slot) {
  return teams_on(m) &&
         (m.classes[s.jobs[slot].class_idx].pool_mask & team_pool_mask(m, s, slot)) == 0;
}

//! Pools on which the queued job in `slot` stays within its team's nominal quota (it may reclaim
//! there).
[[nodiscard]] GPUPLAN_HD inline uint64_t team_nominal_mask(const ModelView& m,
                                                           const ReplicaState& s, uint32_t slot) {
  const uint32_t t = team_of(m, s, slot), g = s.jobs[slot].gpus;
  uint64_t mask = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const uint32_t r = m.teams.pool_flavor[p];
    if (uint64_t(s.teams.usage[t * m.teams.n_flavors + r]) + g <= quota_of(m, t, r).nominal)
      mask |= 1ull << p;
  }
  return mask;
}

//! True when team k holds more GPUs of flavor r than its nominal quota in `usage`.
[[nodiscard]] GPUPLAN_HD inline bool team_borrowing(const ModelView& m, const uint32_t* usage,
                                                    uint32_t k, uint32_t r) {
  return usage[k * m.teams.n_flavors + r] > quota_of(m, k, r).nominal;
}

//! True when a priority or queue-policy preemption may take the running job in slot b for the
//! job in slot a as far as teams go: same team, or b's team is borrowing the flavor b runs on
//! (Kueue preempts across ClusterQueues only workloads of queues above their nominal quota).
[[nodiscard]] GPUPLAN_HD inline bool team_preemptable(const ModelView& m, const ReplicaState& s,
                                                      uint32_t a, uint32_t b) {
  if (!teams_on(m)) return true;
  const uint32_t tb = team_of(m, s, b);
  if (team_of(m, s, a) == tb) return true;
  return team_borrowing(m, s.teams.usage.data, tb, m.teams.pool_flavor[s.jobs[b].pool]);
}

//! Books the GPUs of the job in `slot`, just placed on `pool`, to its team.
GPUPLAN_HD inline void note_team_start(const ModelView& m, ReplicaState& s, uint32_t slot,
                                       uint32_t pool) {
  if (!teams_on(m)) return;
  s.teams.usage[team_of(m, s, slot) * m.teams.n_flavors + m.teams.pool_flavor[pool]] +=
      s.jobs[slot].gpus;
}

//! Returns the GPUs of the running job in `slot` (still on its pool) to its team's quota.
GPUPLAN_HD inline void note_team_release(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (!teams_on(m)) return;
  const Job& j = s.jobs[slot];
  s.teams.usage[team_of(m, s, slot) * m.teams.n_flavors + m.teams.pool_flavor[j.pool]] -= j.gpus;
}

//! Resets every team's usage, totals and time bins (at replica start).
GPUPLAN_HD inline void init_teams(ReplicaState& s) {
  for (uint32_t i = 0; i < s.teams.usage.size; ++i) s.teams.usage[i] = 0;
  for (uint32_t i = 0; i < s.teams.totals.size; ++i) s.teams.totals[i] = TeamTotals{};
  for (uint32_t i = 0; i < s.teams.bin_gpu_s.size; ++i) s.teams.bin_gpu_s[i] = 0;
}

}  // namespace gpuplan
