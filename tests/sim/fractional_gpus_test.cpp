//! Fractional (milli-GPU) shared GPUs in the engine (sim/core/fractional_gpus.h): placement under
//! best-fit and worst-fit against hand-computed schedules, memory, the allocation ratio, and
//! jobs of 500 milli on one GPU against the M/M/2 queue (Erlang C).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/core/shared_gpus.h"
#include "sim/single_run.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"
#include "tests/sim/replicate_mean.h"

using namespace gpuplan;

namespace {

//! One node of `gpus` A100-80GB (81,920 MiB each) shared by milli-GPU under `packing`.
Scenario fractional_node(uint32_t gpus, PackPolicy packing, double horizon_s) {
  Scenario sc = test::one_pool(1, gpus, horizon_s);
  sc.pools[0].sharing.kind = ShareKind::fractional;
  sc.pools[0].sharing.packing = packing;
  return sc;
}

//! A trace class of one job submitted at `t` running `d` s that holds `milli` and `mem_mib`.
JobClass milli_job(double t, double d, uint32_t milli, uint32_t mem_mib = 0) {
  JobClass c = test::trace_class({t}, d, 1);
  c.name = "m" + std::to_string(milli);
  c.share.kind = ShareKind::fractional;
  c.share.milli = milli;
  c.share.mem_mib = mem_mib;
  return c;
}

//! Jobs of 500, 300, 400 and 600 milli (10 s each) submitted at 0, 1, 2, 3 on two GPUs.
Scenario four_jobs(PackPolicy packing) {
  Scenario sc = fractional_node(2, packing, 40);
  sc.workload = {milli_job(0, 10, 500), milli_job(1, 10, 300), milli_job(2, 10, 400),
                 milli_job(3, 10, 600)};
  return sc;
}

//! Erlang C: the probability that an arrival waits in an M/M/c queue of offered load a = λ/μ.
double erlang_c(uint32_t c, double a) {
  double term = 1, sum = 0;  // a^k / k!
  for (uint32_t k = 0; k < c; ++k) {
    sum += term;
    term *= a / (k + 1);
  }
  const double top = term * c / (c - a);
  return top / (sum + top);
}

}  // namespace

TEST_CASE("sim::fractional_gpus::packing") {
  SUBCASE("best-fit packs 500 + 300 on one GPU, so 400 and then 600 fill the other") {
    const auto [r, m] = test::run(four_jobs(PackPolicy::best_fit));
    REQUIRE(r.size() == 4);
    // 500 -> GPU 0 (tie of two idle GPUs: the lowest), 300 -> GPU 0 (500 free is the least that
    // fits), 400 -> GPU 1 (GPU 0 has 200 left), 600 -> GPU 1 (600 left): nobody waits
    for (const JobRecord& j : r) CHECK(j.start_s == j.submit_s);
    CHECK(r[3].finish_s == 13);
    // fractional jobs hold no whole GPUs
    CHECK(r[0].gpus == 0);
  }

  SUBCASE("worst-fit spreads 500 and 300, so 600 waits for the 500 to end") {
    const auto [r, m] = test::run(four_jobs(PackPolicy::worst_fit));
    REQUIRE(r.size() == 4);
    // 500 -> GPU 0, 300 -> GPU 1 (1000 free), 400 -> GPU 1 (700 free beats 500), leaving 500 and
    // 300 free: the 600 waits until the 500 ends at 10 and ends at 20
    CHECK(r[1].start_s == 1);
    CHECK(r[2].start_s == 2);
    CHECK(r[3].start_s == 10);
    CHECK(r[3].finish_s == 20);
  }

  SUBCASE("the allocation ratio is held milli-seconds over the GPUs' milli-seconds") {
    for (PackPolicy p : {PackPolicy::best_fit, PackPolicy::worst_fit}) {
      const auto [r, m] = test::run(four_jobs(p));
      // (500 + 300 + 400 + 600) milli x 10 s = 18 GPU-s held of 2 GPUs x 40 s, either packing
      CHECK(m.gpu_utilization == doctest::Approx(18.0 / 80).epsilon(1e-12));
      CHECK(m.pools[0].busy_gpu_s == doctest::Approx(18.0).epsilon(1e-12));
    }
  }

  SUBCASE("a job waits for memory though the GPU has milli to spare") {
    Scenario sc = fractional_node(1, PackPolicy::best_fit, 40);
    // 60 GiB + 30 GiB exceed the A100-80GB's 80 GiB; 100 + 100 milli do not exceed 1000
    sc.workload = {milli_job(0, 10, 100, 60 * 1024), milli_job(1, 5, 100, 30 * 1024)};
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 2);
    // the second starts when the first frees its memory at 10 and ends 5 s later
    CHECK(r[1].start_s == 10);
    CHECK(r[1].finish_s == 15);
  }

  SUBCASE("best-fit skips the tightest GPU when its memory is short") {
    Scenario sc = fractional_node(2, PackPolicy::best_fit, 40);
    // the 50 GiB job fills GPU 0's memory; the 200-milli one would fit GPU 0's 900 milli best
    // but needs 40 GiB, so it goes to GPU 1 (800 left); then 900 fits only GPU 0 and 800 GPU 1.
    // Had the 200 gone to GPU 0, the 900 would take GPU 1 and the 800 find no room.
    sc.workload = {milli_job(0, 10, 100, 50 * 1024), milli_job(1, 10, 200, 40 * 1024),
                   milli_job(2, 10, 900), milli_job(3, 10, 800)};
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 4);
    // all four start on arrival
    for (const JobRecord& j : r) CHECK(j.start_s == j.submit_s);
  }

  SUBCASE("a job of 1000 milli takes a whole idle GPU, and frees it on its end") {
    Scenario sc = fractional_node(1, PackPolicy::worst_fit, 40);
    sc.workload = {milli_job(0, 10, 1000), milli_job(1, 10, 1)};
    const auto [r, m] = test::run(sc);
    REQUIRE(r.size() == 2);
    // the 1-milli job waits for the full GPU to end at 10
    CHECK(r[1].start_s == 10);
  }
}

TEST_CASE("sim::fractional_gpus::queueing") {
  SUBCASE("jobs of 500 milli on one GPU are an M/M/2 queue: mean wait as Erlang C gives") {
    // lambda = 1.5/s, mu = 1/s, c = 2 (two 500-milli jobs per GPU): a = 1.5, C(2, 1.5) = 9/14,
    // Wq = C / (c mu - lambda) = 9/7 s. Ten independent runs give the Monte Carlo CI.
    const double wq = erlang_c(2, 1.5) / (2 * 1.0 - 1.5);
    std::vector<double> means;
    for (uint64_t seed = 1; seed <= 10; ++seed) {
      Scenario sc = fractional_node(1, PackPolicy::best_fit, 1.5e5);
      sc.warmup_s = 1.5e4;
      sc.seed = seed;
      JobClass c = test::mm_class(1.5, 1.0);
      c.share.kind = ShareKind::fractional;
      c.share.milli = 500;
      sc.workload.push_back(c);
      const CompiledScenario cs = compile(sc);
      const SingleRun r = run_single(cs.view());
      REQUIRE_FALSE(r.metrics.saturated());
      means.push_back(r.metrics.wait_s.mean);
    }
    // NOTE: no structured binding: CAPTURE's lambda may not capture one under clang 14
    const test::ReplicateMean band = test::replicate_mean(means);  // ~99.7 % band
    const double mean = band.mean, half_width = band.half_width;
    CAPTURE(mean);
    CAPTURE(half_width);
    // Erlang C's 9/7 s is 1.2857 s
    CHECK(wq == doctest::Approx(9.0 / 7.0));
    // theory inside the CI, and the CI itself tight (below 5 % of the mean)
    CHECK(std::abs(mean - wq) <= half_width);
    CHECK(half_width < 0.05 * wq);
  }
}
