#pragma once
//! The CUDA calls gpuplan makes, behind a C interface: sim/backends/mc_cuda.cu implements it in
//! libgpuplan_cuda.so, the only binary nvcc builds, and sim/backends/mc_cuda.cpp loads that module
//! the first time a study asks for a device. Every other object is the same whether or not nvcc
//! is installed, so the build's CUDA choice rebuilds nothing but the module.
#include <cstddef>
#include <cstdint>

#include "sim/core/state.h"
#include "sim/serving/replica.h"

extern "C" {

//! Bumped whenever the table below changes, so a stale module is refused, not called.
#define GPUPLAN_CUDA_ABI 2

//! No call throws: a failure returns nonzero with the CUDA error text, NUL-terminated, in
//! error[0..error_size).
struct GpuplanCudaRunner {
  uint32_t abi;                  //!< GPUPLAN_CUDA_ABI of the module
  uint32_t model_view_bytes;     //!< sizeof(gpuplan::ModelView) the module was compiled with
  uint32_t replica_state_bytes;  //!< sizeof(gpuplan::ReplicaState) likewise
  //! Usable devices; 0 with the reason in `error` when the driver or a device is missing.
  int (*device_count)(char* error, size_t error_size);
  //! The current device's name ("NVIDIA H200") into name[0..size).
  int (*device_name)(char* name, size_t size);
  //! Free and total memory of the current device [bytes].
  int (*memory)(size_t* free_bytes, size_t* total_bytes, char* error, size_t error_size);
  //! Runs replicas [first, first + n) of `m` (host arrays) on the current device, one replica per
  //! thread, and copies back what metrics and bands need: states[i] is replica first + i with its
  //! result spans pointing into `results` (n x ReplicaLayout(m, 0).result_bytes bytes, 8-byte
  //! aligned) and its working spans empty.
  int (*run_batch)(const gpuplan::ModelView* m, uint32_t first, uint32_t n,
                   gpuplan::ReplicaState* states, void* results, char* error, size_t error_size);
  uint32_t serving_view_bytes;   //!< sizeof(gpuplan::serving::ServingView) likewise
  uint32_t serving_stats_bytes;  //!< sizeof(gpuplan::serving::ServingStats) likewise
  //! Runs Monte Carlo replications [first, first + n) of the serving cluster `v` (host arrays) on
  //! the current device, one replication per thread, each with `queue_capacity` waiting requests
  //! per replica, and copies their statistics back: stats[i] is replication first + i's.
  int (*run_serving)(const gpuplan::serving::ServingView* v, uint32_t queue_capacity,
                     uint32_t first, uint32_t n, gpuplan::serving::ServingStats* stats, char* error,
                     size_t error_size);
};

//! The module's entry point: its table.
const GpuplanCudaRunner* gpuplan_cuda_runner(void);

}  // extern "C"
