#pragma once
//! The teams of a model as the core reads them (ModelView::teams): each class's team, each team's
//! cohort, quotas per flavor and fair-share weights (sim/core/team_spec.h defines a quota).
#include "sim/core/portable.h"
#include "sim/core/team_spec.h"

namespace gpuplan {

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
