#pragma once
//! The compile step for pricing, spot preemption, elastic pools and checkpointing: fills the
//! PoolSupplySpec / ClassRunSpec arrays, the wave-share quantile tables and the price steps, and
//! narrows each class's pools by its spot tolerance.
#include "models/compile/compiled_scenario.h"

namespace gpuplan {

//! Compiles the economics of `sc` into `out` (after pools, classes and limits are compiled).
void compile_economics(const Scenario& sc, CompiledScenario& out);

}  // namespace gpuplan
