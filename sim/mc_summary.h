#pragma once
//! A finished study reduced to what result.json reports: per-path statistics across replicas,
//! mean time series and p10/p50/p90 bands (docs/monte-carlo.md).
#include <string>
#include <vector>

#include "sim/mc_run.h"
#include "sim/mc_stats.h"

namespace gpuplan {

//! Statistics of a study.
struct McSummary {
  std::vector<std::string> paths;         //!< metric paths (sim/mc_metrics.h)
  std::vector<std::vector<double>> rows;  //!< [replica][path] every replica's values
  std::vector<MetricSummary> stats;       //!< [path] across the replicas in statistics
  uint32_t n_replicas = 0;
  uint32_t n_saturated = 0;
  std::vector<std::size_t> in_statistics;  //!< replicas the statistics cover
  bool statistics_over_all = false;        //!< every replica saturated, so all are used
  std::string saturation_cause = "none";   //!< most frequent cause among saturated replicas
  //! Means per time bin over the replicas in statistics.
  std::vector<double> busy_gpus, queued_jobs, spend_usd, provisioned_gpus;
  //! [n_teams][n_bins] GPUs each team held, means per time bin over the replicas in statistics.
  std::vector<std::vector<double>> team_gpus;
  //! Per uplink group, means over the replicas in statistics of uplink_window_means().
  std::vector<double> uplink_crossing_nodes, uplink_congested_share;
  //! Bands over the replicas in statistics; cumulative spend runs from time 0 (warmup included).
  Band busy_band, queued_band, cumulative_spend_band;

  //! Index of `path` in `paths`, or paths.size() when absent.
  [[nodiscard]] std::size_t index_of(const std::string& path) const;
  //! Statistics of `path`; throws std::out_of_range when absent.
  [[nodiscard]] const MetricSummary& at(const std::string& path) const;
};

//! Summarises a study. `metrics.saturated` is summarised over every replica (its mean is the share
//! that saturated); every other path over replicas_in_statistics().
[[nodiscard]] McSummary summarize_study(const ModelView& m, const McStudy& st,
                                        const std::vector<std::string>& pool_names,
                                        const std::vector<std::string>& class_names,
                                        const std::vector<std::string>& cause_names = {},
                                        const std::vector<std::string>& team_names = {});

}  // namespace gpuplan
