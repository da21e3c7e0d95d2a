#pragma once
//! The per-job record the CSV writer reads: the core's own JobRecord (sim/core/state.h).
#include <cstdint>
#include <limits>

#include "sim/core/state.h"

namespace gpuplan::reports {

using gpuplan::JobRecord;

//! `pool_idx` of a job that never started, so it ran in no pool.
inline constexpr uint32_t NO_POOL = gpuplan::NONE;
//! `start_s` / `finish_s` of a job that had not started / finished by the horizon.
inline constexpr double NOT_REACHED = std::numeric_limits<double>::infinity();

}  // namespace gpuplan::reports
