#pragma once
//! The self-contained HTML page of a sweep (`sweep.html`): plain-words summary, the Pareto fronts
//! of cost against p90 wait and against GPU utilization, every point in a sortable table, and how
//! to reproduce the sweep.
#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::reports {

//! Renders `sweep` (the sweep.json document, docs/outputs.md) as one HTML file that opens offline
//! and makes no network request (Chart.js is inlined; a Content-Security-Policy blocks all
//! fetches). Links to each point's `point-<i>/report.html` are relative, so the page works where
//! the sweep's folder is copied whole. Every string from the document is HTML-escaped; chart data
//! is embedded as escaped JSON. Never throws for a malformed document: missing keys or values of
//! the wrong type are shown as "n/a" or left out.
[[nodiscard]] std::string render_sweep_html(const nlohmann::json& sweep);

}  // namespace gpuplan::reports
