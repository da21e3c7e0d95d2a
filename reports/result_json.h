#pragma once
//! result.json of every command (ARCHITECTURE.md §5 plus per-pool, per-class, economics, network,
//! time-series and study keys; docs/outputs.md): one builder from a study's Summary.
#include <string>

#include <nlohmann/json.hpp>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan {

//! The result document of the study `s` of `cs` (compiled from `sc`). One shape for every
//! command: a single run (N = 1) has the keys of a Monte Carlo study with every spread absent
//! (no ci95/p05/p50/p95 in `summary`, no `bands`), plus the detail only one replication's state
//! holds (billing rounding, peak nodes, per-pool and per-class preemption, multi-node jobs).
//! `monte_carlo` is present for Monte Carlo studies only. `s` must be held (Summary::held).
[[nodiscard]] nlohmann::json result_json(const Scenario& sc, const CompiledScenario& cs,
                                         const study::Summary& s);

//! UTC time now as ISO 8601 ("2026-11-29T17:00:00Z").
[[nodiscard]] std::string utc_now_iso8601();

}  // namespace gpuplan
