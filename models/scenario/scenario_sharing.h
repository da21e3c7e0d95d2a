#pragma once
//! Shared GPUs as the scenario declares them (docs/sharing.md, "In the engine"): a pool's MIG
//! layout, time-slicing replicas or fractional packing, and a class's request for a MIG instance,
//! a time-sliced replica or a milli-GPU share. Filled by models/load/load_sharing.cpp; compiled by
//! models/compile/compile_sharing.cpp.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/share_kinds.h"
#include "sim/sharing/mig.h"

namespace gpuplan {

//! Jobs one time-sliced GPU may take at most (`time_slicing.replicas`).
inline constexpr uint32_t MAX_TIME_SLICE_REPLICAS = 256;

//! How one pool's GPUs are shared (`"mig"`, `"time_slicing"` or `"fractional"` of a pool).
struct PoolSharing {
  ShareKind kind = ShareKind::whole;
  const sharing::MigGpuSpec* mig = nullptr;  //!< mig: the vendor table of the pool's GPU
  //! mig: every GPU's layout, placed as the vendor allows (check_mig_layout holds for it)
  sharing::MigLayout layout;
  uint32_t replicas = 1;    //!< time_sliced: jobs one GPU takes at most
  double interference = 0;  //!< time_sliced: extra share of time lost when shared, >= 0
  PackPolicy packing = PackPolicy::best_fit;  //!< fractional: best_fit or worst_fit
  std::string pointer;                        //!< JSON pointer of the sharing key (for messages)
};

//! What a class asks of shared GPUs (`"mig": "1g.10gb"`, `"gpu_share": "time_sliced"` or
//! `"gpu_milli": 300` with `"gpu_memory": "20GB"`).
struct ClassSharing {
  ShareKind kind = ShareKind::whole;
  std::string mig_profile;  //!< mig: the profile name as written ("1g.10gb")
  //! Share of one GPU's compute a job can use, (0, 1] (`gpu_fraction`): it runs at full speed on a
  //! MIG instance with at least that share, or while its time-sliced GPU gives it that much
  double fraction = 1;
  uint32_t milli = 0;    //!< fractional: [milli-GPU] guaranteed share of one GPU, 1..1000
  uint32_t mem_mib = 0;  //!< fractional: [MiB] GPU memory it holds (0: none asked)
  std::string pointer;   //!< JSON pointer of the request (for messages)
};

//! The layout entries (bit i = MigLayout instance i) of `pool` that serve a class asking for
//! `share`: for MIG the instances of its profile, for time-slicing and fractional 1 (any GPU with
//! room), for whole GPUs 1 on an unshared pool; 0 when the pool cannot serve the class.
[[nodiscard]] uint32_t serving_entries(const PoolSharing& pool, const ClassSharing& share);

}  // namespace gpuplan
