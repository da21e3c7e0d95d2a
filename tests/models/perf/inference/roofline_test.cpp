#include <doctest/doctest.h>

#include "models/catalog/catalog.h"
#include "models/perf/inference/roofline.h"
#include "models/perf/training/model_shape.h"

using namespace gpuplan;
using namespace gpuplan::inference;
using gpuplan::training::find_model_preset;

TEST_CASE("models::inference::roofline") {
  const Catalog& cat = builtin_catalog();
  const GpuSpec& a100 = *cat.find_gpu("A100-80GB");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const auto& llama7 = *find_model_preset("llama-2-7b");
  ServingRequest r;
  r.tp = 1;
  r.batch = 1;
  r.tokens_in = 2048;
  r.tokens_out = 128;
  r.precision = Precision::fp16;

  SUBCASE("batch-1 decode of Llama-2-7B on A100 is memory-bound at weights / bandwidth") {
    const ServingEstimate e = estimate_serving(llama7, a100, "nvlink3", r);
    REQUIRE(e.fits);
    CHECK_FALSE(e.decode_compute_bound);
    // 13.5 GB of fp16 weights + 2,112 x 512 KiB of KV cache over 2.039 TB/s x 0.75.
    const double bytes = llama7.total_params() * 2 + 2112.0 * 524288;
    CHECK(e.tpot_s == doctest::Approx(bytes / (2.039e12 * 0.75)));
    // About 100 output tokens/s at batch 1 (vLLM and TensorRT-LLM report ~90-110 on A100).
    CHECK(1 / e.tpot_s > 80);
    CHECK(1 / e.tpot_s < 130);
  }
  SUBCASE("a 2,048-token prefill is compute-bound") {
    const ServingEstimate e = estimate_serving(llama7, a100, "nvlink3", r);
    CHECK(e.prefill_compute_bound);
    // 2,048 tokens x (2 x 6.74e9 + 4 x 1,024 x 4,096 x 32) FLOPs / (312e12 x 0.6) = 0.16 s.
    CHECK(e.ttft_s ==
          doctest::Approx(2048 * llama7.forward_flops_per_token(1024) / (312e12 * 0.6)));
  }
  SUBCASE("the KV cache bounds the batch: (80 GB x 0.9 - weights) / (KV per sequence)") {
    const ServingEstimate e = estimate_serving(llama7, a100, "nvlink3", r);
    const double free_bytes = 80e9 * 0.9 - llama7.total_params() * 2;
    CHECK(e.max_batch_by_memory == static_cast<uint64_t>(free_bytes / (2176.0 * 524288)));
  }
  SUBCASE("a batch shares one weight read per decode step") {
    ServingRequest shortr = r;
    shortr.tokens_in = 128;
    ServingRequest big = shortr;
    big.batch = 64;
    const ServingEstimate one = estimate_serving(llama7, h100, "nvlink4", shortr);
    const ServingEstimate many = estimate_serving(llama7, h100, "nvlink4", big);
    // 13.5 GB of weights + 64 x 192 tokens x 512 KiB of KV per step against 13.5 GB for one
    // sequence: 64 sequences decode over 10x faster in tokens/s.
    CHECK(64 / many.tpot_s > 10 / one.tpot_s);
    CHECK_FALSE(many.decode_compute_bound);
  }
  SUBCASE("tensor parallelism splits the weights and adds all-reduces") {
    const auto& llama70 = *find_model_preset("llama-2-70b");
    const ServingEstimate tp1 = estimate_serving(llama70, h100, "nvlink4", r);
    // 138 GB of fp16 weights do not fit one 80 GB GPU.
    CHECK_FALSE(tp1.fits);
    ServingRequest r4 = r;
    r4.tp = 4;
    const ServingEstimate tp4 = estimate_serving(llama70, h100, "nvlink4", r4);
    CHECK(tp4.fits);
    CHECK(tp4.tp_comm_step_s > 0);
  }
  SUBCASE("a mixture of experts reads only the routed experts at batch 1") {
    const auto& mix = *find_model_preset("mixtral-8x7b");
    const ServingEstimate e = estimate_serving(mix, h100, "nvlink4", r);
    // All 46.7B weights are resident, but one token reads about 12.9B of them plus its KV cache.
    CHECK(e.weight_bytes == doctest::Approx(mix.total_params() * 2));
    const double read = e.decode_memory_s * 3.35e12 * 0.75;
    CHECK(read < 0.35 * e.weight_bytes);
  }
}
