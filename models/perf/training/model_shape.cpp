#include "models/perf/training/model_shape.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include "models/input/closest_names.h"

namespace gpuplan::training {
namespace {

ModelShape llama(std::string name, uint32_t layers, uint32_t hidden, uint32_t ffn, uint32_t heads,
                 uint32_t kv_heads, uint32_t vocab, uint32_t seq) {
  ModelShape m;
  m.name = std::move(name);
  m.layers = layers;
  m.hidden = hidden;
  m.ffn = ffn;
  m.heads = heads;
  m.kv_heads = kv_heads;
  m.vocab = vocab;
  m.gated_mlp = true;
  m.seq_len = seq;
  return m;
}

std::vector<ModelShape> make_presets() {
  std::vector<ModelShape> p;
  // Llama 2 (Touvron et al. 2023, arXiv:2307.09288; config.json of meta-llama/Llama-2-*-hf).
  p.push_back(llama("llama-2-7b", 32, 4096, 11008, 32, 32, 32000, 4096));
  p.push_back(llama("llama-2-13b", 40, 5120, 13824, 40, 40, 32000, 4096));
  p.push_back(llama("llama-2-70b", 80, 8192, 28672, 64, 8, 32000, 4096));
  // Llama 3 (arXiv:2407.21783 Table 3).
  p.push_back(llama("llama-3-8b", 32, 4096, 14336, 32, 8, 128256, 8192));
  p.push_back(llama("llama-3-70b", 80, 8192, 28672, 64, 8, 128256, 8192));
  p.push_back(llama("llama-3-405b", 126, 16384, 53248, 128, 8, 128256, 8192));
  // Llama 3.1 8B (config.json of meta-llama/Llama-3.1-8B-Instruct): Llama 3 8B's blocks with a
  // 128K context.
  p.push_back(llama("llama-3.1-8b", 32, 4096, 14336, 32, 8, 128256, 131072));
  // Code Llama 34B (Roziere et al. 2023, arXiv:2308.12950; config.json of
  // codellama/CodeLlama-34b-Instruct-hf): Llama 2's architecture with grouped-query attention.
  p.push_back(llama("codellama-34b", 48, 8192, 22016, 64, 8, 32000, 16384));
  // Qwen3 14B (Qwen3 technical report, arXiv:2505.09388 Table 1; config.json of Qwen/Qwen3-14B):
  // grouped-query attention with 128-wide heads, untied embeddings.
  p.push_back(llama("qwen3-14b", 40, 5120, 17408, 40, 8, 151936, 40960));
  // Mixtral 8x7B (Jiang et al. 2024, arXiv:2401.04088): 8 experts, top-2; 46.7B total, 12.9B
  // active.
  ModelShape mix = llama("mixtral-8x7b", 32, 4096, 14336, 32, 8, 32000, 4096);
  mix.experts = 8;
  mix.experts_per_token = 2;
  p.push_back(mix);
  // Mixtral 8x22B (Mistral AI's announcement, mistral.ai/news/mixtral-8x22b: 141B total, 39B
  // active; config.json of mistralai/Mixtral-8x22B-Instruct-v0.1): 8 experts, top-2.
  ModelShape mix22 = llama("mixtral-8x22b", 56, 6144, 16384, 48, 8, 32768, 65536);
  mix22.experts = 8;
  mix22.experts_per_token = 2;
  p.push_back(mix22);
  // Megatron-LM GPT scaling models (Korthikanti et al. 2022, arXiv:2205.05198 Table 3).
  p.push_back(gpt_shape("megatron-gpt-22b", 48, 6144, 64));
  p.push_back(gpt_shape("megatron-gpt-175b", 96, 12288, 96));
  p.push_back(gpt_shape("megatron-gpt-530b", 105, 20480, 128));
  p.push_back(gpt_shape("megatron-gpt-1t", 128, 25600, 160));
  return p;
}

}  // namespace

double ModelShape::attention_params() const {
  const double h = hidden, q = static_cast<double>(heads) * head_width();
  const double kv = static_cast<double>(kv_head_count()) * head_width();
  return h * q + 2 * h * kv + q * h;
}

double ModelShape::mlp_params() const {
  return (gated_mlp ? 3.0 : 2.0) * hidden * static_cast<double>(ffn_width());
}

double ModelShape::expert_params() const {
  return moe() ? layers * experts * mlp_params() : 0;
}

double ModelShape::total_params() const {
  const double embed = static_cast<double>(vocab) * hidden * (tied_embeddings ? 1 : 2);
  return layers * (attention_params() + experts * mlp_params()) + embed;
}

double ModelShape::active_params() const {
  const double out = static_cast<double>(vocab) * hidden;
  return layers * (attention_params() + experts_per_token * mlp_params()) + out;
}

double ModelShape::forward_flops_per_token(double context) const {
  const double a = static_cast<double>(heads) * head_width();
  return 2 * active_params() + 4 * context * a * layers;
}

double ModelShape::train_flops_per_token(uint32_t seq) const {
  return 3 * forward_flops_per_token(seq);
}

double ModelShape::kv_bytes_per_token(double bytes_per_value) const {
  return 2.0 * layers * kv_head_count() * head_width() * bytes_per_value;
}

const std::vector<ModelShape>& model_presets() {
  static const std::vector<ModelShape> presets = make_presets();
  return presets;
}

ModelShape gpt_shape(std::string name, uint32_t layers, uint32_t hidden, uint32_t heads,
                     uint32_t seq) {
  ModelShape m;
  m.name = std::move(name);
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.vocab = 51200;
  m.tied_embeddings = true;
  m.seq_len = seq;
  return m;
}

const ModelShape* find_model_preset(std::string_view id) {
  for (const auto& m : model_presets())
    if (iequals(m.name, id)) return &m;
  return nullptr;
}

std::vector<std::string> model_preset_names() {
  std::vector<std::string> out;
  for (const auto& m : model_presets()) out.push_back(m.name);
  return out;
}

std::optional<ModelShape> shape_for_params(double params) {
  if (!std::isfinite(params) || params < 1e6) return std::nullopt;
  // Blocks hold 12 h^2 weights each; with layers = h / 128, params ~ 12 h^3 / 128.
  const double h_exact = std::cbrt(params * 128.0 / 12.0);
  // NOTE: rounded to 1,024 (8 heads of 128) so tensor parallelism up to 8 divides the heads.
  const double step = h_exact >= 1024 ? 1024 : 128;
  const auto hidden = static_cast<uint32_t>(std::max(128.0, std::round(h_exact / step) * step));
  ModelShape m = gpt_shape("", 1, hidden, std::max<uint32_t>(1, hidden / 128));
  // Layers chosen so the block weights match the request (the width is rounded).
  const double per_layer = m.attention_params() + m.mlp_params();
  const double blocks = std::max(per_layer, params - static_cast<double>(m.vocab) * hidden);
  m.layers = static_cast<uint32_t>(std::max(1.0, std::round(blocks / per_layer)));
  return m;
}

}  // namespace gpuplan::training
