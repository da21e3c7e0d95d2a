#pragma once
//! Statistics the core keeps for every replica: window integrals, time bins, quantile sketches.
#include "sim/core/billing.h"
#include "sim/core/compute_used.h"
#include "sim/core/team_quota.h"
#include "sim/core/state.h"

namespace gpuplan {

//! Integrates each team's held and borrowed GPUs from s.now to t: window totals and time bins.
GPUPLAN_HD inline void advance_teams(const ModelView& m, ReplicaState& s, SimTime t) {
  if (!teams_on(m) || t <= s.now) return;
  const uint32_t nf = m.teams.n_flavors;
  const double lo = s.now > m.warmup ? s.now : m.warmup;
  const double hi = t < m.horizon ? t : m.horizon;
  const double dt = hi > lo ? hi - lo : 0;
  for (uint32_t k = 0; k < m.teams.n_teams; ++k) {
    uint32_t held = 0, borrowed = 0;
    for (uint32_t r = 0; r < nf; ++r) {
      const uint32_t u = s.teams.usage[k * nf + r], n = quota_of(m, k, r).nominal;
      held += u;
      borrowed += u > n ? u - n : 0;
    }
    if (held == 0) continue;
    s.teams.totals[k].used_gpu_s += held * dt;
    s.teams.totals[k].borrowed_gpu_s += borrowed * dt;
    BinSegment g;
    for (BinWalk w = bin_walk(m, s.now, t); next_bin_segment(m, w, g);)
      s.teams.bin_gpu_s[k * m.n_bins + g.bin] += held * g.dt;
  }
}

//! Integrates busy shared GPUs (SHARE_UNITS, sim/core/shared_gpus.h) from s.now to t as
//! advance_to does whole ones: `dt` [s] is the part inside the statistics window.
GPUPLAN_HD inline void advance_shared_busy(const ModelView& m, ReplicaState& s, SimTime t,
                                           double dt) {
  const double busy = double(s.share.busy_units) / SHARE_UNITS;
  if (dt > 0) {
    s.totals.busy_gpu_s += busy * dt;
    for (uint32_t p = 0; p < m.pools.size; ++p)
      s.pool_busy_gpu_s[p] += double(s.share.pool_busy_units[p]) / SHARE_UNITS * dt;
    advance_compute(m, s, dt);
  }
  BinSegment g;
  for (BinWalk w = bin_walk(m, s.now, t); next_bin_segment(m, w, g);)
    s.bin_busy_gpu_s[g.bin] += busy * g.dt;
}

//! Integrates the piecewise-constant state from s.now to t (time bins, window totals, per pool and
//! class). The pools' supply (nodes up and their price) is integrated where it changes instead
//! (integrate_supply), and their busy GPUs' energy price once at the end (settle_spend).
GPUPLAN_HD inline void advance_to(const ModelView& m, ReplicaState& s, SimTime t) {
  if (t <= s.now) return;
  // Statistics window [warmup, horizon).
  const double lo = s.now > m.warmup ? s.now : m.warmup;
  const double hi = t < m.horizon ? t : m.horizon;
  const bool in_window = hi > lo;
  const double dt = in_window ? hi - lo : 0;
  double busy_rate = 0;  // [USD/s] for the time bins' spend
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    busy_rate += pool_busy_rate(m, s, p);
    if (in_window) s.pool_busy_gpu_s[p] += s.pool_busy_gpus[p] * dt;
  }
  if (in_window) {
    s.totals.busy_gpu_s += s.busy_gpus * dt;
    s.net.stranded_gpu_s += s.net.stranded_gpus * dt;
    s.totals.queued_job_s += s.queue_len * dt;
    s.totals.in_system_job_s += (s.queue_len + s.running) * dt;
    accrue_class_billing(m, s, dt);  // per-class busy GPUs and spend
  }
  if (s.now < s.bin_cursor.fast_end && hi <= s.bin_cursor.bin_end) {
    // NOTE: the one piece the walk below would give (most steps stay in one bin).
    const uint32_t b = s.bin_cursor.bin;
    const double piece = hi - s.now;
    s.bin_busy_gpu_s[b] += s.busy_gpus * piece;
    s.bin_queued_job_s[b] += s.queue_len * piece;
    s.bin_spend_usd[b] += busy_rate * piece;
  } else {
    BinSegment g;
    for (BinWalk w = bin_walk(m, s.now, t); next_bin_segment(m, w, g);) {
      s.bin_busy_gpu_s[g.bin] += s.busy_gpus * g.dt;
      s.bin_queued_job_s[g.bin] += s.queue_len * g.dt;
      s.bin_spend_usd[g.bin] += busy_rate * g.dt;
    }
    set_bin_cursor(m, s.bin_cursor, t);
  }
  advance_teams(m, s, t);
  if (m.share.n_shared_pools > 0) advance_shared_busy(m, s, t, dt);
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

//! Adds the age at `end` [s] of every counted job still queued or running to its class's
//! sum_age_unfinished: with the completion times, a lower bound of the mean over all counted jobs.
GPUPLAN_HD inline void record_unfinished(ReplicaState& s, SimTime end) {
  for (uint32_t slot = 0; slot < s.n_fresh_slots; ++slot) {
    const Job& j = s.jobs[slot];
    if (j.phase != JobPhase::free && j.counted)
      s.classes[j.class_idx].sum_age_unfinished += end - j.submit;
  }
}

}  // namespace gpuplan
