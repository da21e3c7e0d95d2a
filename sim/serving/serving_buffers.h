#pragma once
//! Host storage behind a serving cluster's spans: one block sized once from the configuration
//! (sim/serving/cluster_layout.h), so the step functions never allocate.
#include <memory>
#include <new>

#include "sim/serving/cluster_layout.h"

namespace gpuplan::serving {

//! Owns one cluster's arrays and statistics; `state` views them.
class ClusterBuffers {
 public:
  //! Replicas of `v` with `queue_capacity` requests each beyond the running cap (waiting ones).
  ClusterBuffers(const ServingView& v, uint32_t queue_capacity)
      : block_(static_cast<std::byte*>(
            ::operator new (cluster_bytes(v, queue_capacity), std::align_val_t{CLUSTER_ALIGN}))),
        stats_(std::make_unique<ServingStats>()) {
    carve_cluster(v, queue_capacity, block_.get(), stats_.get(), state);
  }
  ClusterBuffers(const ClusterBuffers&) = delete;
  ClusterBuffers& operator=(const ClusterBuffers&) = delete;

  ClusterState state;

 private:
  struct AlignedDelete {
    void operator()(std::byte* p) const { ::operator delete (p, std::align_val_t{CLUSTER_ALIGN}); }
  };
  std::unique_ptr<std::byte, AlignedDelete> block_;
  std::unique_ptr<ServingStats> stats_;
};

}  // namespace gpuplan::serving
