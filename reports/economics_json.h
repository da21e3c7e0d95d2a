#pragma once
//! result.json keys for pricing, spot preemption, checkpoints, elastic pools and the TCO
//! projection (docs/outputs.md, "Economics"): cost per class / job / useful GPU-hour, GPU-hour
//! accounting, preemption statistics, and the "tco" section.
#include <nlohmann/json.hpp>

#include <vector>

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
//! one replica's window (its GPU-hours `all` and busy GPU-seconds per pool), grown per month,
//! with cumulative cost, NPV and break-even months.
nlohmann::json tco_json(const Scenario& sc, const CompiledScenario& cs, const GpuHours& all,
                        const std::vector<double>& pool_busy_gpu_s);

}  // namespace gpuplan
