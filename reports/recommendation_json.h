#pragma once
//! recommendation.json of `gpuplan recommend` (docs/recommend.md), also embedded in the winner's
//! result.json as `recommendation`.
#include <nlohmann/json.hpp>

#include "models/scenario/scenario.h"
#include "study/recommend.h"

namespace gpuplan::reports {

//! The recommendation document: method, SLOs, every candidate with its probes and why it lost,
//! the recommended one and up to four runners-up (null / empty when none met the SLOs). When the
//! winner's study is held, `recommended` also gets its cost per useful GPU-hour.
[[nodiscard]] nlohmann::json recommendation_json(const Scenario& sc,
                                                 const study::Recommendation& r);

}  // namespace gpuplan::reports
