#pragma once
//! sweep.json and sweep.csv of `gpuplan sweep` (docs/outputs.md, "Sweeps"): one entry per grid
//! point with its values, headline means and CIs, and Pareto membership.
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/sweep_grid.h"
#include "study/sweep.h"

namespace gpuplan::reports {

//! What sweep.json says about how the sweep was asked for.
struct SweepRequest {
  std::string scenario;  //!< the scenario's name
  uint64_t seed = 0;     //!< the seed every point shares
  std::string command;   //!< the command line that reruns the sweep
  uint32_t replications = 0;
  std::optional<double> wait_p90_target_s;  //!< --p90-wait-target
};

//! The sweep.json document of `sweep` over `axes` (points in sweep_grid order, `grid` their value
//! indices); point i's folder is "point-<i>".
[[nodiscard]] nlohmann::json sweep_json(const SweepRequest& req, const std::vector<SweepAxis>& axes,
                                        const std::vector<std::vector<std::size_t>>& grid,
                                        const study::Sweep& sweep);

//! sweep.csv: one row per point with its values, mean and CI of each headline figure and its
//! Pareto membership.
void write_sweep_csv(const std::vector<SweepAxis>& axes,
                     const std::vector<std::vector<std::size_t>>& grid, const study::Sweep& sweep,
                     std::ostream& out);

}  // namespace gpuplan::reports
