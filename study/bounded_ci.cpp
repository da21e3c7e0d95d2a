#include "study/bounded_ci.h"

#include <Random123/philox.h>

#include <algorithm>
#include <vector>

#include "sim/core/rng.h"
#include "sim/mc_metrics.h"

namespace gpuplan::study {
namespace {

// NOTE: a counter space of its own ("boot" in ASCII), apart from every sim::Stream, so the
// resampling never shares random numbers with a replication.
constexpr uint32_t BOOTSTRAP_STREAM = 0x626f6f74u;

}  // namespace

void bootstrap_ci(std::span<const double> values, uint64_t seed, uint32_t metric,
                  MetricSummary& m) {
  const std::size_t n = values.size();
  if (n < 2) return;
  r123::Philox4x32 gen;
  const r123::Philox4x32::key_type key = {{static_cast<uint32_t>(seed), metric}};
  std::vector<double> means(BOOTSTRAP_RESAMPLES);
  for (uint32_t b = 0; b < BOOTSTRAP_RESAMPLES; ++b) {
    double sum = 0;
    // NOTE: one Philox block gives two indices (53-bit uniforms); counter = (pair, resample).
    for (uint32_t k = 0; k < n; k += 2) {
      const r123::Philox4x32::ctr_type ctr = {
          {k / 2, b, BOOTSTRAP_STREAM, static_cast<uint32_t>(seed >> 32)}};
      const auto r = gen(ctr, key);
      const double u[2] = {open_u01(r[0], r[1]), open_u01(r[2], r[3])};
      for (uint32_t j = 0; j < 2 && k + j < n; ++j)
        sum += values[std::min<std::size_t>(n - 1, static_cast<std::size_t>(u[j] * double(n)))];
    }
    means[b] = sum / double(n);
  }
  m.ci95_low = quantile_type7(means, 0.025);
  m.ci95_high = quantile_type7(means, 0.975);
}

MetricSummary summarize_nonnegative(std::span<const double> values, uint64_t seed,
                                    uint32_t metric) {
  MetricSummary m = summarize(values);
  if (m.ci95_low < 0 && m.n >= 2 &&
      std::all_of(values.begin(), values.end(), [](double v) { return v >= 0; }))
    bootstrap_ci(values, seed, metric, m);
  return m;
}

void bound_nonnegative_cis(McSummary& s, uint64_t seed) {
  std::vector<double> column;
  for (std::size_t p = 0; p < s.paths.size() && p < s.stats.size(); ++p) {
    MetricSummary& m = s.stats[p];
    if (!(m.ci95_low < 0) || m.n < 2) continue;
    column.clear();
    // NOTE: the same replications summarize_study used (metrics.saturated over all of them).
    if (p == HeadlineIndex::SATURATED) {
      for (const auto& row : s.rows) column.push_back(row[p]);
    } else {
      for (std::size_t k : s.in_statistics) column.push_back(s.rows[k][p]);
    }
    if (column.size() != m.n ||
        std::any_of(column.begin(), column.end(), [](double v) { return !(v >= 0); }))
      continue;
    bootstrap_ci(column, seed, static_cast<uint32_t>(p), m);
  }
}

}  // namespace gpuplan::study
