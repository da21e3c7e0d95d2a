#pragma once
//! A pool's planned maintenance windows as written (`pools[].maintenance`, docs/failures.md
//! "Planned maintenance"): when, which of the pool's nodes, how many at a time, and what happens
//! to the jobs on them.
#include <cstdint>
#include <optional>

#include "sim/core/maintenance_spec.h"

namespace gpuplan {

//! One planned maintenance window of a pool.
struct MaintenanceConfig {
  double start_s = 0;             //!< [s] first start since the scenario start, >= 0
  double duration_s = 0;          //!< [s] each batch is out of service this long, > 0
  std::optional<double> every_s;  //!< [s] repeat period (start to start); none: once
  uint32_t first = 0;             //!< index within the pool of its first node
  uint32_t nodes = 0;             //!< consecutive nodes it maintains, >= 1
  uint32_t batch = 0;             //!< nodes out at a time (rolling), in [1, nodes]
  DrainPolicy drain = DrainPolicy::checkpoint;
  double drain_ahead_s = 0;  //!< [s] no new job this long before each batch's start (wait only)

  //! Batches taken one after another: ceil(nodes / batch).
  [[nodiscard]] uint32_t batches() const { return (nodes + batch - 1) / batch; }
  //! [s] from its drain (or start) to the end of its last batch, per repetition.
  [[nodiscard]] double out_of_service_s() const {
    return drain_ahead_s + double(batches()) * duration_s;
  }
};

}  // namespace gpuplan
