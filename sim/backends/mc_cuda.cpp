#include "sim/backends/mc_cuda.h"

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/backends/beside_executable.h"
#include "sim/backends/cuda_runner.h"
#include "sim/replica_buffers.h"
#include "sim/serving/cluster_layout.h"

namespace gpuplan {
namespace {

constexpr std::size_t ERROR_CHARS = 512;

}  // namespace

CudaModule::CudaModule(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::exists(file, ec)) {
    why_not_ = "this gpuplan was built without CUDA (no " + file.filename().string() +
               " beside it: nvcc was not found at build time, or only the gpuplan target was "
               "built)";
    return;
  }
  support_ = CudaSupport::unloadable;
  // NOTE: RTLD_LOCAL: the module's static CUDA runtime stays private to it.
  void* handle = ::dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    why_not_ = std::string("cannot load gpuplan's CUDA module (") + ::dlerror() + ")";
    return;
  }
  using Entry = const GpuplanCudaRunner* (*)();
  const auto entry = reinterpret_cast<Entry>(::dlsym(handle, "gpuplan_cuda_runner"));
  const GpuplanCudaRunner* r = entry != nullptr ? entry() : nullptr;
  if (r == nullptr || r->abi != GPUPLAN_CUDA_ABI || r->model_view_bytes != sizeof(ModelView) ||
      r->replica_state_bytes != sizeof(ReplicaState) ||
      r->serving_view_bytes != sizeof(serving::ServingView) ||
      r->serving_stats_bytes != sizeof(serving::ServingStats)) {
    why_not_ = file.string() +
               " is not this gpuplan's CUDA module (rebuild it: cmake --build build --target "
               "gpuplan_cuda)";
    return;
  }
  runner_ = r;
  char error[ERROR_CHARS] = "";
  if (r->device_count(error, sizeof error) == 0) {
    support_ = CudaSupport::no_device;
    why_not_ = std::string("no CUDA device is available on this machine") +
               (error[0] != '\0' ? std::string(" (") + error + ")" : "");
    return;
  }
  support_ = CudaSupport::ready;
}

const GpuplanCudaRunner& CudaModule::runner() const {
  if (support_ != CudaSupport::ready) throw std::runtime_error("the CUDA backend: " + why_not_);
  return *runner_;
}

std::string CudaModule::device_name() const {
  char name[256] = "";
  return runner().device_name(name, sizeof name) == 0 ? name : "";
}

void CudaModule::memory(std::size_t& free_bytes, std::size_t& total_bytes) const {
  char error[ERROR_CHARS] = "";
  if (runner().memory(&free_bytes, &total_bytes, error, sizeof error) != 0)
    throw std::runtime_error(std::string("CUDA cudaMemGetInfo: ") + error);
}

void CudaModule::run_batch(const ModelView& m, uint32_t first, uint32_t n, CudaBatch& out) const {
  const ReplicaLayout layout(m, 0);
  out.states.assign(n, ReplicaState{});
  out.results.assign((std::size_t(n) * layout.result_bytes + 7) / 8, 0);
  char error[ERROR_CHARS] = "";
  if (runner().run_batch(&m, first, n, out.states.data(), out.results.data(), error,
                         sizeof error) != 0)
    throw std::runtime_error(error);
}

void CudaModule::run_serving(const serving::ServingView& v, uint32_t queue_capacity, uint32_t first,
                             uint32_t n, std::vector<serving::ServingStats>& out) const {
  out.assign(n, serving::ServingStats{});
  std::size_t free_bytes = 0, total_bytes = 0;
  memory(free_bytes, total_bytes);
  // NOTE: a tenth of the free memory is left to the runtime (the kernel's local memory, the
  // workload's arrays).
  const std::size_t per = ReplicaLayout::aligned(serving::cluster_bytes(v, queue_capacity)) +
                          sizeof(serving::ServingStats);
  const std::size_t fit = free_bytes / 10 * 9 / per;
  if (fit == 0)
    throw std::runtime_error("one serving replication needs " + std::to_string(per >> 20) +
                             " MiB of device memory; " + std::to_string(free_bytes >> 20) +
                             " MiB are free");
  char error[ERROR_CHARS] = "";
  for (uint32_t done = 0; done < n;) {
    const auto batch = static_cast<uint32_t>(std::min<std::size_t>(fit, n - done));
    if (runner().run_serving(&v, queue_capacity, first + done, batch, out.data() + done, error,
                             sizeof error) != 0)
      throw std::runtime_error(error);
    done += batch;
  }
}

const CudaModule& cuda_module() {
  static const CudaModule module(beside_executable("libgpuplan_cuda.so"));
  return module;
}

}  // namespace gpuplan
