#pragma once
//! A node whose GPUs pods share by milli-GPU, and the shape of a pod placed on it (FGD's model:
//! Weng et al., "Beware of Fragmentation", USENIX ATC'23). Plain data and inline functions, no
//! allocation: the engine can reuse them.
#include <cstdint>

#include "sim/core/portable.h"
#include "sim/sharing/gpu_request.h"

namespace gpuplan::sharing {

inline constexpr uint32_t MAX_GPUS_PER_NODE = 8;       //!< GPUs one SharedNode can hold
inline constexpr uint32_t ANY_GPU_TYPE = 0xFFFFFFFFu;  //!< PodShape::gpu_types: no constraint

//! A node: CPU, memory and the free milli-GPU of each of its GPUs.
struct SharedNode {
  uint32_t cpu_milli = 0;                           //!< [milli-CPU] capacity
  uint32_t cpu_milli_free = 0;                      //!< [milli-CPU] not allocated
  uint64_t mem_mib = 0;                             //!< [MiB] capacity
  uint64_t mem_mib_free = 0;                        //!< [MiB] not allocated
  uint8_t n_gpus = 0;                               //!< GPUs in the node (≤ MAX_GPUS_PER_NODE)
  uint8_t gpu_type = 0;                             //!< index of the node's GPU model (< 32)
  uint16_t gpu_milli_free[MAX_GPUS_PER_NODE] = {};  //!< [milli-GPU] free on each GPU
};

//! What a pod asks: CPU, memory, and either nothing of GPUs, a fraction of one GPU, or whole GPUs.
struct PodShape {
  uint32_t cpu_milli = 0;             //!< [milli-CPU]
  uint64_t mem_mib = 0;               //!< [MiB]
  uint8_t n_gpus = 0;                 //!< GPUs (0: CPU-only pod)
  uint16_t gpu_milli = 0;             //!< [milli-GPU] on each of its GPUs (1000: whole GPUs)
  uint32_t gpu_types = ANY_GPU_TYPE;  //!< bit t set: GPU model t is acceptable
};

//! Where a pod goes: a node and the GPUs it takes there.
struct Placement {
  uint32_t node_idx = 0;
  uint8_t gpu_mask = 0;  //!< bit g set: the pod uses GPU g of the node
};

//! A node with `n_gpus` idle GPUs of model `gpu_type` and the given CPU and memory.
[[nodiscard]] GPUPLAN_HD inline SharedNode make_node(uint32_t cpu_milli, uint64_t mem_mib,
                                                     uint8_t n_gpus, uint8_t gpu_type) {
  SharedNode n;
  n.cpu_milli = n.cpu_milli_free = cpu_milli;
  n.mem_mib = n.mem_mib_free = mem_mib;
  n.n_gpus = n_gpus;
  n.gpu_type = gpu_type;
  for (uint32_t g = 0; g < n_gpus; ++g) n.gpu_milli_free[g] = MILLI_PER_GPU;
  return n;
}

//! Free milli-GPU of all GPUs of a node.
[[nodiscard]] GPUPLAN_HD inline uint32_t idle_gpu_milli(const SharedNode& n) {
  uint32_t s = 0;
  for (uint32_t g = 0; g < n.n_gpus; ++g) s += n.gpu_milli_free[g];
  return s;
}

//! GPU-milli a pod takes in all: n_gpus × gpu_milli.
[[nodiscard]] GPUPLAN_HD inline uint32_t pod_gpu_milli(const PodShape& p) {
  return uint32_t{p.n_gpus} * p.gpu_milli;
}

//! Whether the node's GPU model is acceptable to the pod (a CPU-only pod accepts any node).
[[nodiscard]] GPUPLAN_HD inline bool gpu_type_ok(const SharedNode& n, const PodShape& p) {
  return p.n_gpus == 0 || (p.gpu_types >> n.gpu_type & 1u) != 0;
}

//! GPUs of the node with at least `milli` free.
[[nodiscard]] GPUPLAN_HD inline uint32_t gpus_with_free(const SharedNode& n, uint16_t milli) {
  uint32_t c = 0;
  for (uint32_t g = 0; g < n.n_gpus; ++g) c += n.gpu_milli_free[g] >= milli ? 1u : 0u;
  return c;
}

//! Whether the pod fits the node: CPU, memory, GPU model, and n_gpus GPUs each with gpu_milli free.
[[nodiscard]] GPUPLAN_HD inline bool pod_fits(const SharedNode& n, const PodShape& p) {
  if (n.cpu_milli_free < p.cpu_milli || n.mem_mib_free < p.mem_mib) return false;
  if (p.n_gpus == 0) return true;
  return gpu_type_ok(n, p) && gpus_with_free(n, p.gpu_milli) >= p.n_gpus;
}

//! The GPUs a whole-GPU pod takes on a node it fits: the lowest-indexed GPUs with gpu_milli free.
[[nodiscard]] GPUPLAN_HD inline uint8_t lowest_gpus(const SharedNode& n, const PodShape& p) {
  uint8_t mask = 0;
  uint32_t need = p.n_gpus;
  for (uint32_t g = 0; g < n.n_gpus && need > 0; ++g)
    if (n.gpu_milli_free[g] >= p.gpu_milli) {
      mask = static_cast<uint8_t>(mask | (1u << g));
      --need;
    }
  return mask;
}

//! Takes the pod's CPU, memory and gpu_milli on each GPU of `gpu_mask` from the node.
GPUPLAN_HD inline void allocate_pod(SharedNode& n, const PodShape& p, uint8_t gpu_mask) {
  n.cpu_milli_free -= p.cpu_milli;
  n.mem_mib_free -= p.mem_mib;
  for (uint32_t g = 0; g < n.n_gpus; ++g)
    if (gpu_mask >> g & 1u)
      n.gpu_milli_free[g] = static_cast<uint16_t>(n.gpu_milli_free[g] - p.gpu_milli);
}

//! Gives back what allocate_pod took.
GPUPLAN_HD inline void release_pod(SharedNode& n, const PodShape& p, uint8_t gpu_mask) {
  n.cpu_milli_free += p.cpu_milli;
  n.mem_mib_free += p.mem_mib;
  for (uint32_t g = 0; g < n.n_gpus; ++g)
    if (gpu_mask >> g & 1u)
      n.gpu_milli_free[g] = static_cast<uint16_t>(n.gpu_milli_free[g] + p.gpu_milli);
}

}  // namespace gpuplan::sharing
