#pragma once
//! What a job or pod asks of shared GPUs: whole GPUs, a fraction of one GPU (milli-GPU plus GPU
//! memory, several such requests sharing a GPU), or one MIG instance of a named profile.
//! Plain data; check_gpu_request says what is wrong with one (loaders turn that into diagnostics).
#include <cstdint>

#include "sim/core/shared_types.h"
#include "sim/sharing/mig.h"

namespace gpuplan::sharing {

inline constexpr uint16_t MILLI_PER_GPU = gpuplan::MILLI_PER_GPU;  //!< [milli-GPU] one GPU

//! How a request uses GPUs.
enum class GpuShareKind : uint8_t {
  whole,     //!< n_gpus whole GPUs
  fraction,  //!< gpu_milli of one GPU (1..1000) and gpu_mem_mib of its memory
  mig,       //!< one instance of MIG profile mig_profile
};

//! One request for GPUs.
struct GpuRequest {
  GpuShareKind kind = GpuShareKind::whole;
  uint16_t n_gpus = 1;        //!< whole GPUs (kind whole); 1 otherwise
  uint16_t gpu_milli = 1000;  //!< [milli-GPU] of one GPU (kind fraction)
  uint32_t gpu_mem_mib = 0;   //!< [MiB] GPU memory (kind fraction; 0 = no memory limit asked)
  uint8_t mig_profile = 0;    //!< index into the GPU's MigGpuSpec::profiles (kind mig)
};

//! What is wrong with a request.
enum class GpuRequestError : uint8_t {
  ok,
  no_gpus,              //!< whole: zero GPUs
  milli_out_of_range,   //!< fraction: gpu_milli not in 1..1000
  memory_above_gpu,     //!< fraction: more memory than one GPU has
  no_mig_on_gpu,        //!< mig: the GPU has no MIG table
  unknown_mig_profile,  //!< mig: a profile the GPU does not have
};

//! Checks `r` against a GPU with `gpu_mem_mib` of memory and MIG table `mig` (nullptr: no MIG).
[[nodiscard]] inline GpuRequestError check_gpu_request(const GpuRequest& r, uint32_t gpu_mem_mib,
                                                       const MigGpuSpec* mig) {
  switch (r.kind) {
    case GpuShareKind::whole:
      return r.n_gpus == 0 ? GpuRequestError::no_gpus : GpuRequestError::ok;
    case GpuShareKind::fraction:
      if (r.gpu_milli == 0 || r.gpu_milli > MILLI_PER_GPU)
        return GpuRequestError::milli_out_of_range;
      return r.gpu_mem_mib > gpu_mem_mib ? GpuRequestError::memory_above_gpu : GpuRequestError::ok;
    case GpuShareKind::mig:
      if (mig == nullptr) return GpuRequestError::no_mig_on_gpu;
      return r.mig_profile >= mig->n_profiles ? GpuRequestError::unknown_mig_profile
                                              : GpuRequestError::ok;
  }
  return GpuRequestError::ok;
}

//! GPU-milli a request holds: 1000 per whole GPU, gpu_milli for a fraction, the instance's compute
//! slices over 7 for a MIG instance.
[[nodiscard]] inline uint32_t request_gpu_milli(const GpuRequest& r, const MigGpuSpec* mig) {
  switch (r.kind) {
    case GpuShareKind::whole:
      return uint32_t{MILLI_PER_GPU} * r.n_gpus;
    case GpuShareKind::fraction:
      return r.gpu_milli;
    case GpuShareKind::mig:
      return mig == nullptr
                 ? 0u
                 : MILLI_PER_GPU * mig->profiles[r.mig_profile].compute_slices / MIG_COMPUTE_SLICES;
  }
  return 0;
}

}  // namespace gpuplan::sharing
