#pragma once
//! One replica on the host, with the per-job sink on: what `gpuplan run` does.
#include <memory>

#include "sim/replica_buffers.h"
#include "sim/replica_metrics.h"

namespace gpuplan {

//! A finished replica: its state (time series, records) and its extracted metrics.
struct SingleRun {
  std::unique_ptr<ReplicaBuffers> buffers;
  ReplicaMetrics metrics;
  [[nodiscard]] const ReplicaState& state() const { return buffers->state; }
};

//! Runs replica `replica_idx` of the model, keeping up to `record_capacity` per-job records.
SingleRun run_single(const ModelView& m, uint32_t record_capacity, uint32_t replica_idx = 0);

}  // namespace gpuplan
