//! Acceptance: how much capacity a demand needs. Queueing properties any correct planner
//! satisfies (tests/acceptance/README.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "models/perf/queueing.h"
#include "models/compile/offered_load.h"
#include "tests/acceptance/planner.h"

using namespace gpuplan_acceptance;

TEST_CASE("acceptance::capacity::adding_nodes_never_raises_the_mean_wait_beyond_its_ci") {
  Answer before = ask("busy_fleet", 8);
  for (int nodes = 5; nodes <= 8; ++nodes) {
    CAPTURE(nodes);
    Answer after = ask("busy_fleet", 8, {"pools.0.count=" + std::to_string(nodes)});
    // More servers never make a FIFO queue wait longer on average; the same replications see
    // the same jobs (common random numbers), so only noise within the CI may say otherwise.
    CHECK(after.mean("metrics.wait_s.mean") <= before.high("metrics.wait_s.mean"));
    before = std::move(after);
  }
}

TEST_CASE("acceptance::capacity::utilization_equals_the_offered_load_when_unsaturated") {
  for (const char* name : {"fixed_fleet", "single_gpu_service", "split_fleet"}) {
    CAPTURE(name);
    const Answer a = ask(name, 12);
    REQUIRE(a.mean("metrics.saturated") == 0);
    const std::vector<gpuplan::PoolSetLoad> loads = gpuplan::pool_set_loads(a.sc);
    // The last set is the whole cluster: every class's work over every GPU.
    const double offered = loads.back().load;
    REQUIRE(loads.back().pools.size() == a.sc.pools.size());
    // In steady state busy GPU-seconds are the offered work (nothing is lost or repeated
    // without preemption), so the utilization's CI holds the offered load.
    CHECK(a.low("metrics.gpu_utilization") <= offered);
    CHECK(offered <= a.high("metrics.gpu_utilization"));
    // The compiled model's estimate is the busiest pool set's load (pools alike: no slowdown).
    double busiest = 0;
    for (const gpuplan::PoolSetLoad& set : loads) busiest = std::max(busiest, set.load);
    CHECK(a.cs.offered_load == doctest::Approx(busiest).epsilon(1e-9));
  }
}

TEST_CASE("acceptance::capacity::a_single_gpu_fifo_service_waits_as_erlang_c_says") {
  const Answer a = ask("single_gpu_service", 16);
  const double lambda = 25.6 / 3600, mu = 1.0 / 1800;
  const double expected = gpuplan::queueing::mmc_mean_wait_s(16, lambda, mu);
  // Poisson arrivals, exponential 1-GPU jobs and FIFO on 16 GPUs are the M/M/16 queue, whose
  // mean wait is Erlang C / (c mu - lambda); the study's CI must hold it.
  CHECK(a.low("metrics.wait_s.mean") <= expected);
  CHECK(expected <= a.high("metrics.wait_s.mean"));
}

TEST_CASE("acceptance::capacity::a_class_is_weighed_against_the_pools_it_may_use") {
  const gpuplan::Scenario sc = scenario("split_fleet");
  const std::vector<gpuplan::PoolSetLoad> loads = gpuplan::pool_set_loads(sc);
  REQUIRE(loads.size() == 2);
  // The pinned class alone on the small pool: 2/h x 4 GPUs x 1 h over its 16 GPUs.
  CHECK(loads[0].pools == std::vector<uint32_t>{1});
  CHECK(loads[0].load == doctest::Approx(2.0 * 4 / 16));
  CHECK(sc.workload[loads[0].driver].name == "pinned");
  // Every class over all 48 GPUs: shared 4/h x (0.5 + 1.2 + 1.6) GPUs x 1 h plus pinned's 8.
  CHECK(loads[1].load == doctest::Approx((4.0 * 3.3 + 8.0) / 48));
  CHECK(loads[1].gpus == 48);
}
