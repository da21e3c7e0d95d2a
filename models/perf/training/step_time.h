#pragma once
//! Step time of one training plan on one cluster, and the search for the fastest plan that fits.
//!
//! step = m (t_compute + t_tp + t_cp) + bubble + exposed pipeline p2p + exposed data-parallel sync
//! + optimizer step. Per micro-batch and GPU, t_compute adds three parts, each with its anchor:
//! GEMMs at the GPU's achieved GEMM share of the dense peak (falling for narrow per-rank widths),
//! the attention core (FlashAttention-2 at its published share of peak, or the unfused score
//! matrix streamed through HBM), and the memory-bound rest of the layer (norms, activations,
//! residuals, dropout) at HBM bandwidth, which weighs more on GPUs with a higher FLOP-to-byte
//! ratio. bubble = (p - 1) / v x (t_compute + t_tp) (Narayanan et al. 2021). Overlap rule:
//! tensor-parallel and pipeline transfers are exposed; the data-parallel sync (ZeRO-1/2 once per
//! step, ZeRO-3 1.5x the volume per micro-batch) and the context-parallel KV exchange hide
//! behind compute, but the overlapped share still slows it by OVERLAP_SLOWDOWN (the
//! communication kernels take SMs and memory bandwidth). MFU = model FLOPs / (GPUs x peak x
//! step) is an output. The fitted constants come from the calibration table
//! (models/perf/training/published_runs.h); docs/estimate.md states every formula and error.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/perf/speed.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"

namespace gpuplan::training {

//! The constants fitted on the calibration table's `fitted` rows (docs/estimate.md "Calibration").
struct EfficiencyConstants {
  double gemm_ampere = 0;        //!< achieved / dense peak of large BF16 GEMMs on A100
  double gemm_hopper = 0;        //!< achieved / dense peak of large BF16 GEMMs on H100
  double half_width = 0;         //!< [columns] per-rank GEMM width at half the large-GEMM share
  double elementwise_bytes = 0;  //!< [B per token, layer and unit of h] memory-bound traffic,
                                 //!< forward + backward
  double overlap_slowdown = 0;   //!< share of overlapped communication time that still slows
                                 //!< compute
  double fsdp_exposed = 0;       //!< share of the ZeRO-3 / FSDP per-layer gathers left exposed
  double fsdp_elementwise = 0;   //!< element-wise traffic of FSDP frameworks (PyTorch eager,
                                 //!< unfused) over Megatron-LM's fused kernels
  double gemm_fp8_hopper = 0;    //!< achieved / dense FP8 peak of large FP8 GEMMs on H100
};

//! The fitted values (the calibration doctest prints the error of every row).
inline constexpr EfficiencyConstants FITTED{0.744, 0.576, 128, 149, 0.14, 0.6, 2.0, 0.64};

//! Efficiency of one GPU generation's kernels.
struct KernelEfficiency {
  double gemm = 0;         //!< large-GEMM limit, (0, 1]
  double gemm_fp8 = 0;     //!< large FP8 GEMMs over the FP8 dense peak (= gemm without FP8 units)
  double attention = 0;    //!< FlashAttention-2 forward + backward, causal: achieved / peak
  double memory = 0;       //!< achieved / datasheet HBM bandwidth of element-wise kernels
  std::string_view basis;  //!< why these values
};

//! Kernel efficiency of `architecture` (GpuSpec::architecture) under `k`; unknown ones take
//! ampere's.
[[nodiscard]] KernelEfficiency kernel_efficiency(std::string_view architecture,
                                                 const EfficiencyConstants& k = FITTED);

//! Achieved / peak FLOPs of a GEMM of per-rank width `width_per_rank` on `gpu`:
//! gemm x w / (w + half_width); gemm_fp8 for FP8 on a GPU with FP8 units.
[[nodiscard]] double compute_efficiency(const GpuSpec& gpu, double width_per_rank,
                                        const EfficiencyConstants& k = FITTED,
                                        Precision precision = Precision::bf16);

//! Work of the slowest pipeline stage in blocks when `layers` blocks spread over `stages` and
//! the last stage also computes the output logits (`logits_blocks` block-equivalents): the
//! last stage takes as few blocks as balance the two. 1 stage: layers + logits_blocks.
[[nodiscard]] double slowest_stage_blocks(uint32_t layers, uint32_t stages, double logits_blocks);

//! Plans below this MFU are not recommended (default floor of the search).
inline constexpr double DEFAULT_MFU_FLOOR = 0.20;

//! Timing of one plan.
struct StepTime {
  double compute_s = 0;             //!< [s] per step, kernels incl. recomputation, m micro-batches
  double gemm_s = 0;                //!< [s] per step, the GEMM part of compute_s
  double attention_s = 0;           //!< [s] per step, the attention-core part of compute_s
  double elementwise_s = 0;         //!< [s] per step, the memory-bound part of compute_s
  double optimizer_s = 0;           //!< [s] per step, the optimizer update (memory-bound)
  double tp_comm_s = 0;             //!< [s] per step, tensor-parallel all-reduces (exposed)
  double cp_exposed_s = 0;          //!< [s] per step, context-parallel KV exchange not hidden
  double pp_comm_s = 0;             //!< [s] per step, pipeline point-to-point (exposed)
  double dp_comm_s = 0;             //!< [s] per step, data-parallel gradient/parameter sync
  double dp_exposed_s = 0;          //!< [s] the part of dp_comm_s not hidden by compute
  double ep_comm_s = 0;             //!< [s] per step, expert-parallel all-to-alls (exposed)
  double dp_busbw_gbyte_s = 0;      //!< [GB/s] predicted bus bandwidth of the data-parallel sync
  double exposed_comm_s = 0;        //!< [s] tp + cp + ep + pp + exposed dp
  double bubble_s = 0;              //!< [s] pipeline fill and drain
  double cap_s = 0;                 //!< [s] added by the search's MAX_ABOVE_PUBLISHED cap
  double step_s = 0;                //!< [s] compute + exposed comm + bubble + optimizer + cap
  double efficiency = 0;            //!< hardware FLOPs / (compute_s x peak)
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
                                 Precision precision, const EfficiencyConstants& k = FITTED);

//! What the search may choose.
struct SearchLimits {
  double sequences_per_step = 0;  //!< global batch [sequences]; the plan rounds it up
  uint32_t max_pipeline = 64;     //!< deepest pipeline
  bool quick = false;             //!< micro-batch 1, no interleaving (the quote's inner loop)
  uint32_t fixed_tp = 0;          //!< only this tensor-parallel degree (0 = any)
  uint32_t fixed_pp = 0;          //!< only this pipeline depth (0 = any)
};

//! Ranking penalty of a plan outside the calibrated region: its time per token counts 10 %
//! more, so a calibrated layout within 10 % of it wins.
inline constexpr double EXTRAPOLATION_PENALTY = 0.10;

//! The search never quotes an MFU more than this share above the best published run of the
//! GPU architecture and precision (best_published_mfu): a faster modelled plan is slowed to it
//! and says so (StepTime::cap_s).
inline constexpr double MAX_ABOVE_PUBLISHED = 0.10;

//! A plan with its timing.
struct SearchResult {
  ParallelPlan plan;
  StepTime time;
  bool extrapolated = false;  //!< further than CALIBRATED_DISTANCE from every published run
};
//! The fastest plan (least time per token, EXTRAPOLATION_PENALTY added outside the calibrated
//! region) for `m` on all GPUs of `c` whose memory fits, with its timing; each layout takes the
//! least recomputation that fits (none, then selective, then full); nullopt when no plan fits.
[[nodiscard]] std::optional<SearchResult> fastest_plan(const ModelShape& m, const Cluster& c,
                                                       Precision precision,
                                                       const SearchLimits& limits);

//! Whether `plan` for `m` lies outside the calibrated region: no published run of this GPU
//! architecture and precision within CALIBRATED_DISTANCE (models/perf/training/published_runs.h).
[[nodiscard]] bool is_extrapolated(const ModelShape& m, const ParallelPlan& plan,
                                   std::string_view architecture, Precision precision);

//! Sequences at least this long [tokens] make the search consider context parallelism.
inline constexpr uint32_t LONG_SEQUENCE = 32768;

//! Why a plan with `t` is not recommended at `floor` (MFU below it, naming the largest loss), or
//! "" when it is.
[[nodiscard]] std::string not_recommended_reason(const StepTime& t, double floor);

}  // namespace gpuplan::training
