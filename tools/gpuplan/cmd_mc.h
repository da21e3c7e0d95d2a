#pragma once
//! What `gpuplan mc`, `sweep`, `recommend` and `compare` share: the Monte Carlo options and the
//! files a Monte Carlo study writes (so a sweep point is exactly a lone `mc` run).
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "study/monte_carlo.h"
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
  MetricsOptions metrics;        //!< mc only: --openmetrics
};

//! Adds the scenario options and --replications, --max-replications, --backend, --threads,
//! --batch and --target-ci to a subcommand.
void add_mc_options(CLI::App* cmd, McCliOptions& o);

//! The backend --backend names: `auto` takes CUDA when its module is built and a device is present.
//! `cuda` without a usable device prints why on stderr and returns nullopt (invalid input, exit 2).
[[nodiscard]] std::optional<McBackend> resolve_backend(const std::string& name);

//! The study options of `o` on `backend`; progress lines on stderr prefixed with `label` (none
//! with --quiet; the counter only when stderr is a terminal).
[[nodiscard]] study::MonteCarloOptions study_options(const McCliOptions& o, McBackend backend,
                                                     const std::string& label);

//! Writes result.json (`result`), report.html, replicas.csv, timeseries.csv and classes.csv of the
//! study `s` into the staged folder `out`, under `sub` ("" or a subfolder such as "point-3");
//! false (with a message on stderr) when they cannot be written.
[[nodiscard]] bool write_study(reports::OutputFolder& out, const std::string& sub,
                               const nlohmann::json& result, const study::Summary& s);

}  // namespace gpuplan::cli
