#pragma once
//! `gpuplan sweep` as a library call: a Monte Carlo study per grid point (every point keeps the
//! scenario's seed, so replica k sees the same random numbers at every point) and the Pareto
//! fronts of cost against p90 wait and against utilization.
#include <cstddef>
#include <functional>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/monte_carlo.h"
#include "study/summary.h"

namespace gpuplan::study {

//! One grid point's study and where it stands.
struct SweepPoint {
  Summary summary;
  double offered_load = 0;  //!< demand / capacity of the point's scenario
  double gpus = 0;          //!< GPUs of the point's pools
  double window_s = 0;      //!< [s] statistics window
  //! No replication saturated and the offered load is below 1, so its figures are
  //! steady-state ones; only such points can be on a front.
  bool eligible = false;
  bool front_cost_wait = false;  //!< on the front of mean cost vs mean p90 wait
  //! On the front of mean cost vs mean useful work (useful_utilization): busy time lost to
  //! preemption, failures, checkpoints and restarts earns a point nothing there.
  bool front_cost_useful_work = false;
};

//! Called after each point on the process that holds the studies, with the point's index,
//! scenario, compiled scenario and summary (e.g. to write its folder); return false to stop.
using SweepPointDone = std::function<bool(std::size_t point, const Scenario& sc,
                                          const CompiledScenario& cs, const Summary& s)>;

//! The points of a sweep; `held` is false on MPI processes other than rank 0 (no points there).
struct Sweep {
  bool held = true;
  bool stopped = false;  //!< a SweepPointDone returned false; later points were not run
  std::vector<SweepPoint> points;
};

//! Runs the study of each scenario (one per grid point) with its options, calling `done` after
//! each, then marks the Pareto fronts over the eligible points. Every MPI process must call it.
[[nodiscard]] Sweep sweep(const std::vector<Scenario>& scenarios,
                          const std::vector<MonteCarloOptions>& options,
                          const SweepPointDone& done = {});

//! Useful work of a study: useful ÷ provisioned GPU-hours (gpu_hours.useful: busy less the work
//! lost to interruptions, checkpoint writes and restarts), per replication in statistics, with
//! its mean and 95% CI across them.
[[nodiscard]] MetricSummary useful_utilization(const Summary& s);

//! Marks front_cost_wait and front_cost_useful_work of `points` from their summaries and
//! `eligible` (study/sweep_grid.h pareto_front).
void mark_pareto(std::vector<SweepPoint>& points);

}  // namespace gpuplan::study
