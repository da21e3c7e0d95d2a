#include "models/perf/training/step_time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/perf/collectives.h"

namespace gpuplan::training {
namespace {

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double GB = 1e9;
constexpr double ACTIVATION_BYTES = 2;  // bf16 activations
// Latency of one point-to-point send between pipeline stages [s]: NCCL's 14 us per network step
// (NVIDIA/nccl src/graph/tuning.cc, as in models/perf/collectives.cpp).
constexpr double P2P_NET_LATENCY_S = 14e-6;
constexpr double P2P_NVLINK_LATENCY_S = 3.4e-6;
// Tensor-parallel all-reduce equivalents per block and micro-batch with sequence parallelism:
// two in the forward and two in the backward pass (Korthikanti et al. 2022 §4.2.2); full
// recomputation reruns the forward's two.
constexpr double TP_ALLREDUCES = 4;
constexpr double TP_ALLREDUCES_FULL_RECOMPUTE = 6;
// ZeRO-3 moves 1.5x the gradient bytes per micro-batch (Rajbhandari et al., SC 2020).
constexpr double ZERO3_COMM_FACTOR = 1.5;

bool power_of_two(uint32_t x) {
  return x > 0 && (x & (x - 1)) == 0;
}

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

}  // namespace

KernelEfficiency kernel_efficiency(std::string_view architecture) {
  // NOTE: one value per generation, never per model or test: the large-GEMM share of the dense
  // peak that cuBLAS reaches, lowered for the element-wise kernels between GEMMs.
  if (architecture == "ampere")
    return {0.84, "A100 BF16 GEMMs reach about 260 of 312 TFLOPS at large sizes"};
  if (architecture == "hopper")
    return {0.74,
            "H100 BF16 GEMMs reach about 730 of 989 TFLOPS; the higher peak leaves "
            "element-wise and attention kernels a larger share"};
  if (architecture == "volta")
    return {0.75, "V100 FP16 GEMMs reach about 95 of 125 TFLOPS (no BF16)"};
  if (architecture == "blackwell")
    return {0.65, "assumption: below hopper while software matures on the doubled peak"};
  if (architecture == "ada" || architecture == "turing")
    return {0.50,
            "assumption: PCIe parts at 70-350 W throttle under sustained tensor load and "
            "their GDDR bandwidth feeds half the element-wise kernels of HBM parts"};
  return {0.84, "unknown architecture: ampere's value"};
}

double compute_efficiency(const GpuSpec& gpu, double width_per_rank) {
  const double w = std::max(width_per_rank, 1.0);
  return kernel_efficiency(gpu.architecture).max * w / (w + HALF_WIDTH);
}

std::string plan_problem(const ModelShape& m, const ParallelPlan& plan, const Cluster& c) {
  const uint32_t gpn = c.instance ? std::max<uint32_t>(c.instance->gpus_per_node, 1) : 1;
  if (plan.tp == 0 || plan.pp == 0 || plan.dp == 0 || plan.micro_batch == 0 ||
      plan.micro_batches == 0 || plan.interleave == 0)
    return "every degree must be at least 1";
  if (plan.tp > gpn)
    return "tensor parallelism " + std::to_string(plan.tp) + " exceeds the " + std::to_string(gpn) +
           " GPUs of one node";
  if (gpn % plan.tp != 0)
    return "tensor parallelism " + std::to_string(plan.tp) + " does not divide the node's " +
           std::to_string(gpn) + " GPUs";
  if (m.heads % plan.tp != 0)
    return "tensor parallelism " + std::to_string(plan.tp) + " does not divide the " +
           std::to_string(m.heads) + " attention heads";
  if (uint64_t{plan.pp} * plan.interleave > m.layers)
    return "more pipeline stages than the " + std::to_string(m.layers) + " layers";
  if (plan.gpus() != c.gpus())
    return "tp x pp x dp = " + std::to_string(plan.gpus()) + " but the cluster has " +
           std::to_string(c.gpus()) + " GPUs";
  return "";
}

StepTime step_time(const ModelShape& m, const ParallelPlan& plan, const Cluster& c,
                   Precision precision) {
  StepTime t;
  const GpuSpec& gpu = *c.gpu;
  const InstanceType& it = *c.instance;
  const uint32_t gpn = std::max<uint32_t>(it.gpus_per_node, 1);
  const double s = m.seq_len, b = plan.micro_batch, h = m.hidden;
  const double peak = peak_tflops(gpu, precision) * 1e12;
  const double a = static_cast<double>(m.heads) * m.head_width();

  // Compute per micro-batch on the slowest stage: the last one, with ceil(L / p) blocks and the
  // output logits (Llama 3 removed a block from the first and last stages for this imbalance,
  // arXiv:2407.21783 §3.3.2); hardware FLOPs (model + recomputation) over the peak at the kernel
  // efficiency of the per-rank width.
  const double model_per_token = m.train_flops_per_token(m.seq_len);
  const double block_weights = m.attention_params() + m.experts_per_token * m.mlp_params();
  const double block_forward = 2 * block_weights + 4 * s * a;
  double block_hw = 3 * block_forward;
  if (plan.recompute == Recompute::selective) block_hw += 4 * s * a;
  if (plan.recompute == Recompute::full) block_hw += block_forward;
  const double logits_hw = 3 * 2.0 * m.vocab * h;
  const double stage_blocks = std::ceil(static_cast<double>(m.layers) / plan.pp);
  t.efficiency = compute_efficiency(gpu, h / plan.tp);
  const double compute_mb =
      (stage_blocks * block_hw + logits_hw) * b * s / plan.tp / (peak * t.efficiency);
  const double shard = static_cast<double>(plan.tp) * plan.pp;

  // Tensor parallelism: all-reduces of the b s h activations over the node fabric.
  double tp_mb = 0;
  if (plan.tp > 1) {
    const CommPlacement pl = make_comm_placement(it, gpu, plan.tp, 1);
    const double n =
        plan.recompute == Recompute::full ? TP_ALLREDUCES_FULL_RECOMPUTE : TP_ALLREDUCES;
    tp_mb = stage_blocks * n * allreduce_time_s(pl, b * s * h * ACTIVATION_BYTES);
  }
  const double mb = plan.micro_batches;
  t.compute_s = mb * compute_mb;
  t.tp_comm_s = mb * tp_mb;
  t.bubble_s = (plan.pp - 1.0) / plan.interleave * (compute_mb + tp_mb);

  // Pipeline: each micro-batch sends its activations forward and their gradient back across every
  // stage boundary (b s h / t bytes with sequence parallelism), once per virtual stage.
  const double net_per_gpu = it.nics * it.nic_gbps / gpn / 8.0 * NET_EFFICIENCY;  // [GB/s]
  if (plan.pp > 1) {
    const bool inside_node = uint64_t{plan.tp} * plan.pp <= gpn;
    const bool nvlink = parse_fabric(it.intra_node_fabric).value_or(Fabric::pcie) != Fabric::pcie &&
                        gpu.nvlink_gbps > 0;
    const double bw =
        inside_node ? (nvlink ? gpu.nvlink_gbps / 2 : PCIE_BUSBW_GBYTE_S) : net_per_gpu;
    const double lat = inside_node ? P2P_NVLINK_LATENCY_S : P2P_NET_LATENCY_S;
    const double bytes = b * s * h * ACTIVATION_BYTES / plan.tp;
    t.pp_comm_s = bw > 0 ? 2 * mb * plan.interleave * (lat + bytes / (bw * GB)) : INF;
  }

  // Data parallelism: reduce-scatter of the gradients + all-gather of the parameters (the
  // distributed optimizer), the volume of one all-reduce of the bf16 gradients of a shard, once per
  // step and hidden behind one micro-batch's compute. ZeRO-3 gathers the parameters again for the
  // forward and backward of every micro-batch and reduce-scatters its gradients: 1.5x that volume
  // per micro-batch, each hidden behind its own micro-batch (prefetched layer by layer).
  if (plan.dp > 1) {
    const uint32_t model_ranks = static_cast<uint32_t>(std::min<uint64_t>(shard, gpn));
    const uint32_t per_node = std::max<uint32_t>(gpn / model_ranks, 1);
    CommPlacement pl =
        make_comm_placement(it, gpu, per_node, std::max<uint32_t>(plan.dp / per_node, 1));
    pl.node_net_gbps /= model_ranks;  // every model-parallel rank's group shares the NICs
    const double bytes = m.total_params() / shard * GRADIENT_BYTES;
    t.dp_busbw_gbyte_s = predict_allreduce(pl).busbw_gbyte_s;
    if (plan.zero == ZeroStage::parameters) {
      const double per_mb = allreduce_time_s(pl, ZERO3_COMM_FACTOR * bytes);
      t.dp_comm_s = mb * per_mb;
      t.dp_exposed_s = std::isinf(per_mb) ? INF : mb * std::max(0.0, per_mb - compute_mb);
    } else {
      t.dp_comm_s = allreduce_time_s(pl, bytes);
      t.dp_exposed_s = std::isinf(t.dp_comm_s) ? INF : std::max(0.0, t.dp_comm_s - compute_mb);
    }
  }
  t.exposed_comm_s = t.tp_comm_s + t.pp_comm_s + t.dp_exposed_s;
  t.step_s = t.compute_s + t.exposed_comm_s + t.bubble_s;
  t.tokens_per_step = plan.sequences_per_step() * s;
  t.model_flops_per_step = model_per_token * t.tokens_per_step;
  t.mfu = std::isfinite(t.step_s) && t.step_s > 0
              ? t.model_flops_per_step / (static_cast<double>(plan.gpus()) * peak * t.step_s)
              : 0;
  t.memory = training_memory(m, plan, gpu);
  return t;
}

std::optional<SearchResult> fastest_plan(const ModelShape& m, const Cluster& c, Precision precision,
                                         const SearchLimits& limits) {
  const uint32_t gpn = std::max<uint32_t>(c.instance->gpus_per_node, 1);
  const uint64_t n = c.gpus();
  std::optional<SearchResult> best;
  const auto consider = [&](const ParallelPlan& p) {
    if (!plan_problem(m, p, c).empty()) return;
    const StepTime t = step_time(m, p, c, precision);
    if (!t.fits() || !std::isfinite(t.step_s)) return;
    // Fastest per token: plans round the global batch differently.
    const double per_token = t.step_s / t.tokens_per_step;
    if (!best || per_token < best->time.step_s / best->time.tokens_per_step)
      best = SearchResult{p, t};
  };
  const double seqs = std::max(1.0, limits.sequences_per_step);
  const uint32_t max_b = limits.quick ? 1 : 8;
  const uint32_t max_v = limits.quick ? 1 : 4;
  const uint32_t max_pp = limits.fixed_pp != 0 ? limits.fixed_pp : limits.max_pipeline;
  for (uint32_t tp = 1; tp <= gpn; tp *= 2) {
    if (!power_of_two(tp) || gpn % tp != 0) continue;
    if (limits.fixed_tp != 0 && tp != limits.fixed_tp) continue;
    for (uint32_t pp = 1; pp <= max_pp && pp <= m.layers; ++pp) {
      if (limits.fixed_pp != 0 && pp != limits.fixed_pp) continue;
      if (n % (uint64_t{tp} * pp) != 0) continue;
      const uint64_t dp = n / (uint64_t{tp} * pp);
      if (dp > seqs) continue;  // fewer sequences than replicas leave GPUs idle
      for (uint32_t b = 1; b <= max_b; b *= 2) {
        const double m_exact = seqs / (static_cast<double>(dp) * b);
        if (m_exact < 1 && b > 1) break;
        const auto mbs = static_cast<uint32_t>(std::max(1.0, std::ceil(m_exact - 1e-9)));
        for (uint32_t v = 1; v <= max_v; v *= 2) {
          if (v > 1 && (pp == 1 || mbs % pp != 0)) break;  // interleaving needs m % p == 0
          for (ZeroStage z : {ZeroStage::optimizer, ZeroStage::parameters})
            for (Recompute r : {Recompute::selective, Recompute::full}) {
              ParallelPlan p;
              p.tp = tp;
              p.pp = pp;
              p.dp = static_cast<uint32_t>(dp);
              p.micro_batch = b;
              p.micro_batches = mbs;
              p.interleave = v;
              p.zero = z;
              p.recompute = r;
              consider(p);
            }
        }
      }
    }
  }
  return best;
}

std::string not_recommended_reason(const StepTime& t, double floor) {
  if (t.mfu >= floor) return "";
  const double step = t.step_s > 0 ? t.step_s : 1;
  std::string why = fmt("MFU %.0f%% below the %.0f%% floor: ", 100 * t.mfu, 100 * floor);
  if (t.exposed_comm_s >= t.bubble_s && t.exposed_comm_s > 0.2 * step)
    return why + fmt("exposed communication is %.0f%% of the step (network too slow for the "
                     "gradient and pipeline traffic)",
                     100 * t.exposed_comm_s / step);
  if (t.bubble_s > 0.2 * step)
    return why + fmt("the pipeline bubble is %.0f%% of the step", 100 * t.bubble_s / step);
  return why + fmt("kernel efficiency %.0f%% of peak on this GPU", 100 * t.efficiency);
}

}  // namespace gpuplan::training
