#pragma once
//! LLM serving roofline for one model replica: prefill is compute-bound (prompt FLOPs over the
//! tensor-parallel group's peak at a prefill efficiency), decode is memory-bandwidth-bound (weights
//! plus KV cache read once per generated token, over the group's bandwidth at a decode efficiency),
//! each step taking the larger of its compute and memory times (Williams et al. 2009 roofline).
//! Tensor parallelism adds two all-reduces per layer (models/perf/collectives.h). docs/estimate.md.
#include <cstdint>
#include <string>
#include <string_view>

#include "models/catalog/catalog.h"
#include "models/perf/speed.h"
#include "models/perf/training/model_shape.h"

namespace gpuplan::inference {

//! The two serving efficiencies of one GPU generation.
struct ServingEfficiency {
  double prefill_compute = 0;   //!< achieved / dense peak FLOPs in prefill
  double decode_bandwidth = 0;  //!< achieved / peak memory bandwidth in decode
  std::string_view basis;       //!< why these values
};

//! Serving efficiencies of `architecture` (GpuSpec::architecture); unknown ones take ampere's.
[[nodiscard]] ServingEfficiency serving_efficiency(std::string_view architecture);

//! Share of GPU memory for weights and KV cache; the rest holds the CUDA context, activations and
//! fragmentation (vLLM's default gpu_memory_utilization is 0.9).
inline constexpr double SERVING_MEMORY = 0.9;

//! One serving question.
struct ServingRequest {
  uint32_t tp = 1;                        //!< GPUs of one replica (tensor parallel, one node)
  uint32_t batch = 1;                     //!< sequences decoded together
  double tokens_in = 0;                   //!< prompt tokens per sequence
  double tokens_out = 0;                  //!< generated tokens per sequence
  Precision precision = Precision::fp16;  //!< weights and KV cache: 2 B (fp16/bf16) or 1 B (fp8)
  //! Overrides of the generation's efficiencies (a calibration the user measured); 0 = default.
  double prefill_compute = 0, decode_bandwidth = 0;
  double memory_share = SERVING_MEMORY;  //!< share of GPU memory for weights and KV cache
};

//! Roofline answer for one replica.
struct ServingEstimate {
  double weight_bytes = 0;           //!< [B] all weights (every expert) at the precision
  double kv_bytes_per_token = 0;     //!< [B] per token of context, all layers
  double ttft_s = 0;                 //!< [s] prefill of the batch's prompts + TP all-reduces
  double tpot_s = 0;                 //!< [s] one decode step at the mean context
  double tokens_per_s = 0;           //!< [tokens/s] output tokens of the replica
  double request_s = 0;              //!< [s] ttft + tokens_out x tpot
  double prefill_compute_s = 0;      //!< [s] FLOP-limited prefill
  double prefill_memory_s = 0;       //!< [s] weight-read-limited prefill
  double decode_compute_s = 0;       //!< [s] FLOP-limited decode step
  double decode_memory_s = 0;        //!< [s] bandwidth-limited decode step
  double tp_comm_step_s = 0;         //!< [s] all-reduces of one decode step
  uint64_t max_batch_by_memory = 0;  //!< sequences of tokens_in + tokens_out whose KV fits
  bool prefill_compute_bound = true;
  bool decode_compute_bound = false;
  bool fits = false;  //!< weights fit in the group with room for one sequence's KV cache
};

//! Bytes per weight or KV value at `p`: 1 for fp8, 4 for fp32/tf32, else 2.
[[nodiscard]] double bytes_per_value(Precision p);

//! What the tensor-parallel group of `r` reaches: its GPUs' peak at r's precision times the
//! prefill efficiency, and their memory bandwidth times the decode efficiency (the
//! architecture's, serving_efficiency, unless `r` sets them).
struct GroupRates {
  double flops = 0;      //!< [FLOP/s]
  double bandwidth = 0;  //!< [B/s]
};
[[nodiscard]] GroupRates group_rates(const GpuSpec& gpu, const ServingRequest& r);
//! The efficiencies `r` runs at on `gpu`: its own where it sets them, else the generation's.
[[nodiscard]] ServingEfficiency effective_efficiency(const GpuSpec& gpu, const ServingRequest& r);

//! Roofline estimate of serving `m` on `tp` GPUs `gpu` of a node with fabric `fabric_name`.
[[nodiscard]] ServingEstimate estimate_serving(const training::ModelShape& m, const GpuSpec& gpu,
                                               std::string_view fabric_name,
                                               const ServingRequest& r);

}  // namespace gpuplan::inference
