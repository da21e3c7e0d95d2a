#pragma once
//! GPU fragmentation of a node against the workload's typical pod shapes, as FGD defines it
//! (Weng et al., "Beware of Fragmentation: Scheduling GPU-Sharing Workloads with Fragmentation
//! Gradient Descent", USENIX ATC'23, §4; artifact hkust-adsl/kubernetes-scheduler-simulator,
//! pkg/utils/frag.go, NodeGpuShareFragAmountScore):
//!
//!   F_n(M) = Σ_m p_m · F_n(m), with, for one typical shape m of popularity p_m,
//!   F_n(m) = Σ_{GPUs g of n with free_g < milli_m} free_g   when m fits n on GPU and CPU
//!                                                            (enough GPUs with ≥ milli_m free,
//!                                                            the GPU model acceptable, CPU free)
//!   F_n(m) = Σ_{all GPUs g of n} free_g                      otherwise (m cannot run on n, and
//!                                                            for CPU-only shapes: all idle GPU
//!                                                            milli is fragment to them).
//! Memory is not part of the measure (as in the paper). Units: milli-GPU.
#include <cstdint>

#include "sim/core/portable.h"
#include "sim/sharing/shared_node.h"

namespace gpuplan::sharing {

//! One typical pod shape and its popularity (the popularities of a set sum to 1).
struct TypicalShape {
  PodShape shape;
  double p = 0;  //!< popularity in [0, 1]
};

//! F_n(m): the idle GPU-milli of `n` that shape `m` cannot use (definition above).
[[nodiscard]] GPUPLAN_HD inline uint32_t shape_fragment(const SharedNode& n, const PodShape& m) {
  uint32_t idle = 0, unusable = 0, usable_gpus = 0;
  for (uint32_t g = 0; g < n.n_gpus; ++g) {
    const uint32_t f = n.gpu_milli_free[g];
    idle += f;
    if (f >= m.gpu_milli)
      ++usable_gpus;
    else
      unusable += f;
  }
  if (m.gpu_milli == 0 || !gpu_type_ok(n, m)) return idle;
  const bool fits = usable_gpus >= m.n_gpus && n.cpu_milli_free >= m.cpu_milli;
  return fits ? unusable : idle;
}

//! F_n(M) = Σ p_m · F_n(m) over `shapes`, in milli-GPU.
[[nodiscard]] GPUPLAN_HD inline double node_fragmentation(const SharedNode& n,
                                                          span<const TypicalShape> shapes) {
  double f = 0;
  for (const TypicalShape& s : shapes) f += s.p * shape_fragment(n, s.shape);
  return f;
}

}  // namespace gpuplan::sharing
