#pragma once
//! result.json keys for pricing, spot preemption, checkpoints, elastic pools and the TCO
//! projection (docs/outputs.md, "Economics"): cost per class / job / useful GPU-hour, GPU-hour
//! accounting, preemption statistics, and the "tco" section.
#include <nlohmann/json.hpp>

#include "models/compile.h"
#include "models/scenario.h"
#include "sim/core/state.h"
#include "sim/replica_metrics.h"

namespace gpuplan {

//! Adds the economics keys to a single-run result `r` (cost_usd.*, gpu_hours, preemption,
//! per_pool[i].*, per_class[i].*, tco).
void add_economics_json(nlohmann::json& r, const Scenario& sc, const CompiledScenario& cs,
                        const ReplicaMetrics& m, const ReplicaState& s);

//! The "tco" section: monthly cost of cloud, on-prem and hybrid plans for the demand measured in
//! the simulated window, grown per month, with cumulative cost, NPV and break-even months.
nlohmann::json tco_json(const Scenario& sc, const CompiledScenario& cs, const ReplicaState& s);

}  // namespace gpuplan
