#pragma once
//! One replica on the host, optionally streaming its per-job records: what `gpuplan run` does.
#include <cstddef>
#include <functional>
#include <memory>

#include "sim/replica_buffers.h"
#include "sim/replica_metrics.h"

namespace gpuplan {

//! Receives finished jobs in completion order, warmup included, a chunk at a time; the records
//! are valid only during the call.
using JobRecordSink = std::function<void(const JobRecord* records, std::size_t n)>;

//! A finished replica: its state (time bins, quantile sketches, totals) and its metrics.
struct SingleRun {
  std::unique_ptr<ReplicaBuffers> buffers;
  ReplicaMetrics metrics;
  [[nodiscard]] const ReplicaState& state() const { return buffers->state; }
};

//! Records a single run buffers between drains into the sink: at least RECORD_CHUNK, plus room
//! for every active job to finish at one instant. NOTE: 8,192 records (320 KiB): with 65,536 the
//! same 5 M-row run peaked 9 MB higher and used 4 % more CPU (docs/performance.md).
inline constexpr uint32_t RECORD_CHUNK = 1u << 13;

//! Runs replica `replica_idx` of the model. With a sink, every finished job is handed to it
//! through a fixed buffer of RECORD_CHUNK + max_active_jobs records, drained as it fills; an
//! empty sink keeps no records. Memory is O(active jobs + time bins), never O(jobs simulated).
//! Exceptions thrown by the sink propagate.
SingleRun run_single(const ModelView& m, const JobRecordSink& sink = {}, uint32_t replica_idx = 0);

}  // namespace gpuplan
