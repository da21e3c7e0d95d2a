#pragma once
//! What a scenario uses beyond a plain queue, found once at compile (ModelView::features): the
//! engine's hot path calls only the hooks a scenario needs. A skipped hook would only add zeros or
//! write state nothing reads, so results are the same with or without the mask.
#include "sim/core/class_run_spec.h"
#include "sim/core/failure_spec.h"
#include "sim/core/maintenance_spec.h"
#include "sim/core/pool_supply_spec.h"

namespace gpuplan {

//! Job runs are tracked (sim/core/job_runs.h): spot reclaims, checkpoints, spot fallback, or a
//! topology (link sharing reads a run's overheads).
inline constexpr uint32_t FEATURE_RUNS = 1u << 0;
//! Some pool is elastic: nodes idle since when, idle checks, autoscaling (sim/core/elastic.h).
inline constexpr uint32_t FEATURE_ELASTIC = 1u << 1;
//! Hardware fails: failure clocks, repairs, spares (sim/core/failures.h); needs FEATURE_RUNS.
inline constexpr uint32_t FEATURE_FAILURES = 1u << 2;
//! Planned maintenance windows: drains, stops, nodes out (sim/core/maintenance.h); needs
//! FEATURE_RUNS.
inline constexpr uint32_t FEATURE_MAINTENANCE = 1u << 3;

//! The FEATURE_* bits model `m` needs.
[[nodiscard]] GPUPLAN_HD inline uint32_t model_features(const ModelView& m) {
  uint32_t f = m.net.n_levels > 0 ? FEATURE_RUNS : 0u;
  // NOTE: time-sliced re-rating reads a run's overheads, as link sharing does.
  if (m.share.n_shared_pools > 0) f |= FEATURE_RUNS;
  if (failure_spec(m) != nullptr) f |= FEATURE_RUNS | FEATURE_FAILURES;
  if (m.maintenance.size > 0) f |= FEATURE_RUNS | FEATURE_MAINTENANCE;
  // NOTE: scheduler preemption interrupts runs through the spot path, which books them.
  if (policy_preempts(m.queue) || m.sched.priority_preemption || m.teams.n_teams > 0)
    f |= FEATURE_RUNS;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (m.pool_supply[p].spot) f |= FEATURE_RUNS;
    if (m.pool_supply[p].elastic) f |= FEATURE_ELASTIC;
  }
  for (uint32_t c = 0; c < m.classes.size; ++c) {
    const ClassRunSpec& r = m.class_runs[c];
    // NOTE: spot-first classes and restarts need a spot pool, which the loop above counted.
    if (r.checkpoints) f |= FEATURE_RUNS;
  }
  return f;
}

}  // namespace gpuplan
