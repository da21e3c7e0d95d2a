#pragma once
//! One engine run of an in-memory scenario with its per-job records, for tests that check exact
//! start, finish and preemption times.
#include <algorithm>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "sim/single_run.h"

namespace gpuplan::test {

//! One run's records sorted by class, then arrival index, and its metrics.
struct Outcome {
  std::vector<JobRecord> jobs;
  ReplicaMetrics metrics;
};

//! Compiles `sc` and runs its one replica, keeping every job record.
inline Outcome run(const Scenario& sc) {
  const CompiledScenario cs = compile(sc);
  Outcome o;
  SingleRun r = run_single(cs.view(), [&o](const JobRecord* p, std::size_t n) {
    o.jobs.insert(o.jobs.end(), p, p + n);
  });
  std::sort(o.jobs.begin(), o.jobs.end(), [](const JobRecord& a, const JobRecord& b) {
    return a.class_idx != b.class_idx ? a.class_idx < b.class_idx : a.job_idx < b.job_idx;
  });
  o.metrics = r.metrics;
  return o;
}

}  // namespace gpuplan::test
