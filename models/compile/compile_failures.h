#pragma once
//! The compile step for hardware failures: the FailureSpec, the cause table and each pool's hot
//! spares (sim/core/failure_spec.h), and the calendar room their events need.
#include "models/compile/compiled_scenario.h"

namespace gpuplan {

//! Compiles the failures of `sc` into `out` (after the network plan and compile_economics); a
//! scenario without failures leaves the arrays empty, so its replicas run as before.
void compile_failures(const Scenario& sc, CompiledScenario& out);

}  // namespace gpuplan
