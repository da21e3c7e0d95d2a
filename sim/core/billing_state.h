#pragma once
//! Mutable per-replica state of billing: open billing intervals, current prices, and the
//! provisioned and per-class spend totals (one field of ReplicaState; sim/replica_buffers.h
//! allocates the arrays).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Per-pool billing totals over the statistics window [warmup, horizon).
struct PoolBillingTotals {
  double provisioned_gpu_s;   //!< [GPU·s] billed GPUs integrated over the window
  double provisioned_node_s;  //!< [node·s]
  double rounding_usd;        //!< billing-granularity and minimum surcharges
};

//! Per-class billing totals over the statistics window [warmup, horizon).
struct ClassBillingTotals {
  double busy_gpu_s;  //!< [GPU·s] held by this class's running jobs
  double cost_usd;    //!< its GPU-seconds × the pool's rate
};

//! Billing state of one replica.
struct BillingState {
  span<SimTime> node_billed_since;  //!< [n_nodes] start of the open billing interval
  span<double> pool_price_node_s;   //!< [n_pools] current price [USD/s per node]
  span<double> pool_gpu_rate;  //!< [n_pools] [USD/s] what one busy GPU is charged: pool_gpu_rate()
  span<PoolBillingTotals> pools;        //!< [n_pools]
  span<uint32_t> class_pool_busy_gpus;  //!< [n_classes * n_pools] GPUs each class holds per pool
  span<ClassBillingTotals> classes;     //!< [n_classes]
  SimTime supply_since = 0;  //!< [s] integrate_supply has integrated the pools' supply up to here
};

}  // namespace gpuplan
