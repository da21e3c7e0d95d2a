#include <doctest/doctest.h>

#include "models/catalog/catalog.h"
#include "models/perf/collectives.h"
#include "models/perf/speed.h"

using namespace gpuplan;

TEST_CASE("models::speed::validation") {
  const Catalog& c = builtin_catalog();

  SUBCASE("Llama-3-405B on 16,384 H100 at 400 TFLOPS takes about 67 days") {
    const GpuSpec& h100 = *c.find_gpu("H100-SXM");
    TrainingJob job;
    job.params = 405e9;
    job.tokens = 15.6e12;
    job.precision = Precision::bf16;
    // 400 TFLOPS achieved of 989 peak (Llama 3 paper, DATA.md 6.3 [V]).
    job.mfu = 400.0 / 989.0;
    // 16,384 GPUs as TP 8 x PP 16 x DP 128; 16M-token global batch [M].
    job.tensor_parallel = 8;
    job.pipeline_parallel = 16;
    job.data_parallel = 128;
    job.tokens_per_step = 16e6;
    // The 400 TFLOPS is an end-to-end rate, so communication already sits inside it.
    job.overlap = 1.0;
    const CommPlacement pl =
        make_comm_placement(*c.find_instance("onprem.hgx-h100-8"), h100, 8, 2048);
    const SpeedEstimate e = estimate_training(job, h100, pl);
    const double days = e.duration_s / 86400;
    MESSAGE("Llama-3-405B: " << days << " days, step " << e.step_s << " s, DP all-reduce "
                             << e.allreduce_s << " s at " << e.dp_busbw_gbyte_s << " GB/s");
    // 6 x 405e9 x 15.6e12 = 3.79e25 FLOPs / (16384 x 4e14) = 5.78e6 s = 66.9 days (DATA.md 6.3).
    CHECK(job.n_gpus() == 16384);
    CHECK(days == doctest::Approx(67).epsilon(0.05));
    // 16 x 405e9 / 128 model-parallel ranks = 50.6 GB of states per GPU: fits in 64 GB usable.
    CHECK(memory_per_gpu(job, h100).fits());
  }

  SUBCASE("ResNet-50 on ImageNet: one V100 about 10 h, eight V100 about 1.5 h") {
    const GpuSpec& v100 = *c.find_gpu("V100-16GB");
    // Assumptions: 4.1 GFLOPs/image forward x 3 for forward + backward; 1.28 M images x 90
    // epochs; FP16 tensor cores (125 TFLOPS) at 30% MFU; 25.6 M parameters (He et al. 2016
    // [M]); global batch 256 (32 per GPU on 8 GPUs, the original recipe); FP16 gradients
    // (2 B/param) all-reduced after backward with no overlap, over NVLink2 on one node (an
    // Alibaba gn6v node: 8 x V100 16 GB on NVLink).
    TrainingJob job;
    job.params = 25.6e6;
    job.flops_per_token = 3 * 4.1e9;
    job.tokens = 1.28e6 * 90;
    job.tokens_per_step = 256;
    job.precision = Precision::bf16;
    job.mfu = 0.30;
    job.overlap = 0.0;
    const SpeedEstimate one = estimate_training(job, v100, CommPlacement{});
    job.data_parallel = 8;
    const CommPlacement node =
        make_comm_placement(*c.find_instance("ecs.gn6v-c8g1.16xlarge"), v100, 8, 1);
    const SpeedEstimate eight = estimate_training(job, v100, node);
    MESSAGE("ResNet-50: 1 V100 " << one.duration_s / 3600 << " h; 8 V100 "
                                 << eight.duration_s / 3600 << " h (all-reduce "
                                 << eight.allreduce_s * 1e3 << " ms/step at "
                                 << eight.dp_busbw_gbyte_s << " GB/s)");
    // 1.417e18 FLOPs / (125e12 x 0.30) = 37,786 s = 10.5 h; the claim is ~10 h.
    CHECK(one.duration_s / 3600 == doctest::Approx(10).epsilon(0.15));
    // 4,723 s compute + 450,000 steps x 0.83 ms all-reduce = 5,097 s = 1.42 h; claim ~1.5 h.
    CHECK(eight.duration_s / 3600 == doctest::Approx(1.5).epsilon(0.15));
  }

  SUBCASE("a 70B model does not fit one 80 GB GPU and needs 18 H100 under ZeRO-3") {
    const GpuSpec& h100 = *c.find_gpu("H100-SXM");
    TrainingJob job;
    job.params = 70e9;
    job.activation_reserve = 0.2;
    // 70e9 x 16 B = 1.12 TB of states vs 80 GB x 0.8 = 64 GB usable.
    const MemoryFit single = memory_per_gpu(job, h100);
    CHECK(single.state_bytes == doctest::Approx(1.12e12));
    CHECK_FALSE(single.fits());
    // ZeRO-3: ceil(1120 / 64) = 18 GPUs.
    job.zero = ZeroStage::parameters;
    CHECK(min_gpus(job, h100) == 18);
    // Without ZeRO, tensor x pipeline parallelism shards everything: also 18.
    job.zero = ZeroStage::none;
    CHECK(min_gpus(job, h100) == 18);
    // One 8-GPU node with TP 8: 140 GB per GPU, no fit; TP 8 x PP 4 = 32 GPUs: 35 GB, fits.
    job.tensor_parallel = 8;
    CHECK_FALSE(memory_per_gpu(job, h100).fits());
    job.pipeline_parallel = 4;
    CHECK(memory_per_gpu(job, h100).state_bytes == doctest::Approx(35e9));
    CHECK(memory_per_gpu(job, h100).fits());
    // H200 141 GB x 0.8 = 112.8 GB usable: ceil(1120 / 112.8) = 10 under ZeRO-3.
    job = TrainingJob{};
    job.params = 70e9;
    job.zero = ZeroStage::parameters;
    CHECK(min_gpus(job, *c.find_gpu("H200")) == 10);
  }
}

TEST_CASE("models::speed") {
  const Catalog& c = builtin_catalog();
  SUBCASE("compute time is 6ND over GPUs x peak x MFU") {
    TrainingJob job;
    job.params = 1e9;
    job.tokens = 1e10;
    job.mfu = 0.5;
    // 6e19 FLOPs / (8 x 312e12 x 0.5) = 48,077 s.
    CHECK(compute_time_s(job, *c.find_gpu("A100-80GB"), 8) ==
          doctest::Approx(6e19 / (8 * 312e12 * 0.5)));
  }
  SUBCASE("relative speed is the ratio of peaks and falls back to wider formats") {
    // H100 vs A100 in BF16: 989 / 312 = 3.17.
    CHECK(relative_speed(*c.find_gpu("H100-SXM"), *c.find_gpu("A100-80GB"), Precision::bf16) ==
          doctest::Approx(989.0 / 312.0));
    // A100 has no FP8 unit: FP8 runs at its BF16 rate, so H100 FP8 vs A100 = 1979 / 312.
    CHECK(relative_speed(*c.find_gpu("H100-SXM"), *c.find_gpu("A100-80GB"), Precision::fp8) ==
          doctest::Approx(1979.0 / 312.0));
    // V100 has no TF32: it runs FP32 at 15.7 TFLOPS; A100 TF32 156 -> 156 / 15.7.
    CHECK(relative_speed(*c.find_gpu("A100-80GB"), *c.find_gpu("V100-32GB"), Precision::tf32) ==
          doctest::Approx(156.0 / 15.7));
  }
  SUBCASE("overlap hides part of the all-reduce and ZeRO-3 moves 1.5x the bytes") {
    const GpuSpec& a100 = *c.find_gpu("A100-80GB");
    TrainingJob job;
    job.params = 7e9;
    job.tokens = 1e9;
    job.tokens_per_step = 4e6;
    job.data_parallel = 16;
    const CommPlacement pl = make_comm_placement(*c.find_instance("p4de.24xlarge"), a100, 8, 2);
    const SpeedEstimate none = estimate_training(job, a100, pl);
    job.overlap = 0.75;
    const SpeedEstimate some = estimate_training(job, a100, pl);
    // A quarter of the all-reduce stays exposed.
    CHECK(some.exposed_comm_s == doctest::Approx(0.25 * none.allreduce_s));
    // p4de: 4 x 100 Gb/s = 50 GB/s x 0.94 = 47 GB/s across nodes.
    CHECK(none.dp_busbw_gbyte_s == doctest::Approx(47));
    job.zero = ZeroStage::parameters;
    const SpeedEstimate z3 = estimate_training(job, a100, pl);
    // Bandwidth term scales by 1.5 (latency unchanged).
    const double lat = predict_allreduce(pl).latency_s;
    CHECK(z3.allreduce_s - lat == doctest::Approx(1.5 * (none.allreduce_s - lat)));
  }
}
