#pragma once
//! `gpuplan estimate` as a library call (docs/estimate.md): the quick check behind every quote.
//! Training: the fastest fitting parallel plan and its step time on one cluster
//! (models/perf/training/step_time.h). Inference: the serving roofline of one replica
//! (models/perf/inference/roofline.h). The flags are read by models/quote/estimate_request.h.
#include <cstdint>
#include <optional>
#include <string>

#include "models/input/diagnostic.h"
#include "models/perf/inference/roofline.h"
#include "models/perf/training/published_runs.h"
#include "models/perf/training/step_time.h"
#include "models/quote/estimate_request.h"

namespace gpuplan::study {

//! What `estimate training` found.
//! What a mixture-of-experts estimate leaves out (docs/estimate.md "Mixture of experts").
inline constexpr const char* MOE_APPROXIMATION =
    "approximate: expert GEMMs spread evenly over the ranks times the stated imbalance, "
    "all-to-alls exposed, no token dropping, shared experts or router cost; calibrated on one "
    "published MoE run (Qwen3-235B-A22B, FP8, H100)";

struct TrainingEstimate {
  training::ModelShape model;
  training::Cluster cluster;  //!< instance and GPU in the built-in catalog
  Precision precision = Precision::bf16;
  training::ParallelPlan plan;
  training::StepTime time;
  bool extrapolated = false;  //!< no published run near the layout
  double peak_tflops = 0;     //!< [TFLOPS] dense peak of one GPU at `precision`
  double tokens_per_gpu_s = 0;
  //! The nearest published run, the best published MFU of the GPU and precision, and whether
  //! the modelled MFU is above it.
  training::PublishedComparison published;
  double nearest_published_mfu = 0;    //!< MFU of published.nearest, when there is one
  std::optional<double> days;          //!< time to train --tokens, when given
  std::string not_recommended_reason;  //!< "" when the plan is recommended
};

//! What `estimate inference` found.
struct InferenceEstimate {
  training::ModelShape model;
  const GpuSpec* gpu = nullptr;  //!< in the built-in catalog
  inference::ServingRequest request;
  inference::ServingEstimate serving;
  inference::ServingEfficiency efficiency;
};

//! The fastest fitting plan of `req`'s model on its cluster; nullopt with a diagnostic naming the
//! flag to change when no plan fits (a pinned --tp/--pp layout: the rule it breaks or the memory
//! of its leanest variant).
[[nodiscard]] std::optional<TrainingEstimate> estimate_training(
    const quote::TrainingEstimateRequest& req, Diagnostics& diags);

//! The serving roofline of one replica of `req`'s model; nullopt with a diagnostic naming the flag
//! to change when the model or the batch does not fit.
[[nodiscard]] std::optional<InferenceEstimate> estimate_inference(
    const quote::InferenceEstimateRequest& req, Diagnostics& diags);

}  // namespace gpuplan::study
