#pragma once
//! A finished replica's headline numbers (result contract, ARCHITECTURE.md §5), extracted on the host.
#include <vector>

#include "sim/core/state.h"

namespace gpuplan {

//! Mean and percentiles of a duration [s]; zero when no job completed.
struct DurationStats {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

//! Counts and durations of one job class over the statistics window.
struct ClassMetrics {
  uint64_t submitted = 0, completed = 0, unfinished = 0;
  DurationStats wait_s, jct_s;
};

//! Per-pool figures over the statistics window.
struct PoolMetrics {
  double gpu_utilization = 0;  //!< busy / provisioned GPU-seconds
  double cost_usd = 0;
};

//! Everything result.json reports for one replica.
struct ReplicaMetrics {
  uint64_t jobs_submitted = 0, jobs_completed = 0, jobs_unfinished = 0;
  DurationStats wait_s, jct_s;
  double gpu_utilization = 0;    //!< busy GPU-s / provisioned GPU-s over [warmup, horizon)
  double mean_queued_jobs = 0;   //!< time-average queue length over the window
  double mean_jobs_in_system = 0;
  double cost_usd = 0;
  bool saturated = false;
  SaturationCause saturation = SaturationCause::none;
  double saturated_at_s = 0;
  uint64_t events = 0;
  bool exact_quantiles = false;  //!< from per-job records (true) or the log histogram (false)
  std::vector<PoolMetrics> pools;
  std::vector<ClassMetrics> classes;
};

//! Extracts metrics; quantiles are exact when the per-job sink captured every job, else they come
//! from the log histogram (bins 2.5% wide, interpolated inside a bin).
ReplicaMetrics extract_metrics(const ModelView& m, const ReplicaState& s);

//! Quantile q in [0, 1] of histogram `counts` (HIST_BINS bins); 0 when empty.
double histogram_quantile(const uint32_t* counts, double q);

//! Quantile q in [0, 1] of sorted values with linear interpolation (Hyndman-Fan type 7).
double sorted_quantile(const std::vector<double>& sorted, double q);

//! Name of a saturation cause for outputs ("none", "queue_overflow", "event_overflow").
const char* saturation_name(SaturationCause c);

}  // namespace gpuplan
