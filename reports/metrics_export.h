#pragma once
//! The files of an OpenMetrics export (`gpuplan run|mc --openmetrics`, docs/metrics.md): the
//! series for Prometheus, a Grafana dashboard that charts them, and alert rules on them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuplan::reports {

//! Where the export's series start when the user names no time: 2026-01-01T00:00:00Z [s].
inline constexpr int64_t METRICS_DEFAULT_START_UNIX_S = 1767225600;

//! `metrics.om` (write_openmetrics), `grafana_dashboard.json` (its time range set to the
//! series' span, its scenario variable to the result's scenario) and `prometheus_rules.yml`
//! (utilization below 85 %, a queue that does not drain), as (file name, content).
[[nodiscard]] std::vector<std::pair<std::string, std::string>> metrics_export(
    const nlohmann::json& result, int64_t start_unix_s);

//! A UTC time `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM:SSZ` as seconds since 1970-01-01 UTC; nullopt
//! when `text` is not one of those forms or names no real date.
[[nodiscard]] std::optional<int64_t> parse_utc_time(std::string_view text);

//! `unix_s` as `YYYY-MM-DDTHH:MM:SSZ`.
[[nodiscard]] std::string format_utc_time(int64_t unix_s);

}  // namespace gpuplan::reports
