#pragma once
//! The compile step for planned maintenance: each pool's windows become core window batches
//! (sim/core/maintenance_spec.h), and the calendar room their events need.
#include "models/compile/compiled_scenario.h"

namespace gpuplan {

//! Compiles the maintenance windows of `sc`'s pools into `out` (after the pools' nodes are laid
//! out); a scenario without windows leaves the array empty, so its replicas run as before.
void compile_maintenance(const Scenario& sc, CompiledScenario& out);

}  // namespace gpuplan
