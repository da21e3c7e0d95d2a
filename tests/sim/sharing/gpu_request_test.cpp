#include "sim/sharing/gpu_request.h"

#include <doctest/doctest.h>

#include "sim/sharing/time_slicing.h"

using namespace gpuplan::sharing;

TEST_CASE("sharing::gpu_request") {
  const MigGpuSpec& a100 = mig_spec(MigGpu::a100_40gb);
  const uint32_t mem = 40960;  // [MiB] one A100-40GB

  SUBCASE("a fraction must be 1..1000 milli-GPU and fit the GPU's memory") {
    GpuRequest r{GpuShareKind::fraction, 1, 500, 8192, 0};
    CHECK(check_gpu_request(r, mem, &a100) == GpuRequestError::ok);
    r.gpu_milli = 0;
    CHECK(check_gpu_request(r, mem, &a100) == GpuRequestError::milli_out_of_range);
    r.gpu_milli = 1001;
    CHECK(check_gpu_request(r, mem, &a100) == GpuRequestError::milli_out_of_range);
    r.gpu_milli = 1000;
    r.gpu_mem_mib = mem + 1;
    CHECK(check_gpu_request(r, mem, &a100) == GpuRequestError::memory_above_gpu);
  }

  SUBCASE("whole GPUs need at least one; a MIG request needs a profile the GPU has") {
    CHECK(check_gpu_request({GpuShareKind::whole, 0, 1000, 0, 0}, mem, nullptr) ==
          GpuRequestError::no_gpus);
    CHECK(check_gpu_request({GpuShareKind::mig, 1, 0, 0, 3}, mem, nullptr) ==
          GpuRequestError::no_mig_on_gpu);
    CHECK(check_gpu_request({GpuShareKind::mig, 1, 0, 0, 6}, mem, &a100) ==
          GpuRequestError::unknown_mig_profile);
    CHECK(check_gpu_request({GpuShareKind::mig, 1, 0, 0, 3}, mem, &a100) == GpuRequestError::ok);
  }

  SUBCASE("the GPU-milli a request holds") {
    // Two whole GPUs: 2000; a 3g instance: 3/7 of 1000, rounded down to 428.
    CHECK(request_gpu_milli({GpuShareKind::whole, 2, 1000, 0, 0}, nullptr) == 2000);
    CHECK(request_gpu_milli({GpuShareKind::fraction, 1, 250, 0, 0}, nullptr) == 250);
    CHECK(request_gpu_milli({GpuShareKind::mig, 1, 0, 0, 3}, &a100) == 428);
  }
}

TEST_CASE("sharing::time_slicing") {
  SUBCASE("one job runs at full speed; N jobs share the GPU and lose the interference share") {
    CHECK(time_sliced_speed(1, 0.2) == 1.0);
    CHECK(time_sliced_speed(0, 0.2) == 0.0);
    // 4 jobs with 10 % interference: each 1 / (4 × 1.1).
    CHECK(time_sliced_speed(4, 0.1) == doctest::Approx(1.0 / 4.4));
    // Together they get 1 / 1.1 of the GPU; without interference all of it.
    CHECK(time_sliced_throughput(4, 0.1) == doctest::Approx(1.0 / 1.1));
    CHECK(time_sliced_throughput(3, 0.0) == doctest::Approx(1.0));
  }
}
