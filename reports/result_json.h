#pragma once
//! result.json (ARCHITECTURE.md §5 plus per-pool, per-class and time-series keys; docs/outputs.md).
#include <nlohmann/json.hpp>

#include "models/compile.h"
#include "models/scenario.h"
#include "sim/replica_metrics.h"

namespace gpuplan {

//! The result document of a single run (`gpuplan run`).
nlohmann::json single_run_result(const Scenario& sc, const CompiledScenario& cs,
                                 const ReplicaMetrics& m, const ReplicaState& s);

//! The `metrics` object of the result contract for one replica.
nlohmann::json metrics_json(const ReplicaMetrics& m, const CompiledScenario& cs);

//! Warnings a reader must see (saturation, censored jobs, truncated records, stale prices).
nlohmann::json result_warnings(const Scenario& sc, const CompiledScenario& cs,
                               const ReplicaMetrics& m);

//! UTC time now as ISO 8601 ("2026-11-29T17:00:00Z").
std::string utc_now_iso8601();

}  // namespace gpuplan
