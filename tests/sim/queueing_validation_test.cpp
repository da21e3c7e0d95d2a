//! The engine against queueing theory: Erlang C, Little's law, and utilization = offered load.
#include <doctest/doctest.h>

#include <cmath>

#include "models/perf/queueing.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

struct MmcRun {
  ReplicaMetrics m;
  double lambda_counted;  //!< [1/s] counted arrivals / window
};

//! M/M/c with service rate 1/s, run until about `jobs` jobs have arrived; 10% warmup.
MmcRun run_mmc(uint32_t c, double rho, double jobs, uint64_t seed = 42) {
  const double lambda = rho * c;
  const double horizon = jobs / lambda;
  Scenario sc = test::one_pool(c, 1, horizon, 0.1 * horizon);
  sc.seed = seed;
  sc.workload.push_back(test::mm_class(lambda, 1.0));
  sc.limits.max_active_jobs = 1u << 16;
  const CompiledScenario cs = compile(sc);
  const SingleRun r = run_single(cs.view());
  return {r.metrics, double(r.metrics.jobs_submitted) / (horizon - sc.warmup_s)};
}

}  // namespace

TEST_CASE("sim::validation::erlang_c") {
  // Jobs per run, chosen so the standard error of the mean wait is below 1% (3-sigma < 3%):
  // the relaxation time grows like 1/(1 - sqrt(rho))^2, so heavy loads need longer runs, and at
  // c = 64 few jobs wait at all (P_wait ~ 5% at rho = 0.8), so the mean needs many more jobs.
  const struct {
    uint32_t c;
    double rho;
    double jobs;
  } cases[] = {{1, 0.5, 2e6}, {1, 0.8, 4e6},  {1, 0.9, 8e6},   {8, 0.5, 2e6}, {8, 0.8, 3e6},
               {8, 0.9, 6e6}, {64, 0.5, 4e6}, {64, 0.8, 16e6}, {64, 0.9, 8e6}};
  for (const auto& k : cases) {
    const double expected = queueing::mmc_mean_wait_s(k.c, k.rho * k.c, 1.0);
    const MmcRun r = run_mmc(k.c, k.rho, k.jobs);
    CAPTURE(k.c);
    CAPTURE(k.rho);
    CAPTURE(r.m.wait_s.mean);
    CAPTURE(expected);
    REQUIRE_FALSE(r.m.saturated());
    // mean wait within 3% of Erlang C (relative); at c=64, rho=0.5 W_q is tiny (~1e-9 s), so an
    // absolute bound of 3% of the mean service time applies there instead
    if (expected > 1e-3)
      CHECK(std::abs(r.m.wait_s.mean - expected) / expected < 0.03);
    else
      CHECK(r.m.wait_s.mean < 0.03);
  }
}

TEST_CASE("sim::validation::little_and_utilization") {
  const MmcRun r = run_mmc(8, 0.8, 3e6, 7);

  SUBCASE("Little's law holds for the queue: L_q = lambda * W_q within 1%") {
    const double lq = queueing::little_mean_number(r.lambda_counted, r.m.wait_s.mean);
    CAPTURE(r.m.mean_queued_jobs);
    CAPTURE(lq);
    CHECK(std::abs(r.m.mean_queued_jobs - lq) / lq < 0.01);
  }

  SUBCASE("Little's law holds for the system: L = lambda * W within 1%") {
    const double l = queueing::little_mean_number(r.lambda_counted, r.m.jct_s.mean);
    CHECK(std::abs(r.m.mean_jobs_in_system - l) / l < 0.01);
  }

  SUBCASE("GPU utilization equals the offered load within 1%") {
    // offered load = lambda * E[gpus] * E[duration] / GPUs = 6.4 * 1 * 1 / 8 = 0.8
    CHECK(std::abs(r.m.gpu_utilization - 0.8) / 0.8 < 0.01);
  }
}

TEST_CASE("sim::validation::multi_gpu_utilization") {
  // 16 nodes x 8 GPUs, jobs of 1/2/4/8 GPUs (Gavel's Philly mix), lognormal durations.
  Scenario sc = test::one_pool(16, 8, 2e6, 1e5);
  JobClass c;
  c.name = "mix";
  c.gpus.values = {1, 2, 4, 8};
  c.gpus.probs = {0.7, 0.1, 0.15, 0.05};
  c.duration.kind = DistKind::lognormal;
  c.duration.a = std::log(600.0);  // median 600 s
  c.duration.b = 1.0;
  // E[gpus] = 0.7 + 0.2 + 0.6 + 0.4 = 1.9; E[duration] = 600 * e^{0.5} = 989.2 s;
  // rate for 60% offered load on 128 GPUs: 0.6 * 128 / (1.9 * 989.2)
  const double mean_d = 600.0 * std::exp(0.5);
  c.rate_per_s = 0.6 * 128 / (1.9 * mean_d);
  sc.workload.push_back(c);
  const CompiledScenario cs = compile(sc);
  const SingleRun r = run_single(cs.view());
  // busy GPU-seconds / provisioned = offered load 0.6 (stable: no saturation), within 1%
  CHECK(std::abs(r.metrics.gpu_utilization - 0.6) / 0.6 < 0.01);
  CHECK(std::abs(cs.offered_load - 0.6) < 1e-9);
}
