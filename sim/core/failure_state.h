#pragma once
//! Mutable per-replica state of hardware failures: which nodes are down and why, hot spares
//! ready per pool, random-draw counters and the window totals (one field of ReplicaState;
//! sim/replica_buffers.h allocates the arrays, empty when the scenario has no failures).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Failure totals over the statistics window [warmup, horizon).
struct FailureTotals {
  uint64_t failures;          //!< failures that struck a serving node (or a switch above one)
  uint64_t interruptions;     //!< job runs ended by a failure
  uint64_t spare_swaps;       //!< failed nodes replaced by a hot spare at once
  double lost_gpu_s;          //!< [GPU·s] compute thrown away by failure interruptions
  double down_gpu_s;          //!< [GPU·s] integral of the GPUs of failed nodes no spare replaced
  double spares_used_node_s;  //!< [node·s] integral of spares standing in (or down themselves)
};

//! Failure state of one replica.
struct FailureState {
  span<uint64_t> by_cause;          //!< [n_causes] window failures per cause
  span<uint32_t> pool_draws;        //!< [n_pools] draws of each pool's failure clock
  span<uint32_t> pool_spares_free;  //!< [n_pools] spares ready to take over
  span<uint32_t> pool_deficit;      //!< [n_pools] failed nodes no spare replaced
  span<uint8_t> node_down;          //!< [n_nodes] reasons a failed node is out (itself, switch)
  span<uint32_t> node_draws;        //!< [n_nodes] repair-time draws per node
  span<uint32_t> group_draws;       //!< [n_groups] draws of each leaf switch's failure clock
  span<uint8_t> group_down;         //!< [n_groups] 1 while the switch is being repaired
  SimTime since = 0;                //!< [s] integrals are up to date to here
  FailureTotals totals;
};

}  // namespace gpuplan
