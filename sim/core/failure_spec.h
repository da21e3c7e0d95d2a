#pragma once
//! Hardware failures as the core reads them (read-only): interruption rates per GPU-second by
//! cause, each striking one node (its jobs are interrupted, the node goes for repair), the jobs on
//! one node only (software: the node stays up), or every node below one leaf switch; a repair-time
//! distribution and hot spares per pool. models/compile/compile_failures.cpp fills it; a scenario
//! without failures has an empty ModelView::failures span and the engine never reads further.
#include "sim/core/model.h"

namespace gpuplan {

//! One cause of failure with its rate.
struct FailureCause {
  double rate_per_gpu_s;  //!< [1/(GPU·s)] events per GPU-second of serving nodes
  FailureScope scope;
};

//! The failure model of a scenario (one element of ModelView::failures).
struct FailureSpec {
  DistSpec repair;                   //!< [s] until a failed node (or switch) is back
  double node_rate_per_gpu_s = 0;    //!< [1/(GPU·s)] sum over node- and job-scope causes
  double switch_rate_per_gpu_s = 0;  //!< [1/(GPU·s)] sum over switch-scope causes
  uint32_t switch_level = NONE;      //!< topology level of the leaf groups; NONE: no switch causes
};

//! The failure spec of model `m`, or nullptr when it has no failures.
[[nodiscard]] GPUPLAN_HD inline const FailureSpec* failure_spec(const ModelView& m) {
  return m.failures.size > 0 ? &m.failures[0] : nullptr;
}

//! Rate [1/s] at which failures interrupt a gang of `n_nodes` nodes of pool `pool`: every cause
//! at its rate per GPU-second times the gang's GPUs (a switch failure below the gang counts as
//! its GPUs' share, exact when the gang fills its leaves); 0 without failures.
[[nodiscard]] GPUPLAN_HD inline double gang_failure_rate(const ModelView& m, uint32_t pool,
                                                         uint32_t n_nodes) {
  const FailureSpec* f = failure_spec(m);
  if (f == nullptr) return 0.0;
  const double gpus = double(n_nodes) * m.pools[pool].gpus_per_node;
  return gpus * (f->node_rate_per_gpu_s + f->switch_rate_per_gpu_s);
}

}  // namespace gpuplan
