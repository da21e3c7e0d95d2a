#pragma once
//! The compile stage: a validated Scenario becomes the flat arrays the core reads.
#include "models/compile/compiled_scenario.h"
#include "models/scenario/scenario.h"

namespace gpuplan {

//! Turns a validated scenario into the core's flat arrays. The scenario must have passed load.
CompiledScenario compile(const Scenario& sc);

}  // namespace gpuplan
