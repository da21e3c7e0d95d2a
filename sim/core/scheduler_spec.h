#pragma once
//! How the queue policy ranks jobs, as the core reads it (read-only, one per model): the 2D-LAS
//! queue thresholds and starvation knob, the duration-estimate error, and whether class
//! priorities preempt. models/compile/compile.cpp fills it; the defaults rank nothing (plain FIFO).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Most 2D-LAS queues a scenario may ask for (thresholds = queues - 1).
inline constexpr uint32_t MAX_LAS_QUEUES = 8;

//! Scheduler parameters beyond the queue policy enum.
struct SchedulerSpec {
  //! [GPU·s] attained GPU-time at which a job leaves LAS queue k for k + 1, increasing.
  double las_thresholds_gpu_s[MAX_LAS_QUEUES - 1] = {};
  uint32_t las_n_thresholds = 0;  //!< queues - 1
  //! A job in a lower LAS queue that has waited this many times its run time since its last
  //! promotion goes back to the top queue (Tiresias' PROMOTE_KNOB); 0 = never.
  double las_promote_knob = 0;
  //! Sigma of ln(declared / true duration) for SJF/SRTF (median factor 1); 0 = exact estimates.
  double estimate_sigma = 0;
  //! [s] a job the queue policy or a priority preempts keeps running (and holding its GPUs) this
  //! long before it is stopped, and may write a final checkpoint in it; 0 = stopped at once.
  double preemption_grace_s = 0;
  //! A queued job may preempt running jobs of a lower class priority.
  bool priority_preemption = false;
  //! [s] max_min_fairness_perf: a running job may be preempted by the policy only at the end of
  //! each round of its run (Gavel's round, default 360 s).
  double round_s = 360;
  //! The queue is kept in rank order (any policy but plain fifo/backfill, or class priorities).
  bool ranked = false;
};

//! True when the queue policy itself preempts (a better-ranked job takes a worse one's GPUs).
[[nodiscard]] GPUPLAN_HD inline bool policy_preempts(QueuePolicy q) {
  return q == QueuePolicy::srtf || q == QueuePolicy::las || q == QueuePolicy::max_min_fairness_perf;
}

}  // namespace gpuplan
