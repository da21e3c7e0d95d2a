//! Monte Carlo statistics: t quantiles, type-7 percentiles, interval coverage against Erlang C,
//! common random numbers, and the --target-ci stopping rule.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/mc_metrics.h"
#include "sim/mc_run.h"
#include "sim/mc_stats.h"
#include "tests/sim/scenario_builder.h"
#include "models/perf/queueing.h"

using namespace gpuplan;

namespace {

//! M/M/c (c = `servers` 1-GPU nodes, service rate 1/s) with `jobs` expected arrivals after a
//! warmup of 100 mean services.
CompiledScenario mmc(uint32_t servers, double lambda, double jobs) {
  Scenario sc = test::one_pool(servers, 1, 100 + jobs / lambda, 100);
  sc.workload.push_back(test::mm_class(lambda, 1.0));
  sc.limits.max_active_jobs = 1024;
  sc.limits.time_bins = 4;
  return compile(sc);
}

std::vector<double> column(const ModelView& m, const McStudy& st, std::size_t index) {
  std::vector<double> v;
  for (const ReplicaOutcome& o : st.replicas) v.push_back(metric_row(m, o.metrics)[index]);
  return v;
}

}  // namespace

TEST_CASE("sim::mc_stats::t_quantile_975") {
  SUBCASE("matches the published table of Student's t") {
    // t_{0.975}: 12.706205 (df 1), 4.302653 (2), 2.570582 (5), 2.228139 (10), 2.042272 (30),
    // 1.983972 (100), to the 7 digits the tables give
    CHECK(t_quantile_975(1) == doctest::Approx(12.706205).epsilon(1e-6));
    CHECK(t_quantile_975(2) == doctest::Approx(4.302653).epsilon(1e-6));
    CHECK(t_quantile_975(5) == doctest::Approx(2.570582).epsilon(1e-6));
    CHECK(t_quantile_975(10) == doctest::Approx(2.228139).epsilon(1e-6));
    CHECK(t_quantile_975(30) == doctest::Approx(2.042272).epsilon(1e-6));
    CHECK(t_quantile_975(100) == doctest::Approx(1.983972).epsilon(1e-6));
  }
  SUBCASE("is the normal quantile for large samples") {
    // z_{0.975} = 1.959964
    CHECK(t_quantile_975(100000) == doctest::Approx(1.959964).epsilon(1e-6));
  }
}

TEST_CASE("sim::mc_stats::summarize") {
  SUBCASE("percentiles interpolate linearly between order statistics (type 7)") {
    const std::vector<double> v = {4, 1, 3, 2, 5};
    // h = q (n - 1): p05 at h = 0.2 -> 1.2, p50 at h = 2 -> 3, p95 at h = 3.8 -> 4.8
    const MetricSummary s = summarize(v);
    CHECK(s.p05 == doctest::Approx(1.2));
    CHECK(s.p50 == doctest::Approx(3.0));
    CHECK(s.p95 == doctest::Approx(4.8));
    // the same rule on unsorted input: p25 at h = 1 -> 2, p90 at h = 3.6 -> 4.6
    CHECK(quantile_type7(v, 0.25) == doctest::Approx(2.0));
    CHECK(quantile_type7(v, 0.90) == doctest::Approx(4.6));
    // mean 3, sample sd sqrt(2.5), half-width t(4) sqrt(2.5) / sqrt(5) = 2.776445 * 0.707107
    CHECK(s.mean == doctest::Approx(3.0));
    CHECK(s.half_width() == doctest::Approx(2.776445 * std::sqrt(0.5)).epsilon(1e-6));
  }
  SUBCASE("one value has a zero-width interval and the target counts as not met") {
    const std::vector<double> v = {7};
    const MetricSummary s = summarize(v);
    // a single value: mean 7, interval [7, 7], n = 1 < 2
    CHECK(s.ci95_low == 7);
    CHECK(s.ci95_high == 7);
    CHECK_FALSE(ci_target_met(s, 0.5));
  }
  SUBCASE("a zero mean counts as met") {
    const std::vector<double> v = {0, 0, 0};
    CHECK(ci_target_met(summarize(v), 0.01));
  }
}

TEST_CASE("sim::mc::coverage_erlang_c") {
  // 200 independent studies of 20 replicas of M/M/2 at rho = 0.5 (lambda = 1/s, mu = 1/s), about
  // 1,500 jobs each: replicas 20 i .. 20 i + 19 form study i, so studies share no random numbers.
  constexpr uint32_t STUDIES = 200, PER_STUDY = 20;
  const CompiledScenario cs = mmc(2, 1.0, 1500);
  const ModelView m = cs.view();
  McOptions o;
  o.replications = STUDIES * PER_STUDY;
  o.threads = 1;
  const McStudy st = run_monte_carlo(m, o);
  const std::vector<double> waits = column(m, st, HeadlineIndex::WAIT_MEAN);
  // Erlang C: P_wait = 1/3, W_q = P_wait / (c mu - lambda) = 1/3 s
  const double expected = queueing::mmc_mean_wait_s(2, 1.0, 1.0);
  CHECK(expected == doctest::Approx(1.0 / 3.0));
  uint32_t covered = 0;
  for (uint32_t i = 0; i < STUDIES; ++i) {
    const std::span<const double> study(waits.data() + i * PER_STUDY, PER_STUDY);
    const MetricSummary s = summarize(study);
    if (s.ci95_low <= expected && expected <= s.ci95_high) ++covered;
  }
  CAPTURE(covered);
  // nominal 95% of 200 = 190 (binomial sd 3.1); 90-99% allows about -3 / +2.6 sd
  CHECK(covered >= 180);
  CHECK(covered <= 198);
}

TEST_CASE("sim::mc::common_random_numbers") {
  // The same arrivals and durations on 16 and 17 servers (lambda = 14/s, mu = 1/s, ~4,000 jobs):
  // replica k of both studies draws the same job stream, so the paired difference cancels the
  // noise the two configurations share.
  const CompiledScenario small = mmc(16, 14, 4000);
  const CompiledScenario large = mmc(17, 14, 4000);
  McOptions o;
  o.replications = 40;
  const McStudy a = run_monte_carlo(small.view(), o);
  const McStudy b = run_monte_carlo(large.view(), o);
  const auto compare = [&](std::size_t index) {
    const std::vector<double> x = column(small.view(), a, index);
    const std::vector<double> y = column(large.view(), b, index);
    return std::pair{paired_difference(x, y), unpaired_difference(x, y)};
  };

  SUBCASE("both intervals agree on the difference of the means") {
    const auto [paired, unpaired] = compare(HeadlineIndex::WAIT_MEAN);
    // the same point estimate mean(x) - mean(y), > 0: fewer servers wait longer
    CHECK(paired.mean == doctest::Approx(unpaired.mean));
    CHECK(paired.mean > 0);
  }
  SUBCASE("the paired interval of the mean wait is much narrower than the unpaired one") {
    // NOTE: named, not a structured binding: clang 14 cannot capture a binding in CAPTURE.
    const auto intervals = compare(HeadlineIndex::WAIT_MEAN);
    const auto& paired = intervals.first;
    const auto& unpaired = intervals.second;
    CAPTURE(paired.half_width());
    CAPTURE(unpaired.half_width());
    // shared congestion episodes correlate the waits (measured ratio ~0.5); require < 0.7
    CHECK(paired.half_width() < 0.7 * unpaired.half_width());
  }
  SUBCASE("the paired interval of utilization is tighter still") {
    const auto intervals = compare(HeadlineIndex::GPU_UTILIZATION);
    const auto& paired = intervals.first;
    const auto& unpaired = intervals.second;
    CAPTURE(paired.half_width());
    CAPTURE(unpaired.half_width());
    // both serve the same GPU-seconds, so only the denominators differ (measured ratio ~0.06)
    CHECK(paired.half_width() < 0.2 * unpaired.half_width());
  }
}

TEST_CASE("sim::mc::target_ci") {
  const CompiledScenario cs = mmc(2, 1.0, 500);
  const ModelView m = cs.view();
  McOptions o;
  o.replications = 8;
  o.batch = 8;

  SUBCASE("a reachable target stops at the first batch that meets it") {
    o.target_ci_rel = 0.05;
    o.max_replications = 4000;
    const McStudy st = run_monte_carlo(m, o);
    CHECK(st.target_met);
    // met now, and (when more than one batch ran) not met one batch earlier
    CHECK(headline_target_met(m, st.replicas, 0.05));
    if (st.replicas.size() > 8) {
      const std::vector<ReplicaOutcome> earlier(st.replicas.begin(), st.replicas.end() - 8);
      CHECK_FALSE(headline_target_met(m, earlier, 0.05));
    }
  }
  SUBCASE("an unreachable target stops at the cap and says it was not met") {
    o.target_ci_rel = 1e-6;
    o.max_replications = 24;
    const McStudy st = run_monte_carlo(m, o);
    CHECK_FALSE(st.target_met);
    // capped at --max-replications = 24
    CHECK(st.replicas.size() == 24);
  }
}
