#pragma once
//! How a training job is laid out on a cluster (tensor, pipeline and data parallelism,
//! micro-batches, ZeRO stage, activation recomputation) and the memory one GPU needs for it:
//! model states by ZeRO stage (Rajbhandari et al., SC 2020) and activations by the formulas of
//! Korthikanti et al. 2022 (arXiv:2205.05198 §4), with tensor and sequence parallelism.
#include <cstdint>
#include <string>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/perf/speed.h"
#include "models/perf/training/model_shape.h"

namespace gpuplan::training {

//! Which activations the backward pass recomputes instead of storing.
enum class Recompute : uint8_t {
  none,       //!< store every activation
  selective,  //!< recompute the attention core (Korthikanti et al. 2022 §5)
  full,       //!< store only each block's input; rerun the whole forward pass
};

//! Name of a recomputation mode ("none", "selective", "full").
[[nodiscard]] std::string_view recompute_name(Recompute r);
//! Name of a ZeRO stage ("0" .. "3").
[[nodiscard]] int zero_number(ZeroStage z);

//! A parallel layout. Ranks are ordered tensor (innermost, inside one node), context, pipeline,
//! data.
struct ParallelPlan {
  uint32_t tp = 1;  //!< tensor-parallel ranks (with sequence parallelism)
  uint32_t cp = 1;  //!< context-parallel ranks splitting each sequence
  uint32_t pp = 1;  //!< pipeline stages
  uint32_t dp = 1;  //!< data-parallel replicas
  //! Expert-parallel ranks of a mixture of experts: the tp x cp x dp ranks of a stage fold into
  //! ep groups of experts / ep whole experts each (Megatron-Core MoE parallel folding, expert
  //! tensor parallelism 1); 1 for a dense model.
  uint32_t ep = 1;
  uint32_t micro_batch = 1;               //!< sequences per micro-batch, b
  uint32_t micro_batches = 1;             //!< micro-batches per step and pipeline, m
  uint32_t interleave = 1;                //!< virtual stages per GPU (interleaved 1F1B), v
  ZeroStage zero = ZeroStage::optimizer;  //!< distributed optimizer = ZeRO-1
  Recompute recompute = Recompute::selective;
  //! With full recomputation: blocks per stage that rerun their forward, the rest store their
  //! activations as with selective (Megatron-LM --recompute-method block); 0 = all of them.
  uint32_t recompute_blocks = 0;
  //! Fused attention (FlashAttention, Dao et al. 2022): the s x s score matrix is never stored
  //! nor streamed through memory; false for the 2021-22 Megatron-LM and BLOOM kernels.
  bool flash_attention = true;

  //! GPUs of the plan: tp x cp x pp x dp.
  [[nodiscard]] uint64_t gpus() const { return uint64_t{tp} * cp * pp * dp; }
  //! Sequences per optimizer step: b x m x dp.
  [[nodiscard]] double sequences_per_step() const {
    return static_cast<double>(micro_batch) * micro_batches * dp;
  }
};

//! Usable share of GPU memory: 10% goes to the CUDA context, library workspaces and allocator
//! fragmentation (assumption, about 8 GB of an 80 GB part).
inline constexpr double USABLE_MEMORY = 0.9;

//! Memory of the busiest GPU (the first pipeline stage) [bytes].
struct TrainingMemory {
  double weights = 0;      //!< [B] bf16 weights of its share
  double gradients = 0;    //!< [B] bf16 gradients
  double optimizer = 0;    //!< [B] fp32 master weights, momentum, variance (12 B/param)
  double activations = 0;  //!< [B] stored for the backward pass of the micro-batches in flight
  double usable = 0;       //!< [B] GPU memory x USABLE_MEMORY
  //! Sum of the states and activations [B].
  [[nodiscard]] double total() const { return weights + gradients + optimizer + activations; }
  //! Whether the total fits in the usable memory.
  [[nodiscard]] bool fits() const { return total() <= usable; }
  //! "needs 93.1 GB per GPU, has 72.0" (decimal GB).
  [[nodiscard]] std::string shortfall() const;
};

//! Parameters one GPU of the first stage holds before ZeRO sharding: the dense part
//! (attention, norms, embeddings) over tp x pp, the routed experts over ep x pp.
struct LocalParams {
  double dense = 0;    //!< sharded by ZeRO over the dp x cp replicas
  double experts = 0;  //!< sharded by ZeRO over the tp x cp x dp / ep expert replicas
};
[[nodiscard]] LocalParams local_params(const ModelShape& m, const ParallelPlan& plan);

//! Activation bytes of one block for one micro-batch on one tensor-parallel rank [B]
//! (Korthikanti et al. 2022 eq. 2-4, sequence parallel): s b h (34 + 5 a s / h) / t stored;
//! selective recomputation or FlashAttention drops the 5 a s / h term; full stores the block
//! input 2 s b h / t; context parallelism divides the sequence s by cp.
//! The 34 counts a GELU MLP of 4h; a gated MLP of width f stores 2h + 8f where GELU stores 19h,
//! and K/V shrink with grouped-query attention.
[[nodiscard]] double activation_bytes_per_layer(const ModelShape& m, const ParallelPlan& p);

//! Blocks of one pipeline stage (the first, which holds the most activations): ceil(L / p).
[[nodiscard]] double stage_layers(const ModelShape& m, const ParallelPlan& plan);

//! Share of a stage's blocks whose forward pass reruns: 0 without full recomputation, 1 with it,
//! recompute_blocks / stage_layers when only some blocks recompute.
[[nodiscard]] double recomputed_share(const ModelShape& m, const ParallelPlan& plan);

//! Memory of the first pipeline stage of `plan` for `m` on `gpu`. With 1F1B it holds the
//! activations of min(m, p) micro-batches for its layers/p blocks (x (1 + (p-1)/(p v)) when
//! interleaved, Narayanan et al. 2021); states are params / (t p), with ZeRO sharding over dp.
[[nodiscard]] TrainingMemory training_memory(const ModelShape& m, const ParallelPlan& plan,
                                             const GpuSpec& gpu);

}  // namespace gpuplan::training
