#include "sim/replica_buffers.h"

namespace gpuplan {
ReplicaBuffers::ReplicaBuffers(const ModelView& m, uint32_t record_capacity) {
  const ReplicaLayout layout(m, record_capacity);
  block_.assign((layout.work_bytes + layout.result_bytes) / sizeof(uint64_t), 0);
  std::byte* base = reinterpret_cast<std::byte*>(block_.data());
  layout.carve(m, record_capacity, state, base, base + layout.work_bytes);
}

std::size_t ReplicaBuffers::bytes_per_replica(const ModelView& m, uint32_t record_capacity) {
  const ReplicaLayout layout(m, record_capacity);
  return layout.work_bytes + layout.result_bytes + sizeof(ReplicaState);
}

}  // namespace gpuplan
