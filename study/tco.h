#pragma once
//! The TCO projection (docs/outputs.md, "tco"): monthly cost of cloud, on-prem and hybrid plans
//! for the demand a study measured, grown per month, with cumulative cost, NPV and break-even.
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"
#include "study/tco_result.h"

namespace gpuplan::study {

//! The projection for the demand measured in one replication's window (its GPU-hours `all` and
//! busy GPU-seconds per pool); the scenario must have a `tco` section.
[[nodiscard]] TcoProjection tco_projection(const Scenario& sc, const CompiledScenario& cs,
                                           const GpuHours& all,
                                           const std::vector<double>& pool_busy_gpu_s);

//! Sets `cheapest_by_npv` of a projection (the option with the lowest NPV among those that serve
//! the demand; at equal NPVs the first by name), and `cheapest_note` saying why when there is none.
void choose_cheapest(TcoProjection& tco);

//! Fills `s.tco` and `s.tco_stats` from the replications in statistics of `st`: each gives its own
//! projection; figures are means, with a p10/p50/p90 band per month on cumulative cost when there
//! are several; break-even is the median month (null when half or more never break even); NPV and
//! total cost per option get a statistic. Leaves `s.tco` empty without a `tco` section.
void summarize_tco(const Scenario& sc, const CompiledScenario& cs, const McStudy& st, Summary& s);

}  // namespace gpuplan::study
