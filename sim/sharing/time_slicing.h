#pragma once
//! Time-slicing: N jobs take turns on one GPU (Kubernetes device-plugin `replicas: N`, no memory
//! or fault isolation). Each job gets 1/N of the GPU's time and loses a further share to context
//! switches and cache interference, a configurable slowdown (no public figure; 0 = ideal).
#include <cstdint>

namespace gpuplan::sharing {

//! Speed of each of `n_jobs` jobs time-sliced on one GPU relative to running alone:
//! 1 for one job, else 1 / (n_jobs × (1 + interference)); 0 for no jobs.
//! `interference` ≥ 0 is the extra fraction of time lost when the GPU is shared (0.1 = 10 %).
[[nodiscard]] inline double time_sliced_speed(uint32_t n_jobs, double interference) {
  if (n_jobs == 0) return 0;
  if (n_jobs == 1) return 1;
  return 1.0 / (static_cast<double>(n_jobs) * (1.0 + interference));
}

//! Whole-GPU work per second the GPU delivers to `n_jobs` time-sliced jobs together (≤ 1).
[[nodiscard]] inline double time_sliced_throughput(uint32_t n_jobs, double interference) {
  return static_cast<double>(n_jobs) * time_sliced_speed(n_jobs, interference);
}

}  // namespace gpuplan::sharing
