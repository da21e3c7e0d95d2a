#pragma once
//! `gpuplan run` as a library call: one replication of a compiled scenario, summarised as the
//! N = 1 case of a study (every statistic a mean without spread).
#include <cstddef>
#include <cstdint>
#include <functional>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "sim/single_run.h"
#include "study/summary.h"

namespace gpuplan::study {

//! How to run one replication.
struct RunOptions {
  JobRecordSink jobs;        //!< per-job records, streamed as jobs finish; empty = none kept
  uint32_t replica_idx = 0;  //!< which replication (Monte Carlo replica k is replica_idx = k)
};

//! Runs replication `o.replica_idx` of `cs` (compiled from `sc`) on this process and summarises
//! it: info.replications = 1, no spread, `single` holds the replication. Quantiles come from the
//! sketch (sim/core/sketch.h), as in Monte Carlo.
[[nodiscard]] Summary run(const Scenario& sc, const CompiledScenario& cs, const RunOptions& o = {});

}  // namespace gpuplan::study
