#include "sim/single_run.h"

#include <stdexcept>

#include "sim/core/engine.h"

namespace gpuplan {

SingleRun run_single(const ModelView& m, const JobRecordSink& sink, uint32_t replica_idx) {
  // NOTE: one instant finishes at most every active job, so draining whenever fewer than
  // max_active_jobs slots are left means the engine never finds the buffer full.
  const uint32_t capacity = sink ? RECORD_CHUNK + m.max_active_jobs : 0;
  SingleRun out;
  out.buffers = std::make_unique<ReplicaBuffers>(m, capacity);
  ReplicaState& s = out.buffers->state;
  const auto drain = [&] {
    if (s.n_records > 0) sink(s.records.data, s.n_records);
    s.n_records = 0;
  };
  init_replica(m, s, replica_idx);
  while (step(m, s)) {
    if (s.n_records >= RECORD_CHUNK) drain();
  }
  end_replica(m, s);
  drain();
  if (s.records_truncated) throw std::logic_error("run_single: the per-job buffer overflowed");
  out.metrics = extract_metrics(m, s);
  return out;
}

}  // namespace gpuplan
