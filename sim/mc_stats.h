#pragma once
//! Statistics across Monte Carlo replicas: means with 95% confidence intervals, percentiles,
//! per-bin percentile bands, convergence checks and paired (common-random-number) differences.
//! Definitions: docs/monte-carlo.md.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gpuplan {

//! One metric across replicas: mean with its 95% confidence interval, and the spread.
struct MetricSummary {
  uint64_t n = 0;  //!< replicas summarised
  double mean = 0;
  double stddev = 0;     //!< sample standard deviation (n - 1 in the denominator); 0 if n < 2
  double ci95_low = 0;   //!< mean - t * stddev / sqrt(n); equals the mean when n < 2
  double ci95_high = 0;  //!< mean + t * stddev / sqrt(n); equals the mean when n < 2
  double p05 = 0, p50 = 0, p95 = 0;  //!< type-7 percentiles across replicas

  //! Half-width of the confidence interval.
  [[nodiscard]] double half_width() const { return (ci95_high - ci95_low) / 2; }
};

//! 97.5% quantile of Student's t with `df` degrees of freedom (the two-sided 95% CI factor),
//! solved from the t distribution function (regularized incomplete beta) to 1e-12 for
//! df <= 1000, and the normal 1.959964 beyond (within 0.12% of t there). df = 0 gives +inf.
[[nodiscard]] double t_quantile_975(uint64_t df);

//! Type-7 (Hyndman-Fan, linear interpolation) quantile q in [0, 1] of `values` (any order); 0 when
//! empty.
[[nodiscard]] double quantile_type7(std::span<const double> values, double q);

//! Mean, 95% CI of the mean (Student t, n - 1 degrees of freedom) and p05/p50/p95 of `values`.
//! An empty input gives an all-zero summary with n = 0.
[[nodiscard]] MetricSummary summarize(std::span<const double> values);

//! CI of the mean of the replica-by-replica difference a[k] - b[k] (common random numbers: replica
//! k of both studies shares its random numbers); pairs the first min(|a|, |b|) replicas.
[[nodiscard]] MetricSummary paired_difference(std::span<const double> a, std::span<const double> b);

//! CI of mean(a) - mean(b) treating the studies as independent (Welch, Satterthwaite degrees of
//! freedom); the yardstick the paired interval is compared with. p05/p50/p95 are left 0.
[[nodiscard]] MetricSummary unpaired_difference(std::span<const double> a,
                                                std::span<const double> b);

//! True when the CI half-width is at most `rel` x |mean|; a mean of 0 counts as met (nothing to
//! resolve), fewer than 2 replicas as not met.
[[nodiscard]] bool ci_target_met(const MetricSummary& s, double rel);

//! p10, p50 and p90 per time bin across replicas.
struct Band {
  std::vector<double> p10, p50, p90;
};

//! Per-bin type-7 percentiles of `rows` (one row per replica, all of length n_bins).
[[nodiscard]] Band percentile_band(const std::vector<std::span<const double>>& rows,
                                   std::size_t n_bins);

}  // namespace gpuplan
