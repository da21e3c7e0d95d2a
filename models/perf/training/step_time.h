#pragma once
//! Step time of one training plan on one cluster, and the search for the fastest plan that fits.
//!
//! step = m (t_compute + t_tp) + bubble + exposed pipeline p2p + exposed data-parallel sync, where
//! per micro-batch and GPU t_compute = hardware FLOPs / (peak x kernel efficiency) and t_tp = the
//! tensor-parallel all-reduces over the node fabric (models/perf/collectives.h); bubble = (p - 1) /
//! v x (t_compute + t_tp), i.e. a share (p - 1) / (v m + p - 1) of the step (Narayanan et al.
//! 2021). Overlap rule: tensor-parallel and pipeline transfers are exposed (Megatron-LM runs them
//! on the critical path); the data-parallel reduce-scatter + all-gather hides behind one
//! micro-batch's compute (the last backward and the first forward) and only the rest is exposed;
//! under ZeRO-3 every micro-batch gathers the parameters again, hidden behind its own compute. MFU
//! = model FLOPs / (GPUs x peak x step) is an output. docs/estimate.md states every formula.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/perf/speed.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"

namespace gpuplan::training {

//! Kernel efficiency of one GPU generation: achieved / dense peak FLOPs of a transformer block's
//! kernels, as a function of the per-rank GEMM width w = hidden / tp:
//! efficiency = max x w / (w + HALF_WIDTH).
struct KernelEfficiency {
  double max = 0;          //!< large-GEMM limit, (0, 1]
  std::string_view basis;  //!< why this value
};

//! Per-rank width [columns] at which kernels reach half their large-GEMM efficiency: 512, one
//! constant for every generation; small GEMMs lose to tile quantization and memory-bound
//! element-wise kernels (the Megatron-LM README: "larger GEMMs have higher arithmetic intensity").
inline constexpr double HALF_WIDTH = 512;

//! Kernel efficiency of `architecture` (GpuSpec::architecture); unknown ones take ampere's.
[[nodiscard]] KernelEfficiency kernel_efficiency(std::string_view architecture);

//! Achieved / peak FLOPs for GEMM width `width_per_rank` on `gpu`: max x w / (w + HALF_WIDTH).
[[nodiscard]] double compute_efficiency(const GpuSpec& gpu, double width_per_rank);

//! Plans below this MFU are not recommended (default floor of the search).
inline constexpr double DEFAULT_MFU_FLOOR = 0.20;

//! Timing of one plan.
struct StepTime {
  double compute_s = 0;             //!< [s] per step, kernels incl. recomputation, m micro-batches
  double tp_comm_s = 0;             //!< [s] per step, tensor-parallel all-reduces (exposed)
  double pp_comm_s = 0;             //!< [s] per step, pipeline point-to-point (exposed)
  double dp_comm_s = 0;             //!< [s] per step, data-parallel gradient/parameter sync
  double dp_exposed_s = 0;          //!< [s] the part of dp_comm_s not hidden by compute
  double dp_busbw_gbyte_s = 0;      //!< [GB/s] predicted bus bandwidth of the data-parallel sync
  double exposed_comm_s = 0;        //!< [s] tp + pp + exposed dp
  double bubble_s = 0;              //!< [s] pipeline fill and drain
  double step_s = 0;                //!< [s] compute + exposed comm + bubble
  double efficiency = 0;            //!< kernel efficiency used
  double tokens_per_step = 0;       //!< sequences per step x sequence length
  double model_flops_per_step = 0;  //!< [FLOP] without recomputation
  double mfu = 0;                   //!< model FLOPs / (GPUs x peak x step)
  TrainingMemory memory;            //!< the first stage's GPU
  //! Whether the first stage's GPU holds its states and activations.
  [[nodiscard]] bool fits() const { return memory.fits(); }
};

//! A cluster: `nodes` nodes of instance type `instance` carrying `gpu`.
struct Cluster {
  const InstanceType* instance = nullptr;
  const GpuSpec* gpu = nullptr;
  uint32_t nodes = 1;
  //! GPUs in the cluster.
  [[nodiscard]] uint64_t gpus() const {
    return uint64_t{nodes} * (instance ? instance->gpus_per_node : 1);
  }
};

//! Why `plan` cannot run on `c` for `m` (tp not dividing the node, GPUs not matching, more stages
//! than layers, ...), or "" when it can.
[[nodiscard]] std::string plan_problem(const ModelShape& m, const ParallelPlan& plan,
                                       const Cluster& c);

//! Step time of `plan` for `m` on `c` at `precision`; +inf times when a needed link is missing
//! (several nodes without a network).
[[nodiscard]] StepTime step_time(const ModelShape& m, const ParallelPlan& plan, const Cluster& c,
                                 Precision precision);

//! What the search may choose.
struct SearchLimits {
  double sequences_per_step = 0;  //!< global batch [sequences]; the plan rounds it up
  uint32_t max_pipeline = 64;     //!< deepest pipeline
  bool quick = false;             //!< micro-batch 1, no interleaving (the quote's inner loop)
  uint32_t fixed_tp = 0;          //!< only this tensor-parallel degree (0 = any)
  uint32_t fixed_pp = 0;          //!< only this pipeline depth (0 = any)
};

//! A plan with its timing.
struct SearchResult {
  ParallelPlan plan;
  StepTime time;
};
//! The fastest plan (least time per token) for `m` on all GPUs of `c` whose memory fits, with its
//! timing; nullopt when no plan fits.
[[nodiscard]] std::optional<SearchResult> fastest_plan(const ModelShape& m, const Cluster& c,
                                                       Precision precision,
                                                       const SearchLimits& limits);

//! Why a plan with `t` is not recommended at `floor` (MFU below it, naming the largest loss), or
//! "" when it is.
[[nodiscard]] std::string not_recommended_reason(const StepTime& t, double floor);

}  // namespace gpuplan::training
