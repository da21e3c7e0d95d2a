#pragma once
//! Mutable per-replica state of node capacity: each node's life cycle (up, provisioning,
//! reclaimed, absent), elastic idle checks, spot draws and per-pool capacity totals
//! (one field of ReplicaState; sim/replica_buffers.h allocates the arrays).
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Life cycle of one node slot of the cluster.
//! NOTE: absent is 0, so an elastic slot whose per-node arrays are all zero is an absent slot:
//! slots a replica never provisions are never written (init_elastic, elastic_slots_touched).
enum class NodeState : uint8_t {
  absent,        //!< an elastic slot not provisioned (not billed)
  up,            //!< provisioned and usable (billed)
  provisioning,  //!< requested, not usable yet (billed)
  reclaimed,     //!< taken by the spot market; capacity returns after a delay (not billed)
  unbought,      //!< a staged purchase not made yet (not billed, not provisioned)
  spare,         //!< a hot spare held back to replace a failed node (billed)
  failed,        //!< down for repair after a hardware failure (billed)
  maintenance,   //!< out of service in a planned maintenance window (billed)
};

//! Per-pool capacity totals: reclaims over the statistics window [warmup, horizon), peak any time.
struct PoolCapacityTotals {
  uint64_t preemptions;      //!< job runs ended by a reclaim
  uint64_t reclaimed_nodes;  //!< nodes taken by the spot market
  uint64_t waves;            //!< reclaim waves that took at least one node
  uint32_t peak_nodes;       //!< most nodes provisioned at once (any time)
};

//! Node capacity state of one replica.
struct CapacityState {
  span<uint8_t> node_state;          //!< [n_nodes] NodeState
  span<SimTime> node_idle_since;     //!< [n_nodes] when it last became fully free
  span<uint8_t> node_check_pending;  //!< [n_nodes] 1: idle check in the calendar; 2: to release
  span<uint32_t> node_draws;         //!< [n_nodes] random draws used per node
  span<uint32_t> pool_draws;         //!< [n_pools] wave draws used per pool
  span<uint32_t> pool_provisioning;  //!< [n_pools] nodes provisioning
  //! [n_pools] slots of pool p that have been up this replica: [first_node, first_node + this)
  span<uint32_t> pool_slots_used;
  //! [n_pools] slots of pool p whose per-node arrays this replica (or the last one run on these
  //! buffers) has written: the fixed pools whole, an elastic pool up to the highest slot it has
  //! requested. Beyond it every per-node array is zero, an absent slot; so a replica's setup
  //! costs what the pool uses, not its `max` (issue 38).
  span<uint32_t> pool_slots_touched;
  span<PoolCapacityTotals> pools;   //!< [n_pools]
  uint32_t release_candidates = 0;  //!< nodes with node_check_pending == 2
};

}  // namespace gpuplan
