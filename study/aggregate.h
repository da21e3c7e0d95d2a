#pragma once
//! From the replications of a study to its Summary: the one place every study (run, mc, sweep
//! point, recommend probe, compare side) turns outcomes into statistics, TCO and warnings.
#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan::study {

//! The Summary of the replications in `st` of `cs` (compiled from `sc`), with `info` as given
//! (its `replications` is set from `st`). `single`, when given, is the one replication of `st`
//! run alone with its state kept (study::run).
[[nodiscard]] Summary aggregate(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                                StudyInfo info, std::shared_ptr<const SingleRun> single = nullptr);

}  // namespace gpuplan::study
