#pragma once
//! What `gpuplan mc` and `gpuplan sweep` share: the Monte Carlo options and one study run from a
//! loaded scenario to its output folder (so a sweep point is exactly a lone `mc` run).
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario.h"
#include "sim/mc_run.h"
#include "tools/gpuplan/common.h"

namespace gpuplan::cli {

//! Monte Carlo options of `mc` and `sweep`, on top of the scenario options.
struct McCliOptions {
  ScenarioOptions scenario;
  uint32_t replications = 100;
  uint32_t max_replications = 10000;
  std::string backend = "auto";  //!< auto | cpu | cuda
  uint32_t threads = 0;          //!< 0 = OpenMP default
  uint32_t batch = 0;            //!< 0 = sized from memory
  double target_ci = 0;          //!< 0 = run exactly --replications
};

//! Adds the scenario options and --replications, --max-replications, --backend, --threads,
//! --batch and --target-ci to a subcommand.
void add_mc_options(CLI::App* cmd, McCliOptions& o);

//! The backend --backend names: `auto` takes CUDA when it is compiled in and a device is present.
//! `cuda` without a usable device prints why on stderr and returns nullopt (invalid input, exit 2).
[[nodiscard]] std::optional<McBackend> resolve_backend(const std::string& name);

//! Runs the study of a loaded scenario and writes result.json, report.html, replicas.csv,
//! timeseries.csv and classes.csv into `dir`. `label` prefixes progress lines. Returns the exit
//! status (0, or 1 when the folder cannot be written) and the result document in `result`.
int run_study(const Scenario& sc, const McCliOptions& o, McBackend backend,
              const std::filesystem::path& dir, const std::string& label, nlohmann::json& result);

}  // namespace gpuplan::cli
