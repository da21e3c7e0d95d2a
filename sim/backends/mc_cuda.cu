//! libgpuplan_cuda.so: the CUDA Monte Carlo backend (sim/backends/cuda_runner.h), one replica per
//! GPU thread running the same portable core: the cluster engine's replicas, and the serving
//! simulator's replications (sim/serving/). Built as a module beside gpuplan when nvcc is
//! found; sim/backends/mc_cuda.cpp loads it on demand.
#include <cuda_runtime.h>

#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "sim/backends/cuda_runner.h"
#include "sim/core/engine.h"
#include "sim/replica_buffers.h"
#include "sim/serving/cluster_layout.h"

namespace gpuplan {
namespace {

inline constexpr uint32_t THREADS_PER_BLOCK = 64;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA ") + what + ": " + cudaGetErrorString(e));
}

//! Copies `text` into error[0..size), NUL-terminated and cut to fit.
void write_error(const char* text, char* error, size_t size) {
  if (size > 0) std::snprintf(error, size, "%s", text);
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

void run_batch(const ModelView& host_model, uint32_t first, uint32_t n, ReplicaState* states,
               std::byte* host_results) {
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
  for (uint32_t i = 0; i < n; ++i) {
    states[i] = ReplicaState{};
    layout.carve(m, 0, states[i], work.bytes() + i * layout.work_bytes,
                 results.bytes() + i * layout.result_bytes);
  }
  const DeviceBlock device_block(n * sizeof(ReplicaState));
  auto* device_states = reinterpret_cast<ReplicaState*>(device_block.bytes());
  check(cudaMemcpy(device_states, states, n * sizeof(ReplicaState), cudaMemcpyHostToDevice),
        "copy states");

  run_replicas<<<(n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(
      m, device_states, first, n);
  check(cudaGetLastError(), "kernel launch");
  check(cudaDeviceSynchronize(), "kernel");

  // Scalars and totals come back in the state structs; their result spans are re-pointed at the
  // host copy of the results block and their working spans left empty.
  check(cudaMemcpy(states, device_states, n * sizeof(ReplicaState), cudaMemcpyDeviceToHost),
        "copy states back");
  check(cudaMemcpy(host_results, results.bytes(), std::size_t(n) * layout.result_bytes,
                   cudaMemcpyDeviceToHost),
        "copy results back");
  for (uint32_t i = 0; i < n; ++i)
    layout.carve(m, 0, states[i], nullptr, host_results + i * layout.result_bytes);
}

__global__ void run_serving_replications(serving::ServingView v, uint32_t queue_capacity,
                                         std::size_t block_bytes, std::byte* blocks,
                                         serving::ServingStats* stats, uint32_t first, uint32_t n) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  serving::ServingView mine = v;
  mine.mc_replica = first + i;
  serving::ClusterState c;
  serving::carve_cluster(mine, queue_capacity, blocks + std::size_t(i) * block_bytes, &stats[i], c);
  serving::run_cluster(mine, c);
}

//! Copies the host array `sp` views to `at` on the device and points `sp` there; returns the
//! bytes it took, aligned.
template <class T>
std::size_t to_device(span<const T>& sp, std::byte* at) {
  const std::size_t bytes = std::size_t(sp.size) * sizeof(T);
  if (bytes > 0) check(cudaMemcpy(at, sp.data, bytes, cudaMemcpyHostToDevice), "copy workload");
  sp.data = reinterpret_cast<const T*>(at);
  return ReplicaLayout::aligned(bytes);
}

void run_serving(const serving::ServingView& host_view, uint32_t queue_capacity, uint32_t first,
                 uint32_t n, serving::ServingStats* host_stats) {
  // The workload's arrays (a trace's arrivals, the rate stages, the length table), copied into
  // one device block; the view is re-pointed at them.
  serving::ServingView v = host_view;
  serving::Workload& w = v.load;
  const DeviceBlock arrays(ReplicaLayout::aligned(w.arrival_s.size * sizeof(double)) +
                           ReplicaLayout::aligned(w.stages.size * sizeof(serving::RateStage)) +
                           ReplicaLayout::aligned(w.table.size * sizeof(serving::LengthRow)));
  std::size_t at = to_device(w.arrival_s, arrays.bytes());
  at += to_device(w.stages, arrays.bytes() + at);
  to_device(w.table, arrays.bytes() + at);

  // One block per replication, carved and started by its own thread; the statistics apart, to
  // be copied back whole.
  const std::size_t block_bytes = ReplicaLayout::aligned(serving::cluster_bytes(v, queue_capacity));
  const DeviceBlock work(std::size_t(n) * block_bytes);
  const DeviceBlock stats(std::size_t(n) * sizeof(serving::ServingStats));
  run_serving_replications<<<(n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK, THREADS_PER_BLOCK>>>(
      v, queue_capacity, block_bytes, work.bytes(),
      reinterpret_cast<serving::ServingStats*>(stats.bytes()), first, n);
  check(cudaGetLastError(), "kernel launch");
  check(cudaDeviceSynchronize(), "kernel");
  check(cudaMemcpy(host_stats, stats.bytes(), std::size_t(n) * sizeof(serving::ServingStats),
                   cudaMemcpyDeviceToHost),
        "copy statistics back");
}

int device_count(char* error, size_t error_size) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    write_error(cudaGetErrorString(e), error, error_size);
    (void)cudaGetLastError();  // NOTE: clear the sticky "no driver / no device" error
    return 0;
  }
  return n;
}

int device_name(char* name, size_t size) {
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    (void)cudaGetLastError();
    return 1;
  }
  write_error(prop.name, name, size);
  return 0;
}

int memory(size_t* free_bytes, size_t* total_bytes, char* error, size_t error_size) {
  const cudaError_t e = cudaMemGetInfo(free_bytes, total_bytes);
  if (e == cudaSuccess) return 0;
  write_error(cudaGetErrorString(e), error, error_size);
  return 1;
}

int run_batch_entry(const ModelView* m, uint32_t first, uint32_t n, ReplicaState* states,
                    void* results, char* error, size_t error_size) {
  try {
    run_batch(*m, first, n, states, static_cast<std::byte*>(results));
    return 0;
  } catch (const std::exception& e) {
    write_error(e.what(), error, error_size);
  }
  return 1;
}

int run_serving_entry(const serving::ServingView* v, uint32_t queue_capacity, uint32_t first,
                      uint32_t n, serving::ServingStats* stats, char* error, size_t error_size) {
  try {
    run_serving(*v, queue_capacity, first, n, stats);
    return 0;
  } catch (const std::exception& e) {
    write_error(e.what(), error, error_size);
  }
  return 1;
}

constexpr GpuplanCudaRunner RUNNER = {GPUPLAN_CUDA_ABI,
                                      sizeof(ModelView),
                                      sizeof(ReplicaState),
                                      device_count,
                                      device_name,
                                      memory,
                                      run_batch_entry,
                                      sizeof(serving::ServingView),
                                      sizeof(serving::ServingStats),
                                      run_serving_entry};

}  // namespace
}  // namespace gpuplan

extern "C" __attribute__((visibility("default"))) const GpuplanCudaRunner* gpuplan_cuda_runner(
    void) {
  return &gpuplan::RUNNER;
}
