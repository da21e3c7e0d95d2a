#pragma once
//! Energy and carbon of a study (docs/energy.md, result.json "energy"): each replication's kWh,
//! tCO2e and power cost per pool and per job class from the busy and provisioned GPU-seconds the
//! engine keeps, with statistics across the replications like every other metric.
#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "sim/mc_run.h"
#include "study/summary.h"

namespace gpuplan::study {

//! Fills `s.energy` (means over the replications in statistics of `st`) and `s.energy_stats`
//! ("energy.kwh", "energy.per_pool.<pool>.tco2e", "energy.per_class.<class>.kwh", ...). Needs
//! `s.stats` filled first: an hourly grid series is weighted by the mean power per time bin.
void summarize_energy(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                      Summary& s);

}  // namespace gpuplan::study
