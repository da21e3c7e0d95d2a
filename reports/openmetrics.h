#pragma once
//! The simulated time series of a result (result.json `timeseries`, and `bands` for Monte Carlo)
//! as OpenMetrics text with timestamps, for `promtool tsdb create-blocks-from openmetrics`
//! (docs/metrics.md).
#include <cstdint>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

namespace gpuplan::reports {

//! The metric families the export writes, each `gpuplan_<name>`; the Grafana dashboard and the
//! alert rules query only these.
inline constexpr std::string_view OPENMETRICS_FAMILIES[] = {
    "gpuplan_busy_gpus",   "gpuplan_provisioned_gpus", "gpuplan_gpu_utilization_ratio",
    "gpuplan_queued_jobs", "gpuplan_spend_usd",        "gpuplan_power_watts"};

//! Writes the time series of `result` as OpenMetrics text ending in `# EOF`. Every sample is
//! stamped at the end of its bin (the moment its average or total is known): `start_unix_s`
//! [s since 1970-01-01 UTC] + bin start + bin width. Every series carries the label
//! `scenario="<result.scenario>"`; with Monte Carlo bands a `statistic` label says which
//! (`mean`, `p10`, `p50`, `p90` across replications). Non-finite values and bins with no
//! provisioned GPU (for the utilization ratio) are left out, not written as NaN.
void write_openmetrics(const nlohmann::json& result, int64_t start_unix_s, std::ostream& out);

}  // namespace gpuplan::reports
