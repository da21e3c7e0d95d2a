#include <doctest/doctest.h>

#include "models/catalog/catalog.h"
#include "models/perf/collectives.h"
#include "models/perf/training/model_shape.h"
#include "models/perf/training/parallel_plan.h"
#include "models/perf/training/step_time.h"

using namespace gpuplan;
using namespace gpuplan::training;

namespace {

ParallelPlan moe_plan(uint32_t tp, uint32_t pp, uint32_t dp, uint32_t ep, uint32_t m) {
  ParallelPlan p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.ep = ep;
  p.micro_batches = m;
  p.zero = ZeroStage::optimizer;
  p.recompute = Recompute::selective;
  return p;
}

}  // namespace

TEST_CASE("models::training::mixture_of_experts") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const ModelShape& mix = *find_model_preset("mixtral-8x7b");

  SUBCASE("model FLOPs count the active parameters, memory holds every expert") {
    const Cluster c{&p5, &h100, 2};
    const ParallelPlan p = moe_plan(2, 1, 8, 8, 8);
    REQUIRE(plan_problem(mix, p, c) == "");
    const StepTime t = step_time(mix, p, c, Precision::bf16);
    // 6 N_active + attention per token, far below 6 N_total.
    CHECK(t.model_flops_per_step / t.tokens_per_step ==
          doctest::Approx(mix.train_flops_per_token(mix.seq_len)));
    CHECK(t.model_flops_per_step / t.tokens_per_step < 0.5 * 6 * mix.total_params());
    // Weights: the dense part over t x p, the 8 experts' MLPs over ep (ZeRO-1 keeps bf16 weights
    // whole).
    const double dense = mix.total_params() - mix.expert_params();
    CHECK(t.memory.weights == doctest::Approx((dense / 2 + mix.expert_params() / 8) * 2));
    ParallelPlan ep1 = p;
    ep1.ep = 1;
    CHECK(training_memory(mix, ep1, h100).weights ==
          doctest::Approx((dense / 2 + mix.expert_params()) * 2));
  }
  SUBCASE("expert parallelism pays four all-to-alls per block on the collective model") {
    const Cluster c{&p5, &h100, 2};
    const ParallelPlan p = moe_plan(2, 1, 8, 8, 8);
    const StepTime t = step_time(mix, p, c, Precision::bf16);
    // Per block and micro-batch: 4 tensor all-reduces of b s h x 2 B, and 4 all-to-alls of
    // (b s / t) k h x 2 B among the 8 expert ranks of one node over NVLink.
    const double tokens = mix.seq_len;
    const double allreduce =
        allreduce_time_s(make_comm_placement(p5, h100, 2, 1), tokens * mix.hidden * 2);
    const double alltoall =
        pairwise_alltoall_s(8, tokens / 2 * mix.experts_per_token * mix.hidden * 2,
                            alpha_beta(3.4e-6, h100.nvlink_gbps / 2));
    CHECK(t.ep_comm_s / t.tp_comm_s == doctest::Approx(alltoall / allreduce));
    CHECK(t.exposed_comm_s >= t.ep_comm_s);
    // Expert ranks across nodes go through the network: slower.
    const Cluster four{&p5, &h100, 4};
    const StepTime wide = step_time(mix, moe_plan(1, 1, 32, 8, 8), four, Precision::bf16);
    ParallelPlan across = moe_plan(1, 1, 32, 8, 8);
    CHECK(wide.ep_comm_s > 0);
    across.ep = 1;
    CHECK(step_time(mix, across, four, Precision::bf16).ep_comm_s == 0);
  }
  SUBCASE("expert load imbalance slows the expert GEMMs by its factor, nothing else") {
    const Cluster c{&p5, &h100, 2};
    const ParallelPlan p = moe_plan(2, 1, 8, 8, 8);
    ModelShape skewed = mix;
    skewed.expert_imbalance = 1.5;
    ModelShape worse = mix;
    worse.expert_imbalance = 2.0;
    const StepTime even = step_time(mix, p, c, Precision::bf16);
    const StepTime s15 = step_time(skewed, p, c, Precision::bf16);
    const StepTime s20 = step_time(worse, p, c, Precision::bf16);
    // Per block (the slowest stage's block count moves with the block time): the GEMM time over
    // the attention time grows linearly with the factor.
    const auto per_attention = [](const StepTime& t) { return t.gemm_s / t.attention_s; };
    CHECK(per_attention(s15) > per_attention(even));
    CHECK(per_attention(s20) - per_attention(even) ==
          doctest::Approx(2 * (per_attention(s15) - per_attention(even))));
    CHECK(s15.model_flops_per_step == even.model_flops_per_step);
    CHECK(s15.mfu < even.mfu);
  }
  SUBCASE("expert parallelism must divide the experts and the stage's ranks") {
    const Cluster c{&p5, &h100, 2};
    CHECK(plan_problem(mix, moe_plan(2, 1, 8, 3, 8), c).find("expert parallelism 3") !=
          std::string::npos);
    CHECK(plan_problem(*find_model_preset("llama-3-8b"), moe_plan(2, 1, 8, 2, 8), c)
              .find("expert parallelism 2") != std::string::npos);
  }
  SUBCASE("the search spreads the experts when that is faster and the plan fits") {
    SearchLimits lim;
    lim.sequences_per_step = 1024;
    const auto r = fastest_plan(mix, Cluster{&p5, &h100, 8}, Precision::bf16, lim);
    REQUIRE(r);
    CHECK(r->time.fits());
    CHECK(plan_problem(mix, r->plan, Cluster{&p5, &h100, 8}).empty());
    CHECK(mix.experts % r->plan.ep == 0);
  }
}

TEST_CASE("models::training::fp8") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const ModelShape& m = *find_model_preset("llama-3-70b");
  ParallelPlan p = moe_plan(4, 8, 2, 1, 64);
  p.interleave = 5;

  SUBCASE("FP8 runs the GEMMs at the FP8 peak and fitted share; the rest stays BF16") {
    const Cluster c{&p5, &h100, 8};
    const StepTime bf = step_time(m, p, c, Precision::bf16);
    const StepTime f8 = step_time(m, p, c, Precision::fp8);
    // Per block (the slowest stage's block count moves with the block time): GEMMs shrink by
    // the peak and share ratio, attention and the memory-bound rest keep their BF16 ratio.
    CHECK(f8.gemm_s / f8.attention_s ==
          doctest::Approx(bf.gemm_s / bf.attention_s * (h100.bf16_tflops * FITTED.gemm_hopper) /
                          (h100.fp8_tflops * FITTED.gemm_fp8_hopper)));
    CHECK(f8.elementwise_s / f8.attention_s == doctest::Approx(bf.elementwise_s / bf.attention_s));
    CHECK(f8.step_s < bf.step_s);
    // MFU of an FP8 plan is against the FP8 dense peak.
    CHECK(f8.mfu ==
          doctest::Approx(f8.model_flops_per_step / (64 * h100.fp8_tflops * 1e12 * f8.step_s)));
  }
  SUBCASE("a GPU without FP8 units runs FP8 as BF16") {
    const InstanceType& p4de = *cat.find_instance("p4de.24xlarge");
    const GpuSpec& a100 = *cat.find_gpu("A100-80GB");
    REQUIRE(a100.fp8_tflops == 0);
    const Cluster c{&p4de, &a100, 8};
    CHECK(step_time(m, p, c, Precision::fp8).step_s == step_time(m, p, c, Precision::bf16).step_s);
  }
}
