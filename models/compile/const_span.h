#pragma once
//! A read-only core span over a host vector: how the compile stage hands its arrays to sim/core/.
#include <vector>

#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! A read-only core span over a host vector (valid while the vector is not resized).
template <class T>
[[nodiscard]] span<const T> const_span(const std::vector<T>& v) {
  return {v.data(), static_cast<uint32_t>(v.size())};
}

}  // namespace gpuplan
