#include "sim/backends/mc_cpu.h"

#include <omp.h>

#include <thrust/for_each.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/system/omp/execution_policy.h>

#include "sim/core/engine.h"

namespace gpuplan {
namespace {

//! The i-th replica of a batch (replica `first + i`, or `listed[i]` when there is a list) on the
//! calling OpenMP thread's buffers.
struct RunReplica {
  ModelView m;
  ReplicaBuffers* const* by_thread;
  uint32_t first;
  const uint32_t* listed;
  ReplicaOutcome* out;

  void operator()(uint32_t i) const {
    // NOTE: init_replica resets every array, so reusing a thread's buffers for the next replica
    // leaves no trace of the previous one (tests/sim/mc_invariance_test.cpp checks it).
    ReplicaState& s = by_thread[omp_get_thread_num()]->state;
    run_replica(m, s, listed != nullptr ? listed[i] : first + i);
    out[i] = outcome_of(m, s);
  }
};

}  // namespace

CpuBackend::CpuBackend(const ModelView& m, uint32_t threads) : m_(m) {
  if (threads > 0) omp_set_num_threads(static_cast<int>(threads));
  const int n = omp_get_max_threads();
  for (int t = 0; t < n; ++t) {
    buffers_.push_back(std::make_unique<ReplicaBuffers>(m, 0));
    by_thread_.push_back(buffers_.back().get());
  }
}

template <class Body>
void CpuBackend::run(const Body& body, uint32_t n) {
  // NOTE: another backend may have changed the thread count since; there is one buffer per thread.
  omp_set_num_threads(static_cast<int>(threads()));
  thrust::for_each_n(thrust::omp::par, thrust::counting_iterator<uint32_t>(0), n, body);
}

void CpuBackend::run_batch(uint32_t first, uint32_t n, ReplicaOutcome* out) {
  run(RunReplica{m_, by_thread_.data(), first, nullptr, out}, n);
}

void CpuBackend::run_listed(const std::vector<uint32_t>& replicas, ReplicaOutcome* out) {
  run(RunReplica{m_, by_thread_.data(), 0, replicas.data(), out},
      static_cast<uint32_t>(replicas.size()));
}

uint32_t peak_job_slots(const ModelView& m, uint32_t replica) {
  ReplicaBuffers buffers(m, 0);
  run_replica(m, buffers.state, replica);
  return buffers.state.totals.saturation == SaturationCause::none ? buffers.state.n_fresh_slots : 0;
}

}  // namespace gpuplan
