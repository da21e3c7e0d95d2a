//! The CUDA Monte Carlo backend: one replica per GPU thread, running the same portable core.
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/core/engine.h"
#include "sim/backends/mc_cuda.h"
#include "sim/replica_buffers.h"

namespace gpuplan {
namespace {

inline constexpr uint32_t THREADS_PER_BLOCK = 64;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

//! One device allocation, freed when it goes out of scope.
class DeviceBlock {
 public:
  explicit DeviceBlock(std::size_t bytes) {
    if (bytes > 0) check(cudaMalloc(&p_, bytes), "cudaMalloc");
  }
  DeviceBlock(const DeviceBlock&) = delete;
  DeviceBlock& operator=(const DeviceBlock&) = delete;
  ~DeviceBlock() {
    if (p_ != nullptr) cudaFree(p_);
  }
  [[nodiscard]] std::byte* bytes() const { return static_cast<std::byte*>(p_); }

 private:
  void* p_ = nullptr;
};

__global__ void run_replicas(ModelView m, ReplicaState* states, uint32_t first, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) run_replica(m, states[i], first + i);
}

}  // namespace

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();  // NOTE: clear the sticky "no driver / no device" error
    return 0;
  }
  return n;
}

std::string cuda_device_name() {
  int device = 0;
  cudaDeviceProp prop{};
  if (cuda_device_count() == 0 || cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess)
    return "";
  return prop.name;
}

void cuda_memory(std::size_t& free_bytes, std::size_t& total_bytes) {
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
}

void run_batch_cuda(const ModelView& host_model, uint32_t first, uint32_t n, CudaBatch& out) {
  // The model's arrays, copied into one device block; the view is re-pointed at them.
  ModelView m = host_model;
  std::size_t model_bytes = 0;
  for_each_model_array(
      m, [&](auto& sp) { model_bytes += ReplicaLayout::aligned(sp.size * sizeof(*sp.data)); });
  const DeviceBlock model_block(model_bytes);
  std::size_t at = 0;
  for_each_model_array(m, [&](auto& sp) {
    using T = std::remove_const_t<std::remove_reference_t<decltype(*sp.data)>>;
    const std::size_t bytes = sp.size * sizeof(T);
    T* device_array = reinterpret_cast<T*>(model_block.bytes() + at);
    if (bytes > 0)
      check(cudaMemcpy(device_array, sp.data, bytes, cudaMemcpyHostToDevice), "copy model");
    sp.data = device_array;
    at += ReplicaLayout::aligned(bytes);
  });

  // Every replica's arrays: one block for working state, one for results (copied back whole).
  const ReplicaLayout layout(m, 0);
  const DeviceBlock work(std::size_t(n) * layout.work_bytes);
  const DeviceBlock results(std::size_t(n) * layout.result_bytes);
  check(cudaMemset(work.bytes(), 0, std::size_t(n) * layout.work_bytes), "cudaMemset");
  check(cudaMemset(results.bytes(), 0, std::size_t(n) * layout.result_bytes), "cudaMemset");
  out.states.assign(n, ReplicaState{});
  for (uint32_t i = 0; i < n; ++i)
    layout.carve(m, 0, out.states[i], work.bytes() + i * layout.work_bytes,
                 results.bytes() + i * layout.result_bytes);
  const DeviceBlock states(n * sizeof(ReplicaState));
  auto* device_states = reinterpret_cast<ReplicaState*>(states.bytes());
  check(cudaMemcpy(device_states, out.states.data(), n * sizeof(ReplicaState),
                   cudaMemcpyHostToDevice),
        "copy states");

  run_replicas<<<(n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(
      m, device_states, first, n);
  check(cudaGetLastError(), "kernel launch");
  check(cudaDeviceSynchronize(), "kernel");

  // Scalars and totals come back in the state structs; their result spans are re-pointed at the
  // host copy of the results block and their working spans left empty.
  check(cudaMemcpy(out.states.data(), device_states, n * sizeof(ReplicaState),
                   cudaMemcpyDeviceToHost),
        "copy states back");
  out.results.assign((std::size_t(n) * layout.result_bytes + 7) / 8, 0);
  auto* host_results = reinterpret_cast<std::byte*>(out.results.data());
  check(cudaMemcpy(host_results, results.bytes(), std::size_t(n) * layout.result_bytes,
                   cudaMemcpyDeviceToHost),
        "copy results back");
  for (uint32_t i = 0; i < n; ++i)
    layout.carve(m, 0, out.states[i], nullptr, host_results + i * layout.result_bytes);
}

}  // namespace gpuplan
