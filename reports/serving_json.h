#pragma once
//! result.json of `gpuplan serve-sim`: the scenario's replica and scheduler, the pooled latency
//! figures, goodput, KV occupancy, preemptions and prefix hits, each headline with its 95%
//! interval across Monte Carlo replicas, and the roofline's single-request TTFT/TPOT beside them.
#include <nlohmann/json.hpp>

#include "study/serving_study.h"

namespace gpuplan::reports {

//! A Monte Carlo mean with its 95% interval: {"mean", "ci95_low", "ci95_high"}.
[[nodiscard]] nlohmann::json interval_json(const Estimate& e);

//! The result of serving study `s` of scenario `sc`.
[[nodiscard]] nlohmann::json serving_json(const ServingScenario& sc, const ServingStudy& s);

}  // namespace gpuplan::reports
