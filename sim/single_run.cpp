#include "sim/single_run.h"

#include "sim/core/engine.h"

namespace gpuplan {

SingleRun run_single(const ModelView& m, uint32_t record_capacity, uint32_t replica_idx) {
  SingleRun out;
  out.buffers = std::make_unique<ReplicaBuffers>(m, record_capacity);
  run_replica(m, out.buffers->state, replica_idx);
  out.metrics = extract_metrics(m, out.buffers->state);
  return out;
}

}  // namespace gpuplan
