#pragma once
//! The self-contained HTML report: summary, key figures, charts, tables, scenario and warnings.
#include <nlohmann/json.hpp>

#include <string>

#include "reports/assessment.h"  // assess(): the verdicts the page shows, for result.json

namespace gpuplan::reports {

//! Renders `result` (the result.json document, docs/outputs.md) as one HTML file built from
//! reports/assets/report.html: the result, with `assessment` = assess(result), is the page's JSON
//! data island and report.js builds the DOM from it with textContent and attribute setters only.
//! The page opens offline and makes no network request (Chart.js is inlined; a
//! Content-Security-Policy allows only the page's own inline scripts, by hash, and no fetch).
//! Any key may be absent: what is present is shown. Never throws for a malformed result.
[[nodiscard]] std::string render_html_report(const nlohmann::json& result);

}  // namespace gpuplan::reports
