#pragma once
//! A replica's metrics as a flat row of named paths ("metrics.wait_s.mean", "cost_usd.total",
//! "per_pool.<pool>.gpu_utilization", "per_class.<class>.wait_s.p90", ...): the keys of the Monte
//! Carlo `summary` and the columns of replicas.csv, in one fixed order. Each metric is registered
//! once (sim/mc_metrics.cpp): its path, its unit and how its value is read from a replica, so the
//! paths and the values of a row come from one table and cannot fall out of step.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/replica_metrics.h"

namespace gpuplan {

//! What a metric's number is, as docs/outputs.md states it.
enum class MetricUnit : uint8_t {
  count,             //!< jobs, events, preemptions, nodes: a whole number per replica
  flag,              //!< 0 or 1 (metrics.saturated)
  seconds,           //!< [s]
  share,             //!< a ratio, 0..1 (utilization, cost share) or a factor (comm slowdown)
  mean_count,        //!< a time-averaged or per-job count (queued jobs, GPUs, restarts per job)
  usd,               //!< [USD]
  usd_per_gpu_hour,  //!< [USD per GPU-hour]
  gpu_hours,         //!< [GPU-h]
  node_hours,        //!< [node-h]
};

//! What a metric is measured over: the whole replica, or one pool, class, team or failure cause
//! (its path then names it where the `*` stands).
enum class MetricScope : uint8_t { replica, pool, job_class, team, cause };

//! Which models carry a metric: every one, or only those with the feature.
enum class MetricFeature : uint8_t { always, maintenance, fractional, shared, followed };

//! One registered metric: `path` with `*` for the pool, class, team or cause name; `read` gives
//! its value in a replica (`i`: the pool, class, team or cause index; 0 for the replica scope).
struct MetricDef {
  const char* path;
  MetricUnit unit;
  double (*read)(const ReplicaMetrics& r, uint32_t i);
};

//! The features of a model that add metrics (MetricFeature).
struct MetricFeatures {
  bool maintenance = false;  //!< maintenance windows: "maintenance.*"
  bool fractional = false;   //!< milli-GPU pools: "sharing.jobs_waited_for_room"
  bool shared = false;       //!< a pool shares its GPUs: "metrics.compute_used", per pool
  bool followed = false;     //!< arrivals followed to completion: "*.jct_mean_lower_bound_s"
};

//! The features of model `m`.
[[nodiscard]] MetricFeatures metric_features(const ModelView& m);

//! The names the metric paths carry, in model order.
struct MetricNames {
  std::vector<std::string> pools, classes;
  std::vector<std::string> causes = {};  //!< failure causes (CompiledScenario::cause_names)
  std::vector<std::string> teams = {};   //!< teams (CompiledScenario::team_names)
};

//! One column of a metric row: its path and unit.
struct MetricColumn {
  std::string path;
  MetricUnit unit;
};

//! The metric columns of a model with these names and features (docs/outputs.md, replicas.csv):
//! the replica's metrics, per pool, per class, failures, per cause, per team, then those of each
//! feature the model has.
[[nodiscard]] std::vector<MetricColumn> metric_columns(const MetricNames& names,
                                                       const MetricFeatures& features = {});

//! The paths of metric_columns().
[[nodiscard]] std::vector<std::string> metric_paths(const MetricNames& names,
                                                    const MetricFeatures& features = {});

//! The values of one replica in metric_paths order (the features of `m`); `metrics.saturated`
//! is 0 or 1, `cost_usd.per_gpu_hour` divides by the GPU-hours billed over [warmup, horizon),
//! and ratios with nothing to divide by (no job completed) are 0, as in result.json.
[[nodiscard]] std::vector<double> metric_row(const ModelView& m, const ReplicaMetrics& r);

//! The values of one replica of a model with `features`, in metric_paths order.
[[nodiscard]] std::vector<double> metric_row(const MetricFeatures& features,
                                             const ReplicaMetrics& r);

//! Indices of the headline metrics in a row (the ones --target-ci converges); the registry
//! checks them at compile time.
struct HeadlineIndex {
  static constexpr std::size_t WAIT_MEAN = 3;         //!< metrics.wait_s.mean
  static constexpr std::size_t JCT_MEAN = 7;          //!< metrics.jct_s.mean
  static constexpr std::size_t GPU_UTILIZATION = 11;  //!< metrics.gpu_utilization
  static constexpr std::size_t SATURATED = 15;        //!< metrics.saturated
  static constexpr std::size_t COST_TOTAL = 16;       //!< cost_usd.total
};

//! Paths of the headline metrics, as in `summary`.
inline constexpr const char* HEADLINE_PATHS[] = {"metrics.wait_s.mean", "metrics.jct_s.mean",
                                                 "metrics.gpu_utilization", "cost_usd.total"};

}  // namespace gpuplan
