#pragma once
//! Public training runs with their layout and published throughput: the calibration table of the
//! step-time model (models/perf/training/step_time.h). Each row names its public source; the
//! quote names the nearest row next to its own MFU. Rows marked `fitted` set the model's fitted
//! constants; the others are held out and only checked.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"

namespace gpuplan::training {

//! What the published figure measures.
enum class PublishedMetric : uint8_t {
  mfu,               //!< model FLOPs utilisation as in Korthikanti et al. 2022 (0..1)
  megatron_tflops,   //!< TFLOPS per GPU by Narayanan et al. 2021 eq. 3 (counts full
                     //!< recomputation as a fourth pass)
  tokens_per_gpu_s,  //!< tokens per second per GPU
};

//! One published run.
struct PublishedRun {
  std::string id;         //!< short id, e.g. "megatron-2022-175b"
  std::string label;      //!< what a quote prints: "Megatron-LM 175B on 64 A100"
  std::string source;     //!< paper + table, or repository@commit + file
  std::string framework;  //!< Megatron-LM, llm-foundry (FSDP), torchtitan (FSDP2), ...
  ModelShape model;       //!< with the run's sequence length
  std::string gpu;        //!< catalog GPU id
  InstanceType node;      //!< GPUs per node, NVLink generation, NICs (assumed where unstated)
  Precision precision = Precision::bf16;
  ParallelPlan plan;  //!< tp, cp, pp, dp, micro-batch, micro-batches, v, ZeRO, recompute
  PublishedMetric metric = PublishedMetric::mfu;
  double published = 0;  //!< the figure as printed (MFU as a fraction)
  bool fitted = false;   //!< used to fit the model's constants (else held out)
  std::string note;      //!< assumptions where the source is silent
};

//! The calibration table, in source order.
[[nodiscard]] const std::vector<PublishedRun>& published_runs();

//! The run's MFU in this model's FLOP count (ModelShape::train_flops_per_token): converts
//! Narayanan et al.'s hardware TFLOPS (x model FLOPs / their eq. 3) and tokens per second.
[[nodiscard]] double published_mfu(const PublishedRun& run, const GpuSpec& gpu);

//! The row closest to a plan: same GPU architecture, precision and model family (dense or mixture
//! of experts) first, then the nearest in
//! log parameters, log GPUs and layout (tensor/pipeline/context degrees, ZeRO-3 or not); nullptr
//! when no row has that architecture, precision and family.
[[nodiscard]] const PublishedRun* nearest_published_run(const ModelShape& m,
                                                        const ParallelPlan& plan,
                                                        std::string_view architecture,
                                                        Precision precision);

//! How far `plan` for `m` lies from `run`, in the units nearest_published_run ranks by; a plan
//! further than CALIBRATED_DISTANCE from every row is "extrapolated".
[[nodiscard]] double layout_distance(const ModelShape& m, const ParallelPlan& plan,
                                     const PublishedRun& run);

//! Whether some row of this architecture and precision lies within CALIBRATED_DISTANCE of `plan`
//! for `m` (the nearest row's distance, without ranking them all).
[[nodiscard]] bool within_calibrated_distance(const ModelShape& m, const ParallelPlan& plan,
                                              std::string_view architecture, Precision precision);

//! Beyond this layout distance a plan is outside the calibrated region: a factor ~6 in model
//! size, ~32 in GPU count, one parallelism degree off by 32x, or another framework family
//! (ZeRO-3 / FSDP against Megatron-style ZeRO-0/1/2), from the nearest published run.
inline constexpr double CALIBRATED_DISTANCE = 2.5;

//! "Megatron-LM 2022 GPT 175B on 64 A100: 51 % MFU" (the MFU in this model's FLOP count).
[[nodiscard]] std::string published_run_text(const PublishedRun& run);

//! "TP 8 x PP 16 x DP 128, ZeRO-1, 5 of 8 blocks recomputed" (CP and interleaving when used).
[[nodiscard]] std::string layout_text(const ParallelPlan& plan);

//! The best published MFU among rows of this architecture and precision (0 when none).
[[nodiscard]] double best_published_mfu(std::string_view architecture, Precision precision);

//! A modelled MFU beside the published runs: what estimate and quote show with it.
struct PublishedComparison {
  const PublishedRun* nearest = nullptr;  //!< nearest_published_run (null without a shape)
  double best_mfu = 0;                    //!< best_published_mfu of the GPU and precision
  bool above = false;                     //!< `mfu` above best_mfu (when there is one)
};

//! `mfu` of `plan` for `m` (null: no known shape) compared with the published runs.
[[nodiscard]] PublishedComparison compare_with_published(const ModelShape* m,
                                                         const ParallelPlan& plan,
                                                         std::string_view architecture,
                                                         Precision precision, double mfu);

}  // namespace gpuplan::training
