//! Intervals of non-negative metrics never reach below 0 (issue 11, item 7; docs/monte-carlo.md).
#include <doctest/doctest.h>

#include <vector>

#include "sim/mc_stats.h"
#include "study/bounded_ci.h"

using namespace gpuplan;

TEST_CASE("study::bounded_ci") {
  // Four replications of a skewed wait: three calm, one swamped.
  const std::vector<double> waits = {0, 0, 0, 900};
  SUBCASE("the t-interval of such a figure reaches below 0") {
    // mean 225, s = 450, t(3) = 3.182: 225 - 3.182 x 450 / 2 = -491.
    CHECK(summarize(waits).ci95_low < 0);
  }
  SUBCASE("the bounded interval stays within the values and holds the mean") {
    const MetricSummary m = study::summarize_nonnegative(waits, 42, 3);
    // Resampled means of values in [0, 900] lie in [0, 900]; the sample mean 225 lies between
    // the 2.5% and 97.5% of them.
    CHECK(m.ci95_low >= 0);
    CHECK(m.ci95_high <= 900);
    CHECK(m.ci95_low <= 225);
    CHECK(m.ci95_high >= 225);
    // The mean and spread are the sample's, untouched.
    CHECK(m.mean == 225);
    CHECK(m.n == 4);
  }
  SUBCASE("the interval is reproducible and keyed by seed and metric") {
    const std::vector<double> v = {0, 1, 0, 0, 7, 0, 0, 2};
    const MetricSummary a = study::summarize_nonnegative(v, 42, 3);
    const MetricSummary b = study::summarize_nonnegative(v, 42, 3);
    // Counter-based draws: the same key gives the same resamples, bit for bit.
    CHECK(a.ci95_low == b.ci95_low);
    CHECK(a.ci95_high == b.ci95_high);
  }
  SUBCASE("an interval that stays above 0 is the t-interval") {
    const std::vector<double> v = {100, 110, 95, 105};
    const MetricSummary t = summarize(v), m = study::summarize_nonnegative(v, 42, 3);
    // The bootstrap only replaces intervals that break the bound.
    CHECK(m.ci95_low == t.ci95_low);
    CHECK(m.ci95_high == t.ci95_high);
  }
  SUBCASE("a metric that can be negative keeps its t-interval") {
    const std::vector<double> v = {-5, 0, 0, 20};
    const MetricSummary t = summarize(v), m = study::summarize_nonnegative(v, 42, 3);
    // A negative value means the figure is signed: its interval may cross 0.
    CHECK(m.ci95_low == t.ci95_low);
  }
}
