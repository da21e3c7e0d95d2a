#include "study/estimate.h"

#include <algorithm>
#include <cmath>

#include "models/perf/speed.h"

namespace gpuplan::study {
namespace {

constexpr double SECONDS_PER_DAY = 86400;
constexpr double GB = 1e9;
// Global batch of a training estimate when none is given: 4M tokens, Llama 3's initial batch
// (arXiv:2407.21783 §3.4.1), as the training quote assumes, or one sequence per 8 GPUs on larger
// clusters (Llama 3 405B: 16M tokens of 8,192 on 16,384 GPUs, Table 4), so the pipeline keeps
// enough micro-batches.
constexpr double DEFAULT_TOKENS_PER_STEP = 4e6;
constexpr double DEFAULT_GPUS_PER_SEQUENCE = 8;

}  // namespace

std::optional<TrainingEstimate> estimate_training(const quote::TrainingEstimateRequest& req,
                                                  Diagnostics& d) {
  const training::ModelShape& model = req.model;
  const training::Cluster& cluster = req.cluster;
  training::SearchLimits limits = req.limits;
  limits.sequences_per_step =
      req.tokens_per_step
          ? *req.tokens_per_step / model.seq_len
          : std::max(DEFAULT_TOKENS_PER_STEP / model.seq_len,
                     static_cast<double>(cluster.gpus()) / DEFAULT_GPUS_PER_SEQUENCE);
  limits.max_pipeline = std::max<uint32_t>(limits.fixed_pp, 128);
  const auto best = training::fastest_plan(model, cluster, req.precision, limits);
  if (!best && limits.fixed_tp != 0 && limits.fixed_pp != 0) {
    // A pinned layout that cannot run: name the rule, or the memory of its leanest variant
    // (micro-batch 1, ZeRO-3, every block recomputed).
    training::ParallelPlan lean;
    lean.tp = limits.fixed_tp;
    lean.pp = limits.fixed_pp;
    lean.dp = static_cast<uint32_t>(
        std::max<uint64_t>(cluster.gpus() / (uint64_t{lean.tp} * lean.pp), 1));
    lean.zero = ZeroStage::parameters;
    lean.recompute = training::Recompute::full;
    const std::string rule = training::plan_problem(model, lean, cluster);
    const std::string layout = "TP " + std::to_string(lean.tp) + " x PP " +
                               std::to_string(lean.pp) + " on " + std::to_string(cluster.gpus()) +
                               " x " + cluster.gpu->id;
    d.error("--pp", DiagCode::infeasible,
            layout + " does not fit: " +
                (rule.empty() ? training::training_memory(model, lean, *cluster.gpu).shortfall() +
                                    " even with ZeRO-3, micro-batch 1 and full recomputation"
                              : rule));
    return std::nullopt;
  }
  if (!best) {
    const double states = model.total_params() * (WEIGHT_BYTES + GRADIENT_BYTES + OPTIMIZER_BYTES);
    d.error(req.size_flag, DiagCode::infeasible,
            "no plan fits " + (model.name.empty() ? std::string("the model") : model.name) +
                " in " + std::to_string(cluster.gpus()) + " x " + cluster.gpu->id + " (" +
                std::to_string(static_cast<long long>(std::llround(states / GB))) +
                " GB of weights, gradients and Adam states before activations); add nodes" +
                (limits.fixed_tp || limits.fixed_pp ? " or free --tp/--pp" : ""));
    return std::nullopt;
  }
  TrainingEstimate e;
  e.model = model;
  e.cluster = cluster;
  e.precision = req.precision;
  e.plan = best->plan;
  e.time = best->time;
  e.extrapolated = best->extrapolated;
  e.peak_tflops = peak_tflops(*cluster.gpu, req.precision);
  e.tokens_per_gpu_s = e.time.tokens_per_step / e.time.step_s / static_cast<double>(cluster.gpus());
  e.published = training::compare_with_published(&e.model, e.plan, cluster.gpu->architecture,
                                                 req.precision, e.time.mfu);
  if (const training::PublishedRun* run = e.published.nearest)
    e.nearest_published_mfu = training::published_mfu(*run, *builtin_catalog().find_gpu(run->gpu));
  if (req.tokens) e.days = *req.tokens / e.time.tokens_per_step * e.time.step_s / SECONDS_PER_DAY;
  e.not_recommended_reason = training::not_recommended_reason(e.time, training::DEFAULT_MFU_FLOOR);
  return e;
}

std::optional<InferenceEstimate> estimate_inference(const quote::InferenceEstimateRequest& req,
                                                    Diagnostics& d) {
  const training::ModelShape& model = req.model;
  const InstanceType* it = req.instance;
  const GpuSpec* gpu = req.gpu;
  const inference::ServingRequest& r = req.serving;
  const auto e = inference::estimate_serving(model, *gpu, it->intra_node_fabric, r);
  const std::string label = model.name.empty() ? "the model" : model.name;
  if (!e.fits) {
    // The fewest GPUs of any catalog part that would hold it, to say whether anything can.
    const double need = e.weight_bytes + e.kv_bytes_per_token * (r.tokens_in + r.tokens_out);
    double largest = 0;
    for (const auto& g : builtin_catalog().gpus) largest = std::max(largest, g.mem_gb);
    const double per_gpu = gpu->mem_gb * GB * inference::SERVING_MEMORY;
    const auto needed = static_cast<long long>(std::ceil(need / per_gpu));
    const bool none = need > it->gpus_per_node * largest * GB * inference::SERVING_MEMORY;
    d.error(none ? "--model" : "--tp", DiagCode::infeasible,
            label + " needs " + std::to_string(static_cast<long long>(std::llround(need / GB))) +
                " GB (weights and one sequence's KV cache) but " + std::to_string(r.tp) + " x " +
                gpu->id + " hold " +
                std::to_string(static_cast<long long>(std::llround(r.tp * per_gpu / GB))) + " GB" +
                (none ? "; it fits on no GPU of the catalog within one node"
                      : "; use --tp " + std::to_string(needed) + " or more"));
    return std::nullopt;
  }
  if (r.batch > e.max_batch_by_memory) {
    d.error("--batch", DiagCode::infeasible,
            std::to_string(r.batch) + " sequences of " +
                std::to_string(static_cast<long long>(r.tokens_in + r.tokens_out)) +
                " tokens need more KV cache than fits beside the weights; at most " +
                std::to_string(e.max_batch_by_memory) + " on " + std::to_string(r.tp) + " x " +
                gpu->id);
    return std::nullopt;
  }
  return InferenceEstimate{model, gpu, r, e, inference::serving_efficiency(gpu->architecture)};
}

}  // namespace gpuplan::study
