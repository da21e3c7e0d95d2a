#pragma once
//! Plain data of shared GPUs in the engine (docs/sharing.md, "In the engine"): the compiled
//! per-pool MIG layouts and time-slicing settings the core reads (SharedView, filled only by
//! models/compile_sharing.cpp) and each replica's occupancy of them (SharedState). The logic
//! lives in sim/core/shared_gpus.h.
#include "sim/core/types.h"

namespace gpuplan {

//! How a pool's GPUs are shared, and what a job class asks of them.
enum class ShareKind : uint8_t {
  whole,        //!< whole GPUs (no sharing)
  mig,          //!< MIG: each GPU is partitioned into a fixed layout of instances
  time_sliced,  //!< time-slicing: up to `replicas` jobs take turns on one GPU
};

//! Busy shared GPUs are counted in sevenths of a GPU (one MIG compute slice), so MIG utilization
//! (busy instances x their compute slices / 7) stays an exact integer count.
inline constexpr uint32_t SHARE_SEVENTHS = 7;

//! How one pool's GPUs are shared.
struct SharedPoolSpec {
  ShareKind kind = ShareKind::whole;
  uint32_t slots = 0;       //!< per GPU: instances of its MIG layout, or time-slicing replicas
  uint32_t entry0 = 0;      //!< mig: first of its layout's entries in SharedView::entry_sevenths
  double interference = 0;  //!< time_sliced: extra share of time lost when shared (0.1 = 10 %)
};

//! Shared GPUs as flat tables. n_shared_pools == 0: nothing is shared and no table is read.
struct SharedView {
  uint32_t n_shared_pools = 0;          //!< pools whose kind is not whole
  uint32_t max_slots = 0;               //!< the largest `slots` of any shared pool
  span<const SharedPoolSpec> pools;     //!< [n_pools]
  span<const uint32_t> entry_sevenths;  //!< compute slices (of 7) of every MIG layout entry
  span<const ShareKind> class_kind;     //!< [n_classes] what each class asks for
  //! [n_classes * n_pools] the layout entries class c may take on a GPU of pool p (bit i =
  //! entry i: its MIG profile); time_sliced: 1 = any replica; 0 = the class may not use the pool
  span<const uint32_t> class_entries;
  //! [n_classes] share of one GPU's compute a job of the class can use (0, 1]: alone on a
  //! time-sliced GPU or on a MIG instance of at least that share it runs at full speed
  span<const double> class_fraction;
};

//! Occupancy of shared GPUs in one replica. A GPU is numbered node * max_gpus_per_node + index.
struct SharedState {
  span<uint32_t> gpu_used;   //!< [n_nodes * max_gpus_per_node] mig: taken entries (bit mask);
                             //!< time_sliced: jobs on the GPU
  span<uint32_t> gpu_jobs;   //!< [n_nodes * max_gpus_per_node * max_slots] time_sliced: the job
                             //!< slots on each GPU, its first gpu_used entries
  span<uint32_t> job_gpu;    //!< [max_active_jobs] GPU the shared job in a slot holds
  span<uint32_t> job_entry;  //!< [max_active_jobs] mig: its layout entry; time_sliced: its
                             //!< position in gpu_jobs
  span<uint32_t> pool_busy_sevenths;  //!< [n_pools] busy shared GPUs in sevenths
  uint32_t busy_sevenths = 0;         //!< all pools together
};

}  // namespace gpuplan
