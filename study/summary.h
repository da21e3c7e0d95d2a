#pragma once
//! The one typed answer of every study (run, mc, sweep point, recommend, compare): statistics per
//! metric path across the replications, the time series and bands, pooled histograms, the TCO
//! projection, warnings and how the study ran. reports/result_json.h writes it as result.json.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/mc_run.h"
#include "sim/mc_stats.h"
#include "sim/mc_summary.h"
#include "sim/single_run.h"
#include "study/energy_summary.h"
#include "study/tco_result.h"

namespace gpuplan::study {

//! One figure across the replications: its mean, and its spread only when there is one.
struct Statistic {
  //! The 95% CI of the mean and the percentiles across replications (docs/monte-carlo.md).
  struct Spread {
    double ci95_low = 0, ci95_high = 0;
    double p05 = 0, p50 = 0, p95 = 0;
  };
  uint64_t n = 0;  //!< replications summarised
  double mean = 0;
  std::optional<Spread> spread;  //!< absent when the study has one replication (N = 1)
};

//! The statistic of `m`, with its spread when the study `has_spread` (more than one replication).
[[nodiscard]] Statistic statistic_of(const MetricSummary& m, bool has_spread);

//! How the study was asked for and how it ran.
struct StudyInfo {
  uint32_t replications = 1;            //!< replications run (N)
  uint32_t replications_requested = 1;  //!< --replications
  uint32_t max_replications = 0;        //!< --max-replications (with a CI target)
  double target_ci_rel = 0;             //!< --target-ci (0 = none)
  bool target_requested = false;
  bool target_met = false;
  McBackend backend = McBackend::cpu;
  std::string device;  //!< "2 threads", the GPU's name, "4 processes x 2 threads"
  uint32_t processes = 1;
  uint32_t batch_size = 1;
  uint32_t batches = 1;
  std::size_t bytes_per_replica = 0;  //!< [bytes]
  bool monte_carlo = false;           //!< a Monte Carlo study (mc, sweep point, recommend)
};

//! The answer of a study. Only the process that holds the study (MPI rank 0, or the only one) has
//! a filled Summary; `held` is false elsewhere and every other field is empty.
struct Summary {
  bool held = true;
  StudyInfo info;
  //! Per metric path (sim/mc_metrics.h): every replication's row, the statistics across the
  //! replications in statistics, mean time series, bands, uplink loads.
  McSummary stats;
  //! Each replication's saturation cause (replicas.csv).
  std::vector<SaturationCause> saturation;
  //! Wait / JCT quantile sketches [n_classes * SKETCH_BINS] (sim/core/sketch.h) pooled over the
  //! replications in statistics.
  std::vector<uint64_t> wait_hist, jct_hist;
  //! N = 1 (study::run): the replication itself, whose state holds the run-only detail (
  //! quantiles, billing, per-pool and per-class preemption, placement).
  std::shared_ptr<const SingleRun> single;
  //! The TCO projection (docs/outputs.md, "tco"): means over the replications in statistics;
  //! absent when the scenario has no `tco` section.
  std::optional<TcoProjection> tco;
  //! Statistics of TCO figures across replications ("tco.options.<name>.npv_usd", ...).
  std::vector<std::pair<std::string, Statistic>> tco_stats;
  //! Those of them a comparison pairs ("tco.options.<name>.npv_usd", ".total_usd"): each
  //! replication's value, in the order of stats.in_statistics.
  std::vector<std::pair<std::string, std::vector<double>>> tco_values;
  //! Energy and carbon (docs/energy.md, result.json "energy"): means over the replications;
  //! absent when the study has no replication in statistics or no pool.
  std::optional<EnergySummary> energy;
  //! Statistics of energy figures across replications ("energy.kwh", ...).
  std::vector<std::pair<std::string, Statistic>> energy_stats;
  //! [kW] facility power per time bin (result.json timeseries.power_kw): the energy model applied
  //! to each bin's busy and provisioned GPUs, mean over the replications in statistics.
  std::vector<double> power_kw;
  Band power_band;  //!< p10/p50/p90 of power_kw across the replications in statistics
  std::vector<std::string> warnings;  //!< what a reader must see, in order

  //! The statistic of a metric path; throws std::out_of_range when there is no such path.
  [[nodiscard]] Statistic stat(const std::string& path) const;
  //! The mean of a metric path; throws std::out_of_range when there is no such path.
  [[nodiscard]] double mean(const std::string& path) const { return stats.at(path).mean; }
};

}  // namespace gpuplan::study
