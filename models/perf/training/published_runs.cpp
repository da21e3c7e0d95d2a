#include "models/perf/training/published_runs.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpuplan::training {
namespace {

// MosaicML MPT (llm-foundry scripts/train/yamls/pretrain/mpt-*.yaml): GELU MLP 4h, vocabulary
// 50,368, tied embeddings.
ModelShape mpt(std::string name, uint32_t layers, uint32_t hidden, uint32_t heads, uint32_t seq) {
  ModelShape m = gpt_shape(std::move(name), layers, hidden, heads, seq);
  m.vocab = 50368;
  return m;
}

ModelShape preset(std::string_view id, uint32_t seq) {
  ModelShape m = *find_model_preset(id);
  if (seq != 0) m.seq_len = seq;
  return m;
}

// BLOOM 176B (arXiv:2211.05100 Table 1): 70 layers, h 14,336, 112 heads, vocabulary 250,880.
ModelShape bloom_176b() {
  ModelShape m = gpt_shape("bloom-176b", 70, 14336, 112, 2048);
  m.vocab = 250880;
  return m;
}

// Qwen3-235B-A22B (Qwen/Qwen3-235B-A22B config.json on Hugging Face): 94 layers, h 4,096,
// 64 query heads of 128, 4 KV heads, 128 SwiGLU experts of 1,536, top-8, vocabulary 151,936,
// untied embeddings.
ModelShape qwen3_235b_a22b(uint32_t seq) {
  ModelShape m;
  m.name = "qwen3-235b-a22b";
  m.layers = 94;
  m.hidden = 4096;
  m.ffn = 1536;
  m.heads = 64;
  m.kv_heads = 4;
  m.head_dim = 128;
  m.vocab = 151936;
  m.gated_mlp = true;
  m.experts = 128;
  m.experts_per_token = 8;
  m.seq_len = seq;
  return m;
}

InstanceType node(std::string fabric, uint32_t nics, double nic_gbps) {
  InstanceType it;
  it.id = "published-run-node";
  it.gpus_per_node = 8;
  it.intra_node_fabric = std::move(fabric);
  it.nics = nics;
  it.nic_gbps = nic_gbps;
  return it;
}

ParallelPlan plan(uint32_t tp, uint32_t cp, uint32_t pp, uint32_t dp, uint32_t b, uint32_t m,
                  uint32_t v, ZeroStage zero, Recompute recompute, bool flash) {
  ParallelPlan p;
  p.tp = tp;
  p.cp = cp;
  p.pp = pp;
  p.dp = dp;
  p.micro_batch = b;
  p.micro_batches = m;
  p.interleave = v;
  p.zero = zero;
  p.recompute = recompute;
  p.flash_attention = flash;
  return p;
}

std::vector<PublishedRun> make_runs() {
  std::vector<PublishedRun> runs;
  const auto add = [&](PublishedRun r) {
    r.node.gpu = r.gpu;
    runs.push_back(std::move(r));
  };
  add({"megatron-2021-1.7b", "Megatron-LM 2021 GPT 1.7B on 32 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-1.7b", 24, 2304, 24, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(1, 1, 1, 32, 1, 16, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 137, true,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-3.6b", "Megatron-LM 2021 GPT 3.6B on 64 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-3.6b", 30, 3072, 32, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(2, 1, 1, 32, 1, 16, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 138, false,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-7.5b", "Megatron-LM 2021 GPT 7.5B on 128 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-7.5b", 36, 4096, 32, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(4, 1, 1, 32, 1, 16, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 142, true,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-18.4b", "Megatron-LM 2021 GPT 18.4B on 256 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-18.4b", 40, 6144, 48, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(8, 1, 1, 32, 1, 32, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 135, false,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-39.1b", "Megatron-LM 2021 GPT 39.1B on 512 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-39.1b", 48, 8192, 64, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(8, 1, 2, 32, 1, 48, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 138, true,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-76.1b", "Megatron-LM 2021 GPT 76.1B on 1024 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-76.1b", 60, 10240, 80, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(8, 1, 4, 32, 1, 56, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 140, false,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-145.6b", "Megatron-LM 2021 GPT 145.6B on 1536 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-145.6b", 80, 12288, 96, 2048), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(8, 1, 8, 24, 1, 96, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 148, true,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-310.1b", "Megatron-LM 2021 GPT 310.1B on 1920 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-310.1b", 96, 16384, 128, 2048), "A100-80GB",
       node("nvlink3", 8, 200), Precision::bf16,
       plan(8, 1, 16, 15, 1, 144, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 155, false,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-529.6b", "Megatron-LM 2021 GPT 529.6B on 2520 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-529.6b", 105, 20480, 128, 2048), "A100-80GB",
       node("nvlink3", 8, 200), Precision::bf16,
       plan(8, 1, 35, 9, 1, 280, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 163, true,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2021-1008b", "Megatron-LM 2021 GPT 1008B on 3072 A100",
       "Narayanan et al. 2021, arXiv:2104.04473 Table 1", "Megatron-LM",
       gpt_shape("megatron-2021-1008b", 128, 25600, 160, 2048), "A100-80GB",
       node("nvlink3", 8, 200), Precision::bf16,
       plan(8, 1, 64, 6, 1, 512, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::megatron_tflops, 163, false,
       "micro-batch 1 and no interleaving assumed (not in the table)"});
  add({"megatron-2022-22b", "Megatron-LM 2022 GPT 22B on 8 A100",
       "Korthikanti et al. 2022, arXiv:2205.05198 Table 3; NVIDIA/Megatron-LM README (MFU column)",
       "Megatron-LM", preset("megatron-gpt-22b", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16,
       plan(8, 1, 1, 1, 4, 1, 1, ZeroStage::optimizer, Recompute::selective, false),
       PublishedMetric::mfu, 0.415, true, "data parallel 1 as in the README's table"});
  add({"megatron-2022-175b", "Megatron-LM 2022 GPT 175B on 64 A100",
       "Korthikanti et al. 2022, arXiv:2205.05198 Table 3; NVIDIA/Megatron-LM README (MFU column)",
       "Megatron-LM", preset("megatron-gpt-175b", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16,
       plan(8, 1, 8, 1, 1, 64, 1, ZeroStage::optimizer, Recompute::selective, false),
       PublishedMetric::mfu, 0.514, false, "data parallel 1 as in the README's table"});
  add({"megatron-2022-530b", "Megatron-LM 2022 GPT 530B on 280 A100",
       "Korthikanti et al. 2022, arXiv:2205.05198 Table 3; NVIDIA/Megatron-LM README (MFU column)",
       "Megatron-LM", preset("megatron-gpt-530b", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16,
       plan(8, 1, 35, 1, 1, 280, 1, ZeroStage::optimizer, Recompute::selective, false),
       PublishedMetric::mfu, 0.56, true, "data parallel 1 as in the README's table"});
  add({"megatron-2022-1t", "Megatron-LM 2022 GPT 1T on 512 A100",
       "Korthikanti et al. 2022, arXiv:2205.05198 Table 3; NVIDIA/Megatron-LM README (MFU column)",
       "Megatron-LM", preset("megatron-gpt-1t", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16,
       plan(8, 1, 64, 1, 1, 512, 1, ZeroStage::optimizer, Recompute::selective, false),
       PublishedMetric::mfu, 0.563, false, "data parallel 1 as in the README's table"});
  add({"megatron-2022-530b-2240", "Megatron-LM 2022 GPT 530B on 2,240 A100",
       "Korthikanti et al. 2022, arXiv:2205.05198 abstract and §6", "Megatron-LM",
       preset("megatron-gpt-530b", 0), "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(8, 1, 35, 8, 1, 280, 1, ZeroStage::optimizer, Recompute::selective, false),
       PublishedMetric::mfu, 0.542, true, "global batch 2,240 (280 per replica) assumed"});
  add({"llama3-405b-8k", "Llama 3 405B on 8,192 H100",
       "Dubey et al. 2024 (Llama 3), arXiv:2407.21783 Table 4", "Meta (Megatron-style 4D)",
       preset("llama-3-405b", 8192), "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(8, 1, 16, 64, 1, 32, 4, ZeroStage::gradients, Recompute::selective, true),
       PublishedMetric::mfu, 0.43, false,
       "interleaving depth 4 assumed (schedule of §3.3.2, depth unpublished); ZeRO-2-like FSDP as "
       "described in §3.3.2"});
  add({"llama3-405b-16k", "Llama 3 405B on 16,384 H100",
       "Dubey et al. 2024 (Llama 3), arXiv:2407.21783 Table 4", "Meta (Megatron-style 4D)",
       preset("llama-3-405b", 8192), "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(8, 1, 16, 128, 1, 16, 4, ZeroStage::gradients, Recompute::selective, true),
       PublishedMetric::mfu, 0.41, true,
       "interleaving depth 4 assumed (schedule of §3.3.2, depth unpublished); ZeRO-2-like FSDP as "
       "described in §3.3.2"});
  add({"llama3-405b-16k-cp16", "Llama 3 405B on 16,384 H100 (CP 16, 128K)",
       "Dubey et al. 2024 (Llama 3), arXiv:2407.21783 Table 4", "Meta (Megatron-style 4D)",
       preset("llama-3-405b", 131072), "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(8, 16, 16, 8, 1, 16, 4, ZeroStage::gradients, Recompute::selective, true),
       PublishedMetric::mfu, 0.38, true,
       "interleaving depth 4 assumed (schedule of §3.3.2, depth unpublished); ZeRO-2-like FSDP as "
       "described in §3.3.2"});
  add({"bloom-176b", "BLOOM 176B on 384 A100",
       "BigScience 2022 (BLOOM), arXiv:2211.05100 §3.4.2 (156 TFLOPS per GPU)",
       "Megatron-DeepSpeed", bloom_176b(), "A100-80GB", node("nvlink3", 4, 100), Precision::bf16,
       plan(4, 1, 12, 8, 2, 128, 1, ZeroStage::optimizer, Recompute::full, false),
       PublishedMetric::megatron_tflops, 156, false,
       "Jean Zay: 4 x 100 Gb/s Omni-Path per node; micro-batch 2 with full recomputation "
       "(BigScience megatron-deepspeed launch script)"});
  add({"llm-foundry-mpt-13b-h100-64-s2048", "llm-foundry MPT-13B on 64 H100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-13b-h100-64-s2048", 40, 5120, 40, 2048),
       "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 64, 2, 1, 1, ZeroStage::parameters, Recompute::none, true),
       PublishedMetric::mfu, 0.3986, true, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-70b-h100-64-s2048", "llm-foundry MPT-70B on 64 H100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-70b-h100-64-s2048", 80, 8192, 64, 2048),
       "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 64, 8, 4, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.4257, false, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-30b-h100-32-s2048", "llm-foundry MPT-30B on 32 H100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-30b-h100-32-s2048", 48, 7168, 64, 2048),
       "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 32, 14, 3, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.4392, true, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-7b-h100-8-s2048", "llm-foundry MPT-7B on 8 H100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-7b-h100-8-s2048", 32, 4096, 32, 2048), "H100-SXM",
       node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 8, 6, 1, 1, ZeroStage::parameters, Recompute::none, true),
       PublishedMetric::mfu, 0.4644, false, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-7b-h100-8-s8192", "llm-foundry MPT-7B on 8 H100, seq 8,192",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-7b-h100-8-s8192", 32, 4096, 32, 8192), "H100-SXM",
       node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 8, 8, 2, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.3714, true, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-3b-h100-16-s2048", "llm-foundry MPT-3B on 16 H100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-3b-h100-16-s2048", 32, 2560, 20, 2048),
       "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 16, 10, 3, 1, ZeroStage::parameters, Recompute::none, true),
       PublishedMetric::mfu, 0.4373, false, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-13b-h100-8-s4096", "llm-foundry MPT-13B on 8 H100, seq 4,096",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-13b-h100-8-s4096", 40, 5120, 40, 4096),
       "H100-SXM", node("nvlink4", 8, 400), Precision::bf16,
       plan(1, 1, 1, 8, 10, 3, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.416, true, "8 x 400 Gb/s per H100 node assumed (unstated)"});
  add({"llm-foundry-mpt-70b-a100-64-s2048", "llm-foundry MPT-70B on 64 A100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-70b-a100-64-s2048", 80, 8192, 64, 2048),
       "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(1, 1, 1, 64, 8, 4, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.5333, false, "8 x 200 Gb/s RoCE (\"1600 Gbps\")"});
  add({"llm-foundry-mpt-30b-a100-8-s2048", "llm-foundry MPT-30B on 8 A100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-30b-a100-8-s2048", 48, 7168, 64, 2048),
       "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(1, 1, 1, 8, 3, 21, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.553, true, "8 x 200 Gb/s RoCE (\"1600 Gbps\")"});
  add({"llm-foundry-mpt-13b-a100-8-s2048", "llm-foundry MPT-13B on 8 A100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-13b-a100-8-s2048", 40, 5120, 40, 2048),
       "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(1, 1, 1, 8, 2, 3, 1, ZeroStage::parameters, Recompute::none, true),
       PublishedMetric::mfu, 0.5957, false, "8 x 200 Gb/s RoCE (\"1600 Gbps\")"});
  add({"llm-foundry-mpt-7b-a100-8-s2048", "llm-foundry MPT-7B on 8 A100, seq 2,048",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-7b-a100-8-s2048", 32, 4096, 32, 2048),
       "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(1, 1, 1, 8, 6, 2, 1, ZeroStage::parameters, Recompute::none, true),
       PublishedMetric::mfu, 0.6423, true, "8 x 200 Gb/s RoCE (\"1600 Gbps\")"});
  add({"llm-foundry-mpt-7b-a100-8-s8192", "llm-foundry MPT-7B on 8 A100, seq 8,192",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-7b-a100-8-s8192", 32, 4096, 32, 8192),
       "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(1, 1, 1, 8, 8, 2, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.5447, false, "8 x 200 Gb/s RoCE (\"1600 Gbps\")"});
  add({"llm-foundry-mpt-13b-a100-8-s16384", "llm-foundry MPT-13B on 8 A100, seq 16,384",
       "mosaicml/llm-foundry@061f2c7ce64e655100286584a7629e2a09f827ba "
       "scripts/train/benchmarking/README.md",
       "llm-foundry (FSDP)", mpt("llm-foundry-mpt-13b-a100-8-s16384", 40, 5120, 40, 16384),
       "A100-80GB", node("nvlink3", 8, 200), Precision::bf16,
       plan(1, 1, 1, 8, 3, 3, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.5407, true, "8 x 200 Gb/s RoCE (\"1600 Gbps\")"});
  add({"torchtitan-llama3-8b", "torchtitan Llama 3 8B on 64 A100",
       "pytorch/torchtitan@041336434916bdc0f88c1f89fda176fd3c2092e4 docs/performance.md",
       "torchtitan (FSDP2)", preset("llama-3-8b", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16,
       plan(1, 1, 1, 64, 1, 1, 1, ZeroStage::parameters, Recompute::selective, true),
       PublishedMetric::mfu, 0.582, true, "8 x 200 Gb/s per node assumed (unstated)"});
  add({"torchtitan-llama3-70b", "torchtitan Llama 3 70B on 64 A100",
       "pytorch/torchtitan@041336434916bdc0f88c1f89fda176fd3c2092e4 docs/performance.md",
       "torchtitan (FSDP2)", preset("llama-3-70b", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(1, 1, 1, 64, 1, 1, 1, ZeroStage::parameters, Recompute::full, true),
       PublishedMetric::mfu, 0.517, false, "8 x 200 Gb/s per node assumed (unstated)"});
  add({"torchtitan-llama2-13b", "torchtitan Llama 2 13B on 64 A100",
       "pytorch/torchtitan@041336434916bdc0f88c1f89fda176fd3c2092e4 docs/performance.md",
       "torchtitan (FSDP2)", preset("llama-2-13b", 0), "A100-80GB", node("nvlink3", 8, 200),
       Precision::bf16, plan(1, 1, 1, 64, 2, 1, 1, ZeroStage::parameters, Recompute::none, true),
       PublishedMetric::mfu, 0.611, true, "8 x 200 Gb/s per node assumed (unstated)"});
  // NVIDIA NeMo (Megatron Bridge on Megatron-Core) performance summary, DGX-H100 tables: the
  // FP8 rows with current scaling (FP8-CS) and the MoE rows, whose token routing the benchmark
  // forces to balance (expert_imbalance 1, as the page states). Tokens/s/GPU as printed; the MFU
  // is against the FP8 dense peak (the page gives model TFLOP/s, not MFU).
  const char* nemo_2602 =
      "NVIDIA-NeMo/Megatron-Bridge@df0289c180dd20ff26933455c7a0a11084f6a36f "
      "docs/performance-summary.md (26.02 container, DGX-H100)";
  const char* nemo_2511 =
      "NVIDIA-NeMo/Megatron-Bridge@df0289c180dd20ff26933455c7a0a11084f6a36f "
      "docs/performance-summary.md (25.11 container, DGX-H100)";
  const char* dgx_h100 = "DGX H100: 8 x 400 Gb/s InfiniBand per node; recomputation not stated";
  add({"nemo-llama3-8b-fp8-8", "NeMo Llama 3 8B FP8 on 8 H100", nemo_2511, "NeMo (Megatron-Core)",
       preset("llama-3-8b", 8192), "H100-SXM", node("nvlink4", 8, 400), Precision::fp8,
       plan(1, 1, 1, 8, 1, 16, 1, ZeroStage::parameters, Recompute::selective, true),
       PublishedMetric::tokens_per_gpu_s, 14451, true, dgx_h100});
  add({"nemo-llama3-70b-fp8-64", "NeMo Llama 3 70B FP8 on 64 H100", nemo_2602,
       "NeMo (Megatron-Core)", preset("llama-3-70b", 8192), "H100-SXM", node("nvlink4", 8, 400),
       Precision::fp8,
       plan(4, 1, 8, 2, 1, 128, 5, ZeroStage::optimizer, Recompute::selective, true),
       PublishedMetric::tokens_per_gpu_s, 1621, true, dgx_h100});
  add({"nemo-llama3-70b-fp8-64-gbs128", "NeMo Llama 3 70B FP8 on 64 H100, batch 128", nemo_2511,
       "NeMo (Megatron-Core)", preset("llama-3-70b", 8192), "H100-SXM", node("nvlink4", 8, 400),
       Precision::fp8, plan(4, 1, 8, 2, 1, 64, 5, ZeroStage::optimizer, Recompute::selective, true),
       PublishedMetric::tokens_per_gpu_s, 1602, false, dgx_h100});
  add({"nemo-llama31-405b-fp8-1024", "NeMo Llama 3.1 405B FP8 on 1,024 H100", nemo_2602,
       "NeMo (Megatron-Core)", preset("llama-3-405b", 8192), "H100-SXM", node("nvlink4", 8, 400),
       Precision::fp8,
       plan(8, 2, 8, 8, 1, 192, 8, ZeroStage::optimizer, Recompute::selective, true),
       PublishedMetric::tokens_per_gpu_s, 311, false, dgx_h100});
  add({"nemo-llama31-405b-fp8-1024-gbs512", "NeMo Llama 3.1 405B FP8 on 1,024 H100, batch 512",
       nemo_2511, "NeMo (Megatron-Core)", preset("llama-3-405b", 8192), "H100-SXM",
       node("nvlink4", 8, 400), Precision::fp8,
       plan(8, 2, 8, 8, 1, 64, 8, ZeroStage::optimizer, Recompute::selective, true),
       PublishedMetric::tokens_per_gpu_s, 292, false, dgx_h100});
  ParallelPlan qwen =
      plan(2, 1, 8, 16, 1, 512, 4, ZeroStage::optimizer, Recompute::selective, true);
  qwen.ep = 32;
  add({"nemo-qwen3-235b-fp8-256", "NeMo Qwen3-235B-A22B (MoE) FP8 on 256 H100", nemo_2602,
       "NeMo (Megatron-Core)", qwen3_235b_a22b(4096), "H100-SXM", node("nvlink4", 8, 400),
       Precision::fp8, qwen, PublishedMetric::tokens_per_gpu_s, 1633, true, dgx_h100});
  qwen.micro_batches = 128;
  add({"nemo-qwen3-235b-fp8-256-gbs2048", "NeMo Qwen3-235B-A22B (MoE) FP8 on 256 H100, batch 2,048",
       nemo_2511, "NeMo (Megatron-Core)", qwen3_235b_a22b(4096), "H100-SXM",
       node("nvlink4", 8, 400), Precision::fp8, qwen, PublishedMetric::tokens_per_gpu_s, 1575,
       false, dgx_h100});

  // The one public V100 run with every figure the model needs: Megatron-LM v1.0's 1.2B baseline
  // (the shape of Shoeybi et al. 2019, arXiv:1909.08053 Table 1: 40 layers, h 1,536, 16 heads,
  // sequence 1,024) on one V100 of a DGX-2H, batch 8, 1,288 ms a step (NVIDIA ADLR, "MegatronLM's
  // Supercharged V1.0", nv-adlr.github.io/MegatronLMV1, Table 1): 8,192 / 1.288 tokens/s.
  InstanceType one_v100 = node("nvlink2", 1, 100);
  one_v100.gpus_per_node = 1;  // one GPU of the DGX-2H: no communication
  add({"megatron-v1-1.2b-v100", "Megatron-LM v1.0 GPT-2 1.2B on 1 V100",
       "NVIDIA ADLR, MegatronLM's Supercharged V1.0 (nv-adlr.github.io/MegatronLMV1), Table 1",
       "Megatron-LM", gpt_shape("megatron-v1-1.2b", 40, 1536, 16, 1024), "V100-32GB", one_v100,
       Precision::bf16, plan(1, 1, 1, 1, 8, 1, 1, ZeroStage::none, Recompute::full, false),
       PublishedMetric::tokens_per_gpu_s, 8192 / 1.288, false,
       "FP16 (V100 has no BF16: the model prices it at the FP16 peak); full recomputation, as the "
       "post's 62.4 TFLOPS (48 % of the DGX-2H's 130 TFLOPS) counts it; the catalog's V100-32GB "
       "is the 125 TFLOPS part, and the DGX-2H's 450 W part has 4 % more; held out: the V100 "
       "shares are assumptions"});
  return runs;
}

// Each run with its GPU's architecture and its MFU, looked up once (the search asks per plan).
struct IndexedRun {
  const PublishedRun* run;
  std::string architecture;
  double mfu;
  double params;  // run->model.total_params()
};

const std::vector<IndexedRun>& run_index();

double log_ratio(double a, double b) {
  return std::abs(std::log2(std::max(a, 1.0) / std::max(b, 1.0)));
}

// Distance between ZeRO-3 / FSDP and Megatron-style (ZeRO-0/1/2) frameworks: alone beyond the
// calibrated region.
constexpr double FRAMEWORK_FAMILY_DISTANCE = 3.0;
static_assert(FRAMEWORK_FAMILY_DISTANCE > CALIBRATED_DISTANCE);

// layout_distance with both parameter counts given (the search asks for many plans of one model).
double distance(double params, uint32_t seq, bool moe, const ParallelPlan& plan,
                const PublishedRun& run, double run_params) {
  const ParallelPlan& q = run.plan;
  const bool sharded = plan.zero == ZeroStage::parameters,
             run_sharded = q.zero == ZeroStage::parameters;
  return log_ratio(params, run_params) +
         log_ratio(static_cast<double>(plan.gpus()), static_cast<double>(q.gpus())) / 2 +
         log_ratio(plan.tp, q.tp) / 2 + log_ratio(plan.pp, q.pp) / 2 +
         log_ratio(plan.cp, q.cp) / 2 + log_ratio(seq, run.model.seq_len) / 2 +
         (sharded != run_sharded ? FRAMEWORK_FAMILY_DISTANCE : 0.0) + log_ratio(plan.ep, q.ep) / 2 +
         (moe != run.model.moe() ? FRAMEWORK_FAMILY_DISTANCE : 0.0);
}

}  // namespace

const std::vector<PublishedRun>& published_runs() {
  static const std::vector<PublishedRun> runs = make_runs();
  return runs;
}

namespace {

const std::vector<IndexedRun>& run_index() {
  static const std::vector<IndexedRun> index = [] {
    std::vector<IndexedRun> out;
    for (const PublishedRun& r : published_runs())
      if (const GpuSpec* g = builtin_catalog().find_gpu(r.gpu))
        out.push_back({&r, g->architecture, published_mfu(r, *g), r.model.total_params()});
    return out;
  }();
  return index;
}

}  // namespace

double published_mfu(const PublishedRun& run, const GpuSpec& gpu) {
  const ModelShape& m = run.model;
  const double peak = peak_tflops(gpu, run.precision) * 1e12;
  switch (run.metric) {
    case PublishedMetric::mfu:
      return run.published;
    case PublishedMetric::megatron_tflops: {
      // Narayanan et al. 2021 eq. 3 per token: 96 l h^2 (1 + s / 6h + V / 16 l h) with
      // recomputation; the model count here has no fourth pass.
      const double l = m.layers, h = m.hidden, s = m.seq_len, v = m.vocab;
      const double theirs = 96 * l * h * h * (1 + s / (6 * h) + v / (16 * l * h));
      return run.published * 1e12 * m.train_flops_per_token(m.seq_len) / theirs / peak;
    }
    case PublishedMetric::tokens_per_gpu_s:
      return run.published * m.train_flops_per_token(m.seq_len) / peak;
  }
  return 0;
}

double layout_distance(const ModelShape& m, const ParallelPlan& plan, const PublishedRun& run) {
  return distance(m.total_params(), m.seq_len, m.moe(), plan, run, run.model.total_params());
}

const PublishedRun* nearest_published_run(const ModelShape& m, const ParallelPlan& plan,
                                          std::string_view architecture, Precision precision) {
  const PublishedRun* best = nullptr;
  double best_d = std::numeric_limits<double>::infinity();
  const double params = m.total_params();
  for (const IndexedRun& r : run_index()) {
    if (r.architecture != architecture || r.run->precision != precision) continue;
    if (r.run->model.moe() != m.moe()) continue;  // dense and MoE rows never stand for each other
    const double d = distance(params, m.seq_len, m.moe(), plan, *r.run, r.params);
    if (d < best_d) {
      best_d = d;
      best = r.run;
    }
  }
  return best;
}

bool within_calibrated_distance(const ModelShape& m, const ParallelPlan& plan,
                                std::string_view architecture, Precision precision) {
  const double params = m.total_params();
  const bool sharded = plan.zero == ZeroStage::parameters;
  for (const IndexedRun& r : run_index()) {
    if (r.architecture != architecture || r.run->precision != precision) continue;
    // Every term of the distance is a lower bound of it: skip rows the framework family or the
    // model size alone put out of reach before the other logarithms.
    if (sharded != (r.run->plan.zero == ZeroStage::parameters)) continue;
    if (m.moe() != r.run->model.moe()) continue;
    if (log_ratio(params, r.params) > CALIBRATED_DISTANCE) continue;
    if (distance(params, m.seq_len, m.moe(), plan, *r.run, r.params) <= CALIBRATED_DISTANCE)
      return true;
  }
  return false;
}

std::string published_run_text(const PublishedRun& run) {
  const GpuSpec* gpu = builtin_catalog().find_gpu(run.gpu);
  const double mfu = gpu ? published_mfu(run, *gpu) : 0;
  return run.label + ": " + std::to_string(static_cast<int>(std::lround(100 * mfu))) + " % MFU";
}

std::string layout_text(const ParallelPlan& p) {
  std::string t = "TP " + std::to_string(p.tp);
  if (p.cp > 1) t += " x CP " + std::to_string(p.cp);
  t += " x PP " + std::to_string(p.pp);
  if (p.interleave > 1) t += " (v " + std::to_string(p.interleave) + ")";
  t += " x DP " + std::to_string(p.dp);
  if (p.ep > 1) t += " (EP " + std::to_string(p.ep) + ")";
  t += ", ZeRO-" + std::to_string(zero_number(p.zero));
  if (p.recompute == Recompute::none) return t + ", no recomputation";
  if (p.recompute == Recompute::selective) return t + ", selective recomputation";
  if (p.recompute_blocks == 0) return t + ", full recomputation";
  return t + ", " + std::to_string(p.recompute_blocks) + " blocks per stage recomputed";
}

double best_published_mfu(std::string_view architecture, Precision precision) {
  double best = 0;
  for (const IndexedRun& r : run_index())
    if (r.architecture == architecture && r.run->precision == precision)
      best = std::max(best, r.mfu);
  return best;
}

PublishedComparison compare_with_published(const ModelShape* m, const ParallelPlan& plan,
                                           std::string_view architecture, Precision precision,
                                           double mfu) {
  PublishedComparison c;
  if (m != nullptr) c.nearest = nearest_published_run(*m, plan, architecture, precision);
  c.best_mfu = best_published_mfu(architecture, precision);
  c.above = c.best_mfu > 0 && mfu > c.best_mfu;
  return c;
}

}  // namespace gpuplan::training
