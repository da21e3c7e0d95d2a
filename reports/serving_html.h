#pragma once
//! report.html of `gpuplan serve-sim`: key figures with their 95 % intervals, the latency table
//! and chart, the KV cache and batching, and what ran, built by reports/assets/serving.js from
//! the result (reports/serving_json.h) as the page's data island.
#include <nlohmann/json.hpp>

#include <string>

namespace gpuplan::reports {

//! The self-contained page of serving result `result`: opens offline, fetches nothing.
[[nodiscard]] std::string render_serving_html(const nlohmann::json& result);

}  // namespace gpuplan::reports
