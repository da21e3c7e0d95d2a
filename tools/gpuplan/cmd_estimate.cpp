//! `gpuplan estimate training|inference`: the quick check behind every quote. Training: the
//! fastest fitting parallel plan and its step time on one cluster
//! (models/perf/training/step_time.h). Inference: the serving roofline of one replica
//! (models/perf/inference/roofline.h). Prints a short text or, with --json, one JSON object on
//! stdout; writes no files. Bad input: one line per problem on stderr naming the flag, exit 2,
//! nothing on stdout.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/input/closest_names.h"
#include "models/input/field_reader.h"
#include "models/perf/inference/roofline.h"
#include "models/input/names.h"
#include "models/perf/training/published_runs.h"
#include "models/perf/training/step_time.h"
#include "tools/gpuplan/commands.h"

namespace gpuplan::cli {
namespace {

using nlohmann::json;
constexpr double SECONDS_PER_DAY = 86400;
constexpr double GB = 1e9;
// Global batch of a training estimate when none is given: 4M tokens, Llama 3's initial batch
// (arXiv:2407.21783 §3.4.1), as the training quote assumes, or one sequence per 8 GPUs on larger
// clusters (Llama 3 405B: 16M tokens of 8,192 on 16,384 GPUs, Table 4), so the pipeline keeps
// enough micro-batches.
constexpr double DEFAULT_TOKENS_PER_STEP = 4e6;
constexpr double DEFAULT_GPUS_PER_SEQUENCE = 8;
// What a mixture-of-experts estimate leaves out (docs/estimate.md "Mixture of experts").
constexpr const char* MOE_APPROXIMATION =
    "approximate: expert GEMMs spread evenly over the ranks times the stated imbalance, "
    "all-to-alls exposed, no token dropping, shared experts or router cost; calibrated on one "
    "published MoE run (Qwen3-235B-A22B, FP8, H100)";

//! Flags of both subcommands, as typed (parsed and checked in one place).
struct EstimateFlags {
  std::string model, params, gpu, instance, precision = "bf16";
  std::string tokens, tokens_per_step, nodes, gpus, tp, pp, batch, tokens_in, tokens_out, seq;
  std::string experts, active_experts, expert_imbalance;  // training: mixture of experts
  bool as_json = false;
};

//! Collects every problem with the flags; printed together, exit 2.
struct Problems {
  std::vector<std::string> lines;
  void add(const std::string& flag, const std::string& message) {
    lines.push_back(flag + ": " + message);
  }
  [[nodiscard]] bool any() const { return !lines.empty(); }
  void print() const {
    for (const auto& l : lines) std::cerr << "gpuplan estimate: " << l << "\n";
  }
};

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", \"" : "\"") + names[i] + "\"";
  return s;
}

std::string did_you_mean(const std::string& got, const std::vector<std::string>& known) {
  const auto close = closest_names(got, known);
  return close.empty() ? "" : "; did you mean " + quoted_list(close) + "?";
}

//! A positive finite count ("13B", "2048"); nullopt with a problem when it is not one.
std::optional<double> positive_count(const std::string& text, const std::string& flag,
                                     Problems& p) {
  const auto v = parse_count(text);
  if (!v || !std::isfinite(*v) || *v <= 0) {
    p.add(flag, "\"" + text + "\" is not a positive finite number (e.g. 13B, 1T, 2048)");
    return std::nullopt;
  }
  return v;
}

//! A whole number in [lo, hi]; nullopt with a problem otherwise.
std::optional<uint32_t> whole(const std::string& text, const std::string& flag, uint32_t lo,
                              uint32_t hi, Problems& p) {
  const auto v = parse_count(text);
  if (!v || !std::isfinite(*v) || *v != std::floor(*v) || *v < lo || *v > hi) {
    p.add(flag, "\"" + text + "\" must be a whole number from " + std::to_string(lo) + " to " +
                    std::to_string(hi));
    return std::nullopt;
  }
  return static_cast<uint32_t>(*v);
}

//! The model in --json: a preset by its id; a shape derived from --params has no name and says so.
json model_json(const training::ModelShape& m) {
  json j = {{"name", nullptr},
            {"shape", "derived from the parameter count (GPT-style)"},
            {"params", m.total_params()},
            {"active_params", m.active_params()}};
  if (!m.name.empty()) {
    j["name"] = m.name;
    j["shape"] = "preset";
  }
  return j;
}

//! The model: a preset (--model) or a GPT-style shape of --params; nullopt with a problem.
std::optional<training::ModelShape> read_model(const EstimateFlags& f, Problems& p) {
  if (!f.model.empty() && !f.params.empty()) {
    p.add("--model", "give either --model or --params, not both");
    return std::nullopt;
  }
  if (!f.model.empty()) {
    if (const auto* m = training::find_model_preset(f.model)) return *m;
    p.add("--model", "unknown model \"" + f.model + "\"" +
                         did_you_mean(f.model, training::model_preset_names()) +
                         " (known: " + quoted_list(training::model_preset_names()) + ")");
    return std::nullopt;
  }
  if (!f.params.empty()) {
    const auto n = positive_count(f.params, "--params", p);
    if (!n) return std::nullopt;
    if (auto m = training::shape_for_params(*n)) return m;
    p.add("--params", "at least 1M parameters are needed to derive a transformer shape");
    return std::nullopt;
  }
  p.add("--model", "give a model preset (--model llama-3-8b) or a parameter count (--params 13B)");
  return std::nullopt;
}

//! The catalog instance that stands for a bare --gpu: the one with this GPU, most GPUs per node
//! and most network per node (an HGX/DGX-class server).
const InstanceType* reference_instance(const GpuSpec& gpu) {
  const InstanceType* best = nullptr;
  for (const auto& it : builtin_catalog().instances) {
    if (it.gpu != gpu.id) continue;
    const auto key = [](const InstanceType& x) {
      return std::make_pair(x.gpus_per_node, x.nics * x.nic_gbps);
    };
    if (!best || key(it) > key(*best)) best = &it;
  }
  return best;
}

//! The instance and GPU of --instance or --gpu; nullptrs with a problem.
std::pair<const InstanceType*, const GpuSpec*> read_hardware(const EstimateFlags& f, Problems& p) {
  const Catalog& c = builtin_catalog();
  if (!f.instance.empty()) {
    const InstanceType* it = c.find_instance(f.instance);
    if (!it) {
      std::vector<std::string> ids;
      for (const auto& x : c.instances) ids.push_back(x.id);
      p.add("--instance",
            "unknown instance type \"" + f.instance + "\"" + did_you_mean(f.instance, ids));
      return {nullptr, nullptr};
    }
    const GpuSpec* gpu = c.find_gpu(it->gpu);
    if (!f.gpu.empty() && gpu && c.find_gpu(f.gpu) != gpu)
      p.add("--gpu", "\"" + f.gpu + "\" differs from the " + it->gpu + " of " + it->id);
    return {it, gpu};
  }
  if (f.gpu.empty()) {
    p.add("--gpu", "give a GPU (--gpu H100-SXM) or an instance type (--instance p5.48xlarge)");
    return {nullptr, nullptr};
  }
  const GpuSpec* gpu = c.find_gpu(f.gpu);
  if (!gpu) {
    std::vector<std::string> ids;
    for (const auto& g : c.gpus) ids.push_back(g.id);
    p.add("--gpu", "unknown GPU \"" + f.gpu + "\"" + did_you_mean(f.gpu, ids));
    return {nullptr, nullptr};
  }
  const InstanceType* it = reference_instance(*gpu);
  if (!it) {
    p.add("--gpu", "no instance type in the catalog carries " + gpu->id);
    return {nullptr, nullptr};
  }
  return {it, gpu};
}

std::optional<Precision> read_precision(const EstimateFlags& f, Problems& p) {
  const auto v = parse_precision(f.precision);
  if (!v)
    p.add("--precision", "unknown precision \"" + f.precision + "\"" +
                             did_you_mean(f.precision, {"fp16", "bf16", "fp8"}) +
                             " (fp16, bf16, fp8)");
  return v;
}

//! Largest stated expert load imbalance (busiest expert rank over the mean).
constexpr double MAX_EXPERT_IMBALANCE = 8;

//! --experts, --active-experts and --expert-imbalance applied to `m` (a dense shape becomes E
//! experts of its MLP width, each token routed to K of them).
void read_experts(const EstimateFlags& f, training::ModelShape& m, Problems& p) {
  if (!f.experts.empty())
    if (auto e = whole(f.experts, "--experts", 1, 1024, p)) {
      m.experts = *e;
      m.experts_per_token = std::min(m.experts_per_token, *e);
    }
  if (!f.active_experts.empty())
    if (auto k = whole(f.active_experts, "--active-experts", 1, 1024, p)) {
      if (!m.moe())
        p.add("--active-experts", "the model is dense; give --experts above 1 with it");
      else if (*k > m.experts)
        p.add("--active-experts", std::to_string(*k) + " active experts exceed the " +
                                      std::to_string(m.experts) + " experts");
      else
        m.experts_per_token = *k;
    }
  if (!f.expert_imbalance.empty()) {
    const auto v = parse_count(f.expert_imbalance);
    if (!v || !std::isfinite(*v) || *v < 1 || *v > MAX_EXPERT_IMBALANCE)
      p.add("--expert-imbalance",
            "\"" + f.expert_imbalance + "\" must be a number from 1 (balanced) to 8");
    else if (!m.moe())
      p.add("--expert-imbalance", "the model is dense; give --experts above 1 with it");
    else
      m.expert_imbalance = *v;
  }
}

json memory_json(const training::TrainingMemory& m) {
  return {{"weights", m.weights / GB},     {"gradients", m.gradients / GB},
          {"optimizer", m.optimizer / GB}, {"activations", m.activations / GB},
          {"total", m.total() / GB},       {"usable", m.usable / GB}};
}

// ---- training --------------------------------------------------------------------------------

int run_training(const EstimateFlags& f) {
  Problems p;
  auto model = read_model(f, p);
  if (model) read_experts(f, *model, p);
  const auto [it, gpu] = read_hardware(f, p);
  const auto precision = read_precision(f, p);
  std::optional<double> tokens, per_step;
  if (!f.tokens.empty()) tokens = positive_count(f.tokens, "--tokens", p);
  if (!f.tokens_per_step.empty())
    per_step = positive_count(f.tokens_per_step, "--tokens-per-step", p);
  std::optional<uint32_t> seq;
  if (!f.seq.empty()) seq = whole(f.seq, "--seq", 1, 1u << 21, p);
  uint32_t nodes = 1;
  if (it) {
    const uint32_t gpn = std::max<uint32_t>(it->gpus_per_node, 1);
    if (!f.nodes.empty() && !f.gpus.empty()) {
      p.add("--nodes", "give either --nodes or --gpus, not both");
    } else if (!f.nodes.empty()) {
      if (auto n = whole(f.nodes, "--nodes", 1, 1u << 20, p)) nodes = *n;
    } else if (!f.gpus.empty()) {
      if (auto g = whole(f.gpus, "--gpus", 1, 1u << 24, p)) {
        if (*g % gpn != 0)
          p.add("--gpus", std::to_string(*g) + " GPUs is not a whole number of " + it->id +
                              " nodes of " + std::to_string(gpn) + " GPUs");
        nodes = std::max<uint32_t>(*g / gpn, 1);
      }
    }
    if (nodes > 1 && it->nics * it->nic_gbps <= 0)
      p.add("--nodes", it->id + " has no scale-out network in the catalog; use one node");
  }
  training::SearchLimits limits;
  if (!f.tp.empty() && it) {
    const uint32_t gpn = std::max<uint32_t>(it->gpus_per_node, 1);
    if (auto tp = whole(f.tp, "--tp", 1, 1u << 16, p)) {
      if (*tp > gpn)
        p.add("--tp", "tensor parallelism " + std::to_string(*tp) + " exceeds the " +
                          std::to_string(gpn) + " GPUs per node of " + it->id +
                          " (tensor parallelism stays inside one node)");
      else if (gpn % *tp != 0)
        p.add("--tp", std::to_string(*tp) + " does not divide the " + std::to_string(gpn) +
                          " GPUs per node of " + it->id);
      limits.fixed_tp = *tp;
    }
  }
  if (!f.pp.empty())
    if (auto pp = whole(f.pp, "--pp", 1, 1024, p)) limits.fixed_pp = *pp;
  if (p.any()) {
    p.print();
    return 2;
  }
  if (seq) model->seq_len = *seq;
  const training::Cluster cluster{it, gpu, nodes};
  limits.sequences_per_step =
      per_step ? *per_step / model->seq_len
               : std::max(DEFAULT_TOKENS_PER_STEP / model->seq_len,
                          static_cast<double>(cluster.gpus()) / DEFAULT_GPUS_PER_SEQUENCE);
  limits.max_pipeline = std::max<uint32_t>(limits.fixed_pp, 128);
  const auto best = training::fastest_plan(*model, cluster, *precision, limits);
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
    const std::string rule = training::plan_problem(*model, lean, cluster);
    const std::string layout = "TP " + std::to_string(lean.tp) + " x PP " +
                               std::to_string(lean.pp) + " on " + std::to_string(cluster.gpus()) +
                               " x " + gpu->id;
    p.add("--pp", layout + " does not fit: " +
                      (rule.empty() ? training::training_memory(*model, lean, *gpu).shortfall() +
                                          " even with ZeRO-3, micro-batch 1 and full "
                                          "recomputation"
                                    : rule));
    p.print();
    return 2;
  }
  if (!best) {
    const double states = model->total_params() * (WEIGHT_BYTES + GRADIENT_BYTES + OPTIMIZER_BYTES);
    p.add(f.nodes.empty() && f.gpus.empty() ? "--nodes" : (f.nodes.empty() ? "--gpus" : "--nodes"),
          "no plan fits " + (model->name.empty() ? std::string("the model") : model->name) +
              " in " + std::to_string(cluster.gpus()) + " x " + gpu->id + " (" +
              std::to_string(static_cast<long long>(std::llround(states / GB))) +
              " GB of weights, gradients and Adam states before activations); add nodes" +
              (limits.fixed_tp || limits.fixed_pp ? " or free --tp/--pp" : ""));
    p.print();
    return 2;
  }
  const training::ParallelPlan& plan = best->plan;
  const training::StepTime& t = best->time;
  const std::string why = training::not_recommended_reason(t, training::DEFAULT_MFU_FLOOR);
  json j;
  j["model"] = model_json(*model);
  j["model"]["layers"] = model->layers;
  j["model"]["hidden"] = model->hidden;
  j["model"]["seq_len"] = model->seq_len;
  j["cluster"] = {{"instance", it->id},
                  {"gpu", gpu->id},
                  {"nodes", nodes},
                  {"gpus", cluster.gpus()},
                  {"gpus_per_node", it->gpus_per_node}};
  const training::PublishedComparison published =
      training::compare_with_published(&*model, plan, gpu->architecture, *precision, t.mfu);
  const training::PublishedRun* nearest = published.nearest;
  const double best_published = published.best_mfu;
  const double tokens_per_gpu_s =
      t.tokens_per_step / t.step_s / static_cast<double>(cluster.gpus());
  j["plan"] = {{"tp", plan.tp},
               {"cp", plan.cp},
               {"pp", plan.pp},
               {"dp", plan.dp},
               {"ep", plan.ep},
               {"micro_batches", plan.micro_batches},
               {"micro_batch", plan.micro_batch},
               {"interleave", plan.interleave},
               {"zero", training::zero_number(plan.zero)},
               {"recompute", std::string(training::recompute_name(plan.recompute))},
               {"recompute_blocks", plan.recompute_blocks},
               {"text", training::layout_text(plan)},
               {"extrapolated", best->extrapolated}};
  j["step_time_s"] = t.step_s;
  j["compute_s"] = t.compute_s;
  j["exposed_comm_s"] = t.exposed_comm_s;
  j["comm_s"] = {{"tensor_parallel", t.tp_comm_s},
                 {"pipeline", t.pp_comm_s},
                 {"data_parallel", t.dp_comm_s},
                 {"data_parallel_exposed", t.dp_exposed_s},
                 {"expert_parallel", t.ep_comm_s}};
  j["bubble_s"] = t.bubble_s;
  j["mfu"] = t.mfu;
  j["tokens_per_gpu_s"] = tokens_per_gpu_s;
  j["peak_tflops"] = peak_tflops(*gpu, *precision);
  j["step_parts_s"] = {{"gemm", t.gemm_s},
                       {"attention", t.attention_s},
                       {"elementwise", t.elementwise_s},
                       {"optimizer", t.optimizer_s},
                       {"context_parallel", t.cp_exposed_s},
                       {"published_cap", t.cap_s}};
  j["nearest_published_run"] =
      nearest ? json{{"run", nearest->label},
                     {"mfu",
                      training::published_mfu(*nearest, *builtin_catalog().find_gpu(nearest->gpu))},
                     {"source", nearest->source}}
              : json();
  j["best_published_mfu"] = best_published;
  j["above_published"] = published.above;
  j["kernel_efficiency"] = t.efficiency;
  j["tokens_per_step"] = t.tokens_per_step;
  j["days"] = tokens ? json(*tokens / t.tokens_per_step * t.step_s / SECONDS_PER_DAY) : json();
  j["fits"] = t.fits();
  j["memory_per_gpu_gb"] = memory_json(t.memory);
  j["recommended"] = why.empty();
  if (!why.empty()) j["not_recommended_reason"] = why;
  if (model->moe())
    j["mixture_of_experts"] = {{"experts", model->experts},
                               {"active_experts", model->experts_per_token},
                               {"expert_imbalance", model->expert_imbalance},
                               {"approximation", std::string(MOE_APPROXIMATION)}};
  if (f.as_json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  char buf[768];
  std::snprintf(buf, sizeof buf,
                "%s on %u x %s (%llu %s): %s, %u micro-batches of %u%s\n"
                "step %.3f s = compute %.3f (GEMM %.3f, attention %.3f, memory-bound %.3f) + "
                "exposed comm %.3f + bubble %.3f + optimizer %.3f\n"
                "MFU %.1f%% of the %s's %.0f TFLOPS dense %s peak; %.0f tokens/s per GPU; memory "
                "%.1f of %.1f GB per GPU\n",
                model->name.empty() ? "model" : model->name.c_str(), nodes, it->id.c_str(),
                static_cast<unsigned long long>(cluster.gpus()), gpu->id.c_str(),
                training::layout_text(plan).c_str(), plan.micro_batches, plan.micro_batch,
                best->extrapolated ? " (extrapolated: no published run near this layout)" : "",
                t.step_s, t.compute_s, t.gemm_s, t.attention_s, t.elementwise_s, t.exposed_comm_s,
                t.bubble_s, t.optimizer_s, 100 * t.mfu, gpu->id.c_str(),
                peak_tflops(*gpu, *precision), f.precision.c_str(), tokens_per_gpu_s,
                t.memory.total() / GB, t.memory.usable / GB);
  std::cout << buf;
  if (nearest)
    std::cout << "nearest published run: " << training::published_run_text(*nearest) << " ("
              << nearest->source << ")\n";
  if (t.cap_s > 0)
    std::cout << "capped at 1.1x the best published MFU of this GPU and precision ("
              << std::lround(100 * best_published) << " %)\n";
  else if (published.above)
    std::cout << "above the best published MFU of this GPU and precision ("
              << std::lround(100 * best_published) << " %)\n";
  if (tokens) std::cout << "time to train: " << j["days"].get<double>() << " days\n";
  if (!why.empty()) std::cout << "not recommended: " << why << "\n";
  if (model->moe()) {
    std::snprintf(buf, sizeof buf,
                  "mixture of experts, an approximation: %u experts, %u active per token, EP %u, "
                  "load imbalance %.2f; expert all-to-alls %.3f s of the step\n%s\n",
                  model->experts, model->experts_per_token, plan.ep, model->expert_imbalance,
                  t.ep_comm_s, MOE_APPROXIMATION);
    std::cout << buf;
  }
  return 0;
}

// ---- inference -------------------------------------------------------------------------------

int run_inference(const EstimateFlags& f) {
  Problems p;
  auto model = read_model(f, p);
  const auto [it, gpu] = read_hardware(f, p);
  inference::ServingRequest r;
  if (const auto precision = read_precision(f, p)) {
    if (*precision == Precision::fp16 || *precision == Precision::bf16 ||
        *precision == Precision::fp8)
      r.precision = *precision;
    else
      p.add("--precision", "serving takes fp16, bf16 or fp8 weights");
  }
  if (auto b = whole(f.batch.empty() ? "1" : f.batch, "--batch", 1, 1u << 20, p)) r.batch = *b;
  const auto read_tokens = [&](const std::string& text, const char* flag, double& out) {
    const auto v = parse_count(text);
    if (!v || !std::isfinite(*v) || *v < 0 || *v > 1e8)
      p.add(flag, "\"" + text + "\" must be a finite number of tokens from 0 to 1e8");
    else
      out = *v;
  };
  read_tokens(f.tokens_in.empty() ? "0" : f.tokens_in, "--tokens-in", r.tokens_in);
  read_tokens(f.tokens_out.empty() ? "1" : f.tokens_out, "--tokens-out", r.tokens_out);
  if (auto tp = whole(f.tp.empty() ? "1" : f.tp, "--tp", 1, 1u << 16, p)) {
    r.tp = *tp;
    if (it && *tp > it->gpus_per_node)
      p.add("--tp", "tensor parallelism " + std::to_string(*tp) + " exceeds the " +
                        std::to_string(it->gpus_per_node) + " GPUs per node of " + it->id +
                        " (a replica stays inside one node)");
  }
  if (p.any()) {
    p.print();
    return 2;
  }
  const auto e = inference::estimate_serving(*model, *gpu, it->intra_node_fabric, r);
  const std::string label = model->name.empty() ? "the model" : model->name;
  if (!e.fits) {
    // The fewest GPUs of any catalog part that would hold it, to say whether anything can.
    const double need = e.weight_bytes + e.kv_bytes_per_token * (r.tokens_in + r.tokens_out);
    double largest = 0;
    for (const auto& g : builtin_catalog().gpus) largest = std::max(largest, g.mem_gb);
    const double per_gpu = gpu->mem_gb * GB * inference::SERVING_MEMORY;
    const auto needed = static_cast<long long>(std::ceil(need / per_gpu));
    const bool none = need > it->gpus_per_node * largest * GB * inference::SERVING_MEMORY;
    p.add(none ? "--model" : "--tp",
          label + " needs " + std::to_string(static_cast<long long>(std::llround(need / GB))) +
              " GB (weights and one sequence's KV cache) but " + std::to_string(r.tp) + " x " +
              gpu->id + " hold " +
              std::to_string(static_cast<long long>(std::llround(r.tp * per_gpu / GB))) + " GB" +
              (none ? "; it fits on no GPU of the catalog within one node"
                    : "; use --tp " + std::to_string(needed) + " or more"));
    p.print();
    return 2;
  }
  if (r.batch > e.max_batch_by_memory) {
    p.add("--batch", std::to_string(r.batch) + " sequences of " +
                         std::to_string(static_cast<long long>(r.tokens_in + r.tokens_out)) +
                         " tokens need more KV cache than fits beside the weights; at most " +
                         std::to_string(e.max_batch_by_memory) + " on " + std::to_string(r.tp) +
                         " x " + gpu->id);
    p.print();
    return 2;
  }
  const inference::ServingEfficiency eff = inference::serving_efficiency(gpu->architecture);
  json j;
  j["model"] = model_json(*model);
  j["gpu"] = gpu->id;
  j["tp"] = r.tp;
  j["batch"] = r.batch;
  j["precision"] = std::string(enum_name(r.precision));
  j["ttft_s"] = e.ttft_s;
  j["tpot_s"] = e.tpot_s;
  j["tokens_per_s"] = e.tokens_per_s;
  j["request_s"] = e.request_s;
  j["kv_bytes_per_token"] = e.kv_bytes_per_token;
  j["weights_gb"] = e.weight_bytes / GB;
  j["max_batch_by_memory"] = e.max_batch_by_memory;
  j["bound"] = e.decode_compute_bound ? "compute" : "memory";
  j["prefill_bound"] = e.prefill_compute_bound ? "compute" : "memory";
  j["efficiency"] = {{"prefill_compute", eff.prefill_compute},
                     {"decode_bandwidth", eff.decode_bandwidth}};
  if (f.as_json) {
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s on %u x %s, batch %u: TTFT %.1f ms, TPOT %.2f ms, %.0f output tokens/s "
                "(decode %s-bound); KV %.0f KB/token, at most %llu sequences fit\n",
                label.c_str(), r.tp, gpu->id.c_str(), r.batch, 1e3 * e.ttft_s, 1e3 * e.tpot_s,
                e.tokens_per_s, e.decode_compute_bound ? "compute" : "memory",
                e.kv_bytes_per_token / 1e3, static_cast<unsigned long long>(e.max_batch_by_memory));
  std::cout << buf;
  return 0;
}

void add_common(CLI::App* cmd, EstimateFlags& f) {
  cmd->add_option("--model", f.model, "Model preset, e.g. llama-3-8b (see docs/estimate.md)");
  cmd->add_option("--params", f.params, "Parameters of a GPT-style model instead, e.g. 13B");
  cmd->add_option("--gpu", f.gpu, "GPU model, e.g. H100-SXM (its largest catalog node)");
  cmd->add_option("--instance", f.instance, "Instance type, e.g. p5.48xlarge");
  cmd->add_option("--precision", f.precision, "fp16 | bf16 | fp8 (default bf16)");
  cmd->add_option("--tp", f.tp, "Tensor-parallel GPUs (inside one node)");
  cmd->add_flag("--json", f.as_json, "Print one JSON object");
}

}  // namespace

CLI::App* add_estimate_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("estimate", "Quick training step-time or serving estimate");
  cmd->require_subcommand(1);
  auto train_flags = std::make_shared<EstimateFlags>();
  auto* train = cmd->add_subcommand("training", "Fastest fitting parallel plan and its step time");
  add_common(train, *train_flags);
  train->add_option("--tokens", train_flags->tokens, "Training tokens, e.g. 1T (gives days)");
  train->add_option("--tokens-per-step", train_flags->tokens_per_step,
                    "Global batch in tokens (default 4M, or 1 sequence per 8 GPUs if more)");
  train->add_option("--seq", train_flags->seq, "Sequence length (default: the preset's, or 2048)");
  train->add_option("--nodes", train_flags->nodes, "Nodes of the instance type (default 1)");
  train->add_option("--gpus", train_flags->gpus, "GPUs in all (a whole number of nodes)");
  train->add_option("--pp", train_flags->pp, "Pipeline stages (default: searched)");
  train->add_option("--experts", train_flags->experts,
                    "Mixture of experts: experts per layer (a dense shape's MLP each)");
  train->add_option("--active-experts", train_flags->active_experts,
                    "Experts each token is routed to (top-k; default the preset's, else 1)");
  train->add_option("--expert-imbalance", train_flags->expert_imbalance,
                    "Busiest expert rank's tokens over the mean (default 1, balanced)");
  train->callback([train_flags, &exit_code] { exit_code = run_training(*train_flags); });

  auto infer_flags = std::make_shared<EstimateFlags>();
  infer_flags->precision = "fp16";
  auto* infer = cmd->add_subcommand("inference", "Serving roofline of one model replica");
  add_common(infer, *infer_flags);
  infer->add_option("--batch", infer_flags->batch, "Sequences decoded together (default 1)");
  infer->add_option("--tokens-in", infer_flags->tokens_in, "Prompt tokens per sequence");
  infer->add_option("--tokens-out", infer_flags->tokens_out, "Generated tokens per sequence");
  infer->callback([infer_flags, &exit_code] { exit_code = run_inference(*infer_flags); });
  return cmd;
}

}  // namespace gpuplan::cli
