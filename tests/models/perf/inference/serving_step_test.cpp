#include <doctest/doctest.h>

#include "models/catalog/catalog.h"
#include "models/perf/inference/serving_step.h"

using namespace gpuplan;
using namespace gpuplan::inference;

TEST_CASE("models::inference::simulator_constants") {
  const Catalog& cat = builtin_catalog();
  const GpuSpec& a100 = *cat.find_gpu("A100-80GB");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const GpuSpec& l40s = *cat.find_gpu("L40S");

  SUBCASE("Hopper runs at the validation's fit, the other generations at the roofline's") {
    const SimulatorConstants h = simulator_constants(h100.architecture);
    CHECK(h.efficiency.prefill_compute == VLLM_HOPPER_PREFILL_COMPUTE);
    CHECK(h.efficiency.decode_bandwidth == VLLM_HOPPER_DECODE_BANDWIDTH);
    for (const GpuSpec* g : {&a100, &l40s}) {
      CAPTURE(g->id);
      const SimulatorConstants c = simulator_constants(g->architecture);
      const ServingEfficiency roofline = serving_efficiency(g->architecture);
      CHECK(c.efficiency.prefill_compute == roofline.prefill_compute);
      CHECK(c.efficiency.decode_bandwidth == roofline.decode_bandwidth);
      // the serving software's overheads are the same on every GPU
      CHECK(c.step_overhead_s == h.step_overhead_s);
      CHECK(c.request_overhead_s == h.request_overhead_s);
    }
    CHECK(h.step_overhead_s == VLLM_STEP_OVERHEAD_S);
    CHECK(h.request_overhead_s == VLLM_REQUEST_OVERHEAD_S);
  }

  SUBCASE("a request's own efficiencies are kept; the ones it leaves at 0 take the GPU's") {
    ServingRequest r;
    r.decode_bandwidth = 0.5;
    const ServingRequest h = with_simulator_efficiency(h100, r);
    CHECK(h.decode_bandwidth == 0.5);
    CHECK(h.prefill_compute == VLLM_HOPPER_PREFILL_COMPUTE);
    const ServingRequest a = with_simulator_efficiency(a100, ServingRequest{});
    CHECK(a.prefill_compute == serving_efficiency("ampere").prefill_compute);
    CHECK(a.decode_bandwidth == serving_efficiency("ampere").decode_bandwidth);
    // the step model runs at them: the H100's fitted bandwidth over its spec sheet's
    const ServingReplicaModel m =
        serving_replica_model(*training::find_model_preset("llama-3.1-8b"), h100, "nvlink4", h, 16);
    CHECK(m.step.bandwidth == doctest::Approx(h100.mem_bw_tbps * 1e12 * 0.5));
  }

  SUBCASE("vLLM's custom all-reduce: a line through its published latencies, on NVLink only") {
    // sgl-project/sglang#2904, vLLM's kernel on H100: 8 GPUs, 32 KB in 11.8 us, 1 MB in 45.0 us
    const auto ar8 = vllm_custom_allreduce(8);
    REQUIRE(ar8);
    CHECK(ar8->latency_s + 32768 * ar8->per_byte_s == doctest::Approx(11.8e-6).epsilon(0.1));
    CHECK(ar8->latency_s + 1048576 * ar8->per_byte_s == doctest::Approx(45.0e-6).epsilon(0.1));
    const auto ar2 = vllm_custom_allreduce(2);
    REQUIRE(ar2);
    CHECK(ar2->latency_s + 1048576 * ar2->per_byte_s == doctest::Approx(26.6e-6).epsilon(0.1));
    CHECK_FALSE(vllm_custom_allreduce(1));
    CHECK_FALSE(vllm_custom_allreduce(3));
    CHECK_FALSE(vllm_custom_allreduce(16));
    const auto& mix = *training::find_model_preset("mixtral-8x22b");
    serving::StepModel nv;
    add_custom_allreduce(nv, mix, h100, Precision::bf16, 8, "nvlink4");
    CHECK(nv.comm_small_fixed_s == doctest::Approx(2 * 56 * ar8->latency_s));
    CHECK(nv.comm_small_per_token_s == doctest::Approx(2 * 56 * ar8->per_byte_s * 6144 * 2));
    // on A100s the bytes take 900 / 600 as long (their NVLink over the H100's)
    serving::StepModel a;
    add_custom_allreduce(a, mix, a100, Precision::bf16, 8, "nvlink3");
    CHECK(a.comm_small_per_token_s == doctest::Approx(nv.comm_small_per_token_s * 1.5));
    // not over PCIe, nor for a group vLLM does not run it for
    serving::StepModel pcie, odd;
    add_custom_allreduce(pcie, mix, l40s, Precision::bf16, 2, "pcie");
    add_custom_allreduce(odd, mix, h100, Precision::bf16, 3, "nvlink4");
    CHECK(pcie.comm_small_fixed_s == 0);
    CHECK(odd.comm_small_fixed_s == 0);
  }

  SUBCASE("a step's all-reduces take the faster of NCCL's and the small-message kernel's") {
    serving::StepModel m;
    m.peak_flops = 1e15;
    m.bandwidth = 1e12;
    m.flops_per_token = 1e9;
    m.comm_fixed_s = 1e-3;  // NCCL: 1 ms + 1 us a token
    m.comm_per_token_s = 1e-6;
    serving::BatchMix one;
    serving::add_decode(one, 0);
    const double nccl_only = serving::step_time_s(m, one);
    m.comm_small_fixed_s = 1e-4;  // the kernel: 0.1 ms + 10 us a token
    m.comm_small_per_token_s = 1e-5;
    // one token: the kernel, 0.9 ms less less the token's 9 us difference
    CHECK(serving::step_time_s(m, one) == doctest::Approx(nccl_only - 0.9e-3 + 9e-6));
    // 1,000 tokens: NCCL (2 ms against the kernel's 10.1 ms), as without the kernel
    serving::BatchMix many;
    serving::add_prefill(many, 0, 1000);
    serving::StepModel plain = m;
    plain.comm_small_fixed_s = plain.comm_small_per_token_s = 0;
    CHECK(serving::step_time_s(m, many) == serving::step_time_s(plain, many));
  }
}
