#pragma once
//! Nodes entering and leaving the usable cluster (elastic provisioning, spot reclaims and
//! returns) without reallocating anything: a node that is not up sits in no free-GPU level, so
//! placement never sees it, and its billing interval is closed.
#include "sim/core/billing.h"
#include "sim/core/cluster.h"

namespace gpuplan {

//! Flags the replica as saturated by calendar overflow (same rule as the engine's saturate()).
GPUPLAN_HD inline void econ_event_overflow(ReplicaState& s) {
  if (s.totals.saturation == SaturationCause::none) {
    s.totals.saturation = SaturationCause::event_overflow;
    s.totals.saturated_at = s.now;
  }
}

//! Schedules an event, flagging overflow instead of failing silently.
GPUPLAN_HD inline void econ_schedule(ReplicaState& s, SimTime t, EventKind kind, uint32_t target,
                                     uint32_t gen) {
  if (!schedule_event(s.events, t, kind, target, gen)) econ_event_overflow(s);
}

//! Removes a fully free node from placement (its level bit) and sets its state; no billing.
GPUPLAN_HD inline void hide_node(ReplicaState& s, uint32_t n, NodeState state) {
  set_level_bit(s, s.node_free[n], n, false);
  s.node_free[n] = 0;
  s.econ.node_state[n] = static_cast<uint8_t>(state);
}

//! Makes node n usable with all GPUs free.
GPUPLAN_HD inline void show_node(const ModelView& m, ReplicaState& s, uint32_t n) {
  s.econ.node_state[n] = static_cast<uint8_t>(NodeState::up);
  s.node_free[n] = m.pools[m.node_pool[n]].gpus_per_node;
  set_level_bit(s, s.node_free[n], n, true);
  s.head_blocked = false;  // new capacity: a blocked FIFO head may fit now
}

//! Notes that node n just became fully free; elastic pools check it again after the timeout.
GPUPLAN_HD inline void note_node_idle(const ModelView& m, ReplicaState& s, uint32_t n) {
  const PoolEconSpec& e = m.pool_econ[m.node_pool[n]];
  s.econ.node_idle_since[n] = s.now;
  if (!e.elastic || s.econ.node_check_pending[n]) return;
  s.econ.node_check_pending[n] = 1;
  econ_schedule(s, s.now + e.idle_timeout_s, EventKind::node_idle_check, n, 0);
}

//! True when node n is up with every GPU free.
[[nodiscard]] GPUPLAN_HD inline bool node_idle(const ModelView& m, const ReplicaState& s,
                                               uint32_t n) {
  return s.econ.node_state[n] == static_cast<uint8_t>(NodeState::up) &&
         s.node_free[n] == m.pools[m.node_pool[n]].gpus_per_node;
}

}  // namespace gpuplan
