#pragma once
//! Weighted fair share across teams (scheduler.queue "fair_share"): dominant-resource fairness
//! over GPU types (Ghodsi et al., NSDI'11) with team weights. A pass repeatedly gives the next
//! start to the team with the lowest weighted dominant share, max over GPU types r of
//! (GPUs it holds of r ÷ GPUs of r in the cluster), divided by its weight (ties: lower team
//! index), starting that team's earliest queued job that fits; a team none of whose queued jobs
//! fits drops out of the pass. Work-conserving and never preemptive (docs/scheduling-policies.md).
#include "sim/core/cluster.h"
#include "sim/core/job_runs.h"
#include "sim/core/team_quota.h"

namespace gpuplan {

//! Most teams a fair-share pass tracks (the loader's limit on teams).
inline constexpr uint32_t MAX_FAIR_TEAMS = 64;

//! Weighted dominant share of team t now: max over GPU types of its GPUs held ÷ the cluster's
//! GPUs of that type, divided by its weight.
[[nodiscard]] GPUPLAN_HD inline double weighted_dominant_share(const ModelView& m,
                                                               const ReplicaState& s, uint32_t t) {
  const uint32_t nf = m.teams.n_flavors;
  double share = 0;
  for (uint32_t r = 0; r < nf; ++r) {
    const double cap = m.teams.flavor_gpus[r];
    const double x = cap > 0 ? s.teams.usage[t * nf + r] / cap : 0.0;
    if (x > share) share = x;
  }
  return share / m.teams.weights[t];
}

//! The fair-share pass at this instant. `start(slot)` places and starts a queued job (false: it
//! does not fit). Each team passes over at most `window` of its queued jobs per instant. Started
//! jobs leave the queue, the rest keep their order.
template <class Start>
GPUPLAN_HD inline void schedule_fair_share(const ModelView& m, ReplicaState& s, const Start& start,
                                           uint32_t window) {
  const uint32_t nt = m.teams.n_teams, len = s.queue_len;
  uint32_t cursor[MAX_FAIR_TEAMS], passed[MAX_FAIR_TEAMS];
  for (uint32_t t = 0; t < nt; ++t) cursor[t] = passed[t] = 0;
  uint64_t out = 0;  // teams none of whose queued jobs fits now
  uint32_t started = 0;
  // NOTE: a start only takes GPUs and quota, so a job that did not fit earlier in the pass
  // cannot fit later in it: each team's scan goes on from where it stopped.
  for (uint32_t max_free = most_free_gpus(m, s); max_free > 0;) {
    uint32_t best = NONE;
    double best_share = 0;
    for (uint32_t t = 0; t < nt; ++t) {
      if ((out >> t) & 1) continue;
      const double share = weighted_dominant_share(m, s, t);
      if (best == NONE || share < best_share) {
        best = t;
        best_share = share;
      }
    }
    if (best == NONE) break;
    uint32_t i = cursor[best];
    bool ok = false;
    for (; i < len && passed[best] < window && !ok; ++i) {
      uint32_t& entry = queue_at(s, i);
      if (entry == NONE || team_of(m, s, entry) != best) continue;
      const Job& j = s.jobs[entry];
      const bool one_node = j.gpus <= m.classes[j.class_idx].node_gpus_max;
      ok = !(one_node && j.gpus > max_free) && start(entry);
      if (ok) {
        entry = NONE;
        ++started;
      } else {
        ++passed[best];
      }
    }
    cursor[best] = i;
    if (!ok) out |= 1ull << best;
    max_free = most_free_gpus(m, s);
  }
  drop_started(s, len, started);
}

}  // namespace gpuplan
