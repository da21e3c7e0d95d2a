#pragma once
//! The name tables of the closed sets the engine defines (sim/core/types.h and its specs): queue
//! policy, placement, reclaim, distribution, failure scope and drain policy. Apart from
//! models/input/names.h so that the stages that read only prices and plans do not see the engine.
#include "models/input/names.h"
#include "sim/core/maintenance_spec.h"
#include "sim/core/team_spec.h"
#include "sim/core/types.h"

namespace gpuplan {

GPUPLAN_ENUM_NAMES(QueuePolicy, "queue policy", "fifo", "backfill", "sjf", "srtf", "las",
                   "fair_share", "fifo_perf", "max_min_fairness_perf");
GPUPLAN_ENUM_NAMES(Placement, "placement", "best_fit", "pack", "spread", "topology_aware");
GPUPLAN_ENUM_NAMES(ReclaimPolicy, "reclaim policy", "any", "lower_priority", "never");
GPUPLAN_ENUM_NAMES(DistKind, "distribution", "fixed", "exponential", "uniform", "lognormal",
                   "loguniform", "empirical");
GPUPLAN_ENUM_NAMES(FailureScope, "failure scope", "node", "job", "switch");
GPUPLAN_ENUM_NAMES(DrainPolicy, "drain policy", "checkpoint", "kill", "wait");

}  // namespace gpuplan
