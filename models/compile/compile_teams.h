#pragma once
//! The compile step for team quotas (docs/teams.md): each pool's flavor (its GPU type), each
//! class's team, each team's cohort and quotas (sim/core/team_spec.h).
#include "models/compile/compiled_scenario.h"

namespace gpuplan {

//! Compiles the teams of `sc` into `out` (after the classes and pools); a scenario without teams
//! leaves the arrays empty, so its replicas run as before.
void compile_teams(const Scenario& sc, CompiledScenario& out);

//! GPUs of each flavor of `out` the cluster may hold (pools' node slots × GPUs per node), and the
//! nominal quotas of all teams summed per flavor: for the over-capacity warning.
struct FlavorCapacity {
  std::string flavor;
  uint64_t cluster_gpus = 0;
  uint64_t nominal_gpus = 0;
};
[[nodiscard]] std::vector<FlavorCapacity> flavor_capacities(const Scenario& sc,
                                                            const CompiledScenario& out);

}  // namespace gpuplan
