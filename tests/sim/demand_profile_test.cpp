//! Time-varying demand (sim/core/arrival_profile.h, models/scenario/demand_profile.h): the
//! time-change inversion, arrival counts against the integral of the intensity, the flat path kept
//! exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "sim/core/arrival_profile.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! Arrivals counted in [warmup, horizon) of replicas 0..n-1: mean and standard deviation.
struct Counts {
  double mean = 0;
  double sd = 0;
};

Counts count_arrivals(const Scenario& sc, uint32_t replicas) {
  const CompiledScenario cs = compile(sc);
  double sum = 0, sum2 = 0;
  for (uint32_t r = 0; r < replicas; ++r) {
    const SingleRun run = run_single(cs.view(), {}, r);
    REQUIRE_FALSE(run.metrics.saturated());
    const double n = static_cast<double>(run.metrics.jobs_submitted);
    sum += n;
    sum2 += n * n;
  }
  const double mean = sum / replicas;
  return {mean, std::sqrt((sum2 / replicas - mean * mean) * replicas / (replicas - 1))};
}

//! A cluster that never queues long: 256 one-GPU nodes, 1 s jobs.
Scenario wide_cluster(double horizon_s, double rate_per_s) {
  Scenario sc = test::one_pool(256, 1, horizon_s);
  sc.workload.push_back(test::mm_class(rate_per_s, 1.0));
  return sc;
}

//! The expected count of `sc`'s class 0 over [a, b) from the compiled segments.
double integral(const Scenario& sc, double a, double b) {
  const JobClass& jc = sc.workload[0];
  return expected_arrivals(compile_rate(jc.rate_per_s, sc.demand, jc.profile, sc.horizon_s),
                           sc.horizon_s, a, b);
}

//! Checks the replicas' mean count over [warmup, horizon) against the integral: a Poisson count
//! of mean L has variance L, so the mean of R replicas lies within 4 sqrt(L / R) of L (p > 0.9999).
void check_counts(Scenario sc, uint32_t replicas) {
  const double expected = integral(sc, sc.warmup_s, sc.horizon_s);
  const Counts c = count_arrivals(sc, replicas);
  CAPTURE(expected);
  CAPTURE(c.mean);
  CAPTURE(c.sd);
  CHECK(std::abs(c.mean - expected) < 4 * std::sqrt(expected / replicas));
  // and the spread across replicas is Poisson's (sd = sqrt(L)) within 40 % (3.5 sigma of an sd
  // estimated from 40 replicas)
  CHECK(std::abs(c.sd / std::sqrt(expected) - 1) < 0.4);
}

}  // namespace

TEST_CASE("sim::arrival_profile::time_change") {
  // Two pieces: 1 job/s on [0, 10), 2 jobs/s on [10, 20); then a growing piece from 20.
  const double b = std::log(2.0) / 10;  // doubles every 10 s
  const ArrivalSegment seg[] = {{0, 1, 0}, {10, 2, 0}, {20, 1, b}};
  const uint32_t n = 3;

  SUBCASE("a draw that uses up a segment exactly lands on its end boundary") {
    // mass of [0, 10) at 1/s is 10, so the inverse of 10 is exactly t = 10
    CHECK(profile_next_time(seg, n, 40, 0, 10.0) == 10.0);
    // mass of [10, 20) at 2/s is 20: from t = 10, the inverse of 20 is exactly 20
    CHECK(profile_next_time(seg, n, 40, 10, 20.0) == 20.0);
  }

  SUBCASE("inside a constant piece the inverse is linear, across pieces the masses add") {
    // 4 of mass from t = 3 at 1/s ends at 7
    CHECK(profile_next_time(seg, n, 40, 3, 4.0) == doctest::Approx(7.0).epsilon(1e-15));
    // from t = 5: 5 of mass to 10, then 3 more at 2/s takes 1.5 s, so 11.5
    CHECK(profile_next_time(seg, n, 40, 5, 8.0) == doctest::Approx(11.5).epsilon(1e-15));
  }

  SUBCASE("inside a growing piece the inverse undoes the analytic integral") {
    // integral of e^{b(t-20)} over [20, 30) = (2 - 1) / b; its inverse from 20 is 30
    const double mass = 1.0 / b;
    CHECK(profile_next_time(seg, n, 40, 20, mass) == doctest::Approx(30.0).epsilon(1e-14));
    // round trip from mid-segment: mass of [23, 37) inverted from 23 gives 37
    const double m2 = profile_mass(seg, n, 40, 23, 37);
    CHECK(profile_next_time(seg, n, 40, 23, m2) == doctest::Approx(37.0).epsilon(1e-13));
  }

  SUBCASE("a draw larger than what is left before the end gives no arrival") {
    // mass of [0, 40) = 10 + 20 + 3/b; one more than that cannot be reached
    const double total = profile_mass(seg, n, 40, 0, 40);
    CHECK(total == doctest::Approx(30 + 3 / b).epsilon(1e-14));
    CHECK(profile_next_time(seg, n, 40, 0, total + 1) == NEVER);
  }

  SUBCASE("a piece of rate 0 is skipped") {
    const ArrivalSegment gap[] = {{0, 1, 0}, {5, 0, 0}, {15, 1, 0}};
    // 5 of mass ends at 5, then nothing until 15, then 1 more at 1/s: 16
    CHECK(profile_next_time(gap, 3, 30, 0, 6.0) == 16.0);
  }
}

TEST_CASE("sim::arrival_profile::counts") {
  SUBCASE("with compound growth, mean arrivals over [0, T] and [T/2, T] match the integral") {
    // 3 months at +50 %/month from 2e-3 jobs/s: about 3.4e4 jobs per replica
    Scenario sc = wide_cluster(3 * PROFILE_MONTH_S, 2e-3);
    sc.workload[0].profile.growth_per_month = 0.5;
    check_counts(sc, 40);
    sc.warmup_s = sc.horizon_s / 2;
    check_counts(sc, 40);
  }

  SUBCASE("with a weekly shape, mean arrivals match the integral") {
    // weekdays 8-20 h at 3x, nights 0.2x, weekend hours 0.5x; two weeks at 0.05 jobs/s
    Scenario sc = wide_cluster(2 * 168 * PROFILE_HOUR_S, 0.05);
    std::vector<double>& w = sc.workload[0].profile.weekly;
    for (int h = 0; h < 168; ++h) {
      const int day = h / 24, hour = h % 24;
      w.push_back(day >= 5 ? 0.5 : (hour >= 8 && hour < 20 ? 3.0 : 0.2));
    }
    check_counts(sc, 40);
    sc.warmup_s =
        5 * 24 * PROFILE_HOUR_S;  // from Saturday on: only the weekend and the second week
    check_counts(sc, 40);
  }

  SUBCASE("with a piecewise schedule and a global growth, mean arrivals match the integral") {
    Scenario sc = wide_cluster(60 * 86400.0, 0.01);
    sc.demand.profile.growth_per_month = 0.1;
    sc.workload[0].profile.schedule = {
        {10 * 86400.0, 2.0}, {20 * 86400.0, 0.0}, {30 * 86400.0, 1.5}};
    check_counts(sc, 40);
    sc.warmup_s = 15 * 86400.0;
    check_counts(sc, 40);
  }
}

TEST_CASE("sim::arrival_profile::flat") {
  Scenario flat = test::one_pool(8, 1, 5e4, 5e3);
  flat.workload.push_back(test::mm_class(6.0, 1.0));
  const CompiledScenario cf = compile(flat);
  const SingleRun a = run_single(cf.view());

  //! The two runs' metrics and time bins are identical, bit for bit.
  const auto same_run = [&](const Scenario& other) {
    const CompiledScenario co = compile(other);
    CHECK(co.arrival_segments.empty());
    CHECK(co.classes[0].profile_n == 0);
    const SingleRun b = run_single(co.view());
    CHECK(b.metrics.jobs_submitted == a.metrics.jobs_submitted);
    CHECK(b.metrics.events == a.metrics.events);
    CHECK(std::memcmp(&b.metrics.wait_s, &a.metrics.wait_s, sizeof a.metrics.wait_s) == 0);
    CHECK(std::memcmp(&b.metrics.jct_s, &a.metrics.jct_s, sizeof a.metrics.jct_s) == 0);
    CHECK(b.metrics.gpu_utilization == a.metrics.gpu_utilization);
    CHECK(b.metrics.cost_usd == a.metrics.cost_usd);
    CHECK(co.offered_load == cf.offered_load);
    const ReplicaState& sa = a.state();
    const ReplicaState& sb = b.state();
    REQUIRE(sa.bin_busy_gpu_s.size == sb.bin_busy_gpu_s.size);
    CHECK(std::memcmp(sa.bin_busy_gpu_s.data, sb.bin_busy_gpu_s.data,
                      sa.bin_busy_gpu_s.size * sizeof(double)) == 0);
    CHECK(std::memcmp(sa.bin_queued_job_s.data, sb.bin_queued_job_s.data,
                      sa.bin_queued_job_s.size * sizeof(double)) == 0);
  };

  SUBCASE("a growth of 0 is the flat scenario exactly") {
    Scenario sc = flat;
    sc.workload[0].profile.growth_per_month = 0;
    sc.demand.profile.growth_per_month = 0;
    same_run(sc);
  }

  SUBCASE(
      "an all-ones weekly shape and schedule, and load_scale 1, are the flat scenario exactly") {
    Scenario sc = flat;
    sc.workload[0].profile.weekly.assign(168, 1.0);
    sc.demand.profile.weekly.assign(24, 1.0);
    sc.workload[0].profile.schedule = {{100, 1.0}, {2e4, 1.0}};
    sc.demand.load_scale = 1;
    same_run(sc);
  }

  SUBCASE("load_scale 2 is the scenario with every rate doubled, exactly") {
    Scenario scaled = flat;
    scaled.demand.load_scale = 2;
    Scenario doubled = flat;
    doubled.workload[0].rate_per_s *= 2;
    const SingleRun x = run_single(compile(scaled).view());
    const SingleRun y = run_single(compile(doubled).view());
    CHECK(x.metrics.jobs_submitted == y.metrics.jobs_submitted);
    CHECK(x.metrics.wait_s.mean == y.metrics.wait_s.mean);
    CHECK(x.metrics.gpu_utilization == y.metrics.gpu_utilization);
  }
}

TEST_CASE("sim::arrival_profile::utilization") {
  SUBCASE("a mean-preserving daily shape keeps utilization equal to the offered load") {
    // 64 one-GPU nodes, 100 s jobs, 0.32 jobs/s on average: offered load 0.32 * 100 / 64 = 0.5;
    // the day runs at 1.5x for 12 h and 0.5x for 12 h (mean 1, peak load 0.75)
    Scenario sc = test::one_pool(64, 1, 4 * 86400.0, 86400.0);
    sc.workload.push_back(test::mm_class(0.32, 100.0));
    for (int h = 0; h < 24; ++h) sc.workload[0].profile.weekly.push_back(h < 12 ? 1.5 : 0.5);
    const CompiledScenario cs = compile(sc);
    // the window holds whole days, so the mean rate over it is the base rate
    CHECK(cs.offered_load == doctest::Approx(0.5).epsilon(1e-12));
    const uint32_t replicas = 16;
    double sum = 0, sum2 = 0;
    for (uint32_t r = 0; r < replicas; ++r) {
      const SingleRun run = run_single(cs.view(), {}, r);
      REQUIRE_FALSE(run.metrics.saturated());
      sum += run.metrics.gpu_utilization;
      sum2 += run.metrics.gpu_utilization * run.metrics.gpu_utilization;
    }
    const double mean = sum / replicas;
    const double se = std::sqrt((sum2 / replicas - mean * mean) / (replicas - 1));
    CAPTURE(mean);
    CAPTURE(se);
    // the replicas' mean utilization lies within 4 standard errors of the offered load
    CHECK(std::abs(mean - 0.5) < 4 * se);
  }
}
