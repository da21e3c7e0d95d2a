#pragma once
//! The JSON object `gpuplan estimate ... --json` prints (docs/estimate.md).
#include <nlohmann/json.hpp>

#include "models/perf/training/calibration.h"
#include "study/estimate.h"

namespace gpuplan::reports {

//! `estimate training --json`: the model, the cluster, the plan, the step time and its parts, MFU
//! against the dense peak, tokens/s per GPU, the nearest published run, the memory per GPU and
//! whether the plan is recommended.
[[nodiscard]] nlohmann::json training_estimate_json(const study::TrainingEstimate& e);

//! `estimate inference --json`: the model, the replica, TTFT, TPOT, throughput, KV cache and
//! the efficiencies assumed.
[[nodiscard]] nlohmann::json inference_estimate_json(const study::InferenceEstimate& e);

//! `estimate calibration --json`: every published run with its layout, set (fitted or held out),
//! published and modelled MFU and error; the median and worst absolute error per set.
[[nodiscard]] nlohmann::json calibration_json(const std::vector<training::CalibrationRow>& rows);

//! "TP 8 x PP 16 x DP 128, ZeRO-1, selective recomputation, b 1, m 16, seq 8192": the run's
//! layout with its batch shape.
[[nodiscard]] std::string calibration_layout_text(const training::PublishedRun& run);

}  // namespace gpuplan::reports
