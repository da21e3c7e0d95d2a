#pragma once
//! The CUDA Monte Carlo backend, seen from the host: no CUDA types, so every target can include
//! it. Defined in sim/backends/mc_cuda.cu, which is built only when CMake finds nvcc (GPUPLAN_HAVE_CUDA).
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/state.h"

namespace gpuplan {

//! Usable CUDA devices (0 when the driver or a device is missing).
[[nodiscard]] int cuda_device_count();

//! Name of the current CUDA device ("NVIDIA H200"), "" when there is none.
[[nodiscard]] std::string cuda_device_name();

//! Free and total memory of the current device [bytes].
void cuda_memory(std::size_t& free_bytes, std::size_t& total_bytes);

//! A batch run on the device, copied back: `states[i]` is replica first + i with its result
//! arrays (metrics, bins, histograms) viewing `results` and its working arrays empty.
struct CudaBatch {
  std::vector<ReplicaState> states;
  std::vector<uint64_t> results;  //!< one block, n x ReplicaLayout::result_bytes
};

//! Runs replicas [first, first + n) on the current device, one replica per thread over buffers
//! carved from one allocation, and copies back what metrics and bands need. Throws
//! std::runtime_error with the CUDA error text on any CUDA failure.
void run_batch_cuda(const ModelView& m, uint32_t first, uint32_t n, CudaBatch& out);

}  // namespace gpuplan
