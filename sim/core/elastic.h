#pragma once
//! Elastic pools: a pool's node slots [first_node, first_node + n_nodes) are its maximum; slots
//! not provisioned are hidden from placement. After the scheduler runs at an instant, each
//! elastic pool requests nodes for the queued GPUs it could serve beyond those already
//! provisioning and the pool's threshold; a node is usable after a provisioning delay
//! (Stream::provisioning) and billed from the request. A node idle for the pool's idle timeout
//! is released, never below the pool's minimum.
#include "sim/core/distribution.h"
#include "sim/core/job_runs.h"
#include "sim/core/rng.h"

namespace gpuplan {

//! Requests node n of an elastic pool now and schedules it ready after a sampled delay.
GPUPLAN_HD inline void start_provisioning(const ModelView& m, ReplicaState& s, uint32_t n) {
  const uint32_t p = m.node_pool[n];
  // NOTE: from here on this slot's arrays are written; the next replica's setup resets them.
  const uint32_t slot = n - m.pools[p].first_node + 1;
  if (slot > s.capacity.pool_slots_touched[p]) s.capacity.pool_slots_touched[p] = slot;
  s.capacity.node_state[n] = static_cast<uint8_t>(NodeState::provisioning);
  s.capacity.pool_provisioning[p] += 1;
  open_billing(m, s, n);
  const Draw d =
      philox_draw(m.seed, s.replica_idx, Stream::provisioning, n, s.capacity.node_draws[n]++);
  const double delay = sample(m, m.pool_supply[p].provisioning_delay, d);
  schedule_or_saturate(s, s.now + delay, EventKind::node_ready, n, 0);
}

//! Node n finished provisioning: usable now, and idle until a job lands on it.
GPUPLAN_HD inline void handle_node_ready(const ModelView& m, ReplicaState& s, uint32_t n) {
  if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::provisioning)) return;
  s.capacity.pool_provisioning[m.node_pool[n]] -= 1;
  show_node(m, s, n);
  note_node_idle(m, s, n);
}

//! Idle check of node n: a node idle for the pool's timeout becomes a release candidate, decided
//! after this instant's scheduling (release_idle_nodes); otherwise look again when it could be due.
GPUPLAN_HD inline void handle_node_idle_check(const ModelView& m, ReplicaState& s, uint32_t n) {
  s.capacity.node_check_pending[n] = 0;
  if (!node_idle(m, s, n)) return;  // busy or gone: the next release re-arms the check
  const SimTime due = s.capacity.node_idle_since[n] + m.pool_supply[m.node_pool[n]].idle_timeout_s;
  if (due > s.now) {
    s.capacity.node_check_pending[n] = 1;
    schedule_or_saturate(s, due, EventKind::node_idle_check, n, 0);
    return;
  }
  s.capacity.node_check_pending[n] = 2;
  s.capacity.release_candidates += 1;
}

//! Seconds between idle checks of a node kept only because its pool is at its minimum.
inline constexpr double MIN_NODES_RECHECK_S = 60.0;

//! Releases node n if it is a release candidate still idle after the scheduler ran, down to its
//! pool's minimum.
GPUPLAN_HD inline void release_if_idle(const ModelView& m, ReplicaState& s, uint32_t n) {
  if (s.capacity.node_check_pending[n] != 2) return;
  s.capacity.node_check_pending[n] = 0;
  s.capacity.release_candidates -= 1;
  if (!node_idle(m, s, n)) return;  // a job landed on it at this instant
  const uint32_t p = m.node_pool[n];
  const PoolSupplySpec& e = m.pool_supply[p];
  if (s.pool_nodes_up[p] > e.min_nodes) {
    close_billing(m, s, n);
    hide_node(s, n, NodeState::absent);
    return;
  }
  // NOTE: kept for the minimum; look again later, since the pool may grow meanwhile and this
  // node should then be the one to go.
  s.capacity.node_check_pending[n] = 1;
  const double wait =
      e.idle_timeout_s > MIN_NODES_RECHECK_S ? e.idle_timeout_s : MIN_NODES_RECHECK_S;
  schedule_or_saturate(s, s.now + wait, EventKind::node_idle_check, n, 0);
}

//! Releases release candidates still idle after the scheduler ran, in node order.
GPUPLAN_HD inline void release_idle_nodes(const ModelView& m, ReplicaState& s) {
  // NOTE: candidates are nodes that have been up, so only the touched slots are read.
  for (uint32_t p = 0; p < m.pools.size && s.capacity.release_candidates > 0; ++p) {
    const uint32_t first = m.pools[p].first_node;
    for (uint32_t n = first;
         n < first + s.capacity.pool_slots_touched[p] && s.capacity.release_candidates > 0; ++n)
      release_if_idle(m, s, n);
  }
}

//! Scales elastic pools after this instant's scheduling: idle nodes past their timeout go,
//! then each pool requests nodes for the queued demand it could serve.
GPUPLAN_HD inline void autoscale(const ModelView& m, ReplicaState& s) {
  if (!(m.features & FEATURE_ELASTIC)) return;
  if (s.capacity.release_candidates > 0) release_idle_nodes(m, s);
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const PoolSupplySpec& e = m.pool_supply[p];
    if (!e.elastic) continue;
    const PoolSpec& pool = m.pools[p];
    // NOTE: billed nodes (up, provisioning, failed, ...) are never absent, so at most `room`
    // slots can be requested; once the queue asks for that many the count may stop (exact: every
    // absent slot is requested either way), which keeps a pool at its max at O(1) per instant
    // while its queue grows.
    const uint64_t room = pool.n_nodes - s.pool_nodes_up[p];
    if (room == 0 || !((m.class_pools >> p) & 1)) continue;
    const uint64_t max_gpus = uint64_t(pool.n_nodes) * pool.gpus_per_node;
    const uint64_t covered =
        uint64_t(s.capacity.pool_provisioning[p]) * pool.gpus_per_node + e.scale_out_queued_gpus;
    const uint64_t enough = covered + room * pool.gpus_per_node;
    uint64_t queued = 0;
    for (uint32_t i = 0; i < s.queue_len && queued < enough; ++i) {
      const uint32_t slot = queue_at(s, i);
      if (s.jobs[slot].gpus <= max_gpus && ((job_pool_mask(m, s, slot) >> p) & 1))
        queued += s.jobs[slot].gpus;
    }
    if (queued <= covered) continue;
    uint64_t need = (queued - covered + pool.gpus_per_node - 1) / pool.gpus_per_node;
    for (uint32_t n = pool.first_node; n < pool.first_node + pool.n_nodes && need > 0; ++n) {
      if (s.capacity.node_state[n] != static_cast<uint8_t>(NodeState::absent)) continue;
      start_provisioning(m, s, n);
      --need;
    }
  }
}

//! Starts elastic pools at their initial size, those nodes idle; notes the slots written.
GPUPLAN_HD inline void init_elastic(const ModelView& m, ReplicaState& s) {
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    // NOTE: after every reset, which reads what the last replica touched.
    s.capacity.pool_slots_touched[p] = slots_written(m, p);
    const PoolSupplySpec& e = m.pool_supply[p];
    if (!e.elastic) continue;
    // NOTE: the slots beyond the initial nodes are absent already (reset_cluster and
    // init_capacity leave them all zero), and are written only once requested.
    for (uint32_t i = 0; i < e.initial_nodes; ++i) note_node_idle(m, s, m.pools[p].first_node + i);
    s.pool_nodes_up[p] = e.initial_nodes;
    s.capacity.pool_slots_used[p] = e.initial_nodes;
    s.capacity.pools[p].peak_nodes = e.initial_nodes;
  }
}

}  // namespace gpuplan
