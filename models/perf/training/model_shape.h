#pragma once
//! Transformer architecture of a language model (layers, widths, heads, vocabulary), its
//! parameter and FLOP counts, and the named presets (Llama 2/3, Mixtral, the Megatron-LM GPT
//! scaling models) that `gpuplan estimate` and the training quote use.
//!
//! FLOPs follow Narayanan et al. (SC 2021) and Korthikanti et al. (arXiv:2205.05198, appendix):
//! a forward pass costs 2 FLOPs per weight per token, plus 4 s a FLOPs per token and layer for
//! the attention scores and their product with V (s = sequence, a = query heads x head dim), plus
//! 2 h V for the output logits; backward costs twice the forward.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuplan::training {

//! Architecture of a decoder-only transformer.
struct ModelShape {
  std::string name;                //!< preset id, or "" for a shape derived from a parameter count
  uint32_t layers = 0;             //!< transformer blocks
  uint32_t hidden = 0;             //!< model width h
  uint32_t ffn = 0;                //!< MLP inner width (0 = 4 h)
  uint32_t heads = 0;              //!< query heads
  uint32_t kv_heads = 0;           //!< key/value heads (0 = heads; fewer = grouped-query attention)
  uint32_t head_dim = 0;           //!< per head (0 = hidden / heads)
  uint32_t vocab = 0;              //!< vocabulary size V
  bool gated_mlp = false;          //!< SwiGLU MLP (three matrices) instead of GELU (two)
  bool tied_embeddings = false;    //!< output projection shares the input embedding
  uint32_t experts = 1;            //!< MLP experts per layer (mixture of experts)
  uint32_t experts_per_token = 1;  //!< experts each token is routed to (top-k)
  //! Tokens of the busiest expert-parallel rank over the mean (1 = balanced routing, as the
  //! published MoE benchmarks force); the expert GEMMs of every rank wait for the busiest.
  double expert_imbalance = 1;
  uint32_t seq_len = 2048;  //!< training sequence length s [tokens]

  //! MLP inner width, ffn or 4 h.
  [[nodiscard]] uint32_t ffn_width() const { return ffn > 0 ? ffn : 4 * hidden; }
  //! Key/value heads, kv_heads or heads.
  [[nodiscard]] uint32_t kv_head_count() const { return kv_heads > 0 ? kv_heads : heads; }
  //! Width of one head, head_dim or hidden / heads.
  [[nodiscard]] uint32_t head_width() const {
    return head_dim > 0 ? head_dim : (heads > 0 ? hidden / heads : 0);
  }
  //! Parameters of one block's attention (Q, K, V, O projections).
  [[nodiscard]] double attention_params() const;
  //! Parameters of one expert's MLP.
  [[nodiscard]] double mlp_params() const;
  //! Whether the MLP is a mixture of experts (experts > 1).
  [[nodiscard]] bool moe() const { return experts > 1; }
  //! Parameters of every block's routed experts (0 for a dense model).
  [[nodiscard]] double expert_params() const;
  //! All parameters: blocks with every expert, embeddings (input and untied output).
  [[nodiscard]] double total_params() const;
  //! Parameters a token passes through: blocks with its routed experts, no embedding lookup, the
  //! output projection.
  [[nodiscard]] double active_params() const;
  //! Model FLOPs of forward + backward for one token at sequence length `seq` [FLOP]:
  //! 3 x (2 x active weights + 4 seq a layers); a = heads x head dim.
  [[nodiscard]] double train_flops_per_token(uint32_t seq) const;
  //! Forward FLOPs of one token attending over `context` tokens [FLOP]:
  //! 2 x active weights + 4 context a layers.
  [[nodiscard]] double forward_flops_per_token(double context) const;
  //! KV-cache bytes per token at `bytes_per_value` [B]: 2 (K and V) x layers x kv heads x head dim.
  [[nodiscard]] double kv_bytes_per_token(double bytes_per_value) const;
};

//! The named presets (llama-2-7b, ..., mixtral-8x7b, megatron-gpt-22b, ...), in table order.
[[nodiscard]] const std::vector<ModelShape>& model_presets();

//! A Megatron-LM GPT shape (Narayanan et al. 2021): GELU MLP of 4 h, vocabulary 51,200, tied
//! embeddings, sequence `seq`.
[[nodiscard]] ModelShape gpt_shape(std::string name, uint32_t layers, uint32_t hidden,
                                   uint32_t heads, uint32_t seq = 2048);

//! Preset by id (case-insensitive), or nullptr.
[[nodiscard]] const ModelShape* find_model_preset(std::string_view id);

//! Preset ids, for "did you mean" suggestions.
[[nodiscard]] std::vector<std::string> model_preset_names();

//! A GPT-style shape (GELU MLP 4h, vocabulary 51,200, heads of 128, h/layers about 128 as in GPT-3
//! 175B and Megatron's scaling models; h rounded to 1,024) with about `params` parameters; nullopt
//! for params < 1e6 or non-finite.
[[nodiscard]] std::optional<ModelShape> shape_for_params(double params);

}  // namespace gpuplan::training
