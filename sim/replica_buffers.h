#pragma once
//! Host-side storage for one replica: owns the arrays a ReplicaState spans over.
#include <cstddef>
#include <vector>

#include "sim/core/state.h"

namespace gpuplan {

//! Owns every array of one replica; `state` views them. Not copyable (the spans would dangle).
class ReplicaBuffers {
 public:
  //! Sizes every array from the model; `record_capacity` > 0 turns the per-job sink on.
  ReplicaBuffers(const ModelView& m, uint32_t record_capacity);
  ReplicaBuffers(const ReplicaBuffers&) = delete;
  ReplicaBuffers& operator=(const ReplicaBuffers&) = delete;

  ReplicaState state;

  //! Bytes of memory one replica of this model needs (reported by Monte Carlo runs).
  static size_t bytes_per_replica(const ModelView& m, uint32_t record_capacity);

 private:
  std::vector<Event> events_;
  std::vector<uint32_t> node_free_;
  std::vector<uint64_t> level_bits_;
  std::vector<Job> jobs_;
  std::vector<uint32_t> job_nodes_, free_slots_, queue_, arrivals_made_;
  std::vector<uint32_t> pool_busy_gpus_, pool_nodes_up_;
  std::vector<double> pool_busy_gpu_s_, pool_cost_usd_;
  std::vector<ClassTotals> classes_;
  std::vector<uint32_t> wait_hist_, jct_hist_;
  std::vector<double> bin_busy_, bin_queued_, bin_spend_, bin_provisioned_;
  std::vector<JobRecord> records_;
};

}  // namespace gpuplan
