#pragma once
//! Confidence intervals that respect a metric's lower bound of 0 (docs/monte-carlo.md, "Intervals
//! of non-negative metrics"): waits, costs, counts and shares are never negative, so neither is
//! the low end of their interval.
#include <cstdint>
#include <span>

#include "sim/mc_stats.h"
#include "sim/mc_summary.h"

namespace gpuplan::study {

//! Resamples the bootstrap takes of one metric.
inline constexpr uint32_t BOOTSTRAP_RESAMPLES = 4000;

//! The 95% percentile-bootstrap CI of the mean of `values` into `m` (its mean, stddev and
//! percentiles are kept): the 2.5% and 97.5% type-7 quantiles of the means of
//! BOOTSTRAP_RESAMPLES resamples with replacement, drawn from Philox4x32 keyed by (`seed`,
//! `metric`), so the interval is reproducible. Every resampled mean lies within [min, max] of
//! `values`, so the interval never leaves their range.
void bootstrap_ci(std::span<const double> values, uint64_t seed, uint32_t metric, MetricSummary& m);

//! Every metric of `s` whose replication values are all >= 0 but whose Student-t interval reaches
//! below 0 (few replications of a skewed figure) gets the percentile-bootstrap interval of
//! bootstrap_ci instead, over the same replications as its statistics. Other intervals are left
//! as they are.
void bound_nonnegative_cis(McSummary& s, uint64_t seed);

//! summarize(`values`) (sim/mc_stats.h) with the same rule for one figure outside an McSummary
//! (e.g. a TCO option's cost across replications), `metric` keying its resamples.
[[nodiscard]] MetricSummary summarize_nonnegative(std::span<const double> values, uint64_t seed,
                                                  uint32_t metric);

}  // namespace gpuplan::study
