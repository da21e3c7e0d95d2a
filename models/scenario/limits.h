#pragma once
//! Limits derived from the scenario (docs/reliability.md, "Limits"): the range of a distribution's
//! samples, the size of a topology, the memory of a replica's job slots. The loader checks them
//! (models/load/load_limits.cpp) so a scenario that would run away is refused before it runs.
#include <cstdint>
#include <vector>

#include "models/scenario/scenario.h"

namespace gpuplan {

//! Default floor of the derived topology size limit [switches + hosts + links].
inline constexpr double MIN_TOPOLOGY_SIZE = 65536;
//! Default topology size allowed per GPU of the cluster [elements per GPU].
inline constexpr double TOPOLOGY_SIZE_PER_GPU = 16;
//! Bytes per job slot of the network and economics side state (sim/replica_buffers.h), rounded up.
inline constexpr double JOB_SIDE_STATE_BYTES = 96;

//! Smallest and largest value [s] sample() (sim/core/distribution.h) can return.
struct SampleRange {
  double lo;  //!< [s] may underflow to 0
  double hi;  //!< [s] may overflow to +inf
};

//! The extremes of a distribution's samples over every uniform the engine draws ((0, 1) in steps
//! of 2^-53), so a lognormal tail that overflows is found without sampling.
[[nodiscard]] SampleRange sample_range(DistKind kind, double a, double b,
                                       const std::vector<double>& values);

//! Switches + hosts + links of topology `t` over `n_nodes` nodes of `gpus_per_node` GPUs
//! (an estimate from the builders' formulas, computed without building it).
[[nodiscard]] double topology_size(const TopologyConfig& t, uint64_t n_nodes,
                                   uint32_t gpus_per_node);

//! limits.max_topology_size, or when unset max(MIN_TOPOLOGY_SIZE, TOPOLOGY_SIZE_PER_GPU x GPUs).
[[nodiscard]] double topology_size_limit(const Limits& limits, uint64_t cluster_gpus);

//! Bytes one job slot of a replica costs [B] (jobs of up to `max_nodes_per_job` nodes; a queue
//! index of `index_kinds` kinds, sim/core/queue_index.h).
[[nodiscard]] double bytes_per_job_slot(uint32_t max_nodes_per_job, bool network,
                                        uint32_t index_kinds = 0);

}  // namespace gpuplan
