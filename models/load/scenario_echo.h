#pragma once
//! The effective scenario: a loaded Scenario written back as scenario JSON, every default filled
//! in, so `gpuplan run` on it reproduces the run (reports echo it as `scenario_echo`).
#include <nlohmann/json.hpp>

#include "models/scenario/scenario.h"

namespace gpuplan {

//! The scenario `sc` as simulated, as JSON that load_scenario() accepts: seconds for durations,
//! per-second rates, every default written out, the catalog instance types the pools and the
//! recommendation use copied under "instances" (prices, source, as_of), trace paths absolute.
//! Values the loader derives but does not read (a spot band's hazard, an "auto" checkpoint
//! interval, a pool's price, the gpuplan version) appear under "_"-prefixed comment keys.
//! Loading the result and echoing it again gives the same JSON; never throws for a scenario the
//! loader accepted.
[[nodiscard]] nlohmann::json effective_scenario_json(const Scenario& sc);

}  // namespace gpuplan
