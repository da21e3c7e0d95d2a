#pragma once
//! The offered load of every set of pools a class may use, from the scenario alone
//! (docs/outputs.md, "Load check"): the load check's figures (study/load_check.h) and the bound
//! compile() puts into CompiledScenario::offered_load.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/scenario/scenario.h"

namespace gpuplan {

//! The offered load of one set of pools: the work of the classes confined to it against its
//! capacity.
struct PoolSetLoad {
  std::vector<uint32_t> pools;  //!< indices into Scenario::pools, ascending (one class's pools)
  double gpus = 0;              //!< GPUs of those pools together (an elastic pool at its maximum)
  //! Offered load (>= 1: cannot keep up): the sum over the classes whose pools all lie in the set
  //! of rate x mean GPUs x mean duration [GPU-s/s] over the set's capacity for that class, the
  //! sum of each pool's GPUs divided by the class's slowdown there.
  double load = 0;
  uint32_t driver = 0;     //!< index into Scenario::workload of the class with the largest share
  double driver_load = 0;  //!< that class's share of `load`
  //! The busiest week of the horizon: the highest offered load over one of the weeks [0, 168 h),
  //! [168 h, 336 h), ... (the last one cut at the horizon), with the rates of that week (growth,
  //! schedules; a weekly shape averages out) against the set's time-averaged GPUs in it (staged
  //! purchases counted). Trace classes count at their window mean. Equals `load` for a flat
  //! demand on fixed pools.
  double peak_load = 0;
  double peak_end_s = 0;  //!< [s] end of that week
  //! [s] start of the first week whose offered load is >= 1; none when every week's is below.
  std::optional<double> reaches_capacity_s;
};

//! The offered load of every distinct pool set of a class (every pool when it names none), plus
//! the whole cluster, in order of set size then first pool. Sets with no GPUs are left out.
//! `load` is over the statistics window [warmup, horizon); `peak_load` week by week over
//! [0, horizon).
[[nodiscard]] std::vector<PoolSetLoad> pool_set_loads(const Scenario& sc);

//! The offered work [GPU-s/s] of every class together over [a_s, b_s) (0 <= a_s < b_s), with the
//! durations as written: each Poisson class's expected arrivals under its rate profile (extended
//! past the horizon when b_s lies beyond it), trace classes at their window mean. Constant rates
//! give the same figure for every span.
[[nodiscard]] double offered_work_rate(const Scenario& sc, double a_s, double b_s);

//! The same for the spot-tolerant classes alone: the work spot capacity may take.
[[nodiscard]] double offered_spot_tolerant_work_rate(const Scenario& sc, double a_s, double b_s);

}  // namespace gpuplan
