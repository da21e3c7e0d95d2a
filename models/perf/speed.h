#pragma once
//! Job speed model for training: compute time from 6ND / (GPUs x peak x MFU) (Kaplan et al. 2020),
//! memory fit with mixed-precision Adam and ZeRO sharding, per-step gradient all-reduce over
//! the placement (models/perf/collectives.h) with an overlap fraction, and the relative speed of
//! GPU types used to stretch durations on heterogeneous pools.
#include <cstdint>
#include <optional>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/input/plan_enums.h"
#include "models/perf/collectives.h"

namespace gpuplan {

//! Precision from "fp32", "tf32", "bf16", "fp16" or "fp8" (models/input/names.h), or nullopt.
[[nodiscard]] std::optional<Precision> parse_precision(std::string_view name);

//! Dense peak throughput of `gpu` at `p` [TFLOPS], falling back to the next wider format the
//! GPU has (fp8 -> bf16, tf32 -> fp32).
[[nodiscard]] double peak_tflops(const GpuSpec& gpu, Precision p);

//! Which model states ZeRO shards across data-parallel ranks.
enum class ZeroStage : uint8_t {
  none,        //!< replicated (only tensor/pipeline parallelism shards)
  optimizer,   //!< ZeRO-1: optimizer states
  gradients,   //!< ZeRO-2: optimizer states + gradients
  parameters,  //!< ZeRO-3 / FSDP: optimizer states + gradients + weights
};

//! Bytes per parameter of mixed-precision Adam: 2 (bf16 weights) + 2 (bf16 gradients) + 12
//! (fp32 master weights, momentum, variance) = 16.
inline constexpr double WEIGHT_BYTES = 2;
inline constexpr double GRADIENT_BYTES = 2;
inline constexpr double OPTIMIZER_BYTES = 12;

//! A training job.
struct TrainingJob {
  double params = 0;  //!< N, parameters
  double tokens = 0;  //!< D, training tokens (or samples for vision models)
  //! [FLOP] per token (or sample) for forward + backward; 0 = 6 N (Kaplan et al.,
  //! arXiv:2001.08361).
  double flops_per_token = 0;
  double tokens_per_step = 0;  //!< global batch per optimizer step (0 = one step)
  Precision precision = Precision::bf16;
  double mfu = 0.4;                //!< model FLOPs utilisation of the dense peak, (0, 1]
  uint32_t data_parallel = 1;      //!< replicas
  uint32_t tensor_parallel = 1;    //!< ranks splitting each layer (innermost, inside a node)
  uint32_t pipeline_parallel = 1;  //!< pipeline stages
  ZeroStage zero = ZeroStage::none;
  double grad_bytes_per_param = GRADIENT_BYTES;  //!< [B] all-reduced per parameter per step
  double overlap = 0;  //!< fraction of the gradient all-reduce hidden by compute
  //! Fraction of each GPU's memory kept for activations, workspace and fragmentation; model
  //! states must fit in the rest.
  double activation_reserve = 0.2;

  //! GPUs the job uses: data x tensor x pipeline.
  [[nodiscard]] uint32_t n_gpus() const {
    return data_parallel * tensor_parallel * pipeline_parallel;
  }
  //! Training FLOPs: flops_per_token (or 6N) x tokens [FLOP].
  [[nodiscard]] double total_flops() const;
};

//! Memory use of one GPU of `job` on `gpu`.
struct MemoryFit {
  double state_bytes = 0;   //!< [B] weights + gradients + optimizer states on one GPU
  double usable_bytes = 0;  //!< [B] GPU memory x (1 - activation_reserve)
  [[nodiscard]] bool fits() const { return state_bytes <= usable_bytes; }
};

//! Per-GPU model-state memory of `job` with its own parallelism and ZeRO stage on `gpu`.
[[nodiscard]] MemoryFit memory_per_gpu(const TrainingJob& job, const GpuSpec& gpu);

//! Fewest GPUs of type `gpu` that hold the model states of `job` under its ZeRO stage, choosing
//! the model-parallel degree m (tensor x pipeline, which shards everything) and the
//! data-parallel degree d (which shards what ZeRO shards) to minimise m x d.
[[nodiscard]] uint32_t min_gpus(const TrainingJob& job, const GpuSpec& gpu);

//! Compute time of the whole job on `n_gpus` GPUs of type `gpu` [s]: FLOPs / (n x peak x MFU).
[[nodiscard]] double compute_time_s(const TrainingJob& job, const GpuSpec& gpu, uint32_t n_gpus);

//! Time per step and job duration of a training job on one placement.
struct SpeedEstimate {
  double steps = 0;             //!< optimizer steps, tokens / tokens_per_step
  double compute_s = 0;         //!< [s] per step
  double allreduce_s = 0;       //!< [s] per step, gradient synchronisation
  double exposed_comm_s = 0;    //!< [s] per step not hidden behind compute
  double step_s = 0;            //!< [s] compute + exposed communication
  double duration_s = 0;        //!< [s] steps x step_s
  double dp_busbw_gbyte_s = 0;  //!< [GB/s] predicted busbw of one data-parallel all-reduce
};

//! Speed of `job` on GPUs `gpu` placed as `job_gpus` (ranks_per_node = the job's GPUs per node,
//! n_nodes = its nodes). Ranks are ordered tensor (innermost), pipeline, data, so each
//! data-parallel group has one rank in every m = tensor x pipeline consecutive GPUs, and the
//! min(m, GPUs per node) groups on a node share its network. Gradients of N/m parameters are
//! all-reduced per step (ZeRO-3 moves 1.5x that, Rajbhandari et al., SC 2020).
[[nodiscard]] SpeedEstimate estimate_training(const TrainingJob& job, const GpuSpec& gpu,
                                              const CommPlacement& job_gpus);

//! Throughput of `gpu` relative to `reference` at precision `p` (same MFU assumed): peak ratio.
//! A job lasting T on the reference lasts T / relative_speed on `gpu`.
[[nodiscard]] double relative_speed(const GpuSpec& gpu, const GpuSpec& reference, Precision p);

}  // namespace gpuplan
