#pragma once
//! Entry points the engine calls for pricing, spot preemption, checkpoints and elastic pools:
//! init_economics (after the cluster reset), handle_economics_event (the event kinds between
//! job_finish and job_arrival), autoscale (after the scheduler), finalize_economics (at the end).
#include "sim/core/elastic.h"
#include "sim/core/preemption.h"

namespace gpuplan {

//! Resets the economics state: prices, node states, totals; starts elastic pools at their
//! initial size and the spot clocks and price series.
GPUPLAN_HD inline void init_economics(const ModelView& m, ReplicaState& s) {
  EconomicsState& e = s.econ;
  for (uint32_t n = 0; n < m.n_nodes; ++n) {
    e.node_state[n] = static_cast<uint8_t>(NodeState::up);
    e.node_billed_since[n] = 0;
    e.node_idle_since[n] = NEVER;
    e.node_check_pending[n] = 0;
    e.node_draws[n] = 0;
  }
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    e.pool_draws[p] = 0;
    e.pool_provisioning[p] = 0;
    e.pool_price_node_s[p] = m.pools[p].price_per_node_s;
    e.pools[p] = PoolEconTotals{};
    e.pools[p].peak_nodes = s.pool_nodes_up[p];
  }
  for (uint32_t i = 0; i < e.class_pool_busy_gpus.size; ++i) e.class_pool_busy_gpus[i] = 0;
  for (uint32_t c = 0; c < m.classes.size; ++c) e.classes[c] = ClassEconTotals{};
  e.slot_high_water = 0;
  e.release_candidates = 0;
  init_elastic(m, s);
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const PoolEconSpec& pe = m.pool_econ[p];
    if (pe.price_step_n == 0) continue;
    const PriceStep& first = m.price_steps[pe.price_step_idx];
    if (first.t <= 0) {
      if (!apply_price_step(m, s, pe.price_step_idx)) econ_event_overflow(s);
    } else {
      econ_schedule(s, first.t, EventKind::price_step, pe.price_step_idx, 0);
    }
  }
  init_preemption(m, s);
}

//! Handles one economics event (the caller has advanced the statistics to its time).
GPUPLAN_HD inline void handle_economics_event(const ModelView& m, ReplicaState& s,
                                              const Event& ev) {
  switch (ev.kind) {
    case EventKind::node_reclaim:
      handle_node_reclaim(m, s, ev.target);
      return;
    case EventKind::reclaim_wave:
      handle_reclaim_wave(m, s, ev.target);
      return;
    case EventKind::node_return:
      handle_node_return(m, s, ev.target);
      return;
    case EventKind::node_ready:
      handle_node_ready(m, s, ev.target);
      return;
    case EventKind::node_idle_check:
      handle_node_idle_check(m, s, ev.target);
      return;
    case EventKind::price_step:
      if (!apply_price_step(m, s, ev.target)) econ_event_overflow(s);
      return;
    case EventKind::spot_fallback:
      handle_spot_fallback(m, s, ev.target);
      return;
    case EventKind::job_finish:
    case EventKind::job_arrival:
      return;  // the engine's own
  }
}

//! Books the overheads of runs still going when the replica stopped (up to s.now).
GPUPLAN_HD inline void finalize_economics(const ModelView& m, ReplicaState& s) {
  for (uint32_t slot = 0; slot < s.econ.slot_high_water; ++slot) {
    if (s.jobs[slot].phase != JobPhase::running) continue;
    const JobEcon& je = s.econ.jobs[slot];
    const double ckpt = m.class_econ[s.jobs[slot].class_idx].checkpoint_s;
    const RunSplit r = split_run(s.now - je.run_start, je.restart_s, je.interval_s, ckpt);
    book_run(m, s, slot, s.now, r.restart_s, r.checkpoint_s, 0.0);
  }
}

}  // namespace gpuplan
