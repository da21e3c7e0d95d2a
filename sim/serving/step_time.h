#pragma once
//! The time of one serving iteration (a forward pass over a batch of prefill chunks and decodes)
//! from the per-operator roofline of models/perf/inference/roofline.h, applied to the batch's
//! actual mix: the weight GEMMs over every token of the step, the prefill chunks' attention with
//! them (compute-bound FlashAttention), the decodes' attention over their KV cache as a kernel of
//! its own, and the tensor-parallel all-reduces of the step's hidden states (NCCL's, or a
//! latency-optimised kernel's where that is faster). A step of one whole
//! prompt takes the roofline's TTFT, a step of one decode at context c its TPOT at that context.
#include "sim/core/portable.h"

namespace gpuplan::serving {

//! A replica's roofline constants, filled on the host by models/perf/inference/serving_step.h.
struct StepModel {
  double peak_flops = 0;           //!< [FLOP/s] the group's dense peak x prefill efficiency
  double bandwidth = 0;            //!< [B/s] the group's memory bandwidth x decode efficiency
  double flops_per_token = 0;      //!< [FLOP] weight FLOPs of one token (2 x active params)
  double attention_flops = 0;      //!< [FLOP] per token per context token (4 x a x layers)
  double shared_weight_bytes = 0;  //!< [B] weights every step reads (all but routed experts)
  double expert_weight_bytes = 0;  //!< [B] one routed expert over all layers (0: dense)
  double experts = 1;              //!< routed experts per layer
  double experts_per_token = 1;    //!< experts a token is routed to
  double kv_bytes_per_token = 0;   //!< [B] KV cache of one token of context, all layers
  double comm_fixed_s = 0;         //!< [s] latency of a step's TP all-reduces
  double comm_per_token_s = 0;     //!< [s] TP all-reduce time per token of the step
  //! [s] the same all-reduces by a kernel for small messages (vLLM's custom all-reduce), fixed
  //! and per token: a step takes the faster of the two; 0 = none
  double comm_small_fixed_s = 0, comm_small_per_token_s = 0;
  double overhead_s = 0;           //!< [s] fixed per-step cost (scheduling, sampling); 0 = none
  //! [s] cost of each decoding sequence of a step beyond its KV read (host work per sequence,
  //! attention kernels below the bandwidth); 0 = none
  double sequence_s = 0;
  double constant_step_s = 0;  //!< [s] when > 0 every step takes this (queueing checks)
};

//! What one step computes.
struct BatchMix {
  double prefill_tokens = 0;   //!< tokens of prefill chunks
  double prefill_context = 0;  //!< sum over chunks of tokens x mean context (start + tokens / 2)
  double decode_tokens = 0;    //!< sequences decoding one token
  double decode_context = 0;   //!< sum over decodes of the KV length read (incl. the new token)
};

//! Adds a prefill chunk of `tokens` starting at prompt position `start` to `b`.
GPUPLAN_HD inline void add_prefill(BatchMix& b, double start, double tokens) {
  b.prefill_tokens += tokens;
  b.prefill_context += tokens * (start + tokens / 2);
}

//! Adds one decode reading `context` tokens of KV cache to `b`.
GPUPLAN_HD inline void add_decode(BatchMix& b, double context) {
  b.decode_tokens += 1;
  b.decode_context += context;
}

//! [s] Time of a step computing `b` on the replica of `m`; 0 for an empty step.
[[nodiscard]] GPUPLAN_HD inline double step_time_s(const StepModel& m, const BatchMix& b) {
  const double tokens = b.prefill_tokens + b.decode_tokens;
  if (!(tokens > 0)) return 0;
  if (m.constant_step_s > 0) return m.constant_step_s;
  const double routed = tokens * m.experts_per_token;
  const double touched =
      m.shared_weight_bytes + m.expert_weight_bytes * (routed < m.experts ? routed : m.experts);
  const double gemm_compute =
      (tokens * m.flops_per_token + m.attention_flops * b.prefill_context) / m.peak_flops;
  const double gemm_memory = touched / m.bandwidth;
  double t = gemm_compute > gemm_memory ? gemm_compute : gemm_memory;
  if (b.decode_tokens > 0) {
    const double attention_compute = m.attention_flops * b.decode_context / m.peak_flops;
    const double attention_memory = m.kv_bytes_per_token * b.decode_context / m.bandwidth;
    t += attention_compute > attention_memory ? attention_compute : attention_memory;
  }
  double comm = m.comm_fixed_s + m.comm_per_token_s * tokens;
  if (m.comm_small_fixed_s > 0) {
    const double small = m.comm_small_fixed_s + m.comm_small_per_token_s * tokens;
    comm = small < comm ? small : comm;
  }
  return t + comm + m.overhead_s + m.sequence_s * b.decode_tokens;
}

}  // namespace gpuplan::serving
