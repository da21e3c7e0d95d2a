#pragma once
//! Pool billing in the core: spend accrues continuously on provisioned nodes (plus on-prem
//! energy per busy GPU); when a node's provisioned interval closes (scale-in, reclaim) the
//! billing granularity and minimum add a rounding surcharge. Spend is split per job class by its
//! GPU-seconds at the pool's per-GPU rate; the rest of a pool's spend is idle.
#include <cmath>

#include "sim/core/node_slots.h"
#include "sim/core/pool_supply_spec.h"
#include "sim/core/saturation.h"
#include "sim/core/time_bins.h"

namespace gpuplan {

//! [USD/s] What pool p's busy GPUs cost now beyond their nodes' price: busy GPUs (shared ones
//! in SHARE_UNITS, sim/core/shared_gpus.h) × the energy price per busy GPU.
[[nodiscard]] GPUPLAN_HD inline double pool_busy_rate(const ModelView& m, const ReplicaState& s,
                                                      uint32_t p) {
  const double busy = m.share.n_shared_pools == 0
                          ? double(s.pool_busy_gpus[p])
                          : s.pool_busy_gpus[p] + double(s.share.pool_busy_units[p]) / SHARE_UNITS;
  return busy * m.pool_supply[p].price_per_busy_gpu_s;
}

//! Integrates the pools' supply (nodes up, their GPUs and what the nodes cost) from
//! s.billing.supply_since to now: each pool's provisioned GPU- and node-seconds and spend, the
//! cluster's totals, and the time bins.
//! NOTE: supply changes only where a node starts or stops being billed or a price steps, which
//! call this first (open_billing, close_billing, set_pool_price), so it is integrated there and
//! at the replica's end (settle_spend), not at every step: a stretch of constant supply is one
//! product per quantity.
GPUPLAN_HD inline void integrate_supply(const ModelView& m, ReplicaState& s) {
  const SimTime from = s.billing.supply_since, to = s.now;
  if (!(to > from)) return;
  s.billing.supply_since = to;
  const double lo = from > m.warmup ? from : m.warmup;
  const double hi = to < m.horizon ? to : m.horizon;
  const double dt = hi > lo ? hi - lo : 0;
  double rate = 0, gpus = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const double nodes = s.pool_nodes_up[p];
    const double pool_gpus = nodes * m.pools[p].gpus_per_node;
    const double pool_rate = nodes * s.billing.pool_price_node_s[p];
    rate += pool_rate;
    gpus += pool_gpus;
    if (dt > 0) {
      PoolBillingTotals& b = s.billing.pools[p];
      b.provisioned_gpu_s += pool_gpus * dt;
      b.provisioned_node_s += nodes * dt;
      s.pool_cost_usd[p] += pool_rate * dt;
      s.totals.provisioned_gpu_s += pool_gpus * dt;
      s.totals.cost_usd += pool_rate * dt;
    }
  }
  BinSegment g;
  for (BinWalk w = bin_walk(m, from, to); next_bin_segment(m, w, g);) {
    s.bin_spend_usd[g.bin] += rate * g.dt;
    s.bin_provisioned_gpu_s[g.bin] += gpus * g.dt;
  }
}

//! Completes the replica's spend at its end: the supply up to now, and each pool's busy GPUs at
//! their energy price, which is that price × the pool's busy GPU-seconds (advance_to integrates
//! those at every step; the time bins take the same rate there).
GPUPLAN_HD inline void settle_spend(const ModelView& m, ReplicaState& s) {
  integrate_supply(m, s);
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const double busy_usd = s.pool_busy_gpu_s[p] * m.pool_supply[p].price_per_busy_gpu_s;
    s.pool_cost_usd[p] += busy_usd;
    s.totals.cost_usd += busy_usd;
  }
}

//! Rate [USD/s] one busy GPU of pool p is charged to its job class.
[[nodiscard]] GPUPLAN_HD inline double pool_gpu_rate(const ModelView& m, const ReplicaState& s,
                                                     uint32_t p) {
  return s.billing.pool_price_node_s[p] / m.pools[p].gpus_per_node +
         m.pool_supply[p].price_per_busy_gpu_s;
}

//! Sets pool p's node price [USD/s per node] and its per-GPU rate with it.
GPUPLAN_HD inline void set_pool_price(const ModelView& m, ReplicaState& s, uint32_t p,
                                      double price_per_node_s) {
  integrate_supply(m, s);
  s.billing.pool_price_node_s[p] = price_per_node_s;
  s.billing.pool_gpu_rate[p] = pool_gpu_rate(m, s, p);
}

//! Integrates each class's busy GPUs and spend over `dt` seconds inside [warmup, horizon).
GPUPLAN_HD inline void accrue_class_billing(const ModelView& m, ReplicaState& s, double dt) {
  for (uint32_t c = 0; c < m.classes.size; ++c) {
    double gpus = 0, rate = 0;
    for (uint32_t p = 0; p < m.pools.size; ++p) {
      const uint32_t n = s.billing.class_pool_busy_gpus[c * m.pools.size + p];
      if (n == 0) continue;
      gpus += n;
      rate += n * s.billing.pool_gpu_rate[p];
    }
    s.billing.classes[c].busy_gpu_s += gpus * dt;
    s.billing.classes[c].cost_usd += rate * dt;
  }
}

//! Billed seconds of a provisioned interval of `used_s` seconds under pool p's rule.
[[nodiscard]] GPUPLAN_HD inline double billed_seconds(const PoolSupplySpec& e, double used_s) {
  if (used_s <= 0) return 0;
  // NOTE: event times are sums of doubles; a microsecond of slack keeps 3600.0000001 s from
  // being billed as two hours (same rule as models/economics/billing.cpp).
  const double billed = ceil((used_s - 1e-6) / e.billing_unit_s) * e.billing_unit_s;
  const double at_least = billed > used_s ? billed : used_s;
  return at_least > e.billing_minimum_s ? at_least : e.billing_minimum_s;
}

//! Starts billing node n now (provisioning requested or capacity re-bought).
GPUPLAN_HD inline void open_billing(const ModelView& m, ReplicaState& s, uint32_t n) {
  const uint32_t p = m.node_pool[n];
  s.billing.node_billed_since[n] = s.now;
  integrate_supply(m, s);
  s.pool_nodes_up[p] += 1;
  if (s.pool_nodes_up[p] > s.capacity.pools[p].peak_nodes)
    s.capacity.pools[p].peak_nodes = s.pool_nodes_up[p];
}

//! Stops billing node n now; the granularity/minimum surcharge is charged at this instant.
GPUPLAN_HD inline void close_billing(const ModelView& m, ReplicaState& s, uint32_t n) {
  const uint32_t p = m.node_pool[n];
  integrate_supply(m, s);
  s.pool_nodes_up[p] -= 1;
  const double used = s.now - s.billing.node_billed_since[n];
  const double extra =
      (billed_seconds(m.pool_supply[p], used) - used) * s.billing.pool_price_node_s[p];
  if (extra <= 0) return;
  if (s.now >= m.warmup && s.now < m.horizon) {
    s.billing.pools[p].rounding_usd += extra;
    s.pool_cost_usd[p] += extra;
    s.totals.cost_usd += extra;
  }
  const uint32_t b = bin_of(m, s.now);
  if (b != NONE) s.bin_spend_usd[b] += extra;
}

//! Applies price step `idx` and schedules the pool's next step (saturating on calendar overflow).
GPUPLAN_HD inline void apply_price_step(const ModelView& m, ReplicaState& s, uint32_t idx) {
  const PriceStep& step = m.price_steps[idx];
  set_pool_price(m, s, step.pool, step.price_per_node_s);
  const PoolSupplySpec& e = m.pool_supply[step.pool];
  if (idx + 1 >= e.price_step_idx + e.price_step_n) return;
  const SimTime next = m.price_steps[idx + 1].t;
  if (next >= m.horizon) return;
  schedule_or_saturate(s, next, EventKind::price_step, idx + 1, 0);
}

//! Resets the billing state: every node billed from t = 0 at its pool's list price, no totals.
GPUPLAN_HD inline void init_billing(const ModelView& m, ReplicaState& s) {
  BillingState& b = s.billing;
  b.supply_since = s.now;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const uint32_t first = m.pools[p].first_node;
    for (uint32_t n = first; n < first + slots_to_reset(m, s, p); ++n) b.node_billed_since[n] = 0;
    set_pool_price(m, s, p, m.pools[p].price_per_node_s);
    b.pools[p] = PoolBillingTotals{};
  }
  for (uint32_t i = 0; i < b.class_pool_busy_gpus.size; ++i) b.class_pool_busy_gpus[i] = 0;
  for (uint32_t c = 0; c < m.classes.size; ++c) b.classes[c] = ClassBillingTotals{};
}

//! Starts each pool's price series: a step at t <= 0 applies now, a later one is scheduled.
GPUPLAN_HD inline void start_price_series(const ModelView& m, ReplicaState& s) {
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const PoolSupplySpec& e = m.pool_supply[p];
    if (e.price_step_n == 0) continue;
    const PriceStep& first = m.price_steps[e.price_step_idx];
    if (first.t <= 0) {
      apply_price_step(m, s, e.price_step_idx);
    } else {
      schedule_or_saturate(s, first.t, EventKind::price_step, e.price_step_idx, 0);
    }
  }
}

}  // namespace gpuplan
