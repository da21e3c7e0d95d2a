#pragma once
//! The economics sections of result.json (docs/outputs.md, "Economics") that the builder
//! (reports/result_json.h) does not read from the summary: each pool's billing, reserved, on-prem,
//! spot and elastic terms, and the detail only one replication's state holds.
#include <nlohmann/json.hpp>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "sim/single_run.h"

namespace gpuplan {

//! Adds each pool's terms to `per_pool` (result.json's array, in pool order): billing granularity
//! and minimum, and the reserved, on_prem, spot and elastic objects where the pool has them.
void add_pool_economics(nlohmann::json& per_pool, const Scenario& sc, const CompiledScenario& cs);

//! Adds what one replication's state measures beyond its metric paths to a result `r` that
//! already holds cost_usd, per_pool, per_class and preemption: cost_usd.billing_rounding,
//! per_pool[i].{provisioned_gpu_hours, peak_nodes, billing.rounding_usd}, per_class[i].gpu_hours
//! and preemption.{per_pool, per_class}.
void add_replica_economics(nlohmann::json& r, const Scenario& sc, const CompiledScenario& cs,
                           const SingleRun& run);

}  // namespace gpuplan
