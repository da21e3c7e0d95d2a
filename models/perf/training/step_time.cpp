#include "models/perf/training/step_time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "models/perf/collectives.h"
#include "models/perf/training/published_runs.h"

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
// Expert-parallel all-to-alls per MoE block and micro-batch: dispatch and combine, forward and
// backward (Megatron-Core's token dispatcher); a recomputed forward adds two.
constexpr double EP_ALLTOALLS = 4;
// ZeRO-3 moves 1.5x the gradient bytes per micro-batch (Rajbhandari et al., SC 2020).
constexpr double ZERO3_COMM_FACTOR = 1.5;
// Bytes per score-matrix element and pass of unfused attention (see step_time).
constexpr double SOFTMAX_BYTES = 13;
// AdamW update per parameter: fp32 weight, momentum, variance read and written (24 B), the
// gradient read (4 B) and the bf16 weight copy written (2 B).
constexpr double OPTIMIZER_STEP_BYTES = 30;

bool power_of_two(uint32_t x) {
  return x > 0 && (x & (x - 1)) == 0;
}

std::string fmt(const char* f, double a, double b = 0, double c = 0) {
  char buf[160];
  std::snprintf(buf, sizeof buf, f, a, b, c);
  return buf;
}

// Fewest blocks per stage whose recomputation makes `p` (with full recomputation) fit on `gpu`;
// 0 (all) when even that does not fit or every block must rerun.
uint32_t blocks_to_recompute(const ModelShape& m, ParallelPlan p, const GpuSpec& gpu) {
  p.recompute_blocks = 0;
  const TrainingMemory all = training_memory(m, p, gpu);
  p.recompute = Recompute::selective;
  const TrainingMemory none = training_memory(m, p, gpu);
  const double layers = stage_layers(m, p);
  const double saving = (none.activations - all.activations) / layers;  // per rerun block
  if (!all.fits() || saving <= 0) return 0;
  const double need = std::ceil((none.total() - none.usable) / saving - 1e-9);
  return need >= layers ? 0 : static_cast<uint32_t>(std::max(1.0, need));
}

}  // namespace

double slowest_stage_blocks(uint32_t layers, uint32_t stages, double logits_blocks) {
  if (stages <= 1) return layers + logits_blocks;
  const uint32_t even = (layers + stages - 1) / stages;
  double best = INF;
  for (uint32_t last = 0; last <= even && last <= layers; ++last) {
    const double others = std::ceil(static_cast<double>(layers - last) / (stages - 1));
    best = std::min(best, std::max(others, last + logits_blocks));
  }
  return best;
}

KernelEfficiency kernel_efficiency(std::string_view architecture, const EfficiencyConstants& k) {
  // GEMM shares are fitted (FITTED); the FlashAttention-2 shares are the published forward +
  // backward causal throughputs at head dim 128: about 175 of 312 TFLOPS on A100 (Dao 2023,
  // arXiv:2307.08691 Fig. 5) and about 335 of 989 TFLOPS on H100 (Shah et al. 2024,
  // arXiv:2407.08608 Fig. 6); element-wise kernels reach about 80 % of datasheet HBM bandwidth
  // (assumption, as STREAM-like copies do on HBM2e/HBM3).
  if (architecture == "hopper")
    return {k.gemm_hopper, k.gemm_fp8_hopper, 0.34, 0.8,
            "H100: GEMMs fitted on the calibration table; FlashAttention-2 at about 335 of "
            "989 TFLOPS; 3.35 TB/s HBM3 for the memory-bound rest"};
  if (architecture == "volta")
    return {0.75, 0.75, 0.40, 0.8, "assumption: V100 FP16 GEMMs reach about 95 of 125 TFLOPS"};
  if (architecture == "blackwell")
    return {k.gemm_hopper * 0.9, k.gemm_fp8_hopper * 0.9, 0.30, 0.8,
            "assumption: below hopper while software matures on the doubled peak"};
  if (architecture == "cdna3")
    return {0.44, 0.44, 0.25, 0.78,
            "MI300X, measured on Azure ND MI300X v5 (Azure AI-benchmarking-guide): hipBLASLt FP8 "
            "GEMMs peak at 1,159 of 2,615 TFLOPS (BF16 assumed to reach the same share), "
            "FlashAttention-2 at 329 of 1,307 TFLOPS, STREAM 4.1-4.3 of 5.3 TB/s"};
  if (architecture == "ada" || architecture == "turing")
    return {0.50, 0.50, 0.30, 0.8,
            "assumption: PCIe parts at 70-350 W throttle under sustained tensor load"};
  return {k.gemm_ampere, k.gemm_ampere, 0.56, 0.8,
          "A100: GEMMs fitted on the calibration table; FlashAttention-2 at about 175 of "
          "312 TFLOPS; 2.0 TB/s HBM2e for the memory-bound rest"};
}

double compute_efficiency(const GpuSpec& gpu, double width_per_rank, const EfficiencyConstants& k,
                          Precision precision) {
  const double w = std::max(width_per_rank, 1.0);
  const KernelEfficiency e = kernel_efficiency(gpu.architecture, k);
  const bool fp8_units = precision == Precision::fp8 && gpu.fp8_tflops > 0;
  return (fp8_units ? e.gemm_fp8 : e.gemm) * w / (w + k.half_width);
}

std::string plan_problem(const ModelShape& m, const ParallelPlan& plan, const Cluster& c) {
  const uint32_t gpn = c.instance ? std::max<uint32_t>(c.instance->gpus_per_node, 1) : 1;
  if (plan.tp == 0 || plan.cp == 0 || plan.pp == 0 || plan.dp == 0 || plan.micro_batch == 0 ||
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
  if (m.seq_len % plan.cp != 0)
    return "context parallelism " + std::to_string(plan.cp) + " does not divide the sequence of " +
           std::to_string(m.seq_len) + " tokens";
  if (plan.ep == 0 || (plan.ep > 1 && (!m.moe() || m.experts % plan.ep != 0)))
    return "expert parallelism " + std::to_string(plan.ep) + " does not divide the " +
           std::to_string(m.experts) + " experts";
  if ((uint64_t{plan.tp} * plan.cp * plan.dp) % plan.ep != 0)
    return "expert parallelism " + std::to_string(plan.ep) +
           " does not divide the tp x cp x dp = " +
           std::to_string(uint64_t{plan.tp} * plan.cp * plan.dp) + " ranks of a stage";
  if (plan.gpus() != c.gpus())
    return "tp x cp x pp x dp = " + std::to_string(plan.gpus()) + " but the cluster has " +
           std::to_string(c.gpus()) + " GPUs";
  return "";
}

StepTime step_time(const ModelShape& m, const ParallelPlan& plan, const Cluster& c,
                   Precision precision, const EfficiencyConstants& k) {
  StepTime t;
  const GpuSpec& gpu = *c.gpu;
  const InstanceType& it = *c.instance;
  const uint32_t gpn = std::max<uint32_t>(it.gpus_per_node, 1);
  const KernelEfficiency eff = kernel_efficiency(gpu.architecture, k);
  const double s = m.seq_len, b = plan.micro_batch, h = m.hidden, tp = plan.tp, cp = plan.cp;
  const double tokens = b * s / cp;  // tokens of one micro-batch on one context rank
  const double peak = peak_tflops(gpu, precision) * 1e12;
  const double attention_peak = peak_tflops(gpu, Precision::bf16) * 1e12;  // BF16 kernels
  const double hbm = gpu.mem_bw_tbps * 1e12 * eff.memory;                  // [B/s]
  const double a = static_cast<double>(m.heads) * m.head_width();
  const double rerun = recomputed_share(m, plan);
  const double passes = 3 + rerun;  // forward, backward (2x), the recomputed share's rerun

  // Per block and micro-batch on one GPU; the slowest stage's share follows below.
  const double gemm_rate = peak * compute_efficiency(gpu, h / tp, k, precision);
  double gemm_flops = 0, gemm_block = 0;
  if (m.moe()) {
    // Mixture of experts (an approximation): the routed tokens' expert GEMMs spread evenly over
    // the stage's ranks, each waiting for the busiest (expert_imbalance), at the width of one
    // whole expert (expert tensor parallelism 1).
    const double attention_flops = 2 * m.attention_params() * tokens / tp * passes;
    const double expert_flops = 2 * m.experts_per_token * m.mlp_params() * tokens / tp * passes;
    const double expert_rate =
        peak * compute_efficiency(gpu, std::min<double>(h, m.ffn_width()), k, precision);
    gemm_flops = attention_flops + expert_flops;
    gemm_block = attention_flops / gemm_rate + expert_flops * m.expert_imbalance / expert_rate;
  } else {
    gemm_flops = 2 * (m.attention_params() + m.mlp_params()) * tokens / tp * passes;
    gemm_block = gemm_flops / gemm_rate;
  }
  const double logits_s = 3 * 2.0 * m.vocab * h * tokens / tp / gemm_rate;
  // Attention core, forward 4 s a FLOPs per token. FlashAttention skips the masked half and
  // recomputes inside its backward; unfused kernels run two batched GEMMs and stream the
  // b (a / t) s x s score matrix through HBM at about 13 B per element per pass (scores written
  // and read, softmax out, dropout mask and out, read by the second GEMM).
  const double attn_fwd = 4 * s * a * tokens / tp;
  double attn_block = 0;
  if (plan.flash_attention) {
    attn_block = 0.5 * attn_fwd * passes / (attention_peak * eff.attention);
  } else {
    const double attn_passes = passes + (plan.recompute == Recompute::selective ? 1 : 0);
    const double scores = b * (m.heads / tp) * s * (s / cp);
    attn_block = attn_passes * (attn_fwd / gemm_rate + SOFTMAX_BYTES * scores / hbm);
  }
  // Memory-bound rest of the layer; sequence parallelism shards it over tensor ranks. FSDP
  // frameworks (ZeRO-3 plans) run it as unfused PyTorch kernels.
  const bool fsdp = plan.zero == ZeroStage::parameters;
  const double elementwise_block =
      k.elementwise_bytes * (fsdp ? k.fsdp_elementwise : 1) * h * tokens / tp * passes / 3 / hbm;
  const double compute_block = gemm_block + attn_block + elementwise_block;

  // Tensor parallelism: all-reduces of the b s h activations over the node fabric.
  double tp_block = 0;
  if (plan.tp > 1) {
    const CommPlacement pl = make_comm_placement(it, gpu, plan.tp, 1);
    const double n = TP_ALLREDUCES + rerun * (TP_ALLREDUCES_FULL_RECOMPUTE - TP_ALLREDUCES);
    tp_block = n * allreduce_time_s(pl, tokens * h * ACTIVATION_BYTES);
  }
  const double net_per_gpu = it.nics * it.nic_gbps / gpn / 8.0 * NET_EFFICIENCY;  // [GB/s]
  const bool nvlink = parse_fabric(it.intra_node_fabric).value_or(Fabric::pcie) != Fabric::pcie &&
                      gpu.nvlink_gbps > 0;
  const double node_link = nvlink ? gpu.nvlink_gbps / 2 : PCIE_BUSBW_GBYTE_S;  // [GB/s]
  // Context parallelism as Llama 3 runs it (arXiv:2407.21783 §3.3.2): all-gather the other
  // ranks' K and V before the attention, reduce-scatter their gradients after it (3 x (cp - 1)
  // chunks per block with the backward's re-gather), on the critical path.
  double cp_block = 0;
  if (plan.cp > 1) {
    const double kv = 2 * tokens * m.kv_head_count() * m.head_width() * ACTIVATION_BYTES / tp;
    const double bw = uint64_t{plan.tp} * plan.cp <= gpn ? node_link : net_per_gpu;
    cp_block = bw > 0 ? 3 * (cp - 1) * kv / (bw * GB) : INF;
  }
  // Expert parallelism: each MoE block dispatches every token's hidden state to its k experts
  // and combines the results, forward and backward (and again for a recomputed forward): 4 + 2
  // rerun all-to-alls of tokens/t x k x h bf16 values per rank, exposed. The ep ranks are
  // consecutive (Megatron-Core's tp-cp-ep-dp-pp order): the NVLink and network shares of a
  // pairwise all-to-all run at once.
  double ep_block = 0;
  if (plan.ep > 1) {
    const uint32_t per_node = std::min(plan.ep, gpn);
    const double bytes = tokens / tp * m.experts_per_token * h * ACTIVATION_BYTES;
    const double inside = pairwise_alltoall_s(per_node, bytes * per_node / plan.ep,
                                              alpha_beta(P2P_NVLINK_LATENCY_S, node_link));
    const double across = plan.ep > per_node
                              ? pairwise_alltoall_s(plan.ep / per_node, bytes,
                                                    alpha_beta(P2P_NET_LATENCY_S, net_per_gpu))
                              : 0;
    ep_block = (EP_ALLTOALLS + 2 * rerun) * std::max(inside, across);
  }
  // The slowest stage, in blocks: the last stage also computes the output logits, so layers are
  // balanced by taking blocks off it, as Llama 3 did (arXiv:2407.21783 §3.3.2).
  const double block_s = compute_block + tp_block + cp_block + ep_block;
  const double blocks = slowest_stage_blocks(m.layers, plan.pp, logits_s / block_s);
  const double compute_mb = blocks * compute_block;
  const double tp_mb = blocks * tp_block;
  const double cp_mb = blocks * cp_block;
  const double ep_mb = blocks * ep_block;
  const double gemm_mb = blocks * gemm_block;
  const double attn_mb = blocks * attn_block;
  const double elementwise_mb = blocks * elementwise_block;
  const double mb = plan.micro_batches;
  t.compute_s = mb * compute_mb;
  t.gemm_s = mb * gemm_mb;
  t.attention_s = mb * attn_mb;
  t.elementwise_s = mb * elementwise_mb;
  t.tp_comm_s = mb * tp_mb;
  t.cp_exposed_s = mb * cp_mb;
  t.ep_comm_s = mb * ep_mb;
  t.bubble_s = (plan.pp - 1.0) / plan.interleave * (compute_mb + tp_mb + cp_mb + ep_mb);
  t.efficiency = blocks * (gemm_flops + (plan.flash_attention ? 0.5 : 1.0) * attn_fwd * passes) /
                 (compute_mb * peak);

  // Pipeline: each micro-batch sends its activations forward and their gradient back across every
  // stage boundary (b s h / t bytes with sequence parallelism), once per virtual stage.
  if (plan.pp > 1) {
    const bool inside_node = uint64_t{plan.tp} * plan.cp * plan.pp <= gpn;
    const double bw = inside_node ? node_link : net_per_gpu;
    const double lat = inside_node ? P2P_NVLINK_LATENCY_S : P2P_NET_LATENCY_S;
    const double bytes = tokens * h * ACTIVATION_BYTES / tp;
    t.pp_comm_s = bw > 0 ? 2 * mb * plan.interleave * (lat + bytes / (bw * GB)) : INF;
  }

  // Data parallelism (with the context ranks, which hold the same layers): reduce-scatter of the
  // gradients + all-gather of the parameters, the volume of one all-reduce of the bf16 gradients
  // of a shard, once per step and hidden behind one micro-batch's compute. ZeRO-3 gathers the
  // parameters again for the forward and backward of every micro-batch and reduce-scatters its
  // gradients: 1.5x that volume per micro-batch, each hidden behind its own micro-batch.
  const double replicas = static_cast<double>(plan.dp) * plan.cp;
  if (replicas > 1) {
    const uint32_t model_ranks =
        static_cast<uint32_t>(std::min<uint64_t>(uint64_t{plan.tp} * plan.pp, gpn));
    const uint32_t per_node = std::max<uint32_t>(gpn / model_ranks, 1);
    const auto group = static_cast<uint32_t>(replicas);
    CommPlacement pl = make_comm_placement(it, gpu, std::min(per_node, group),
                                           std::max<uint32_t>(group / per_node, 1));
    pl.node_net_gbps /= model_ranks;  // every model-parallel rank's group shares the NICs
    const LocalParams local = local_params(m, plan);
    const double bytes = (local.dense + local.experts) * GRADIENT_BYTES;
    t.dp_busbw_gbyte_s = predict_allreduce(pl).busbw_gbyte_s;
    const auto exposed = [&](double comm, double share) {
      return std::isinf(comm)
                 ? INF
                 : std::max(0.0, comm - compute_mb) + share * std::min(comm, compute_mb);
    };
    if (fsdp) {
      const double per_mb = allreduce_time_s(pl, ZERO3_COMM_FACTOR * bytes);
      t.dp_comm_s = mb * per_mb;
      t.dp_exposed_s = mb * exposed(per_mb, k.fsdp_exposed);
    } else {
      t.dp_comm_s = allreduce_time_s(pl, bytes);
      t.dp_exposed_s = exposed(t.dp_comm_s, k.overlap_slowdown);
    }
  }
  // Optimizer: AdamW reads and writes fp32 weights, momentum and variance and reads the
  // gradient: about OPTIMIZER_STEP_BYTES per parameter of the local shard, at HBM speed.
  const LocalParams local = local_params(m, plan);
  const bool sharded = plan.zero != ZeroStage::none;
  const double expert_replicas = replicas * tp / plan.ep;
  const double updated = local.dense / (sharded ? replicas : 1.0) +
                         (local.experts > 0 ? local.experts / (sharded ? expert_replicas : 1) : 0);
  t.optimizer_s = updated * OPTIMIZER_STEP_BYTES / hbm;
  t.exposed_comm_s = t.tp_comm_s + t.cp_exposed_s + t.ep_comm_s + t.pp_comm_s + t.dp_exposed_s;
  t.step_s = t.compute_s + t.exposed_comm_s + t.bubble_s + t.optimizer_s;
  t.tokens_per_step = plan.sequences_per_step() * s;
  t.model_flops_per_step = m.train_flops_per_token(m.seq_len) * t.tokens_per_step;
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
  double best_rank = INF;
  const double cap = (1 + MAX_ABOVE_PUBLISHED) * best_published_mfu(c.gpu->architecture, precision);
  const auto consider = [&](ParallelPlan p) {
    if (!plan_problem(m, p, c).empty()) return;
    // The least recomputation that fits: recomputing costs time, so memory alone decides; under
    // full recomputation only as many blocks rerun as the memory needs.
    for (Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
      p.recompute = r;
      p.recompute_blocks = 0;
      if (r == Recompute::full) p.recompute_blocks = blocks_to_recompute(m, p, *c.gpu);
      // Memory first: it is cheap, and whether the step is finite does not depend on r.
      if (!training_memory(m, p, *c.gpu).fits()) continue;
      StepTime t = step_time(m, p, c, precision);
      if (!std::isfinite(t.step_s)) return;
      if (cap > 0 && t.mfu > cap) {
        t.cap_s = t.step_s * (t.mfu / cap - 1);
        t.step_s += t.cap_s;
        t.mfu = cap;
      }
      // Fastest per token (plans round the global batch differently), penalised outside the
      // calibrated region.
      const double per_token = t.step_s / t.tokens_per_step;
      if (per_token >= best_rank) return;
      const bool extrapolated = is_extrapolated(m, p, c.gpu->architecture, precision);
      const double rank = per_token * (extrapolated ? 1 + EXTRAPOLATION_PENALTY : 1);
      if (rank < best_rank) {
        best_rank = rank;
        best = SearchResult{p, t, extrapolated};
      }
      return;
    }
  };
  const double seqs = std::max(1.0, limits.sequences_per_step);
  const uint32_t max_b = limits.quick ? 1 : 8;
  const uint32_t max_v = limits.quick ? 1 : 4;
  const uint32_t max_pp = limits.fixed_pp != 0 ? limits.fixed_pp : limits.max_pipeline;
  // Context parallelism only where sequences are long enough to need it (Llama 3 used it from
  // 131K tokens, arXiv:2407.21783 Table 4).
  const uint32_t max_cp = m.seq_len >= LONG_SEQUENCE ? 16 : 1;
  for (uint32_t tp = 1; tp <= gpn; tp *= 2) {
    if (!power_of_two(tp) || gpn % tp != 0) continue;
    if (limits.fixed_tp != 0 && tp != limits.fixed_tp) continue;
    for (uint32_t cp = 1; cp <= max_cp; cp *= 2)
      for (uint32_t pp = 1; pp <= max_pp && pp <= m.layers; ++pp) {
        if (limits.fixed_pp != 0 && pp != limits.fixed_pp) continue;
        const uint64_t model_ranks = uint64_t{tp} * cp * pp;
        if (n % model_ranks != 0) continue;
        const uint64_t dp = n / model_ranks;
        if (dp > seqs) continue;  // fewer sequences than replicas leave GPUs idle
        // Expert parallelism: powers of two dividing the experts and the stage's tp x cp x dp
        // ranks (1 for a dense model).
        const uint64_t stage_ranks = uint64_t{tp} * cp * dp;
        for (uint32_t ep = 1; ep <= m.experts; ep *= 2) {
          if (ep > 1 && (m.experts % ep != 0 || stage_ranks % ep != 0)) break;
          for (uint32_t b = 1; b <= max_b; b *= 2) {
            const double m_exact = seqs / (static_cast<double>(dp) * b);
            if (m_exact < 1 && b > 1) break;
            const auto mbs = static_cast<uint32_t>(std::max(1.0, std::ceil(m_exact - 1e-9)));
            for (uint32_t v = 1; v <= max_v; v *= 2) {
              if (v > 1 && (pp == 1 || mbs % pp != 0)) break;  // interleaving needs m % p == 0
              for (ZeroStage z : {ZeroStage::optimizer, ZeroStage::parameters}) {
                ParallelPlan p;
                p.tp = tp;
                p.cp = cp;
                p.pp = pp;
                p.dp = static_cast<uint32_t>(dp);
                p.ep = ep;
                p.micro_batch = b;
                p.micro_batches = mbs;
                p.interleave = v;
                p.zero = z;
                consider(p);
              }
            }
          }
        }
      }
  }
  return best;
}

bool is_extrapolated(const ModelShape& m, const ParallelPlan& plan, std::string_view architecture,
                     Precision precision) {
  return !within_calibrated_distance(m, plan, architecture, precision);
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
