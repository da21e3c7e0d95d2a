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

//! GPU-hour accounting of one replica over the statistics window.
struct GpuHours {
  double provisioned = 0;  //!< [GPU-h] billed GPUs
  double busy = 0;         //!< [GPU-h] held by running jobs
  double lost = 0;         //!< [GPU-h] compute thrown away by preemptions
  double checkpoint = 0;   //!< [GPU-h] writing checkpoints
  double restart = 0;      //!< [GPU-h] reloading after preemptions
  double useful = 0;       //!< [GPU-h] busy − lost − checkpoint − restart: work that was kept
};

//! GPU-hour accounting of class `c`, or of all classes when `c` is NONE.
GpuHours gpu_hours(const ModelView& m, const ReplicaState& s, uint32_t c);

//! Adds the economics keys to a single-run result `r` (cost_usd.*, gpu_hours, preemption,
//! per_pool[i].*, per_class[i].*, tco).
void add_economics_json(nlohmann::json& r, const Scenario& sc, const CompiledScenario& cs,
                        const ReplicaMetrics& m, const ReplicaState& s);

//! The "tco" section: monthly cost of cloud, on-prem and hybrid plans for the demand measured in
//! the simulated window, grown per month, with cumulative cost, NPV and break-even months.
nlohmann::json tco_json(const Scenario& sc, const CompiledScenario& cs, const ReplicaState& s);

}  // namespace gpuplan
