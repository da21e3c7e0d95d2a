#pragma once
//! Counter streams of the packing replays (sim/core/rng.h): Philox draws keyed by (seed, 0) with
//! these stream numbers, beside the engine's (sim/core/types.h, Stream, values 1..16 in use or
//! reserved there). A replay is its own study, never a replica of the engine, so the keys do not
//! meet the engine's draws.
#include "sim/core/types.h"

namespace gpuplan::sharing {

//! Random packing choices of shared-GPU pods (counter = pod).
inline constexpr Stream PACKING_STREAM = static_cast<Stream>(32);
//! Shuffled and resampled pod order of a packing replay (sub 0 = shuffle, 1 = resampling).
inline constexpr Stream POD_ORDER_STREAM = static_cast<Stream>(33);

}  // namespace gpuplan::sharing
