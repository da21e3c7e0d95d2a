#pragma once
//! A replica's metrics as a flat row of named paths ("metrics.wait_s.mean", "cost_usd.total",
//! "per_pool.<pool>.gpu_utilization", "per_class.<class>.wait_s.p90", ...): the keys of the Monte
//! Carlo `summary` and the columns of replicas.csv, in one fixed order.
#include <string>
#include <vector>

#include "sim/replica_metrics.h"

namespace gpuplan {

//! The metric paths of a model with these pool and class names (docs/outputs.md, replicas.csv).
//! Failure causes (CompiledScenario::cause_names) add "failures.by_cause.<cause>", then teams
//! (CompiledScenario::team_names) "per_team.<team>.*" (TEAM_KEYS), then with `maintenance`
//! (windows in the model) "maintenance.*" (MAINTENANCE_KEYS), then with `fractional` (milli-GPU
//! pools in the model) "sharing.jobs_waited_for_room", then with `shared` (a pool shares its GPUs)
//! "metrics.compute_used" and "per_pool.<pool>.compute_used", then with `followed` (an arrival
//! window followed to completion, follows_arrivals) "metrics.jct_mean_lower_bound_s" and
//! "per_class.<class>.jct_mean_lower_bound_s" at the end.
[[nodiscard]] std::vector<std::string> metric_paths(
    const std::vector<std::string>& pool_names, const std::vector<std::string>& class_names,
    const std::vector<std::string>& cause_names = {},
    const std::vector<std::string>& team_names = {}, bool maintenance = false,
    bool fractional = false, bool shared = false, bool followed = false);

//! The maintenance paths' keys, in row order (docs/outputs.md).
inline const char* const MAINTENANCE_KEYS[] = {"node_windows", "interruptions", "lost_gpu_hours",
                                               "node_hours", "gpu_hours"};

//! The values of one replica in metric_paths order (the maintenance paths when `m` has
//! windows, the sharing path when it has fractional pools, the compute used when a pool shares
//! its GPUs: compute jobs used / provisioned GPU-seconds); `metrics.saturated` is 0 or 1,
//! `cost_usd.per_gpu_hour` divides by the GPU-hours billed over [warmup, horizon), and ratios
//! with nothing to divide by (no job completed) are 0, as in result.json.
[[nodiscard]] std::vector<double> metric_row(const ModelView& m, const ReplicaMetrics& r);

//! Indices of the headline metrics in a row (the ones --target-ci converges).
struct HeadlineIndex {
  static constexpr std::size_t WAIT_MEAN = 3;         //!< metrics.wait_s.mean
  static constexpr std::size_t JCT_MEAN = 7;          //!< metrics.jct_s.mean
  static constexpr std::size_t GPU_UTILIZATION = 11;  //!< metrics.gpu_utilization
  static constexpr std::size_t SATURATED = 15;        //!< metrics.saturated
  static constexpr std::size_t COST_TOTAL = 16;       //!< cost_usd.total
};

//! Paths of the headline metrics, as in `summary`.
inline const char* const HEADLINE_PATHS[] = {"metrics.wait_s.mean", "metrics.jct_s.mean",
                                             "metrics.gpu_utilization", "cost_usd.total"};

}  // namespace gpuplan
