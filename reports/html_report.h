#pragma once
//! The self-contained HTML report: summary, key figures, charts, tables, scenario and warnings.
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace gpuplan::reports {

//! Renders `result` (the result.json document as reports::result_json builds it, docs/outputs.md)
//! as one HTML file built from reports/assets/report.html: the result, with the `assessment` it
//! carries (computed once, by result_json), is the page's JSON data island, and report.js builds
//! the DOM from it with textContent and attribute setters only; a topology drawing that is not
//! already sanitized is sanitized (sanitize_svg) on the way in.
//! The page opens offline and makes no network request (Chart.js is inlined; a
//! Content-Security-Policy allows only the page's own inline scripts, by hash, and no fetch).
//! Any key may be absent: what is present is shown. Never throws for a malformed result.
[[nodiscard]] std::string render_html_report(const nlohmann::json& result);

//! The same page, with `result_text` the serialised `result` (result.json as written, any
//! indentation): the island is made from that text, so the result is serialised once per command.
[[nodiscard]] std::string render_html_report(const nlohmann::json& result,
                                             std::string_view result_text);

}  // namespace gpuplan::reports
