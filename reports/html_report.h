#pragma once
//! The self-contained HTML report: summary, key figures, charts, tables, scenario and warnings.
#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::reports {

//! Renders `result` (the result.json document, docs/outputs.md) as one HTML file that opens
//! offline and makes no network request (Chart.js is inlined; a Content-Security-Policy blocks
//! all fetches). Any key may be absent: what is present is shown, what is absent is omitted.
//! Every string from the result is HTML-escaped; chart data is embedded as escaped JSON.
//! Never throws for a malformed result; values of the wrong type are treated as absent.
[[nodiscard]] std::string render_html_report(const nlohmann::json& result);

}  // namespace gpuplan::reports
