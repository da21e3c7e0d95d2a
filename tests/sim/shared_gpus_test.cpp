//! Shared GPUs in the engine (sim/core/shared_gpus.h): MIG instances and time-sliced GPUs,
//! against hand-computed schedules and processor-sharing queueing theory.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/core/shared_gpus.h"
#include "sim/sharing/time_slicing.h"
#include "sim/single_run.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"
#include "tests/sim/replicate_mean.h"

using namespace gpuplan;

namespace {

//! One node with one A100-80GB whose GPU is time-sliced into `replicas` with `interference`.
Scenario time_sliced_gpu(uint32_t replicas, double interference, double horizon_s) {
  Scenario sc = test::one_pool(1, 1, horizon_s);
  sc.pools[0].sharing.kind = ShareKind::time_sliced;
  sc.pools[0].sharing.replicas = replicas;
  sc.pools[0].sharing.interference = interference;
  return sc;
}

//! One node with one A100-80GB partitioned into seven 1g.10gb instances.
Scenario seven_1g(double horizon_s) {
  Scenario sc = test::one_pool(1, 1, horizon_s);
  PoolSharing& ps = sc.pools[0].sharing;
  ps.kind = ShareKind::mig;
  ps.mig = sharing::find_mig_spec("A100-80GB");
  ps.layout.n = 7;
  for (uint8_t i = 0; i < 7; ++i) ps.layout.instances[i] = sharing::MigInstance{0, i};
  return sc;
}

//! A trace class of shared jobs (submit, reference duration) asking for `kind`.
JobClass shared_trace(const std::vector<std::pair<double, double>>& jobs, ShareKind kind) {
  JobClass c;
  c.name = "shared";
  c.trace = TraceFormat{};
  for (const auto& [t, d] : jobs) c.trace_rows.push_back(TraceRow{t, d, 1, 0});
  c.share.kind = kind;
  if (kind == ShareKind::mig) c.share.mig_profile = "1g.10gb";
  return c;
}

}  // namespace

TEST_CASE("sim::shared_gpus::time_sliced") {
  SUBCASE("the stretch of k jobs is the inverse of the sharing module's speed") {
    for (uint32_t k = 1; k <= 5; ++k)
      for (double x : {0.0, 0.1, 0.5})
        // time_slice_stretch is 1 / time_sliced_speed by definition (same formula, core copy)
        CHECK(time_slice_stretch(k, x) == doctest::Approx(1.0 / sharing::time_sliced_speed(k, x)));
  }

  SUBCASE("two overlapping jobs share the GPU and the survivor speeds up again") {
    Scenario sc = time_sliced_gpu(2, 0.0, 100);
    sc.workload.push_back(shared_trace({{0, 10}, {2, 4}}, ShareKind::time_sliced));
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 2);
    // A alone for 2 s (8 s of work left); both at half speed from t = 2: B's 4 s take 8 s, so B
    // ends at 10 while A does 4 more; A's last 4 s at full speed end at 14
    CHECK(r[1].start_s == 2);
    CHECK(r[1].finish_s == doctest::Approx(10).epsilon(1e-12));
    CHECK(r[0].finish_s == doctest::Approx(14).epsilon(1e-12));
    // shared jobs hold no whole GPUs
    CHECK(r[0].gpus == 0);
    // the GPU is busy from 0 to 14 of 100 s: utilization 0.14
    CHECK(m.gpu_utilization == doctest::Approx(0.14).epsilon(1e-12));
  }

  SUBCASE("interference slows both shared jobs by 1 + x") {
    Scenario sc = time_sliced_gpu(2, 0.5, 100);
    sc.workload.push_back(shared_trace({{0, 10}, {2, 4}}, ShareKind::time_sliced));
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 2);
    // shared speed 1 / (2 x 1.5) = 1/3: B's 4 s take 12 s (ends 14), A does 4 of its 8 left,
    // then its last 4 s alone end at 18
    CHECK(r[1].finish_s == doctest::Approx(14).epsilon(1e-12));
    CHECK(r[0].finish_s == doctest::Approx(18).epsilon(1e-12));
  }

  SUBCASE("one replica makes the second job wait for the first") {
    Scenario sc = time_sliced_gpu(1, 0.0, 100);
    sc.workload.push_back(shared_trace({{0, 10}, {2, 4}}, ShareKind::time_sliced));
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 2);
    // B starts when A ends at 10 and runs alone for 4 s
    CHECK(r[1].start_s == 10);
    CHECK(r[1].finish_s == 14);
  }

  SUBCASE("a time-sliced GPU is an M/M/1 processor-sharing queue: mean JCT 1 / (mu - lambda)") {
    // lambda = 0.5/s, mu = 1/s, 64 replicas (P(N >= 64) = 0.5^64: never full), interference 0;
    // E[T] = 1 / (1 - 0.5) = 2 s for PS as for FCFS. Ten independent runs of 2e5 jobs each give
    // the Monte Carlo CI.
    std::vector<double> means;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      Scenario sc = time_sliced_gpu(64, 0.0, 4e5);
      sc.warmup_s = 4e4;
      sc.seed = seed;
      JobClass c = test::mm_class(0.5, 1.0);
      c.share.kind = ShareKind::time_sliced;
      sc.workload.push_back(c);
      const CompiledScenario cs = compile(sc);
      const SingleRun r = run_single(cs.view());
      REQUIRE_FALSE(r.metrics.saturated());
      // no job ever waits: 64 replicas are never all taken
      CHECK(r.metrics.wait_s.mean == 0);
      means.push_back(r.metrics.jct_s.mean);
    }
    // NOTE: no structured binding: CAPTURE's lambda may not capture one under clang 14
    const test::ReplicateMean band = test::replicate_mean(means);  // ~99.7 % band
    const double mean = band.mean, half_width = band.half_width;
    CAPTURE(mean);
    CAPTURE(half_width);
    // theory 2 s inside the CI, and the CI itself tight (below 2 % of the mean)
    CHECK(std::abs(mean - 2.0) <= half_width);
    CHECK(half_width < 0.04);
  }
}

TEST_CASE("sim::shared_gpus::mig") {
  SUBCASE("seven 1g instances run seven jobs at once at 14 of 108 SMs; the eighth waits") {
    Scenario sc = seven_1g(20);
    std::vector<std::pair<double, double>> jobs(8, {0.0, 1.0});
    sc.workload.push_back(shared_trace(jobs, ShareKind::mig));
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 8);
    // a 1 s job runs 108 / 14 s on a 1g.10gb instance (A100 listing: 14 of 108 SMs)
    const double d = 108.0 / 14.0;
    for (int i = 0; i < 7; ++i) CHECK(r[i].finish_s == doctest::Approx(d).epsilon(1e-12));
    // the eighth starts when the first instances free up
    CHECK(r[7].start_s == doctest::Approx(d).epsilon(1e-12));
    CHECK(r[7].finish_s == doctest::Approx(2 * d).epsilon(1e-12));
    // busy compute: 7 instances x 1/7 GPU for d s, then 1/7 for d s, over 20 GPU-s provisioned
    CHECK(m.gpu_utilization == doctest::Approx((d + d / 7) / 20).epsilon(1e-12));
    CHECK(m.pools[0].busy_gpu_s == doctest::Approx(d + d / 7).epsilon(1e-12));
  }

  SUBCASE("whole-GPU classes do not use a MIG pool, MIG classes only its instances") {
    Scenario sc = seven_1g(50);
    sc.instances.push_back(test::test_instance(2));
    Pool whole = sc.pools[0];
    whole.name = "whole";
    whole.instance = sc.instances.back().id;
    whole.sharing = PoolSharing{};
    whole.count = 1;
    sc.pools.push_back(whole);
    sc.workload.push_back(shared_trace({{0, 1}}, ShareKind::mig));
    JobClass w = test::trace_class({0, 0}, 5, 1);
    w.name = "whole";
    sc.workload.push_back(w);
    const CompiledScenario cs = compile(sc);
    // class 0 (MIG) may use pool 0 only, class 1 (whole) pool 1 only
    CHECK(cs.classes[0].pool_mask == 1);
    CHECK(cs.classes[1].pool_mask == 2);
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 3);
    for (const JobRecord& j : r) CHECK(j.pool_idx == (j.class_idx == 0 ? 0u : 1u));
  }
}
