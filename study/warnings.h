#pragma once
//! Warnings a reader of a study must see (docs/outputs.md, "warnings"): saturation, offered load
//! at or above capacity, stale prices, censored jobs and an unmet CI target.
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan::study {

//! The warnings of `s` (a filled Summary of the study of `sc`): for one replication its own
//! saturation and censored jobs; for several the share of replications that saturated, the mean
//! number of censored jobs and an unmet --target-ci; for both the scenario's offered load and
//! stale prices.
[[nodiscard]] std::vector<std::string> study_warnings(const Scenario& sc,
                                                      const CompiledScenario& cs, const Summary& s);

}  // namespace gpuplan::study
