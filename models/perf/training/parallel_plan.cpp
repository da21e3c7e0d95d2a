#include "models/perf/training/parallel_plan.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gpuplan::training {
namespace {

constexpr double BYTES_PER_GB = 1e9;  // GpuSpec::mem_gb is decimal GB

}  // namespace

std::string_view recompute_name(Recompute r) {
  switch (r) {
    case Recompute::none:
      return "none";
    case Recompute::selective:
      return "selective";
    case Recompute::full:
      return "full";
  }
  return "selective";
}

int zero_number(ZeroStage z) {
  switch (z) {
    case ZeroStage::none:
      return 0;
    case ZeroStage::optimizer:
      return 1;
    case ZeroStage::gradients:
      return 2;
    case ZeroStage::parameters:
      return 3;
  }
  return 0;
}

double activation_bytes_per_layer(const ModelShape& m, const ParallelPlan& p) {
  const double s = static_cast<double>(m.seq_len) / std::max<uint32_t>(p.cp, 1);
  const double b = p.micro_batch, h = m.hidden, t = p.tp;
  if (p.recompute == Recompute::full) return 2 * s * b * h / t;
  // Korthikanti et al. eq. 2: attention 11h (with K and V scaled to the KV heads), MLP 19h for a
  // GELU MLP of 4h, two layer norms 4h; per token, in bytes.
  const double kv_share = static_cast<double>(m.kv_head_count()) / std::max<uint32_t>(m.heads, 1);
  const double attention = 2 * h + 2 * h + 2 * h * kv_share + 2 * h * kv_share + 2 * h + h;
  const double f = m.ffn_width();
  // GELU: fc1 input 2h, GELU input 2f and output 2f, dropout mask h (19h at f = 4h); SwiGLU:
  // gate and up outputs, their SiLU and product, 2f each.
  // A mixture of experts stores the MLP activations of each of a token's k experts.
  const double mlp = (m.gated_mlp ? 2 * h + 8 * f : 2 * h + 2 * f + 2 * f + h) *
                     (m.moe() ? m.experts_per_token : 1);
  double per_token = attention + mlp + 4 * h;
  // The softmax input, output and dropout mask: 5 a s bytes per token (a = attention heads);
  // fused attention keeps only its output and the row log-sum-exp.
  if (p.recompute == Recompute::none && !p.flash_attention) per_token += 5.0 * m.heads * s;
  return s * b * per_token / t;
}

double stage_layers(const ModelShape& m, const ParallelPlan& plan) {
  return std::ceil(static_cast<double>(m.layers) / std::max<uint32_t>(plan.pp, 1));
}

double recomputed_share(const ModelShape& m, const ParallelPlan& plan) {
  if (plan.recompute != Recompute::full) return 0;
  const double layers = stage_layers(m, plan);
  return plan.recompute_blocks == 0 ? 1 : std::min(1.0, plan.recompute_blocks / layers);
}

LocalParams local_params(const ModelShape& m, const ParallelPlan& plan) {
  if (!m.moe()) return {m.total_params() / (static_cast<double>(plan.tp) * plan.pp), 0};
  const double experts = m.expert_params();
  return {(m.total_params() - experts) / (static_cast<double>(plan.tp) * plan.pp),
          experts / (static_cast<double>(std::max<uint32_t>(plan.ep, 1)) * plan.pp)};
}

TrainingMemory training_memory(const ModelShape& m, const ParallelPlan& plan, const GpuSpec& gpu) {
  TrainingMemory mem;
  const LocalParams local = local_params(m, plan);
  // ZeRO shards over every rank holding the same layers: data and context parallel ones, and for
  // the experts every rank of the stage holding the same experts.
  const double d =
      static_cast<double>(std::max<uint32_t>(plan.dp, 1)) * std::max<uint32_t>(plan.cp, 1);
  const double d_experts = d * plan.tp / std::max<uint32_t>(plan.ep, 1);
  const auto states = [&](double bytes_per_param, bool sharded) {
    return local.dense * bytes_per_param / (sharded ? d : 1) +
           (local.experts > 0 ? local.experts * bytes_per_param / (sharded ? d_experts : 1) : 0);
  };
  mem.weights = states(WEIGHT_BYTES, plan.zero == ZeroStage::parameters);
  mem.gradients = states(GRADIENT_BYTES,
                         plan.zero == ZeroStage::gradients || plan.zero == ZeroStage::parameters);
  mem.optimizer = states(OPTIMIZER_BYTES, plan.zero != ZeroStage::none);
  const double in_flight = std::min(plan.micro_batches, plan.pp);
  const double interleave_factor =
      plan.interleave > 1 ? 1 + (plan.pp - 1.0) / (static_cast<double>(plan.pp) * plan.interleave)
                          : 1;
  const double layers_here = stage_layers(m, plan);
  const double rerun = recomputed_share(m, plan) * layers_here;
  ParallelPlan stored = plan;
  stored.recompute = Recompute::selective;
  const double per_stage = activation_bytes_per_layer(m, plan) * rerun +
                           activation_bytes_per_layer(m, stored) * (layers_here - rerun);
  mem.activations = per_stage * in_flight * interleave_factor;
  mem.usable = gpu.mem_gb * BYTES_PER_GB * USABLE_MEMORY;
  return mem;
}

std::string TrainingMemory::shortfall() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "needs %.1f GB per GPU, has %.1f", total() / BYTES_PER_GB,
                usable / BYTES_PER_GB);
  return buf;
}

}  // namespace gpuplan::training
