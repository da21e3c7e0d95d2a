#pragma once
//! What the verdicts of a run or Monte Carlo study rest on (reports/assessment.h), gathered once
//! from the typed study: the scenario, its compiled form and its Summary. result.json writes the
//! same figures (docs/outputs.md); the assessment never reads them back from it. A figure the
//! study lacks or that is not finite is absent (nullopt), as result.json writes it null.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan::reports {

//! Mean, p50, p90 and p99 of a duration [s] (wait or completion time).
struct DurationFacts {
  std::optional<double> mean, p50, p90, p99;
  bool operator==(const DurationFacts&) const = default;
};

//! One pool as the sizing and pricing verdicts see it.
struct PoolFacts {
  std::string name, pricing;
  std::optional<double> nodes, gpus, gpu_utilization, cost_usd;
  std::optional<double> mean_nodes;         //!< time-averaged provisioned (billed) nodes
  std::optional<double> elastic_min_nodes;  //!< set for elastic pools only
  bool operator==(const PoolFacts&) const = default;
};

//! The failure model's window totals (docs/failures.md).
struct FailureFacts {
  double failures = 0, interruptions = 0, spares = 0, spare_swaps = 0;
  std::optional<double> expected_failures, lost_gpu_hours, down_gpu_hours;
  std::optional<double> effective_training_time, spare_utilization;
  //! Causes that struck at least once, most first (ties by name).
  std::vector<std::pair<std::string, double>> by_cause;
  bool operator==(const FailureFacts&) const = default;
};

//! A pool's allocation beside its compute used, where some pool shares its GPUs (docs/sharing.md).
struct SharedPoolFacts {
  std::string name, sharing;  //!< sharing: whole, mig, time_sliced or fractional
  std::optional<double> allocation, compute_used;
  bool operator==(const SharedPoolFacts&) const = default;
};

//! One option of the TCO projection (docs/tco.md).
struct TcoOptionFacts {
  std::string name;
  bool serves_demand = true;
  std::optional<double> npv_usd, unserved_gpu_hours;  //!< absent for an option without costs
  std::optional<double> stops_keeping_up_month, runs_out_month;
  //! The option's simulated months (absent when it was not simulated).
  std::optional<double> simulated_stops_keeping_up_month, simulated_runs_out_month;
  bool operator==(const TcoOptionFacts&) const = default;
};

//! The TCO projection's options and its choice; present only when it compared options.
struct TcoFacts {
  std::vector<TcoOptionFacts> options;  //!< by name, as result.json's tco.options lists them
  std::string cheapest_by_npv;          //!< "" when none serves the demand with a cost
  std::string cheapest_note;            //!< why there is no cheapest
  std::optional<double> cheapest_break_even_month;  //!< the cheapest's against all-cloud
  std::optional<double> months;
  std::string caveat;  //!< a saturated fleet's, else ""
  bool operator==(const TcoFacts&) const = default;
};

//! What the verdicts of a run or Monte Carlo study read: its headline figures, pools, confidence
//! intervals, TCO options, failures, shared pools and warnings.
struct ResultFacts {
  int64_t replications = 1;
  std::optional<double> window_s, util, offered, cost_total, cost_per_gpu_hour;
  //! The most GPUs the pools may hold, and their time average over the window.
  std::optional<double> gpus, gpus_mean;
  //! The busiest week's offered load, and the month (730 h) demand first reaches capacity.
  std::optional<double> peak_offered, reaches_month;
  //! GPUs of the pools the offered load and the peak week are measured against.
  std::optional<double> offered_pool_gpus, peak_pool_gpus;
  std::optional<double> smallest_job_gpus;  //!< the fewest GPUs any job asks for (0: shared GPUs)
  std::optional<double> jobs_submitted, jobs_unfinished;
  DurationFacts wait, jct;
  double saturated_share = 0;  //!< share of replicas that could not keep up, 0..1
  std::string saturation_cause, queue;
  std::vector<PoolFacts> pools;
  //! Half-widths of the 95% confidence intervals (Monte Carlo studies only).
  std::optional<double> wait_mean_ci, util_ci, cost_total_ci;
  std::optional<TcoFacts> tco;
  std::optional<FailureFacts> failures;
  std::vector<SharedPoolFacts> shared_pools;  //!< empty unless some pool shares its GPUs
  std::vector<std::string> warnings;
  bool operator==(const ResultFacts&) const = default;
};

//! The facts of the study `s` of `cs` (compiled from `sc`); `s` must be held.
[[nodiscard]] ResultFacts result_facts(const Scenario& sc, const CompiledScenario& cs,
                                       const study::Summary& s);

//! Provisioned GPUs over the window: time-averaged (per pool, billed nodes x GPUs per node) and
//! the most the pools may hold (an elastic pool's maximum).
struct ProvisionedGpus {
  double mean = 0, max = 0;
};
[[nodiscard]] ProvisionedGpus provisioned_gpus(const CompiledScenario& cs, const study::Summary& s);

//! Whether the study could not keep up: the share of replicas (a single run: 0 or 1) and the
//! cause. Demand at or above capacity, over the window or from some week of the horizon on,
//! counts in every replica, whether or not the engine stopped it: the one definition the
//! assessment, sweeps and recommend share (CompiledScenario::cannot_keep_up).
struct Saturation {
  double share = 0;
  std::string cause;
};
[[nodiscard]] Saturation saturation(const CompiledScenario& cs, const study::Summary& s);

//! Failures expected at the failure model's rates if every serving GPU (spares held back) served
//! the whole window; 0 without a failure model.
[[nodiscard]] double expected_failures(const Scenario& sc, const CompiledScenario& cs);

//! Hot spare nodes over all pools.
[[nodiscard]] double spare_nodes(const Scenario& sc);

//! The statistic of a metric path among the study's metrics, TCO and energy figures (result.json
//! `summary`); nullopt when it has no such path.
[[nodiscard]] std::optional<study::Statistic> summary_statistic(const study::Summary& s,
                                                                const std::string& path);

//! How a pool shares its GPUs, as result.json names it.
[[nodiscard]] const char* share_kind_name(ShareKind k);

}  // namespace gpuplan::reports
