#pragma once
//! The JSON object `gpuplan estimate ... --json` prints (docs/estimate.md).
#include <nlohmann/json.hpp>

#include "study/estimate.h"

namespace gpuplan::reports {

//! `estimate training --json`: the model, the cluster, the plan, the step time and its parts, MFU
//! against the dense peak, tokens/s per GPU, the nearest published run, the memory per GPU and
//! whether the plan is recommended.
[[nodiscard]] nlohmann::json training_estimate_json(const study::TrainingEstimate& e);

//! `estimate inference --json`: the model, the replica, TTFT, TPOT, throughput, KV cache and
//! the efficiencies assumed.
[[nodiscard]] nlohmann::json inference_estimate_json(const study::InferenceEstimate& e);

}  // namespace gpuplan::reports
