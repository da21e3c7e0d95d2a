#pragma once
//! result.json and replicas.csv of a Monte Carlo study (ARCHITECTURE.md §5; docs/outputs.md).
#include <ostream>

#include <nlohmann/json.hpp>

#include "models/compile.h"
#include "models/scenario.h"
#include "sim/mc_run.h"
#include "sim/mc_summary.h"

namespace gpuplan {

//! How the study was asked for, echoed into the result.
struct McRequest {
  uint32_t replications = 0;      //!< --replications
  uint32_t max_replications = 0;  //!< --max-replications (with a CI target)
  double target_ci_rel = 0;       //!< --target-ci (0 = none)
};

//! The result document of `gpuplan mc`: the single-run shape with means across the replicas in
//! statistics, plus `summary`, `bands` and `monte_carlo` (backend, batches, saturation, CI target).
[[nodiscard]] nlohmann::json monte_carlo_result(const Scenario& sc, const CompiledScenario& cs,
                                                const McStudy& st, const McSummary& sum,
                                                const McRequest& req);

//! replicas.csv: one row per replica, `replica` then every metric path, then `saturation_cause`.
void write_replicas_csv(const McStudy& st, const McSummary& sum, std::ostream& out);

}  // namespace gpuplan
