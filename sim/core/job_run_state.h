#pragma once
//! Mutable per-replica state of job runs: checkpoint/restart bookkeeping of each active job and
//! per-class overhead totals (one field of ReplicaState; sim/replica_buffers.h allocates the
//! arrays).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! The current run of one active job (parallel to ReplicaState::jobs).
struct JobRun {
  SimTime run_start;      //!< [s] start of the current run
  SimTime queued_since;   //!< [s] last time it entered the queue (submit or requeue)
  double rem_wall_s;      //!< [s] compute left at run start on its pool (engine's finish − start)
  double slowdown;        //!< wall seconds per second of reference work this run
  double interval_s;      //!< [s] compute between checkpoints this run; NEVER = none
  double restart_s;       //!< [s] reload overhead paid at the start of this run
  uint32_t restarts;      //!< preemptions so far
  bool fallback_pending;  //!< a spot_fallback event for this slot is in the calendar
};

//! Per-class run overheads over the statistics window [warmup, horizon).
struct ClassRunTotals {
  double lost_gpu_s;               //!< [GPU·s] compute thrown away by interruptions
  double checkpoint_gpu_s;         //!< [GPU·s] writing checkpoints
  double restart_gpu_s;            //!< [GPU·s] reloading after preemptions
  double requeued_gpu_s;           //!< [GPU·s] interrupted jobs waiting to run again
  uint64_t preemptions;            //!< runs ended by a reclaim or by the scheduler
  uint64_t scheduler_preemptions;  //!< of those, runs ended by the queue policy or a priority
  uint64_t restarts_of_completed;  //!< restarts summed over counted completed jobs
};

//! Job run state of one replica.
struct JobRunState {
  span<JobRun> jobs;             //!< [max_active_jobs] by job slot
  span<ClassRunTotals> classes;  //!< [n_classes]
  uint32_t slot_high_water = 0;  //!< slots [0, this) have ever been used
};

}  // namespace gpuplan
