#pragma once
//! result.json's `search` of `gpuplan serve-sim` on a scenario with `search`: the goal and every
//! configuration's verdict, replicas, cost and trials, ranked as the search ranks them; the rest
//! of result.json is the cheapest configuration's own study (serving_json).
#include <nlohmann/json.hpp>

#include "study/serving_search.h"

namespace gpuplan::reports {

[[nodiscard]] nlohmann::json serving_search_json(const ServingSearch& s);

}  // namespace gpuplan::reports
