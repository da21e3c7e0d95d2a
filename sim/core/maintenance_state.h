#pragma once
//! Mutable per-replica state of planned maintenance: each node's part in a window and the window
//! totals (one field of ReplicaState; sim/replica_buffers.h allocates the array, empty when the
//! scenario has no maintenance).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! A node's part in planned maintenance.
enum class MaintenancePhase : uint8_t {
  none,         //!< not in a window
  draining,     //!< up, its running jobs go on, no new job is placed on it
  serving_out,  //!< in maintenance; it served before and serves again after
  spare_out,    //!< in maintenance; it was a ready hot spare before
};

//! Maintenance totals over the statistics window [warmup, horizon).
struct MaintenanceTotals {
  uint64_t node_windows;   //!< nodes taken out of service for maintenance
  uint64_t interruptions;  //!< job runs ended by a window start
  double lost_gpu_s;       //!< [GPU·s] compute thrown away by those interruptions
  double node_s;           //!< [node·s] integral of the nodes in maintenance
  double gpu_s;            //!< [GPU·s] integral of their GPUs
};

//! Maintenance state of one replica.
struct MaintenanceState {
  span<uint8_t> node_phase;  //!< [n_nodes] MaintenancePhase
  uint32_t n_out = 0;        //!< nodes in maintenance now
  uint32_t gpus_out = 0;     //!< their GPUs
  SimTime since = 0;         //!< [s] node_s is up to date to here
  MaintenanceTotals totals;
};

}  // namespace gpuplan
