//! Staged purchases in the engine: nodes come online at their purchase time (a waiting gang
//! starts at that instant), are billed only from then on, and count in utilization's denominator
//! only from then on; a pool without purchases compiles exactly as before.
#include <doctest/doctest.h>

#include <vector>

#include "sim/core/engine.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! A fixed pool of `gpn`-GPU nodes at `price` USD per node-hour: `initial` nodes from t = 0, then
//! each purchase.
Scenario staged_pool(uint32_t gpn, uint32_t initial, const std::vector<PoolPurchase>& purchases,
                     double price, double horizon_s, double warmup_s = 0) {
  uint32_t total = initial;
  for (const PoolPurchase& b : purchases) total += b.add;
  Scenario sc = test::one_pool(total, gpn, horizon_s, warmup_s);
  sc.pools[0].purchases = purchases;
  sc.pools[0].price_per_node_hour = price;
  return sc;
}

}  // namespace

TEST_CASE("sim::purchases") {
  SUBCASE("a gang waiting for nodes not yet bought starts exactly when they come online") {
    // One 8-GPU node from t = 0 and a second at t = 1,000 s; a 16-GPU gang submitted at 0 needs
    // both, so it waits 1,000 s and runs 500 s.
    Scenario sc = staged_pool(8, 1, {{1000.0, 1}}, 1.0, 4000.0);
    sc.workload.push_back(test::trace_class({0.0}, 500.0, 16));
    const CompiledScenario cs = compile(sc);
    std::vector<JobRecord> got;
    const SingleRun r = run_single(cs.view(), [&](const JobRecord* rec, std::size_t n) {
      got.insert(got.end(), rec, rec + n);
    });
    REQUIRE(got.size() == 1);
    // Starts at the purchase instant 1,000 s, finishes 500 s later.
    CHECK(got[0].start_s == 1000.0);
    CHECK(got[0].finish_s == 1500.0);
    // Its wait is the 1,000 s until the purchase.
    CHECK(r.metrics.classes[0].wait_s.mean == 1000.0);
  }
  SUBCASE("nodes before their purchase take no job that fits the nodes already there") {
    // Two 1-GPU jobs at t = 0 on one node from t = 0 and one bought at 3,600 s: the second job
    // waits for the first (ends at 100 s), never for the purchase.
    Scenario sc = staged_pool(1, 1, {{3600.0, 1}}, 1.0, 7200.0);
    sc.workload.push_back(test::trace_class({0.0, 0.0}, 100.0, 1));
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    // Waits 0 s and 100 s: mean 50 s.
    CHECK(r.metrics.classes[0].wait_s.mean == doctest::Approx(50.0).epsilon(1e-12));
  }
  SUBCASE("a fixed pool with a schedule costs the sum of count x price x hours of each step") {
    // 2 nodes for 3 h, +1 at 1 h, +2 at 2 h, $3.70 per node-hour, no jobs:
    // (2 x 3 h + 1 x 2 h + 2 x 1 h) x $3.70 = 10 node-h x $3.70 = $37.00.
    const Scenario sc = staged_pool(8, 2, {{3600.0, 1}, {7200.0, 2}}, 3.7, 3 * 3600.0);
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    CHECK(r.metrics.cost_usd == doctest::Approx(37.0).epsilon(1e-12));
    // The window starts after a 30-minute warmup: (2 x 2.5 h + 1 x 2 h + 2 x 1 h) x $3.70.
    const Scenario warm = staged_pool(8, 2, {{3600.0, 1}, {7200.0, 2}}, 3.7, 3 * 3600.0, 1800.0);
    const CompiledScenario cw = compile(warm);
    CHECK(run_single(cw.view()).metrics.cost_usd == doctest::Approx(9.0 * 3.7).epsilon(1e-12));
    // Time-average nodes over the 3 h window: 10 node-h / 3 h.
    CHECK(r.metrics.pools[0].mean_nodes == doctest::Approx(10.0 / 3).epsilon(1e-12));
    // The most nodes at once: all 5 after the last purchase.
    CHECK(r.state().capacity.pools[0].peak_nodes == 5);
  }
  SUBCASE("utilization's denominator follows the schedule") {
    // 1 GPU busy for the whole 2 h on one node; a second node bought at 1 h stays idle:
    // busy 2 GPU-h over provisioned 1 x 2 h + 1 x 1 h = 3 GPU-h, utilization 2/3.
    Scenario sc = staged_pool(1, 1, {{3600.0, 1}}, 1.0, 7200.0);
    sc.workload.push_back(test::trace_class({0.0}, 7200.0, 1));
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    CHECK(r.metrics.gpu_utilization == doctest::Approx(2.0 / 3).epsilon(1e-12));
    CHECK(r.metrics.pools[0].gpu_utilization == doctest::Approx(2.0 / 3).epsilon(1e-12));
    // The compiled offered load uses the same time-average capacity: 1 busy GPU / 1.5 GPUs.
    CHECK(cs.offered_load == doctest::Approx(2.0 / 3).epsilon(1e-12));
  }
  SUBCASE("a pool without purchases compiles as the plain engine: no purchase arrays or events") {
    Scenario sc = test::one_pool(4, 8, 3600.0);
    sc.workload.push_back(test::mm_class(0.01, 100));
    const CompiledScenario cs = compile(sc);
    // Nothing staged, so no purchase table and no calendar room for one.
    CHECK(cs.purchases.empty());
    CHECK(cs.pool_supply[0].purchase_n == 0);
    CHECK(cs.scalars.extra_events == 0);
  }
  SUBCASE("each purchase takes the pool's next slots and one calendar event") {
    const Scenario sc = staged_pool(8, 2, {{3600.0, 1}, {7200.0, 2}}, 1.0, 3 * 3600.0);
    const CompiledScenario cs = compile(sc);
    REQUIRE(cs.purchases.size() == 2);
    // Slots 0-1 from t = 0, slot 2 at 1 h, slots 3-4 at 2 h.
    CHECK(cs.purchases[0].first_node == 2);
    CHECK(cs.purchases[0].n_nodes == 1);
    CHECK(cs.purchases[1].first_node == 3);
    CHECK(cs.purchases[1].n_nodes == 2);
    CHECK(cs.scalars.extra_events == 2);
  }
}
