#pragma once
//! Mutable per-replica state of the ranked queue policies (SJF, SRTF, 2D-LAS, class priorities):
//! what each active job declared and attained, and the scratch arrays of a preemption decision
//! (one field of ReplicaState; sim/replica_buffers.h allocates the arrays).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Ranking data of one active job (parallel to ReplicaState::jobs).
struct PolicyJob {
  double declared_s;    //!< [s] declared duration: its work times the estimate error factor
  double run_s;         //!< [s] wall time of its finished runs (all of them)
  double las_run_s;     //!< [s] wall time of its finished runs since its last LAS promotion
  double las_wait_s;    //!< [s] time queued since its last LAS promotion, current wait excluded
  SimTime since;        //!< [s] start of its current run or wait
  SimTime stop_at;      //!< [s] end of the preemption grace it is running in (NEVER: none)
  double fair_s;        //!< [GPU·s] normalized attained service of its finished runs (max-min)
  double fair_rate;     //!< [GPU] normalized GPUs of its current run: gpus x speed / mean speed
  SimTime lease_end;    //!< [s] max-min: the end of its current round (preemptible only then)
  SimTime moved_check;  //!< [s] max-min: when rebalancing last considered moving it
  SimTime las_next;     //!< [s] LAS, running: when it drops below las_level (NEVER: the last)
  uint32_t las_level;   //!< LAS, running: its queue at the start of its run or its last review
  uint32_t review_gen;  //!< a policy_review event for this slot with another gen is stale
};

//! Most kinds the queue index splits the queue into (sim/core/queue_index.h).
inline constexpr uint32_t MAX_INDEX_KINDS = 8;

//! The queue split by kind (sim/core/queue_index.h): kind k's queued jobs in rank order, in a ring
//! of `capacity` places at slots[k * capacity, (k + 1) * capacity).
struct QueueIndex {
  span<uint32_t> slots;  //!< [n_kinds * max_active_jobs]
  uint32_t head[MAX_INDEX_KINDS] = {};
  uint32_t len[MAX_INDEX_KINDS] = {};
  uint32_t n_kinds = 0;   //!< 0: no index
  uint32_t capacity = 0;  //!< places of each kind's ring (max_active_jobs)
};

//! Ranked-policy state of one replica.
struct PolicyState {
  span<PolicyJob> jobs;      //!< [max_active_jobs] by job slot
  span<uint32_t> deferred;   //!< [max_active_jobs] victims preempted during a pass, to requeue
  span<uint32_t> node_gpus;  //!< [n_nodes] scratch: GPUs a candidate could have on each node
  QueueIndex index;          //!< the queue by kind, when the policy keeps one
  uint32_t n_deferred = 0;
  bool deferring = false;  //!< a pass is scanning the queue: victims wait in `deferred`
  //! [s] max-min: the latest instant at which a running job's round ended (NEVER: none yet)
  SimTime round_end_at = NEVER;
  //! max-min: the scan places jobs, and makes room for them, only on the pools they prefer
  //! (preferred_pools); the pass's last scan gives what is left to any job
  bool preferred_pools_only = false;
};

}  // namespace gpuplan
