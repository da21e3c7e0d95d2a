#pragma once
//! The distribution of typical pod shapes FGD measures fragmentation against (Weng et al.,
//! ATC'23, §4.1): pods grouped by (CPU, GPU count, milli-GPU, GPU-model constraint), CPU-only
//! pods included; the most frequent shapes are taken, `step` at a time, until they cover
//! `popularity` of all pods, and their frequencies renormalised to sum to 1 (the artifact's
//! GetTypicalPods with the experiment's isInvolvedCpuPods = true, podPopularityThreshold = 95,
//! podIncreaseStep = 1). Host-side.
#include <cstdint>
#include <vector>

#include "sim/sharing/fragmentation.h"

namespace gpuplan::sharing {

//! Typical shapes of `pods`, most frequent first (ties: smaller CPU, then GPU count, milli, model
//! mask); memory is not part of a shape. Empty for no pods. `popularity` in (0, 1].
[[nodiscard]] std::vector<TypicalShape> typical_shapes(const std::vector<PodShape>& pods,
                                                       double popularity = 0.95, uint32_t step = 1);

}  // namespace gpuplan::sharing
