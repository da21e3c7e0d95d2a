#pragma once
//! Network figures of a run for result.json (docs/outputs.md, "Network"): fragmentation, the
//! communication slowdown multi-node gangs saw, and the topology as DOT and SVG.
#include <nlohmann/json.hpp>

#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan {

//! The `network` object of a study: placement, fragmentation (means across replications),
//! comm slowdown; a single run adds its multi-node jobs completed.
nlohmann::json network_json(const Scenario& sc, const CompiledScenario& cs,
                            const study::Summary& s);

//! The `topology` object (kind, name, per-level bandwidth, dot, svg); null without a topology.
//! Given each uplink group's time-averaged crossing nodes and congested share (one replica's, from
//! uplink_window_means(), or their means over a study) it adds `links` and the DOT and SVG shade
//! each link by its load. SVG needs Graphviz's `dot`; without it `svg` is absent and `svg_error`
//! says why.
nlohmann::json topology_json(const Scenario& sc, const CompiledScenario& cs,
                             const std::vector<double>& crossing_nodes = {},
                             const std::vector<double>& congested_share = {});

}  // namespace gpuplan
