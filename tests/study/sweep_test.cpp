//! study::sweep: a Monte Carlo study per point and Pareto fronts over the points that keep up.
#include <doctest/doctest.h>

#include "study/sweep.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! M/M/c at 3 jobs/s of mean 1 s on `nodes` one-GPU nodes at `price` per node-hour.
Scenario point(uint32_t nodes, double price) {
  Scenario sc = test::one_pool(nodes, 1, 1800, 300);
  sc.pools[0].price_per_node_hour = price;
  sc.workload.push_back(test::mm_class(3.0, 1.0));
  return sc;
}

}  // namespace

TEST_CASE("study::sweep") {
  // 0: 2 nodes (offered load 1.5); 1: 4 nodes at $1; 2: 4 nodes at $2; 3: 6 nodes at $1.
  const std::vector<Scenario> scenarios = {point(2, 1), point(4, 1), point(4, 2), point(6, 1)};
  study::MonteCarloOptions o;
  o.replications = 4;
  std::vector<std::size_t> done;
  const study::Sweep s = study::sweep(
      scenarios, std::vector<study::MonteCarloOptions>(scenarios.size(), o),
      [&](std::size_t i, const Scenario&, const CompiledScenario&, const study::Summary& sum) {
        done.push_back(i);
        return sum.held;
      });
  REQUIRE(s.held);
  REQUIRE(s.points.size() == 4);

  SUBCASE("every point is reported once, in grid order, as it finishes") {
    CHECK(done == std::vector<std::size_t>{0, 1, 2, 3});
  }

  SUBCASE("a point whose demand exceeds capacity is on no front") {
    // offered load 3 / 2 = 1.5 >= 1
    CHECK_FALSE(s.points[0].eligible);
    CHECK_FALSE(s.points[0].front_cost_wait);
    CHECK_FALSE(s.points[0].front_cost_useful_work);
  }

  SUBCASE("a point costing more for the same waits is dominated") {
    // points 1 and 2 share every replica's schedule (common random numbers), point 2 pays double
    CHECK(s.points[2].summary.mean("metrics.wait_s.p90") ==
          s.points[1].summary.mean("metrics.wait_s.p90"));
    CHECK(s.points[2].summary.mean("cost_usd.total") ==
          doctest::Approx(2 * s.points[1].summary.mean("cost_usd.total")));
    CHECK_FALSE(s.points[2].front_cost_wait);
    CHECK_FALSE(s.points[2].front_cost_useful_work);
  }

  SUBCASE(
      "cheaper with longer waits and dearer with shorter ones are both on the cost-wait front") {
    CHECK(s.points[1].front_cost_wait);
    CHECK(s.points[3].front_cost_wait);
    // 6 nodes cost more and are busier per dollar less: useful-work front keeps the 4-node point
    CHECK(s.points[1].front_cost_useful_work);
    CHECK_FALSE(s.points[3].front_cost_useful_work);
  }
}
