#pragma once
//! The flags of `gpuplan estimate training|inference`, read into typed requests: the model (a
//! preset or a shape derived from a parameter count), the catalog hardware, the precision and the
//! sizes, each bad flag one diagnostic naming it. study/estimate.h answers the requests.
#include <cstdint>
#include <optional>
#include <string>

#include "models/catalog/catalog.h"
#include "models/input/diagnostic.h"
#include "models/perf/inference/roofline.h"
#include "models/perf/training/step_time.h"

namespace gpuplan::quote {

//! The flags of both subcommands, as typed on the command line ("" = not given).
struct EstimateFlags {
  std::string model, params, gpu, instance, precision = "bf16";
  std::string tokens, tokens_per_step, nodes, gpus, tp, pp, batch, tokens_in, tokens_out, seq;
  std::string experts, active_experts, expert_imbalance;  //!< training: mixture of experts
};

//! `estimate training`: a model on `nodes` nodes of one catalog instance type.
struct TrainingEstimateRequest {
  training::ModelShape model;  //!< with --seq applied
  training::Cluster cluster;   //!< instance and GPU in the built-in catalog
  Precision precision = Precision::bf16;
  std::optional<double> tokens;           //!< training tokens (--tokens), for the days
  std::optional<double> tokens_per_step;  //!< global batch (--tokens-per-step)
  training::SearchLimits limits;          //!< fixed_tp and fixed_pp from --tp and --pp
  std::string size_flag = "--nodes";      //!< the flag that sized the cluster
};

//! `estimate inference`: one replica of a model on a catalog instance type's GPUs.
struct InferenceEstimateRequest {
  training::ModelShape model;
  const InstanceType* instance = nullptr;  //!< in the built-in catalog
  const GpuSpec* gpu = nullptr;            //!< in the built-in catalog
  inference::ServingRequest serving;
};

//! The training request of `f`; nullopt with one diagnostic per bad flag.
[[nodiscard]] std::optional<TrainingEstimateRequest> read_training_estimate(const EstimateFlags& f,
                                                                            Diagnostics& d);

//! The inference request of `f`; nullopt with one diagnostic per bad flag.
[[nodiscard]] std::optional<InferenceEstimateRequest> read_inference_estimate(
    const EstimateFlags& f, Diagnostics& d);

}  // namespace gpuplan::quote
