#pragma once
//! Statistics the core keeps for every replica: window integrals, time bins, quantile sketches.
#include "sim/core/billing.h"
#include "sim/core/compute_used.h"
#include "sim/core/team_quota.h"
#include "sim/core/state.h"
#include "sim/core/ulp_search.h"

namespace gpuplan {

//! One piece of an interval that lies in a single time bin.
struct BinSegment {
  uint32_t bin;  //!< time bin index
  double dt;     //!< [s] length of the piece
};

//! Position of a walk over the time bins of an interval (bin_walk, next_bin_segment).
struct BinWalk {
  double now;    //!< [s] start of the part not walked yet
  double end;    //!< [s] end of the interval, clipped to the horizon
  uint32_t bin;  //!< bin holding `now`, or the one before at an exact edge
};

//! Starts a walk over the time bins [0, horizon) of the interval [from, to).
[[nodiscard]] GPUPLAN_HD inline BinWalk bin_walk(const ModelView& m, SimTime from, SimTime to) {
  return BinWalk{from, to < m.horizon ? to : m.horizon, static_cast<uint32_t>(from / m.bin_width)};
}

//! [s] End of time bin b; the last bin ends at the horizon.
[[nodiscard]] GPUPLAN_HD inline double bin_end_time(const ModelView& m, uint32_t b) {
  return (b + 1 == m.n_bins) ? m.horizon : (b + 1) * m.bin_width;
}

//! True for times whose quotient by `width` is `past` or more (the core takes no lambdas).
struct QuotientReaches {
  double width, past;
  [[nodiscard]] GPUPLAN_HD bool operator()(double t) const { return t / width >= past; }
};

//! Points `c` at the bin a walk from `now` starts in (bin_walk, then next_bin_segment's step
//! past an exact edge) and at the times that start in the same bin.
GPUPLAN_HD inline void set_bin_cursor(const ModelView& m, BinCursor& c, SimTime now) {
  const BinWalk w = bin_walk(m, now, now);
  uint32_t b = w.bin;
  while (b < m.n_bins && bin_end_time(m, b) <= now) ++b;
  c = BinCursor{};
  if (b >= m.n_bins) return;  // no bin: every walk from here is empty
  // NOTE: the quotient by the width is monotone in the time but rounds, so the first time whose
  // walk starts past bin b is found by single ulps near (b + 1) * width, not assumed to be it.
  const double x = first_double_where((b + 1) * m.bin_width, QuotientReaches{m.bin_width, b + 1.0});
  c.bin = b;
  c.bin_end = bin_end_time(m, b);
  c.fast_end = x < c.bin_end ? x : c.bin_end;
}

//! Sets `g` to the walk's next piece in one bin and moves past it; false when none is left.
//! The last bin ends at the horizon.
[[nodiscard]] GPUPLAN_HD inline bool next_bin_segment(const ModelView& m, BinWalk& w,
                                                      BinSegment& g) {
  while (w.now < w.end && w.bin < m.n_bins) {
    const double bin_end = (w.bin + 1 == m.n_bins) ? m.horizon : (w.bin + 1) * m.bin_width;
    if (bin_end <= w.now) {  // NOTE: now / width can round down at an exact bin edge
      ++w.bin;
      continue;
    }
    const double seg_end = w.end < bin_end ? w.end : bin_end;
    g = BinSegment{w.bin, seg_end - w.now};
    w.now = seg_end;
    if (w.now == bin_end) ++w.bin;
    return true;
  }
  return false;
}

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
      s.billing.pools[p].provisioned_gpu_s += pool_gpus * dt;
      s.billing.pools[p].provisioned_node_s += double(s.pool_nodes_up[p]) * dt;
    }
  }
  if (in_window) accrue_class_billing(m, s, dt);  // per-class busy GPUs and spend
  if (s.now < s.bin_cursor.fast_end && hi <= s.bin_cursor.bin_end) {
    // NOTE: the one piece the walk below would give (most steps stay in one bin).
    const uint32_t b = s.bin_cursor.bin;
    const double piece = hi - s.now;
    s.bin_busy_gpu_s[b] += s.busy_gpus * piece;
    s.bin_queued_job_s[b] += s.queue_len * piece;
    s.bin_spend_usd[b] += rate * piece;
    s.bin_provisioned_gpu_s[b] += gpus * piece;
  } else {
    BinSegment g;
    for (BinWalk w = bin_walk(m, s.now, t); next_bin_segment(m, w, g);) {
      s.bin_busy_gpu_s[g.bin] += s.busy_gpus * g.dt;
      s.bin_queued_job_s[g.bin] += s.queue_len * g.dt;
      s.bin_spend_usd[g.bin] += rate * g.dt;
      s.bin_provisioned_gpu_s[g.bin] += gpus * g.dt;
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
