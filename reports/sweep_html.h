#pragma once
//! The self-contained HTML page of a sweep (`sweep.html`): plain-words summary, the Pareto fronts
//! of cost against p90 wait and against GPU utilization, every point in a sortable table, and how
//! to reproduce the sweep.
#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::reports {

//! Renders `sweep` (the sweep.json document, docs/outputs.md) as one HTML file built from
//! reports/assets/sweep.html, with the document and the `assessment` it carries (computed once,
//! by reports::sweep_json) as the data island; sweep.js builds the DOM with textContent and
//! attribute setters only. Opens offline and makes no network request. Links to each point's
//! `point-<i>/report.html` are relative, so the page works where the sweep's folder is copied
//! whole. Never throws for a malformed document.
[[nodiscard]] std::string render_sweep_html(const nlohmann::json& sweep);

}  // namespace gpuplan::reports
