#pragma once
//! The vocabulary of shared GPUs (docs/sharing.md): how a pool's GPUs are shared, how jobs are
//! packed onto them, and the units the engine counts them in. sim/core/shared_types.h holds the
//! pools' specs and state.
#include <cstdint>

namespace gpuplan {

//! How a pool's GPUs are shared, and what a job class asks of them.
enum class ShareKind : uint8_t {
  whole,        //!< whole GPUs (no sharing)
  mig,          //!< MIG: each GPU is partitioned into a fixed layout of instances
  time_sliced,  //!< time-slicing: up to `replicas` jobs take turns on one GPU
  fractional,   //!< milli-GPU: jobs hold a guaranteed share (and memory) of one GPU each
};

//! How jobs are packed onto shared GPUs (sim/sharing/pack_policy.h defines each; the engine's
//! fractional pools take best_fit and worst_fit, a GPU at a time).
enum class PackPolicy : uint8_t { best_fit, worst_fit, random, fgd };
inline constexpr uint32_t N_PACK_POLICIES = 4;

//! [milli-GPU] one whole GPU.
inline constexpr uint32_t MILLI_PER_GPU = 1000;

//! Busy shared GPUs are counted in units of 1/7000 of a GPU, so MIG utilization (busy instances x
//! their compute slices / 7) and milli-GPU allocations (milli / 1000) both stay exact integers.
inline constexpr uint32_t SHARE_UNITS = 7 * MILLI_PER_GPU;

}  // namespace gpuplan
