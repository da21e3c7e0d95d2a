#pragma once
//! compare.json and compare.html of `gpuplan compare A B` (docs/outputs.md, "Comparisons").
#include <string>

#include <nlohmann/json.hpp>

#include "models/scenario/scenario.h"
#include "study/compare.h"

namespace gpuplan::reports {

//! The comparison document: both scenarios, the seed they share, the replications paired, and
//! per headline metric the means of A and B, the paired difference B - A with its 95% CI, the
//! unpaired CI for reference and whether the difference is significant. `c` must be held.
[[nodiscard]] nlohmann::json compare_json(const Scenario& a, const Scenario& b,
                                          const study::Comparison& c);

//! The comparison page (reports/assets/compare.html): compare.json `doc` as its data island, the
//! table built by compare.js with textContent only, under the pages' strict hash-based CSP.
[[nodiscard]] std::string render_compare_html(const nlohmann::json& doc);

}  // namespace gpuplan::reports
