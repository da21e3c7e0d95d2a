#pragma once
//! compare.json and compare.html of `gpuplan compare A B` (docs/outputs.md, "Comparisons").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/compile/compiled_scenario.h"
#include "models/scenario/scenario.h"
#include "study/compare.h"

namespace gpuplan::reports {

//! One side of a comparison: its scenario as loaded, compiled, and the overrides it ran with:
//! `shared` (--set, both sides) then `own` (--set-a or --set-b).
struct CompareSide {
  const Scenario& sc;
  const CompiledScenario& cs;
  std::vector<std::string> shared, own;
};

//! The comparison document: both sides (scenario, label, overrides, warnings), the seed they
//! share, the replications paired, and per headline metric and TCO option the means of A and B,
//! the paired difference B - A with its 95% CI, the unpaired CI for reference and whether the
//! difference is significant; warnings when a side saturates or cannot keep up with its demand.
//! `c` must be held.
[[nodiscard]] nlohmann::json compare_json(const CompareSide& a, const CompareSide& b,
                                          const study::Comparison& c);

//! The comparison page (reports/assets/compare.html): compare.json `doc` as its data island, the
//! table built by compare.js with textContent only, under the pages' strict hash-based CSP.
[[nodiscard]] std::string render_compare_html(const nlohmann::json& doc);

}  // namespace gpuplan::reports
