#pragma once
//! How each job class's runs behave, as the core reads it (read-only): checkpoint/restart and
//! spot tolerance. models/compile/compile_economics.cpp fills it; a class without such keys gets
//! the defaults below (no checkpoints, any of its pools at once).
#include "sim/core/model.h"

namespace gpuplan {

//! How a job class checkpoints and where it may run.
struct ClassRunSpec {
  bool checkpoints = false;         //!< false: a preempted job restarts from scratch
  bool auto_interval = false;       //!< interval from Daly's formula per pool and gang size
  double interval_s = 0.0;          //!< [s] of compute between checkpoints (when !auto_interval)
  double checkpoint_s = 0.0;        //!< [s] C: time to write one checkpoint (job stretches)
  double restart_s = 0.0;           //!< [s] R: time to reload after a preemption
  uint64_t first_mask = 0;          //!< pools before the fallback: pool_mask minus on-demand pools
  double fallback_after_s = NEVER;  //!< [s] queued this long, it may use its on-demand pools too
  bool spot_first = false;          //!< true: only first_mask pools until fallback_after_s
};

}  // namespace gpuplan
