#include "models/quote/estimate_request.h"

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "models/input/closest_names.h"
#include "models/input/field_reader.h"
#include "models/perf/speed.h"

namespace gpuplan::quote {
namespace {

std::string quoted_list(const std::vector<std::string>& names) {
  std::string s;
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", \"" : "\"") + names[i] + "\"";
  return s;
}

//! "unknown WHAT "GOT"" with up to three close names, recorded at `flag`.
void unknown_name(Diagnostics& d, const std::string& flag, const std::string& what,
                  const std::string& got, const std::vector<std::string>& known,
                  const std::string& tail = "") {
  std::vector<std::string> close = closest_names(got, known);
  const std::string hint = close.empty() ? "" : "; did you mean " + quoted_list(close) + "?";
  d.error(flag, DiagCode::unknown_name, "unknown " + what + " " + in_quotes(got) + hint + tail,
          std::move(close));
}

//! A positive finite count ("13B", "2048"); nullopt with a diagnostic when it is not one.
std::optional<double> positive_count(const std::string& text, const std::string& flag,
                                     Diagnostics& d) {
  const auto v = parse_count(text);
  if (!v || !std::isfinite(*v) || *v <= 0) {
    d.error(flag, DiagCode::bad_flag,
            in_quotes(text) + " is not a positive finite number (e.g. 13B, 1T, 2048)");
    return std::nullopt;
  }
  return v;
}

//! A whole number in [lo, hi]; nullopt with a diagnostic otherwise.
std::optional<uint32_t> whole(const std::string& text, const std::string& flag, uint32_t lo,
                              uint32_t hi, Diagnostics& d) {
  const auto v = parse_count(text);
  if (!v || !std::isfinite(*v) || *v != std::floor(*v) || *v < lo || *v > hi) {
    d.error(flag, DiagCode::bad_flag,
            in_quotes(text) + " must be a whole number from " + std::to_string(lo) + " to " +
                std::to_string(hi));
    return std::nullopt;
  }
  return static_cast<uint32_t>(*v);
}

//! The model: a preset (--model) or a GPT-style shape of --params; nullopt with a diagnostic.
std::optional<training::ModelShape> read_model(const EstimateFlags& f, Diagnostics& d) {
  if (!f.model.empty() && !f.params.empty()) {
    d.error("--model", DiagCode::bad_flag, "give either --model or --params, not both");
    return std::nullopt;
  }
  if (!f.model.empty()) {
    if (const auto* m = training::find_model_preset(f.model)) return *m;
    const std::vector<std::string>& presets = training::model_preset_names();
    unknown_name(d, "--model", "model", f.model, presets, " (known: " + quoted_list(presets) + ")");
    return std::nullopt;
  }
  if (!f.params.empty()) {
    const auto n = positive_count(f.params, "--params", d);
    if (!n) return std::nullopt;
    if (auto m = training::shape_for_params(*n)) return m;
    d.error("--params", DiagCode::out_of_range,
            "at least 1M parameters are needed to derive a transformer shape");
    return std::nullopt;
  }
  d.error("--model", DiagCode::bad_flag,
          "give a model preset (--model llama-3-8b) or a parameter count (--params 13B)");
  return std::nullopt;
}

//! The catalog instance that stands for a bare --gpu: the one with this GPU, most GPUs per node
//! and most network per node (an HGX/DGX-class server).
const InstanceType* reference_instance(const GpuSpec& gpu) {
  const InstanceType* best = nullptr;
  for (const auto& it : builtin_catalog().instances) {
    if (it.gpu != gpu.id || !it.gpu_fraction.empty()) continue;
    const auto key = [](const InstanceType& x) {
      return std::make_pair(x.gpus_per_node, x.nics * x.nic_gbps);
    };
    if (!best || key(it) > key(*best)) best = &it;
  }
  return best;
}

//! The instance and GPU of --instance or --gpu; nullptrs with a diagnostic.
std::pair<const InstanceType*, const GpuSpec*> read_hardware(const EstimateFlags& f,
                                                             Diagnostics& d) {
  const Catalog& c = builtin_catalog();
  if (!f.instance.empty()) {
    const InstanceType* it = c.find_instance(f.instance);
    if (!it) {
      std::vector<std::string> ids;
      for (const auto& x : c.instances) ids.push_back(x.id);
      unknown_name(d, "--instance", "instance type", f.instance, ids);
      return {nullptr, nullptr};
    }
    const GpuSpec* gpu = c.find_gpu(it->gpu);
    if (!f.gpu.empty() && gpu && c.find_gpu(f.gpu) != gpu)
      d.error("--gpu", DiagCode::bad_flag,
              in_quotes(f.gpu) + " differs from the " + it->gpu + " of " + it->id);
    return {it, gpu};
  }
  if (f.gpu.empty()) {
    d.error("--gpu", DiagCode::bad_flag,
            "give a GPU (--gpu H100-SXM) or an instance type (--instance p5.48xlarge)");
    return {nullptr, nullptr};
  }
  const GpuSpec* gpu = c.find_gpu(f.gpu);
  if (!gpu) {
    std::vector<std::string> ids;
    for (const auto& g : c.gpus) ids.push_back(g.id);
    unknown_name(d, "--gpu", "GPU", f.gpu, ids);
    return {nullptr, nullptr};
  }
  const InstanceType* it = reference_instance(*gpu);
  if (!it) {
    d.error("--gpu", DiagCode::infeasible, "no instance type in the catalog carries " + gpu->id);
    return {nullptr, nullptr};
  }
  return {it, gpu};
}

std::optional<Precision> read_precision(const EstimateFlags& f, Diagnostics& d) {
  const auto v = parse_precision(f.precision);
  if (!v)
    unknown_name(d, "--precision", "precision", f.precision, {"fp16", "bf16", "fp8"},
                 " (fp16, bf16, fp8)");
  return v;
}

//! Largest stated expert load imbalance (busiest expert rank over the mean).
constexpr double MAX_EXPERT_IMBALANCE = 8;

//! --experts, --active-experts and --expert-imbalance applied to `m` (a dense shape becomes E
//! experts of its MLP width, each token routed to K of them).
void read_experts(const EstimateFlags& f, training::ModelShape& m, Diagnostics& d) {
  if (!f.experts.empty())
    if (auto e = whole(f.experts, "--experts", 1, 1024, d)) {
      m.experts = *e;
      m.experts_per_token = std::min(m.experts_per_token, *e);
    }
  if (!f.active_experts.empty())
    if (auto k = whole(f.active_experts, "--active-experts", 1, 1024, d)) {
      if (!m.moe())
        d.error("--active-experts", DiagCode::bad_flag,
                "the model is dense; give --experts above 1 with it");
      else if (*k > m.experts)
        d.error("--active-experts", DiagCode::out_of_range,
                std::to_string(*k) + " active experts exceed the " + std::to_string(m.experts) +
                    " experts");
      else
        m.experts_per_token = *k;
    }
  if (!f.expert_imbalance.empty()) {
    const auto v = parse_count(f.expert_imbalance);
    if (!v || !std::isfinite(*v) || *v < 1 || *v > MAX_EXPERT_IMBALANCE)
      d.error("--expert-imbalance", DiagCode::bad_flag,
              in_quotes(f.expert_imbalance) + " must be a number from 1 (balanced) to 8");
    else if (!m.moe())
      d.error("--expert-imbalance", DiagCode::bad_flag,
              "the model is dense; give --experts above 1 with it");
    else
      m.expert_imbalance = *v;
  }
}

}  // namespace

std::optional<TrainingEstimateRequest> read_training_estimate(const EstimateFlags& f,
                                                              Diagnostics& d) {
  const size_t errors_before = d.size();
  auto model = read_model(f, d);
  if (model) read_experts(f, *model, d);
  const auto [it, gpu] = read_hardware(f, d);
  const auto precision = read_precision(f, d);
  std::optional<double> tokens, per_step;
  if (!f.tokens.empty()) tokens = positive_count(f.tokens, "--tokens", d);
  if (!f.tokens_per_step.empty())
    per_step = positive_count(f.tokens_per_step, "--tokens-per-step", d);
  std::optional<uint32_t> seq;
  if (!f.seq.empty()) seq = whole(f.seq, "--seq", 1, 1u << 21, d);
  uint32_t nodes = 1;
  if (it) {
    const uint32_t gpn = std::max<uint32_t>(it->gpus_per_node, 1);
    if (!f.nodes.empty() && !f.gpus.empty()) {
      d.error("--nodes", DiagCode::bad_flag, "give either --nodes or --gpus, not both");
    } else if (!f.nodes.empty()) {
      if (auto n = whole(f.nodes, "--nodes", 1, 1u << 20, d)) nodes = *n;
    } else if (!f.gpus.empty()) {
      if (auto g = whole(f.gpus, "--gpus", 1, 1u << 24, d)) {
        if (*g % gpn != 0)
          d.error("--gpus", DiagCode::bad_flag,
                  std::to_string(*g) + " GPUs is not a whole number of " + it->id + " nodes of " +
                      std::to_string(gpn) + " GPUs");
        nodes = std::max<uint32_t>(*g / gpn, 1);
      }
    }
    if (nodes > 1 && it->nics * it->nic_gbps <= 0)
      d.error("--nodes", DiagCode::infeasible,
              it->id + " has no scale-out network in the catalog; use one node");
  }
  training::SearchLimits limits;
  if (!f.tp.empty() && it) {
    const uint32_t gpn = std::max<uint32_t>(it->gpus_per_node, 1);
    if (auto tp = whole(f.tp, "--tp", 1, 1u << 16, d)) {
      if (*tp > gpn)
        d.error("--tp", DiagCode::out_of_range,
                "tensor parallelism " + std::to_string(*tp) + " exceeds the " +
                    std::to_string(gpn) + " GPUs per node of " + it->id +
                    " (tensor parallelism stays inside one node)");
      else if (gpn % *tp != 0)
        d.error("--tp", DiagCode::out_of_range,
                std::to_string(*tp) + " does not divide the " + std::to_string(gpn) +
                    " GPUs per node of " + it->id);
      limits.fixed_tp = *tp;
    }
  }
  if (!f.pp.empty())
    if (auto pp = whole(f.pp, "--pp", 1, 1024, d)) limits.fixed_pp = *pp;
  if (d.size() != errors_before) return std::nullopt;
  TrainingEstimateRequest r{*model, {it, gpu, nodes}, *precision, tokens, per_step, limits};
  if (seq) r.model.seq_len = *seq;
  r.size_flag = !f.gpus.empty() && f.nodes.empty() ? "--gpus" : "--nodes";
  return r;
}

std::optional<InferenceEstimateRequest> read_inference_estimate(const EstimateFlags& f,
                                                                Diagnostics& d) {
  const size_t errors_before = d.size();
  auto model = read_model(f, d);
  const auto [it, gpu] = read_hardware(f, d);
  inference::ServingRequest r;
  if (const auto precision = read_precision(f, d)) {
    if (*precision == Precision::fp16 || *precision == Precision::bf16 ||
        *precision == Precision::fp8)
      r.precision = *precision;
    else
      d.error("--precision", DiagCode::out_of_range, "serving takes fp16, bf16 or fp8 weights");
  }
  if (auto b = whole(f.batch.empty() ? "1" : f.batch, "--batch", 1, 1u << 20, d)) r.batch = *b;
  const auto read_tokens = [&](const std::string& text, const char* flag, double& out) {
    const auto v = parse_count(text);
    if (!v || !std::isfinite(*v) || *v < 0 || *v > 1e8)
      d.error(flag, DiagCode::bad_flag,
              in_quotes(text) + " must be a finite number of tokens from 0 to 1e8");
    else
      out = *v;
  };
  read_tokens(f.tokens_in.empty() ? "0" : f.tokens_in, "--tokens-in", r.tokens_in);
  read_tokens(f.tokens_out.empty() ? "1" : f.tokens_out, "--tokens-out", r.tokens_out);
  if (auto tp = whole(f.tp.empty() ? "1" : f.tp, "--tp", 1, 1u << 16, d)) {
    r.tp = *tp;
    if (it && *tp > it->gpus_per_node)
      d.error("--tp", DiagCode::out_of_range,
              "tensor parallelism " + std::to_string(*tp) + " exceeds the " +
                  std::to_string(it->gpus_per_node) + " GPUs per node of " + it->id +
                  " (a replica stays inside one node)");
  }
  if (d.size() != errors_before) return std::nullopt;
  return InferenceEstimateRequest{*model, it, gpu, r};
}

}  // namespace gpuplan::quote
