#pragma once
//! Nodes entering and leaving the usable cluster (elastic provisioning, spot reclaims and
//! returns) without reallocating anything: a node that is not up sits in no free-GPU level, so
//! placement never sees it, and its billing interval is closed.
#include "sim/core/billing.h"
#include "sim/core/cluster.h"
#include "sim/core/saturation.h"

namespace gpuplan {

//! Removes a fully free node from placement (its level bit) and sets its state; no billing.
GPUPLAN_HD inline void hide_node(ReplicaState& s, uint32_t n, NodeState state) {
  set_level_bit(s, s.node_free[n], n, false);
  s.node_free[n] = 0;
  s.capacity.node_state[n] = static_cast<uint8_t>(state);
}

//! One past the last slot of pool p that has been up this replica. An elastic pool's slots
//! beyond it have never held a GPU or a job, so per-node scans stop there: their cost follows
//! the nodes the pool has used, not its `max`.
[[nodiscard]] GPUPLAN_HD inline uint32_t pool_slots_end(const ModelView& m, const ReplicaState& s,
                                                        uint32_t p) {
  return m.pools[p].first_node + s.capacity.pool_slots_used[p];
}

//! Makes node n usable with all GPUs free.
GPUPLAN_HD inline void show_node(const ModelView& m, ReplicaState& s, uint32_t n) {
  const uint32_t p = m.node_pool[n], used = n + 1 - m.pools[p].first_node;
  if (used > s.capacity.pool_slots_used[p]) s.capacity.pool_slots_used[p] = used;
  s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::up);
  s.node_free[n] = m.pools[m.node_pool[n]].gpus_per_node;
  set_level_bit(s, s.node_free[n], n, true);
  s.head_blocked = false;   // new capacity: a blocked FIFO head may fit now
  s.types_settled = false;  // and a running job may move to it
}

//! Notes that node n just became fully free; elastic pools check it again after the timeout.
GPUPLAN_HD inline void note_node_idle(const ModelView& m, ReplicaState& s, uint32_t n) {
  const PoolSupplySpec& e = m.pool_supply[m.node_pool[n]];
  s.capacity.node_idle_since[n] = s.now;
  if (!e.elastic || s.capacity.node_check_pending[n]) return;
  s.capacity.node_check_pending[n] = 1;
  schedule_or_saturate(s, s.now + e.idle_timeout_s, EventKind::node_idle_check, n, 0);
}

//! True when node n is up with every GPU free.
[[nodiscard]] GPUPLAN_HD inline bool node_idle(const ModelView& m, const ReplicaState& s,
                                               uint32_t n) {
  return s.capacity.node_state[n] == static_cast<uint8_t>(NodeState::up) &&
         s.node_free[n] == m.pools[m.node_pool[n]].gpus_per_node;
}

//! Resets the capacity state: every node a replica starts with up with no pending checks or
//! draws, the other slots the last replica used absent (all zero), peaks at the fixed pool sizes.
GPUPLAN_HD inline void init_capacity(const ModelView& m, ReplicaState& s) {
  CapacityState& c = s.capacity;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const uint32_t first = m.pools[p].first_node, start = first + slots_at_start(m, p);
    for (uint32_t n = first; n < first + slots_to_reset(m, s, p); ++n) {
      c.node_state[n] = static_cast<uint8_t>(n < start ? NodeState::up : NodeState::absent);
      c.node_idle_since[n] = n < start ? NEVER : 0;
      c.node_check_pending[n] = 0;
      c.node_draws[n] = 0;
    }
  }
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    c.pool_draws[p] = 0;
    c.pool_provisioning[p] = 0;
    c.pool_slots_used[p] = m.pools[p].n_nodes;
    c.pools[p] = PoolCapacityTotals{};
    c.pools[p].peak_nodes = s.pool_nodes_up[p];
  }
  c.release_candidates = 0;
}

}  // namespace gpuplan
