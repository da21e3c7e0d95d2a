#pragma once
//! Mutable per-replica state of team quotas: the GPUs each team holds per flavor, its window
//! totals and time bins, and the scratch arrays of a reclaim decision (one field of ReplicaState;
//! sim/replica_buffers.h allocates the arrays, empty without teams).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! One team's totals over the statistics window [warmup, horizon).
struct TeamTotals {
  double used_gpu_s;             //!< [GPU·s] held by its running jobs
  double borrowed_gpu_s;         //!< [GPU·s] held above its nominal quota (summed over flavors)
  uint64_t reclaim_preemptions;  //!< its runs ended by a cohort peer reclaiming its quota
};

//! Team quota state of one replica.
struct TeamState {
  span<uint32_t> usage;        //!< [n_teams * n_flavors] GPUs held by running jobs
  span<uint32_t> trial_usage;  //!< [n_teams * n_flavors] scratch: usage in a reclaim dry run
  span<uint32_t> trial_free;   //!< [n_nodes] scratch: free GPUs in a reclaim dry run
  span<uint32_t> victims;      //!< [max_active_jobs] scratch: the dry run's victims, in order
  span<TeamTotals> totals;     //!< [n_teams]
  span<double> bin_gpu_s;      //!< [n_teams * n_bins] GPUs held, integrated over each time bin
};

}  // namespace gpuplan
