#pragma once
//! Statistics the core keeps for every replica: window integrals, time bins, quantile sketches.
#include "sim/core/billing.h"
#include "sim/core/team_quota.h"
#include "sim/core/state.h"

namespace gpuplan {

//! Integrates the piecewise-constant state from s.now to t (time bins, window totals, per pool).
GPUPLAN_HD inline void advance_to(const ModelView& m, ReplicaState& s, SimTime t) {
  if (t <= s.now) return;
  // Statistics window [warmup, horizon).
  const double lo = s.now > m.warmup ? s.now : m.warmup;
  const double hi = t < m.horizon ? t : m.horizon;
  // NOTE: the cluster's spend rate and provisioned GPUs, summed once for the window and the bins.
  const bool in_window = hi > lo;
  const double dt = in_window ? hi - lo : 0;
  if (in_window) {
    s.totals.busy_gpu_s += s.busy_gpus * dt;
    s.net.stranded_gpu_s += s.net.stranded_gpus * dt;
    s.totals.queued_job_s += s.queue_len * dt;
    s.totals.in_system_job_s += (s.queue_len + s.running) * dt;
  }
  double rate = 0, gpus = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const double pool_rate = pool_cost_rate(m, s, p);
    const double pool_gpus = double(s.pool_nodes_up[p]) * m.pools[p].gpus_per_node;
    rate += pool_rate;
    gpus += pool_gpus;
    if (in_window) {
      s.pool_busy_gpu_s[p] += s.pool_busy_gpus[p] * dt;
      const double cost = pool_rate * dt;
      s.pool_cost_usd[p] += cost;
      s.totals.cost_usd += cost;
      s.totals.provisioned_gpu_s += pool_gpus * dt;
    }
  }
  if (in_window) accrue_billing(m, s, dt);  // per-pool provisioned and per-class spend
  // Time bins over [0, horizon).
  const double end = t < m.horizon ? t : m.horizon;
  double now = s.now;
  uint32_t b = static_cast<uint32_t>(now / m.bin_width);
  while (now < end && b < m.n_bins) {
    const double bin_end = (b + 1 == m.n_bins) ? m.horizon : (b + 1) * m.bin_width;
    if (bin_end <= now) {  // NOTE: now / width can round down at an exact bin edge
      ++b;
      continue;
    }
    const double seg_end = end < bin_end ? end : bin_end;
    const double seg = seg_end - now;
    s.bin_busy_gpu_s[b] += s.busy_gpus * seg;
    s.bin_queued_job_s[b] += s.queue_len * seg;
    s.bin_spend_usd[b] += rate * seg;
    s.bin_provisioned_gpu_s[b] += gpus * seg;
    now = seg_end;
    if (now == bin_end) ++b;
  }
  advance_teams(m, s, t);
  s.now = t;
}

//! Records a finished counted job's wait and completion time.
GPUPLAN_HD inline void record_completion(ReplicaState& s, const Job& j) {
  const double wait = j.start - j.submit;
  const double jct = j.finish - j.submit;
  ClassTotals& c = s.classes[j.class_idx];
  c.completed += 1;
  c.sum_wait += wait;
  c.sum_wait2 += wait * wait;
  c.sum_jct += jct;
  c.sum_jct2 += jct * jct;
  if (wait > c.max_wait) c.max_wait = wait;
  if (jct > c.max_jct) c.max_jct = jct;
  sketch_add(&s.wait_hist[j.class_idx * SKETCH_BINS], wait);
  sketch_add(&s.jct_hist[j.class_idx * SKETCH_BINS], jct);
}

}  // namespace gpuplan
