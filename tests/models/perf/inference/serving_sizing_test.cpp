#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/perf/inference/serving_sizing.h"
#include "models/perf/training/model_shape.h"

using namespace gpuplan;
using namespace gpuplan::inference;
using gpuplan::training::find_model_preset;

namespace {

ReplicaHardware hardware(const char* model, const char* gpu, uint32_t gpus_per_node = 8) {
  ReplicaHardware hw;
  hw.model = find_model_preset(model);
  hw.gpu = builtin_catalog().find_gpu(gpu);
  hw.fabric = "nvlink4";
  hw.gpus_per_node = gpus_per_node;
  hw.roofline.precision = Precision::fp8;
  REQUIRE(hw.model != nullptr);
  REQUIRE(hw.gpu != nullptr);
  return hw;
}

// One column of TensorRT-LLM's max-throughput table: output tokens/s per (ISL, OSL).
struct Published {
  double isl, osl, tokens_per_s;
};

// NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md (commit 00f37686), FP8 weights,
// trtllm-bench throughput at unlimited request rate. The model matches the shape across input
// and output lengths: each row's model/published ratio within 20% of the column's geometric mean
// ratio.
void check_shape(const ReplicaHardware& hw, uint32_t tp, const std::vector<Published>& rows) {
  std::vector<double> ratio;
  double log_sum = 0;
  for (const Published& r : rows) {
    const double model = saturated_tokens_per_s(hw, tp, 0, r.isl, r.osl);
    REQUIRE(model > 0);
    ratio.push_back(model / r.tokens_per_s);
    log_sum += std::log(ratio.back());
  }
  const double mean = std::exp(log_sum / static_cast<double>(rows.size()));
  CAPTURE(mean);
  // The level too: within 35% of the published figures on average.
  CHECK(mean > 0.65);
  CHECK(mean < 1.35);
  for (size_t i = 0; i < rows.size(); ++i) {
    const double isl = rows[i].isl, osl = rows[i].osl, shape = ratio[i] / mean;
    CAPTURE(isl);
    CAPTURE(osl);
    CHECK(shape > 0.8);
    CHECK(shape < 1.2);
  }
}

}  // namespace

TEST_CASE("models::inference::serving_sizing TensorRT-LLM anchors") {
  SUBCASE("Llama 3.1 8B FP8 on one H100") {
    check_shape(hardware("llama-3-8b", "H100-SXM"), 1,
                {{128, 128, 28312},
                 {128, 2048, 22714},
                 {128, 4096, 14325},
                 {500, 2000, 17660},
                 {1000, 1000, 15220},
                 {1000, 2000, 13899},
                 {2048, 128, 3450},
                 {2048, 2048, 9305},
                 {5000, 500, 3459},
                 {20000, 2000, 1351}});
  }
  SUBCASE("Llama 3.1 8B FP8 on one H200") {
    check_shape(hardware("llama-3-8b", "H200"), 1,
                {{128, 128, 27911},
                 {128, 2048, 26221},
                 {128, 4096, 18027},
                 {500, 2000, 20770},
                 {1000, 1000, 17744},
                 {1000, 2000, 16828},
                 {2048, 128, 3538},
                 {2048, 2048, 12194},
                 {5000, 500, 3902},
                 {20000, 2000, 1804}});
  }
  SUBCASE("Llama 3.3 70B FP8 on two H100s (TP2)") {
    check_shape(hardware("llama-3-70b", "H100-SXM"), 2,
                {{128, 128, 6378},
                 {128, 2048, 6651},
                 {128, 4096, 4199},
                 {500, 2000, 5222},
                 {1000, 1000, 4205},
                 {1000, 2000, 4146},
                 {2048, 128, 762},
                 {2048, 2048, 3082},
                 {5000, 500, 898},
                 {20000, 2000, 437}});
  }
  SUBCASE("Llama 3.3 70B FP8 on one H200") {
    check_shape(hardware("llama-3-70b", "H200"), 1,
                {{128, 128, 3803},
                 {128, 2048, 4336},
                 {128, 4096, 2872},
                 {500, 2000, 3666},
                 {1000, 1000, 2909},
                 {1000, 2000, 2994},
                 {2048, 128, 442},
                 {2048, 2048, 2003},
                 {5000, 500, 566},
                 {20000, 2000, 283}});
  }
}

TEST_CASE("models::inference::serving_sizing decisions") {
  const ReplicaHardware hw = hardware("llama-3-8b", "H100-SXM");
  TokenLoad load;
  load.tokens_in = 1000;
  load.tokens_out = 200;
  TokenSlo slo;
  slo.ttft_p99_s = 0.5;
  slo.tpot_p99_s = 0.05;
  const SizingLimits limits;

  SUBCASE("the chosen plan meets every target and one replica fewer does not") {
    load.requests_per_s = 100;
    const SizingResult r = size_serving(hw, load, slo, limits);
    REQUIRE(r.best);
    const ServingPlan& p = *r.best;
    CHECK(p.meets);
    CHECK(p.ttft_p99_s <= slo.ttft_p99_s);
    CHECK(p.tpot_p99_s <= slo.tpot_p99_s);
    CHECK(p.utilization <= limits.max_utilization);
    CHECK(p.nodes * 8 >= (p.replicas + limits.spares) * p.tp);
    if (p.replicas > 1)
      CHECK_FALSE(evaluate_plan(hw, p.tp, p.batch, p.replicas - 1, load, slo, limits).meets);
  }
  SUBCASE("more load never needs fewer replicas' GPUs") {
    uint32_t previous = 0;
    for (double rps : {1.0, 10.0, 50.0, 200.0, 1000.0}) {
      load.requests_per_s = rps;
      const SizingResult r = size_serving(hw, load, slo, limits);
      REQUIRE(r.best);
      const uint32_t gpus = r.best->replicas * r.best->tp;
      CAPTURE(rps);
      CHECK(gpus >= previous);
      previous = gpus;
    }
  }
  SUBCASE("a huge load is not packed past the utilization cap, though its wait would allow it") {
    load.requests_per_s = 100000;
    slo.tpot_p99_s = 0;
    const SizingResult r = size_serving(hw, load, slo, limits);
    REQUIRE(r.best);
    CHECK(r.best->utilization <= 0.85);
    CHECK(r.best->utilization > 0.8);
    CHECK(r.best->ttft_p99_s <= slo.ttft_p99_s);
  }
  SUBCASE("the wait's p99 is Erlang C's 99th percentile, on both sides of a zero tail") {
    // Two slots near 80% busy: a request waits with probability ~0.7, so p95 and p99 both lie in
    // the exponential tail, P(W > t) = C e^{-(c mu - lambda) t}, and differ.
    load.requests_per_s = 1.0;
    const ServingPlan busy = evaluate_plan(hw, 1, 2, 1, load, slo, limits);
    REQUIRE(busy.stable);
    const double theta = 2 / busy.slot_s - busy.requests_per_s;
    CHECK(busy.p_wait > 0.05);
    CHECK(busy.wait_p99_s == doctest::Approx(std::log(busy.p_wait / 0.01) / theta));
    CHECK(busy.wait_p99_s > std::log(busy.p_wait / 0.05) / theta);  // above the p95
    // A load light enough that under 1% of requests wait has a p99 wait of zero.
    load.requests_per_s = 0.01;
    const ServingPlan idle = evaluate_plan(hw, 1, 2, 1, load, slo, limits);
    REQUIRE(idle.stable);
    CHECK(idle.p_wait < 0.01);
    CHECK(idle.wait_p99_s == 0);
  }
  SUBCASE("streams: every stream holds a slot, and Little's law gives the request rate") {
    load.concurrent_streams = 3000;
    const SizingResult r = size_serving(hw, load, slo, limits);
    REQUIRE(r.best);
    const ServingPlan& p = *r.best;
    CHECK(static_cast<double>(p.replicas) * p.batch >= 3000);
    CHECK(p.requests_per_s * p.slot_s == doctest::Approx(3000));
    CHECK(p.wait_p99_s == 0);
  }
  SUBCASE("the prefill is the prompt's FLOPs at the prefill efficiency; the step the roofline's") {
    load.requests_per_s = 10;
    const ServingPlan p = evaluate_plan(hw, 1, 64, 2, load, slo, limits);
    ServingRequest one = hw.roofline;
    one.tokens_in = load.tokens_in;
    one.tokens_out = load.tokens_out;
    const ServingEstimate e1 = estimate_serving(*hw.model, *hw.gpu, hw.fabric, one);
    CHECK(p.prefill_s == doctest::Approx(e1.prefill_compute_s));
    one.batch = 64;
    CHECK(p.step_s == doctest::Approx(estimate_serving(*hw.model, *hw.gpu, hw.fabric, one).tpot_s));
    // Prefills stretch the steps by 1 / (1 - lambda_r P) and the slot holds P + O stretched steps.
    const double lambda_r = 5;
    CHECK(p.loaded_step_s == doctest::Approx(p.step_s / (1 - lambda_r * p.prefill_s)));
    CHECK(p.slot_s == doctest::Approx(p.prefill_s + 200 * p.loaded_step_s));
  }
  SUBCASE("a TPOT below the batch-1 step is missed, and the nearest miss says so") {
    load.requests_per_s = 10;
    slo.tpot_p99_s = 0.001;
    const SizingResult r = size_serving(hw, load, slo, limits);
    CHECK_FALSE(r.best);
    REQUIRE(r.nearest_miss);
    CHECK(r.nearest_miss->miss_key == "tpot_p99");
    CHECK(r.reason.find("TPOT p99") != std::string::npos);
  }
  SUBCASE("a model larger than a node fits nowhere") {
    const ReplicaHardware big = hardware("llama-3-405b", "L4", 8);
    load.requests_per_s = 1;
    const SizingResult r = size_serving(big, load, slo, limits);
    CHECK_FALSE(r.best);
    CHECK_FALSE(r.nearest_miss);
  }
}
