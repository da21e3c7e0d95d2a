#pragma once
//! Which node slots a replica's setup writes. An elastic pool's slots beyond those it starts with
//! are written only once the replica requests them (start_provisioning), so the setup and memory
//! follow the nodes a pool uses, not its `max`; a slot never written is all zero, an absent slot.
#include "sim/core/pool_supply_spec.h"
#include "sim/core/state.h"

namespace gpuplan {

//! Slots of pool p a replica starts with: a fixed pool's all, an elastic pool's initial nodes.
[[nodiscard]] GPUPLAN_HD inline uint32_t slots_at_start(const ModelView& m, uint32_t p) {
  const PoolSupplySpec& e = m.pool_supply[p];
  return e.elastic ? e.initial_nodes : m.pools[p].n_nodes;
}

//! Slots of pool p whose per-node arrays every replica writes: those it starts with, and every
//! slot of a spot pool with per-node interruption clocks (init_preemption: a clock runs whether
//! its slot is up or not).
[[nodiscard]] GPUPLAN_HD inline uint32_t slots_written(const ModelView& m, uint32_t p) {
  const PoolSupplySpec& e = m.pool_supply[p];
  return e.spot && e.hazard_per_node_s > 0 ? m.pools[p].n_nodes : slots_at_start(m, p);
}

//! How many of pool p's slots a replica's setup must write: those every replica writes, and
//! those the last replica on these buffers wrote (pool_slots_touched); the rest are all zero.
[[nodiscard]] GPUPLAN_HD inline uint32_t slots_to_reset(const ModelView& m, const ReplicaState& s,
                                                        uint32_t p) {
  const uint32_t always = slots_written(m, p), touched = s.capacity.pool_slots_touched[p];
  return always > touched ? always : touched;
}

}  // namespace gpuplan
