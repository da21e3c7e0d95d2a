#pragma once
//! The CPU Monte Carlo backend: replicas fanned out over OpenMP threads with Thrust, each worker
//! thread reusing one preallocated replica (sim/replica_buffers.h).
#include <memory>
#include <vector>

#include "sim/mc_batch.h"
#include "sim/replica_buffers.h"

namespace gpuplan {

//! Worker threads with one replica's buffers each; reused across batches.
class CpuBackend {
 public:
  //! Sets the OpenMP thread count (`threads` = 0 keeps OpenMP's default) and allocates one
  //! replica per thread. The view's arrays must outlive the backend.
  CpuBackend(const ModelView& m, uint32_t threads);

  //! Threads that run replicas.
  [[nodiscard]] uint32_t threads() const { return static_cast<uint32_t>(buffers_.size()); }

  //! Runs replicas [first, first + n) and writes replica first + i's outcome to out[i]. A
  //! replica's outcome depends only on the model and its index, never on threads or batches.
  void run_batch(uint32_t first, uint32_t n, ReplicaOutcome* out);

  //! Runs the listed replicas and writes replicas[i]'s outcome to out[i].
  void run_listed(const std::vector<uint32_t>& replicas, ReplicaOutcome* out);

 private:
  template <class Body>
  void run(const Body& body, uint32_t n);

  ModelView m_;
  std::vector<std::unique_ptr<ReplicaBuffers>> buffers_;
  std::vector<ReplicaBuffers*> by_thread_;
};

//! Runs replica `replica` on this thread and returns the job slots it used at its peak, or 0 when
//! it saturated (its limits were too small, or it could not keep up).
[[nodiscard]] uint32_t peak_job_slots(const ModelView& m, uint32_t replica);

}  // namespace gpuplan
