#pragma once
//! The CUDA Monte Carlo backend, seen from the host: libgpuplan_cuda.so (sim/backends/mc_cuda.cu,
//! built only where CMake finds nvcc) loaded on first use from beside the running executable. No
//! CUDA type or build flag shows here, so every object is the same with or without nvcc.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sim/core/state.h"
#include "sim/serving/replica.h"

struct GpuplanCudaRunner;

namespace gpuplan {

//! Whether replicas can run on a GPU here.
enum class CudaSupport : uint8_t {
  not_built,   //!< no module: nvcc was missing at build time (or the module was never built)
  unloadable,  //!< a module is there, but it does not load or is not this build's
  no_device,   //!< the module loaded; no driver or no device
  ready,       //!< a device to run on
};

//! A batch run on the device, copied back: `states[i]` is replica first + i with its result
//! arrays (metrics, bins, histograms) viewing `results` and its working arrays empty.
struct CudaBatch {
  std::vector<ReplicaState> states;
  std::vector<uint64_t> results;  //!< one block, n x ReplicaLayout::result_bytes
};

//! The CUDA module at one path, loaded (once per process and path) when constructed.
class CudaModule {
 public:
  explicit CudaModule(const std::filesystem::path& file);

  [[nodiscard]] CudaSupport support() const { return support_; }
  //! Why replicas cannot run on a GPU ("this gpuplan was built without CUDA ..."); "" when ready.
  [[nodiscard]] const std::string& why_not() const { return why_not_; }

  //! Name of the current device ("NVIDIA H200"); needs support() == ready.
  [[nodiscard]] std::string device_name() const;
  //! Free and total memory of the current device [bytes]; throws std::runtime_error on failure.
  void memory(std::size_t& free_bytes, std::size_t& total_bytes) const;
  //! Runs replicas [first, first + n) on the current device, one replica per thread over buffers
  //! carved from one allocation, and copies back what metrics and bands need. Throws
  //! std::runtime_error with the CUDA error text on any CUDA failure.
  void run_batch(const ModelView& m, uint32_t first, uint32_t n, CudaBatch& out) const;
  //! Runs Monte Carlo replications [first, first + n) of the serving cluster `v` on the current
  //! device, one per thread (in as many launches as its free memory needs), each with
  //! `queue_capacity` waiting requests per replica; out[i] is replication first + i's statistics.
  //! Throws std::runtime_error with the CUDA error text, or when one replication does not fit.
  void run_serving(const serving::ServingView& v, uint32_t queue_capacity, uint32_t first,
                   uint32_t n, std::vector<serving::ServingStats>& out) const;

 private:
  [[nodiscard]] const GpuplanCudaRunner& runner() const;

  const GpuplanCudaRunner* runner_ = nullptr;
  CudaSupport support_ = CudaSupport::not_built;
  std::string why_not_;
};

//! libgpuplan_cuda.so from the folder of the running executable (the build puts it beside
//! gpuplan and the test programs), loaded on the first call.
[[nodiscard]] const CudaModule& cuda_module();

}  // namespace gpuplan
