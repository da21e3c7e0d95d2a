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

}  // namespace gpuplan
