#pragma once
//! Plain data of shared GPUs in the engine (docs/sharing.md, "In the engine"): the compiled
//! per-pool MIG layouts, time-slicing and fractional (milli-GPU) settings the core reads
//! (SharedView, filled only by models/compile/compile_sharing.cpp) and each replica's occupancy of
//! them (SharedState). The logic lives in sim/core/shared_gpus.h.
#include "sim/core/portable.h"
#include "sim/core/share_kinds.h"
#include "sim/core/types.h"

namespace gpuplan {

//! How one pool's GPUs are shared.
struct SharedPoolSpec {
  ShareKind kind = ShareKind::whole;
  uint32_t slots = 0;        //!< per GPU: instances of its MIG layout, or time-slicing replicas
  uint32_t entry0 = 0;       //!< mig: first of its layout's entries in SharedView::entry_units
  double interference = 0;   //!< time_sliced: extra share of time lost when shared (0.1 = 10 %)
  uint32_t gpu_mem_mib = 0;  //!< fractional: [MiB] memory of one GPU
  PackPolicy packing = PackPolicy::best_fit;  //!< fractional: which GPU with room a job takes
  uint32_t level0 = 0;  //!< fractional: first of its free-milli lists in SharedState::level_head
};

//! 64-bit words of one pool's bit set of non-empty free-milli lists (1001 bits).
inline constexpr uint32_t LEVEL_WORDS = (MILLI_PER_GPU + 1 + 63) / 64;

//! Shared GPUs as flat tables. n_shared_pools == 0: nothing is shared and no table is read.
struct SharedView {
  uint32_t n_shared_pools = 0;       //!< pools whose kind is not whole
  uint32_t max_slots = 0;            //!< the largest `slots` of any shared pool
  span<const SharedPoolSpec> pools;  //!< [n_pools]
  span<const uint32_t> entry_units;  //!< SHARE_UNITS of every MIG layout entry (its slices)
  span<const ShareKind> class_kind;  //!< [n_classes] what each class asks for
  //! [n_classes * n_pools] the layout entries class c may take on a GPU of pool p (bit i =
  //! entry i: its MIG profile); time_sliced: 1 = any replica; 0 = the class may not use the pool
  span<const uint32_t> class_entries;
  //! [n_classes] share of one GPU's compute a job of the class can use (0, 1]: alone on a
  //! time-sliced GPU or on a MIG instance of at least that share it runs at full speed
  span<const double> class_fraction;
  span<const uint32_t> class_milli;    //!< [n_classes] fractional: [milli-GPU] share, 1..1000
  span<const uint32_t> class_mem_mib;  //!< [n_classes] fractional: [MiB] GPU memory (0: none)
  //! [n_classes * n_pools] compute a running job of class c uses on pool p, per GPU it holds
  //! [GPUs of compute]: whole GPUs and time-sliced u (gpu_fraction; a time-sliced GPU delivers at
  //! most its capacity to all its jobs), MIG min(u, the instance's speed factor), milli-GPU
  //! milli / 1000 (sim/core/compute_used.h)
  span<const double> class_compute;
  uint32_t n_frac_pools = 0;  //!< fractional pools (each has MILLI_PER_GPU + 1 lists)
};

//! Occupancy of shared GPUs in one replica. A GPU is numbered node * max_gpus_per_node + index.
struct SharedState {
  span<uint32_t> gpu_used;   //!< [n_nodes * max_gpus_per_node] mig: taken entries (bit mask);
                             //!< time_sliced: jobs on the GPU; fractional: milli held
  span<uint32_t> gpu_jobs;   //!< [n_nodes * max_gpus_per_node * max_slots] time_sliced: the job
                             //!< slots on each GPU, its first gpu_used entries
  span<uint32_t> job_gpu;    //!< [max_active_jobs] GPU the shared job in a slot holds
  span<uint32_t> job_entry;  //!< [max_active_jobs] mig: its layout entry; time_sliced: its
                             //!< position in gpu_jobs
  span<uint32_t> pool_busy_units;   //!< [n_pools] busy shared GPUs in SHARE_UNITS
  uint64_t busy_units = 0;          //!< all pools together
  span<double> pool_compute;        //!< [n_pools] compute jobs use now [GPUs] (compute_used.h)
  span<double> pool_compute_gpu_s;  //!< [n_pools] its window integral [GPU·s]
  // Fractional pools: every GPU sits in the list of its free milli (0..1000) of its pool, so a
  // placement reads the lists from the job's milli up (best-fit) or from 1000 down (worst-fit)
  // instead of scanning every GPU.
  span<uint32_t> gpu_mem_used;  //!< [n_nodes * max_gpus_per_node] fractional: [MiB] held
  span<uint32_t> level_head;    //!< [n_frac_pools * 1001] first GPU of each list (NONE: empty)
  span<uint64_t> level_bits;    //!< [n_frac_pools * LEVEL_WORDS] bit f set: list f not empty
  span<uint32_t> gpu_next;      //!< [n_nodes * max_gpus_per_node] next GPU in its list
  span<uint32_t> gpu_prev;      //!< [n_nodes * max_gpus_per_node] previous GPU (NONE: head)
  uint64_t jobs_waited_for_room = 0;  //!< fractional jobs in the window that found no room at once
};

}  // namespace gpuplan
