#pragma once
//! Team quotas as the core reads them (read-only, one per model), with Kubernetes Kueue's
//! ClusterQueue semantics: each team has, per flavor (a GPU type of the cluster), a nominal quota,
//! a borrowing limit and a lending limit, and teams of one cohort lend each other their unused
//! lendable quota (docs/teams.md). models/compile/compile_teams.cpp fills it; without teams it is
//! empty.
#include "sim/core/types.h"

namespace gpuplan {

//! A borrowing or lending limit that never binds.
inline constexpr uint32_t QUOTA_UNLIMITED = 0xffffffffu;

//! Whom a team under its nominal quota may preempt to get it back (Kueue's reclaimWithinCohort).
enum class ReclaimPolicy : uint8_t {
  any,             //!< any running job of a cohort peer that is borrowing
  lower_priority,  //!< only those of a lower class priority than the waiting job
  never,           //!< no reclaim: the owner waits until the borrowers finish
};

//! One team's quota of one flavor [GPUs].
struct TeamQuota {
  uint32_t nominal = 0;                        //!< GPUs the team is entitled to
  uint32_t borrowing_limit = QUOTA_UNLIMITED;  //!< most GPUs it may hold above its nominal quota
  uint32_t lending_limit = QUOTA_UNLIMITED;    //!< most of its nominal quota peers may borrow
};

//! The teams of a model (n_teams = 0: no teams, nothing is checked).
struct TeamView {
  span<const uint32_t> class_team;   //!< [n_classes] team of each job class
  span<const uint32_t> team_cohort;  //!< [n_teams] cohort index; NONE: alone, neither lends nor
                                     //!< borrows
  span<const uint32_t> pool_flavor;  //!< [n_pools] flavor (GPU type) of each pool
  span<const TeamQuota> quotas;      //!< [n_teams * n_flavors] by team, then flavor
  span<const double> weights;        //!< [n_teams] fair-share weight, > 0
  span<const double> flavor_gpus;    //!< [n_flavors] GPUs of the cluster of each flavor
  uint32_t n_teams = 0;
  uint32_t n_flavors = 0;
  ReclaimPolicy reclaim = ReclaimPolicy::any;
};

}  // namespace gpuplan
