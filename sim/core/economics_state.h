#pragma once
//! Mutable per-replica state of billing, spot preemption, checkpointing and elastic pools:
//! spans over arrays that sim/economics_buffers.cpp allocates (one field of ReplicaState).
#include "sim/core/types.h"

namespace gpuplan {

//! Life cycle of one node slot of the cluster.
enum class NodeState : uint8_t {
  up,            //!< provisioned and usable (billed)
  provisioning,  //!< requested, not usable yet (billed)
  reclaimed,     //!< taken by the spot market; capacity returns after a delay (not billed)
  absent,        //!< an elastic slot not provisioned (not billed)
};

//! Checkpoint/restart bookkeeping of one active job (parallel to ReplicaState::jobs).
struct JobEcon {
  SimTime run_start;      //!< [s] start of the current run
  SimTime queued_since;   //!< [s] last time it entered the queue (submit or requeue)
  double rem_wall_s;      //!< [s] compute left at run start on its pool (engine's finish − start)
  double slowdown;        //!< wall seconds per second of reference work this run
  double interval_s;      //!< [s] compute between checkpoints this run; NEVER = none
  double restart_s;       //!< [s] reload overhead paid at the start of this run
  uint32_t restarts;      //!< preemptions so far
  bool fallback_pending;  //!< a spot_fallback event for this slot is in the calendar
};

//! Per-pool economics totals over the statistics window [warmup, horizon).
struct PoolEconTotals {
  double provisioned_gpu_s;   //!< [GPU·s] billed GPUs integrated over the window
  double provisioned_node_s;  //!< [node·s]
  double rounding_usd;        //!< billing-granularity and minimum surcharges
  uint64_t preemptions;       //!< job runs ended by a reclaim
  uint64_t reclaimed_nodes;   //!< nodes taken by the spot market
  uint64_t waves;             //!< reclaim waves that took at least one node
  uint32_t peak_nodes;        //!< most nodes provisioned at once (any time)
};

//! Per-class economics totals over the statistics window [warmup, horizon).
struct ClassEconTotals {
  double busy_gpu_s;               //!< [GPU·s] held by this class's running jobs
  double cost_usd;                 //!< its GPU-seconds × the pool's rate
  double lost_gpu_s;               //!< [GPU·s] compute thrown away by preemptions
  double checkpoint_gpu_s;         //!< [GPU·s] writing checkpoints
  double restart_gpu_s;            //!< [GPU·s] reloading after preemptions
  uint64_t preemptions;            //!< runs ended by a reclaim
  uint64_t restarts_of_completed;  //!< restarts summed over counted completed jobs
};

//! All economics state of one replica.
struct EconomicsState {
  span<uint8_t> node_state;             //!< [n_nodes] NodeState
  span<SimTime> node_billed_since;      //!< [n_nodes] start of the open billing interval
  span<SimTime> node_idle_since;        //!< [n_nodes] when it last became fully free
  span<uint8_t> node_check_pending;     //!< [n_nodes] 1: idle check in the calendar; 2: to release
  span<uint32_t> node_draws;            //!< [n_nodes] random draws used per node
  span<uint32_t> pool_draws;            //!< [n_pools] wave draws used per pool
  span<uint32_t> pool_provisioning;     //!< [n_pools] nodes provisioning
  span<double> pool_price_node_s;       //!< [n_pools] current price [USD/s per node]
  span<PoolEconTotals> pools;           //!< [n_pools]
  span<uint32_t> class_pool_busy_gpus;  //!< [n_classes * n_pools]
  span<ClassEconTotals> classes;        //!< [n_classes]
  span<JobEcon> jobs;                   //!< [max_active_jobs]
  uint32_t slot_high_water = 0;         //!< slots [0, this) have ever been used
  uint32_t release_candidates = 0;      //!< nodes with node_check_pending == 2
};

}  // namespace gpuplan
