#include "models/perf/inference/roofline.h"

#include <algorithm>
#include <cmath>

#include "models/perf/collectives.h"

namespace gpuplan::inference {
namespace {

constexpr double GB = 1e9;
// All-reduces per layer and forward pass under Megatron-style tensor parallelism: after attention
// and after the MLP (Shoeybi et al. 2019).
constexpr double TP_ALLREDUCES_PER_LAYER = 2;

}  // namespace

ServingEfficiency serving_efficiency(std::string_view architecture) {
  // NOTE: one pair per generation: decode bandwidth as memory-bound GEMV kernels reach on HBM
  // (about 75% of peak, e.g. batch-1 Llama-2-7B at ~100 tokens/s on A100-80GB and ~180 on H100),
  // prefill as a large-GEMM forward pass below the training kernel efficiency (no backward to
  // amortise attention and sampling).
  if (architecture == "ampere") return {0.60, 0.75, "A100: GEMM ~80% of peak, HBM2e GEMV ~75%"};
  if (architecture == "hopper") return {0.55, 0.75, "H100/H200: GEMM ~70% of peak, HBM3 GEMV ~75%"};
  if (architecture == "volta") return {0.55, 0.70, "V100: FP16 GEMM ~75% of peak, HBM2 GEMV ~70%"};
  if (architecture == "blackwell")
    return {0.50, 0.70, "assumption: below hopper while software matures"};
  if (architecture == "cdna3")
    return {0.44, 0.75,
            "MI300X: GEMMs at 44% of peak and STREAM at ~78% of 5.3 TB/s on Azure ND MI300X v5"};
  if (architecture == "ada" || architecture == "turing")
    return {0.45, 0.70, "assumption: power-limited PCIe parts; GDDR6 GEMV ~70%"};
  return {0.60, 0.75, "unknown architecture: ampere's values"};
}

double bytes_per_value(Precision p) {
  switch (p) {
    case Precision::fp8:
      return 1;
    case Precision::fp32:
    case Precision::tf32:
      return 4;
    case Precision::bf16:
    case Precision::fp16:
      return 2;
  }
  return 2;
}

ServingEfficiency effective_efficiency(const GpuSpec& gpu, const ServingRequest& r) {
  ServingEfficiency eff = serving_efficiency(gpu.architecture);
  if (r.prefill_compute > 0) eff.prefill_compute = r.prefill_compute;
  if (r.decode_bandwidth > 0) eff.decode_bandwidth = r.decode_bandwidth;
  return eff;
}

GroupRates group_rates(const GpuSpec& gpu, const ServingRequest& r) {
  const ServingEfficiency eff = effective_efficiency(gpu, r);
  const double tp = std::max<uint32_t>(r.tp, 1);
  return {tp * peak_tflops(gpu, r.precision) * 1e12 * eff.prefill_compute,
          tp * gpu.mem_bw_tbps * 1e12 * eff.decode_bandwidth};
}

ServingEstimate estimate_serving(const training::ModelShape& m, const GpuSpec& gpu,
                                 std::string_view fabric_name, const ServingRequest& r) {
  ServingEstimate e;
  const double bpv = bytes_per_value(r.precision);
  const double tp = std::max<uint32_t>(r.tp, 1);
  const double batch = std::max<uint32_t>(r.batch, 1);
  const GroupRates rates = group_rates(gpu, r);
  const double peak = rates.flops, bw = rates.bandwidth;
  e.weight_bytes = m.total_params() * bpv;
  e.kv_bytes_per_token = m.kv_bytes_per_token(bpv);

  const double capacity = tp * gpu.mem_gb * GB * r.memory_share;
  const double per_sequence = e.kv_bytes_per_token * (r.tokens_in + r.tokens_out);
  const double free_bytes = capacity - e.weight_bytes;
  e.max_batch_by_memory =
      free_bytes > 0 && per_sequence > 0
          ? static_cast<uint64_t>(std::min(1e9, std::floor(free_bytes / per_sequence)))
          : 0;
  e.fits = free_bytes > 0 && (per_sequence <= 0 || e.max_batch_by_memory >= 1);

  // Weights a step reads: every shared weight, and the experts the batch's tokens route to.
  const double expert_bytes = m.mlp_params() * m.layers * bpv;
  const double shared_bytes = e.weight_bytes - expert_bytes * m.experts;
  const auto touched = [&](double tokens) {
    return shared_bytes + expert_bytes * std::min<double>(m.experts, tokens * m.experts_per_token);
  };

  // TP all-reduces of the hidden states: 2 per layer.
  CommPlacement pl;
  pl.ranks_per_node = r.tp;
  pl.fabric = parse_fabric(fabric_name).value_or(Fabric::pcie);
  pl.architecture = gpu.architecture;
  pl.nvlink_gbyte_s = gpu.nvlink_gbps;
  const auto tp_comm = [&](double tokens) {
    return r.tp > 1
               ? TP_ALLREDUCES_PER_LAYER * m.layers * allreduce_time_s(pl, tokens * m.hidden * bpv)
               : 0.0;
  };

  // Prefill: the batch's prompts, attention over half the prompt on average (causal).
  const double prompt_tokens = batch * r.tokens_in;
  e.prefill_compute_s = prompt_tokens * m.forward_flops_per_token(r.tokens_in / 2) / peak;
  e.prefill_memory_s = r.tokens_in > 0 ? touched(prompt_tokens) / bw : 0;
  e.prefill_compute_bound = e.prefill_compute_s >= e.prefill_memory_s;
  e.ttft_s = r.tokens_in > 0
                 ? std::max(e.prefill_compute_s, e.prefill_memory_s) + tp_comm(prompt_tokens)
                 : 0;

  // Decode: one token per sequence at the mean context of the generation. The weight GEMMs and
  // the attention over the KV cache are separate kernels, each on its own roofline, run one
  // after the other (per-operator roofline, Yuan et al. 2024, arXiv:2402.16363).
  const double context = r.tokens_in + r.tokens_out / 2;
  const double attention_flops = m.forward_flops_per_token(context) - m.forward_flops_per_token(0);
  const double gemm_compute = batch * m.forward_flops_per_token(0) / peak;
  const double gemm_memory = touched(batch) / bw;
  const double attention_compute = batch * attention_flops / peak;
  const double attention_memory = batch * context * e.kv_bytes_per_token / bw;
  e.decode_compute_s = gemm_compute + attention_compute;
  e.decode_memory_s = gemm_memory + attention_memory;
  e.decode_compute_bound = e.decode_compute_s > e.decode_memory_s;
  e.tp_comm_step_s = tp_comm(batch);
  e.tpot_s = std::max(gemm_compute, gemm_memory) + std::max(attention_compute, attention_memory) +
             e.tp_comm_step_s;
  e.request_s = e.ttft_s + r.tokens_out * e.tpot_s;
  e.tokens_per_s = e.request_s > 0 ? batch * r.tokens_out / e.request_s : 0;
  return e;
}

}  // namespace gpuplan::inference
