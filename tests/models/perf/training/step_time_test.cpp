#include <doctest/doctest.h>

#include <cmath>

#include "models/catalog/catalog.h"
#include "models/perf/collectives.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"
#include "models/perf/training/published_runs.h"
#include "models/perf/training/step_time.h"

using namespace gpuplan;
using namespace gpuplan::training;

namespace {

// NVIDIA Selene: DGX A100 80 GB nodes, NVLink3, 8 x 200 Gb/s HDR InfiniBand per node (Megatron-LM
// README; top500.org/system/179842).
InstanceType selene_node() {
  InstanceType it;
  it.id = "selene.dgx-a100";
  it.gpu = "A100-80GB";
  it.gpus_per_node = 8;
  it.intra_node_fabric = "nvlink3";
  it.nics = 8;
  it.nic_gbps = 200;
  return it;
}

ParallelPlan plan(uint32_t tp, uint32_t pp, uint32_t dp, uint32_t b, uint32_t m, uint32_t v = 1) {
  ParallelPlan p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.micro_batch = b;
  p.micro_batches = m;
  p.interleave = v;
  p.zero = ZeroStage::optimizer;
  p.recompute = Recompute::selective;
  return p;
}

}  // namespace

TEST_CASE("models::training::model_shape") {
  SUBCASE("presets count their parameters as published") {
    // Llama 2 7B: 6.74e9 parameters (Touvron et al. 2023).
    CHECK(find_model_preset("llama-2-7b")->total_params() == doctest::Approx(6.74e9).epsilon(0.01));
    // Llama 3 405B: 405e9 (arXiv:2407.21783 Table 3); the count here gives 405.8e9.
    CHECK(find_model_preset("llama-3-405b")->total_params() ==
          doctest::Approx(405e9).epsilon(0.01));
    // Mixtral 8x7B: 46.7e9 total, 12.9e9 active per token (arXiv:2401.04088).
    const ModelShape& mix = *find_model_preset("Mixtral-8x7B");
    CHECK(mix.total_params() == doctest::Approx(46.7e9).epsilon(0.01));
    CHECK(mix.active_params() == doctest::Approx(12.9e9).epsilon(0.02));
    // Mixtral 8x22B: 141e9 total, 39e9 active (mistral.ai/news/mixtral-8x22b).
    const ModelShape& mix22 = *find_model_preset("mixtral-8x22b");
    CHECK(mix22.total_params() == doctest::Approx(141e9).epsilon(0.01));
    CHECK(mix22.active_params() == doctest::Approx(39e9).epsilon(0.01));
    // Qwen3 14B: 14.8e9 in all, 13.2e9 outside the embeddings (Qwen/Qwen3-14B's model card).
    const ModelShape& qwen = *find_model_preset("qwen3-14b");
    CHECK(qwen.total_params() == doctest::Approx(14.8e9).epsilon(0.005));
    CHECK(qwen.total_params() - 2.0 * qwen.vocab * qwen.hidden ==
          doctest::Approx(13.2e9).epsilon(0.005));
    // Llama 3.1 8B: 8.03e9 (meta-llama/Llama-3.1-8B's model card rounds to 8B).
    CHECK(find_model_preset("llama-3.1-8b")->total_params() ==
          doctest::Approx(8.03e9).epsilon(0.005));
    // Megatron's 1T: 128 layers of 12 h^2 at h = 25,600 = 1.007e12 plus 1.3e9 embedding.
    CHECK(find_model_preset("megatron-gpt-1t")->total_params() ==
          doctest::Approx(1.008e12).epsilon(0.005));
  }
  SUBCASE("grouped-query attention shrinks the KV cache by heads / KV heads") {
    // Llama 2 7B: 2 x 32 layers x 32 heads x 128 x 2 B = 524,288 B per token; Llama 3 8B has
    // 8 KV heads: a quarter of that.
    CHECK(find_model_preset("llama-2-7b")->kv_bytes_per_token(2) == 524288);
    CHECK(find_model_preset("llama-3-8b")->kv_bytes_per_token(2) == 131072);
  }
  SUBCASE("a shape derived from a parameter count has about that many parameters") {
    const auto m = shape_for_params(13e9);
    REQUIRE(m);
    // h = cbrt(13e9 x 128 / 12) = 5,175 -> 5,120 (a multiple of 1,024); layers fill the rest.
    CHECK(m->hidden == 5120);
    CHECK(m->total_params() == doctest::Approx(13e9).epsilon(0.03));
    CHECK_FALSE(shape_for_params(NAN));
    CHECK_FALSE(shape_for_params(-1));
  }
}

TEST_CASE("models::training::memory") {
  const GpuSpec& a100 = *builtin_catalog().find_gpu("A100-80GB");
  const ModelShape& m = *find_model_preset("megatron-gpt-175b");

  SUBCASE("selective recomputation stores 34 s b h / t bytes per layer (Korthikanti eq. 4)") {
    ParallelPlan p = plan(8, 8, 1, 1, 64);
    // 2,048 x 1 x 12,288 x 34 / 8 = 106,954,752 B per layer.
    CHECK(activation_bytes_per_layer(m, p) == doctest::Approx(2048.0 * 12288 * 34 / 8));
    p.recompute = Recompute::none;
    p.flash_attention = false;
    // Without recomputation or fused attention the 5 a s / h term adds 5 x 96 x 2,048 / 12,288 = 80
    // h: 114 h in all.
    CHECK(activation_bytes_per_layer(m, p) == doctest::Approx(2048.0 * 12288 * 114 / 8));
    p.recompute = Recompute::full;
    // Full recomputation keeps only each block's input: 2 s b h / t.
    CHECK(activation_bytes_per_layer(m, p) == doctest::Approx(2048.0 * 12288 * 2 / 8));
  }
  SUBCASE("ZeRO stages shard optimizer, then gradients, then weights over data parallelism") {
    ParallelPlan p = plan(8, 8, 16, 1, 64);
    const double shard = m.total_params() / 64;
    p.zero = ZeroStage::optimizer;
    TrainingMemory z1 = training_memory(m, p, a100);
    // 12 B/param of Adam state over 16 replicas; weights and gradients 2 B each, unsharded.
    CHECK(z1.optimizer == doctest::Approx(shard * 12 / 16));
    CHECK(z1.gradients == doctest::Approx(shard * 2));
    p.zero = ZeroStage::parameters;
    TrainingMemory z3 = training_memory(m, p, a100);
    CHECK(z3.weights == doctest::Approx(shard * 2 / 16));
    CHECK(z3.gradients == doctest::Approx(shard * 2 / 16));
  }
}

TEST_CASE("models::training::step_time") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const ModelShape& m = *find_model_preset("llama-3-70b");

  SUBCASE("the bubble is a share (p - 1) / (v m + p - 1) of the step") {
    const Cluster c{&p5, &h100, 8};
    const StepTime t = step_time(m, plan(8, 4, 2, 1, 16), c, Precision::bf16);
    const double per_mb = (t.compute_s + t.tp_comm_s) / 16;
    // (p - 1) = 3 micro-batch times of fill and drain.
    CHECK(t.bubble_s == doctest::Approx(3 * per_mb));
    const StepTime v2 = step_time(m, plan(8, 4, 2, 1, 16, 2), c, Precision::bf16);
    // Two virtual stages per GPU halve it (Narayanan et al. 2021).
    CHECK(v2.bubble_s == doctest::Approx(t.bubble_s / 2));
  }
  SUBCASE("MFU is model FLOPs over GPUs x peak x step, and the step adds up") {
    const Cluster c{&p5, &h100, 8};
    const StepTime t = step_time(m, plan(8, 2, 4, 1, 32), c, Precision::bf16);
    CHECK(t.step_s ==
          doctest::Approx(t.compute_s + t.exposed_comm_s + t.bubble_s + t.optimizer_s + t.cap_s));
    CHECK(t.mfu == doctest::Approx(t.model_flops_per_step / (64 * 989e12 * t.step_s)));
    // 32 micro-batches x 4 replicas x 8,192 tokens.
    CHECK(t.tokens_per_step == 32 * 4 * 8192);
  }
  SUBCASE("single-L4 VMs on 10 GbE at the scale a 3-week 13B run needs fall below the floor") {
    const InstanceType& g6 = *cat.find_instance("g6.xlarge");
    const GpuSpec& l4 = *cat.find_gpu("L4");
    const auto shape = shape_for_params(13e9);
    SearchLimits lim;
    lim.sequences_per_step = 4e6 / 2048;
    // 7.8e22 FLOPs in 21 days at ~30% of 121 TFLOPS needs about 1,300 L4.
    const auto slow = fastest_plan(*shape, Cluster{&g6, &l4, 1300}, Precision::bf16, lim);
    REQUIRE(slow);
    CAPTURE(slow->time.mfu);
    // Gradient sync and pipeline sends over 10 Gb/s per GPU take a third of the step or more.
    CAPTURE(not_recommended_reason(slow->time, DEFAULT_MFU_FLOOR));
    CHECK(slow->time.exposed_comm_s > 0.2 * slow->time.step_s);
    CHECK(slow->time.mfu < DEFAULT_MFU_FLOOR);
    // Slow links show as exposed transfers or as the deeper pipeline the search takes instead.
    const std::string why = not_recommended_reason(slow->time, DEFAULT_MFU_FLOOR);
    CHECK((why.find("exposed communication") != std::string::npos ||
           why.find("pipeline bubble") != std::string::npos));
    const auto fast = fastest_plan(*shape, Cluster{&p5, &h100, 8}, Precision::bf16, lim);
    REQUIRE(fast);
    CHECK(fast->time.dp_exposed_s < 0.05 * fast->time.step_s);
    CHECK(fast->time.mfu > 0.35);
    CHECK(fast->time.mfu > 2 * slow->time.mfu);
    CHECK(not_recommended_reason(fast->time, DEFAULT_MFU_FLOOR).empty());
  }
  SUBCASE("the search returns a plan that fits, and none when nothing can") {
    SearchLimits lim;
    lim.sequences_per_step = 2048;
    const ModelShape& big = *find_model_preset("llama-3-405b");
    const auto one_node = fastest_plan(big, Cluster{&p5, &h100, 1}, Precision::bf16, lim);
    // 405B x 16 B = 6.5 TB of states cannot fit in 8 x 72 GB.
    CHECK_FALSE(one_node);
    const auto many = fastest_plan(big, Cluster{&p5, &h100, 128}, Precision::bf16, lim);
    REQUIRE(many);
    CHECK(many->time.fits());
    CHECK(plan_problem(big, many->plan, Cluster{&p5, &h100, 128}).empty());
  }
  SUBCASE("plans that cannot run say why") {
    const Cluster c{&p5, &h100, 2};
    CHECK(plan_problem(m, plan(16, 1, 1, 1, 1), c).find("exceeds the 8 GPUs") != std::string::npos);
    CHECK(plan_problem(m, plan(8, 1, 1, 1, 1), c).find("cluster has 16") != std::string::npos);
  }
  SUBCASE("kernel efficiency rises with the GEMM width and is stated per generation") {
    // gemm x w / (w + half_width): half the hopper limit at half_width columns per rank.
    CHECK(compute_efficiency(h100, FITTED.half_width) == doctest::Approx(FITTED.gemm_hopper / 2));
    CHECK(compute_efficiency(h100, 8 * FITTED.half_width) ==
          doctest::Approx(FITTED.gemm_hopper * 8 / 9));
    CHECK(kernel_efficiency("ampere").gemm > kernel_efficiency("hopper").gemm);
    CHECK_FALSE(kernel_efficiency("ada").basis.empty());
  }
}

TEST_CASE("models::training::not_recommended_reason") {
  // A step of 1 s at 10 % MFU: the reason names the largest loss once it passes 20 % of the step.
  const auto reason = [](double exposed, double bubble) {
    StepTime t;
    t.step_s = 1;
    t.mfu = 0.1;
    t.efficiency = 0.3;
    t.exposed_comm_s = exposed;
    t.bubble_s = bubble;
    return not_recommended_reason(t, DEFAULT_MFU_FLOOR);
  };
  SUBCASE("the pipeline bubble is named above 20 % of the step, not below") {
    CHECK(reason(0.1, 0.25).find("pipeline bubble is 25%") != std::string::npos);
    CHECK(reason(0.1, 0.15).find("kernel efficiency 30%") != std::string::npos);
  }
  SUBCASE("exposed communication is named above 20 % of the step and when it beats the bubble") {
    CHECK(reason(0.25, 0.1).find("exposed communication is 25%") != std::string::npos);
    CHECK(reason(0.15, 0.1).find("kernel efficiency") != std::string::npos);
    CHECK(reason(0.25, 0.3).find("pipeline bubble") != std::string::npos);
  }
  SUBCASE("a plan at the floor has no reason") {
    StepTime t;
    t.mfu = DEFAULT_MFU_FLOOR;
    CHECK(not_recommended_reason(t, DEFAULT_MFU_FLOOR).empty());
  }
}

TEST_CASE("models::training::step_time::parts") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const InstanceType selene = selene_node();
  const GpuSpec& a100 = *cat.find_gpu("A100-80GB");
  const ModelShape& m = *find_model_preset("llama-3-70b");

  SUBCASE("ZeRO-3 moves 1.5x the ZeRO-1 volume on every micro-batch when data parallel > 1") {
    const Cluster c{&p5, &h100, 8};
    ParallelPlan z1 = plan(8, 1, 8, 1, 4);
    ParallelPlan z3 = z1;
    z3.zero = ZeroStage::parameters;
    const StepTime t1 = step_time(m, z1, c, Precision::bf16);
    const StepTime t3 = step_time(m, z3, c, Precision::bf16);
    REQUIRE(z1.dp > 1);
    // All-reduce time = latency + bytes / busbw: the bytes term dominates at 17.6 GB per shard.
    CHECK(t3.dp_comm_s == doctest::Approx(1.5 * 4 * t1.dp_comm_s).epsilon(0.01));
    // Against the formula: every micro-batch all-reduces 1.5 x the bf16 gradients of a shard
    // (params / (t p) x 2 B) over the 8 replicas, one rank per node sharing the node's NICs
    // with the 8 tensor ranks.
    CommPlacement pl = make_comm_placement(p5, h100, 1, 8);
    pl.node_net_gbps /= 8;
    const double shard_bytes = m.total_params() / 8 * 2;
    CHECK(t3.dp_comm_s == doctest::Approx(4 * allreduce_time_s(pl, 1.5 * shard_bytes)));
    CHECK(t3.dp_comm_s > 1.4 * 4 * allreduce_time_s(pl, shard_bytes));
    CHECK(t1.dp_comm_s == doctest::Approx(allreduce_time_s(pl, shard_bytes)));
    // A single replica has nothing to synchronise.
    ParallelPlan one = plan(8, 8, 1, 1, 4);
    one.zero = ZeroStage::parameters;
    CHECK(step_time(m, one, c, Precision::bf16).dp_comm_s == 0);
  }
  SUBCASE("the memory-bound share of a layer weighs more on H100 than on A100") {
    const ParallelPlan p = plan(8, 4, 2, 1, 16);
    const StepTime th = step_time(m, p, Cluster{&p5, &h100, 8}, Precision::bf16);
    const StepTime ta = step_time(m, p, Cluster{&selene, &a100, 8}, Precision::bf16);
    // H100: 989 TFLOPS over 3.35 TB/s = 295 FLOP/B; A100: 312 / 2.04 = 153 FLOP/B.
    CHECK(th.elementwise_s / th.compute_s > 1.3 * ta.elementwise_s / ta.compute_s);
    CHECK(th.mfu < ta.mfu);
  }
  SUBCASE("FlashAttention stores no score matrix; without it the s x s scores cost time") {
    ParallelPlan p = plan(8, 8, 1, 1, 8);
    p.recompute = Recompute::none;
    const double fused = activation_bytes_per_layer(m, p);
    p.flash_attention = false;
    // 5 a s bytes per token: 5 x 64 x 8,192 = 2.6 MB per token more.
    CHECK(activation_bytes_per_layer(m, p) - fused ==
          doctest::Approx(8192.0 * 1 * 5 * 64 * 8192 / 8));
    const Cluster c{&p5, &h100, 8};
    p.recompute = Recompute::selective;
    const StepTime unfused = step_time(m, p, c, Precision::bf16);
    p.flash_attention = true;
    CHECK(step_time(m, p, c, Precision::bf16).attention_s < unfused.attention_s);
  }
  SUBCASE("context parallelism splits the sequence: activations and attention per GPU drop") {
    ModelShape longm = m;
    longm.seq_len = 131072;
    ParallelPlan p = plan(8, 16, 1, 1, 16, 4);
    const double whole = activation_bytes_per_layer(longm, p);
    p.cp = 16;
    CHECK(activation_bytes_per_layer(longm, p) == doctest::Approx(whole / 16));
    const Cluster c{&p5, &h100, 256};
    CHECK(plan_problem(longm, p, c) == "");
    const StepTime t = step_time(longm, p, c, Precision::bf16);
    CHECK(t.cp_exposed_s >= 0);
    CHECK(t.mfu > 0.2);
    p.cp = 3;
    CHECK(plan_problem(longm, p, c).find("context parallelism 3") != std::string::npos);
  }
  SUBCASE("full recomputation costs a fourth pass of the GEMMs") {
    const Cluster c{&p5, &h100, 8};
    ParallelPlan p = plan(8, 2, 4, 1, 8);
    p.recompute = Recompute::none;
    const StepTime none = step_time(m, p, c, Precision::bf16);
    p.recompute = Recompute::full;
    const StepTime full = step_time(m, p, c, Precision::bf16);
    CHECK(full.gemm_s == doctest::Approx(none.gemm_s * 4 / 3).epsilon(0.01));
    CHECK(full.mfu < none.mfu);
  }
  SUBCASE("a layout that does not fit says by how much") {
    const TrainingMemory mem =
        training_memory(*find_model_preset("llama-3-405b"), plan(8, 1, 1, 1, 1), h100);
    CHECK_FALSE(mem.fits());
    CHECK(mem.shortfall().find("GB per GPU, has 72.0") != std::string::npos);
  }
}

TEST_CASE("models::training::search") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");

  SUBCASE("no recomputation while memory allows it; full only when nothing less fits") {
    // 7B on 64 H100 at batch 512 x 4,096: activations of one sequence fit without recomputing.
    SearchLimits lim;
    lim.sequences_per_step = 512;
    const ModelShape& small = *find_model_preset("llama-2-7b");
    const auto s = fastest_plan(small, Cluster{&p5, &h100, 8}, Precision::bf16, lim);
    REQUIRE(s);
    CHECK(s->plan.recompute == Recompute::none);
    // Llama 3 405B with Meta's TP 8 x PP 16 on 16,384 H100: the activations of 16 micro-batches
    // in flight overflow 72 GB without recomputation, so some blocks rerun their forward, and
    // exactly as many as the memory needs: one block fewer does not fit.
    lim.sequences_per_step = 2048;
    lim.fixed_tp = 8;
    lim.fixed_pp = 16;
    const ModelShape& big = *find_model_preset("llama-3-405b");
    const Cluster c{&p5, &h100, 2048};
    const auto b = fastest_plan(big, c, Precision::bf16, lim);
    REQUIRE(b);
    REQUIRE(b->plan.recompute == Recompute::full);
    REQUIRE(b->plan.recompute_blocks > 0);
    CHECK(b->time.fits());
    ParallelPlan fewer = b->plan;
    fewer.recompute_blocks -= 1;
    if (fewer.recompute_blocks == 0) fewer.recompute = Recompute::none;
    CHECK_FALSE(training_memory(big, fewer, h100).fits());
    ParallelPlan none = b->plan;
    none.recompute = Recompute::none;
    CHECK_FALSE(training_memory(big, none, h100).fits());
  }
  SUBCASE("the free search stays within 10 % of the best published MFU of its GPU") {
    const InstanceType& p4de = *cat.find_instance("p4de.24xlarge");
    const GpuSpec& a100 = *cat.find_gpu("A100-80GB");
    struct Case {
      const char* preset;
      const InstanceType* it;
      const GpuSpec* gpu;
      uint32_t nodes;
      double sequences;
    };
    for (const Case& k :
         {Case{"llama-2-7b", &p5, &h100, 8, 512}, Case{"llama-3-70b", &p5, &h100, 8, 512},
          Case{"llama-3-70b", &p4de, &a100, 8, 512},
          Case{"megatron-gpt-175b", &p4de, &a100, 16, 1536}}) {
      SearchLimits lim;
      lim.sequences_per_step = k.sequences;
      const auto r = fastest_plan(*find_model_preset(k.preset), Cluster{k.it, k.gpu, k.nodes},
                                  Precision::bf16, lim);
      REQUIRE(r);
      INFO(k.preset << " on " << k.gpu->id << ": MFU " << r->time.mfu);
      const double best = best_published_mfu(k.gpu->architecture, Precision::bf16);
      REQUIRE(best > 0);
      CHECK(r->time.mfu <= (1 + MAX_ABOVE_PUBLISHED) * best + 1e-12);
    }
    // 7B on 64 H100 with data parallelism alone models above the best H100 run: the cap binds
    // and says by how much, and no published run looks like that layout.
    SearchLimits lim;
    lim.sequences_per_step = 512;
    const auto r = fastest_plan(*find_model_preset("llama-2-7b"), Cluster{&p5, &h100, 8},
                                Precision::bf16, lim);
    REQUIRE(r);
    if (r->time.cap_s > 0) {
      CHECK(r->time.mfu == doctest::Approx((1 + MAX_ABOVE_PUBLISHED) *
                                           best_published_mfu("hopper", Precision::bf16)));
      CHECK(r->extrapolated);
    }
  }
}
