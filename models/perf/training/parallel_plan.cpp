#include "models/perf/training/parallel_plan.h"

#include <algorithm>
#include <cmath>

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
  const double s = m.seq_len, b = p.micro_batch, h = m.hidden, t = p.tp;
  if (p.recompute == Recompute::full) return 2 * s * b * h / t;
  // Korthikanti et al. eq. 2: attention 11h (with K and V scaled to the KV heads), MLP 19h for a
  // GELU MLP of 4h, two layer norms 4h; per token, in bytes.
  const double kv_share = static_cast<double>(m.kv_head_count()) / std::max<uint32_t>(m.heads, 1);
  const double attention = 2 * h + 2 * h + 2 * h * kv_share + 2 * h * kv_share + 2 * h + h;
  const double f = m.ffn_width();
  // GELU: fc1 input 2h, GELU input 2f and output 2f, dropout mask h (19h at f = 4h); SwiGLU:
  // gate and up outputs, their SiLU and product, 2f each.
  const double mlp = m.gated_mlp ? 2 * h + 8 * f : 2 * h + 2 * f + 2 * f + h;
  double per_token = attention + mlp + 4 * h;
  // The softmax input, output and dropout mask: 5 a s bytes per token (a = attention heads).
  if (p.recompute == Recompute::none) per_token += 5.0 * m.heads * s;
  return s * b * per_token / t;
}

TrainingMemory training_memory(const ModelShape& m, const ParallelPlan& plan, const GpuSpec& gpu) {
  TrainingMemory mem;
  const double shard = m.total_params() / (static_cast<double>(plan.tp) * plan.pp);
  const double d = std::max<uint32_t>(plan.dp, 1);
  mem.weights = shard * WEIGHT_BYTES / (plan.zero == ZeroStage::parameters ? d : 1);
  mem.gradients = shard * GRADIENT_BYTES /
                  (plan.zero == ZeroStage::gradients || plan.zero == ZeroStage::parameters ? d : 1);
  mem.optimizer = shard * OPTIMIZER_BYTES / (plan.zero == ZeroStage::none ? 1 : d);
  const double in_flight = std::min(plan.micro_batches, plan.pp);
  const double interleave_factor =
      plan.interleave > 1 ? 1 + (plan.pp - 1.0) / (static_cast<double>(plan.pp) * plan.interleave)
                          : 1;
  const double layers_here = std::ceil(static_cast<double>(m.layers) / plan.pp);
  mem.activations =
      activation_bytes_per_layer(m, plan) * layers_here * in_flight * interleave_factor;
  mem.usable = gpu.mem_gb * BYTES_PER_GB * USABLE_MEMORY;
  return mem;
}

}  // namespace gpuplan::training
