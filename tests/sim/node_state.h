#pragma once
//! Test helper: a node's state in a replica, as the enum the engine stores as one byte.
#include <cstdint>

#include "sim/core/state.h"

namespace gpuplan::test {

[[nodiscard]] inline NodeState node_state(const ReplicaState& s, uint32_t node) {
  return static_cast<NodeState>(s.capacity.node_state[node]);
}

}  // namespace gpuplan::test
