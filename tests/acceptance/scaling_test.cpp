//! Acceptance: answers that do not depend on the unit of time (tests/acceptance/README.md).
#include <doctest/doctest.h>

#include <string>

#include "tests/acceptance/planner.h"

using namespace gpuplan_acceptance;

TEST_CASE("acceptance::scaling::durations_times_k_and_rates_over_k_scale_waits_by_k") {
  constexpr std::size_t REPLICATIONS = 4;
  const Answer base = ask("time_scale", REPLICATIONS);
  for (const double k : {2.0, 5.0}) {
    CAPTURE(k);
    // The same cluster on a clock k times slower: every rate / k, every duration, the horizon
    // and the warmup x k.
    const Answer slow =
        ask("time_scale", REPLICATIONS,
            {"workload.0.arrival.poisson.rate=" + std::to_string(3 / k) + "/h",
             "workload.0.duration.exponential.mean=" + std::to_string(1.5 * k) + "h",
             "horizon=" + std::to_string(6 * k) + "d", "warmup=" + std::to_string(k) + "d"});
    for (std::size_t r = 0; r < REPLICATIONS; ++r) {
      CAPTURE(r);
      // Common random numbers give replication r the same uniforms on both clocks, so every
      // event time is k times the base one and the mean wait (a mean of differences of event
      // times) is k times the base, up to rounding of the scaled times.
      CHECK(slow.row(r, "metrics.wait_s.mean") ==
            doctest::Approx(k * base.row(r, "metrics.wait_s.mean")).epsilon(1e-6));
      CHECK(slow.row(r, "metrics.jct_s.mean") ==
            doctest::Approx(k * base.row(r, "metrics.jct_s.mean")).epsilon(1e-6));
      // The same jobs are counted, and a fixed pool is billed k times as many hours.
      CHECK(slow.row(r, "metrics.jobs_completed") == base.row(r, "metrics.jobs_completed"));
      CHECK(slow.row(r, "cost_usd.total") ==
            doctest::Approx(k * base.row(r, "cost_usd.total")).epsilon(1e-6));
      // Utilization is a ratio of GPU-seconds, so it does not change.
      CHECK(slow.row(r, "metrics.gpu_utilization") ==
            doctest::Approx(base.row(r, "metrics.gpu_utilization")).epsilon(1e-6));
    }
  }
}
