#pragma once
//! The result file of `gpuplan pack`: one entry per policy (and seed) with its figures and its
//! allocation curve, every number named with its unit.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "study/pack_replay.h"

namespace gpuplan::reports {

//! result.json of a packing study over `runs` of workload `workload` ("openb").
[[nodiscard]] nlohmann::json pack_json(const std::string& workload,
                                       const std::vector<PackReplayResult>& runs);

}  // namespace gpuplan::reports
