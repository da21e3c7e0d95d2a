#include "sim/replica_buffers.h"

#include <new>

namespace gpuplan {
ReplicaBuffers::ReplicaBuffers(const ModelView& m, uint32_t record_capacity) {
  const ReplicaLayout layout(m, record_capacity);
  const std::size_t words = (layout.work_bytes + layout.result_bytes) / sizeof(uint64_t);
  block_.reset(static_cast<uint64_t*>(std::calloc(words > 0 ? words : 1, sizeof(uint64_t))));
  if (!block_) throw std::bad_alloc();
  std::byte* base = reinterpret_cast<std::byte*>(block_.get());
  layout.carve(m, record_capacity, state, base, base + layout.work_bytes);
}

std::size_t ReplicaBuffers::bytes_per_replica(const ModelView& m, uint32_t record_capacity) {
  const ReplicaLayout layout(m, record_capacity);
  return layout.work_bytes + layout.result_bytes + sizeof(ReplicaState);
}

}  // namespace gpuplan
