#pragma once
//! Staged purchases: a fixed pool's node slots [first_node, first_node + n_nodes) are its size
//! after every purchase; the slots of purchases not made yet are hidden from placement and not
//! billed (NodeState::unbought), so they add neither cost nor provisioned GPU-seconds. At a
//! purchase's time its nodes become usable and billed, like reclaimed capacity bought again
//! (sim/core/preemption.h); the scheduler then runs with them, so a waiting gang starts at once.
#include "sim/core/capacity.h"

namespace gpuplan {

//! Purchase `idx` is made now: its nodes come online, idle and billed from this instant.
GPUPLAN_HD inline void handle_node_purchase(const ModelView& m, ReplicaState& s, uint32_t idx) {
  const NodePurchase& b = m.purchases[idx];
  for (uint32_t n = b.first_node; n < b.first_node + b.n_nodes; ++n) {
    if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::unbought)) continue;
    open_billing(m, s, n);
    show_node(m, s, n);
    note_node_idle(m, s, n);
  }
}

//! Hides every pool's not-yet-bought slots and schedules each purchase (saturating on calendar
//! overflow); pools without purchases are untouched.
GPUPLAN_HD inline void init_purchases(const ModelView& m, ReplicaState& s) {
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const PoolSupplySpec& e = m.pool_supply[p];
    if (e.purchase_n == 0) continue;
    for (uint32_t i = e.purchase_idx; i < e.purchase_idx + e.purchase_n; ++i) {
      const NodePurchase& b = m.purchases[i];
      for (uint32_t n = b.first_node; n < b.first_node + b.n_nodes; ++n)
        hide_node(s, n, NodeState::unbought);
      s.pool_nodes_up[p] -= b.n_nodes;
      schedule_or_saturate(s, b.t, EventKind::node_purchase, i, 0);
    }
    s.capacity.pools[p].peak_nodes = s.pool_nodes_up[p];
  }
}

}  // namespace gpuplan
