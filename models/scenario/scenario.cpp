#include "models/scenario/scenario.h"

#include <stdexcept>

namespace gpuplan {

const GpuSpec& Scenario::gpu_of(const Pool& pool) const {
  if (pool.gpu == nullptr)
    throw std::logic_error("scenario: pool \"" + pool.name + "\" has no resolved GPU");
  return *pool.gpu;
}

}  // namespace gpuplan
