#include "models/quote/quote.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "models/economics/billing.h"

// Inference options of a quote: a replica's hardware, its sizing by tokens (models/perf/inference/)
// and its price under a plan.
namespace gpuplan::quote {

using economics::HOURS_PER_MONTH;
using economics::SECONDS_PER_HOUR;

namespace {
constexpr uint32_t MAX_INFERENCE_NODES = 100000;
}  // namespace

inference::ReplicaHardware replica_hardware(const InferenceRequest& req, const InstanceType& it,
                                            const GpuSpec& gpu) {
  inference::ReplicaHardware hw;
  hw.model = &req.model;
  hw.gpu = &gpu;
  hw.fabric = it.intra_node_fabric;
  hw.gpus_per_node = std::max<uint32_t>(it.gpus_per_node, 1);
  hw.roofline.precision = req.precision;
  hw.roofline.prefill_compute = req.prefill_mfu;
  hw.roofline.decode_bandwidth = req.bandwidth_efficiency;
  hw.roofline.memory_share = 1 - req.memory_reserve;
  return hw;
}

inference::SizingResult size_replicas(const InferenceRequest& req, const InstanceType& it,
                                      const GpuSpec& gpu) {
  const inference::ReplicaHardware hw = replica_hardware(req, it, gpu);
  inference::TokenLoad load;
  load.requests_per_s = req.requests_per_s;
  load.concurrent_streams = req.concurrent_streams;
  load.tokens_in = req.tokens_in;
  load.tokens_out = req.tokens_out;
  if (req.lengths) {
    load.tokens_in_p50 = req.lengths->p50_in;
    load.tokens_in_p99 = req.lengths->p99_in;
  }
  inference::TokenSlo slo;
  slo.ttft_p99_s = req.ttft_p99_s;
  slo.tpot_p99_s = req.tpot_p99_s;
  slo.e2e_p99_s = req.p99_latency_s;
  inference::SizingLimits limits;
  if (req.batch > 0) limits.max_batch = req.batch;
  limits.spares = req.spares;
  limits.max_utilization = req.max_utilization;
  limits.max_replicas = MAX_INFERENCE_NODES;
  return inference::size_serving(hw, load, slo, limits);
}

InferenceOption price_inference(const InferenceRequest& req, const QuoteOptions& o,
                                const InstanceType& it, const GpuSpec& gpu, const PricingPlan& plan,
                                const inference::SizingResult& s) {
  InferenceOption opt;
  opt.instance = &it;
  opt.gpu = &gpu;
  opt.plan = plan;
  const auto price = plan_price(it, plan);
  if (!price) {
    opt.infeasible_reason = "no " + plan.label() + " price in the catalog";
    return opt;
  }
  if (!s.best) {
    opt.infeasible_reason = s.reason;
    opt.miss_ratio =
        s.nearest_miss ? s.nearest_miss->miss_ratio : std::numeric_limits<double>::infinity();
    if (s.nearest_miss) opt.miss_key = s.nearest_miss->miss_key;
    return opt;
  }
  const inference::ServingPlan& p = *s.best;
  if (p.nodes > MAX_INFERENCE_NODES) {
    opt.infeasible_reason = "needs more than " + std::to_string(MAX_INFERENCE_NODES) + " nodes";
    return opt;
  }
  const uint32_t gpn = std::max<uint32_t>(it.gpus_per_node, 1);
  opt.sizing = p;
  opt.spare_replicas = p.nodes * (gpn / p.tp) - p.replicas;
  opt.slots_per_node = (gpn / p.tp) * p.batch;
  opt.servers = p.replicas * p.batch;
  const uint32_t nodes = p.nodes;
  opt.serving_nodes = nodes;
  // Spot nodes are away for a replacement after each preemption: provision extra spot nodes so
  // the expected serving capacity stays at the sized count (availability 1 / (1 + lambda D)).
  const double availability =
      1.0 / (1.0 + o.spot_hazard_per_node_hour * DEFAULT_REPLACEMENT_S / SECONDS_PER_HOUR);
  const auto spot_needed = static_cast<uint32_t>(std::ceil(plan.spot_share * nodes - 1e-9));
  opt.spot_nodes =
      spot_needed > 0 ? static_cast<uint32_t>(std::ceil(spot_needed / availability - 1e-9)) : 0;
  opt.nodes = nodes - spot_needed + opt.spot_nodes;
  opt.gpus = opt.nodes * gpn;
  const double peak = peak_tflops(gpu, req.precision);
  opt.hourly_usd = cluster_price_per_hour(opt.nodes, opt.spot_nodes, *price);
  opt.monthly_usd = opt.hourly_usd * HOURS_PER_MONTH;
  opt.cost = plan_cost(plan, opt.hourly_usd, req.months * HOURS_PER_MONTH * SECONDS_PER_HOUR);
  opt.total_usd = opt.cost.total_usd;
  opt.usd_per_1k_requests = opt.hourly_usd / (p.requests_per_s * SECONDS_PER_HOUR) * 1e3;
  opt.usd_per_1m_output_tokens = opt.hourly_usd / (p.demand_tokens_per_s * SECONDS_PER_HOUR) * 1e6;
  opt.usd_per_tflops_hour = opt.hourly_usd / (opt.gpus * peak);
  opt.meets_target = p.meets;
  opt.feasible = true;
  opt.risk = risk_level(plan.spot_share, 1 - availability);
  if (opt.spot_nodes > 0) {
    opt.spot_loss = spot_loss(p, nodes, opt.nodes, opt.spot_nodes, o.spot_hazard_per_node_hour,
                              DEFAULT_REPLACEMENT_S);
    // NOTE: a request a reclaim interrupts starts again elsewhere, so it misses any latency
    // target: the reclaims spend the p99's budget, and past it the target cannot hold.
    const bool latency = req.ttft_p99_s > 0 || req.tpot_p99_s > 0 || req.p99_latency_s > 0;
    if (latency) {
      opt.risk = latency_spot_risk(*opt.spot_loss, opt.spot_nodes);
      if (opt.spot_loss->p99_budget_share >= 1) opt.meets_target = false;
    }
  }
  return opt;
}

InferenceOption size_inference(const InferenceRequest& req, const QuoteOptions& o,
                               const InstanceType& it, const GpuSpec& gpu,
                               const PricingPlan& plan) {
  return price_inference(req, o, it, gpu, plan, size_replicas(req, it, gpu));
}

}  // namespace gpuplan::quote
