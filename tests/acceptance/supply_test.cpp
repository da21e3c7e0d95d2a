//! Acceptance: how capacity is bought: spot mixes, hybrid on-prem plus cloud burst, elastic pools
//! (tests/acceptance/README.md).
#include <doctest/doctest.h>

#include <string>

#include "models/catalog/catalog_age.h"
#include "models/scenario/price_origin.h"
#include "reports/result_json.h"
#include "tests/acceptance/planner.h"

using namespace gpuplan_acceptance;

TEST_CASE("acceptance::supply::a_spot_mix_is_interrupted_and_billed_at_most_its_spot_hours") {
  const Answer a = ask("spot_mix", 6);
  REQUIRE(a.mean("metrics.saturated") == 0);
  const gpuplan::Pool& od = a.sc.pools[0];
  const gpuplan::Pool& spot = a.sc.pools[1];
  const double hours = window_hours(a.sc);
  // A spot pool with an interruption rate loses nodes while they run jobs.
  CHECK(a.mean("per_pool.spot.preemptions") > 0);
  CHECK(a.mean("preemption.preemptions") > 0);
  for (std::size_t k = 0; k < 6; ++k) {
    CAPTURE(k);
    // The on-demand half is a fixed pool: count x price x hours, whatever the spot half does.
    CHECK(a.row(k, "cost_usd.per_pool.od") ==
          doctest::Approx(od.count * od.price_per_node_hour * hours).epsilon(1e-9));
    // A reclaimed node is not billed until it returns, so the spot half costs at most its full
    // hours at the spot price, and more than nothing.
    CHECK(a.row(k, "cost_usd.per_pool.spot") > 0);
    CHECK(a.row(k, "cost_usd.per_pool.spot") <=
          spot.count * spot.price_per_node_hour * hours * (1 + 1e-9));
    // Interrupted work is redone, never more jobs completed than submitted and counted.
    CHECK(a.row(k, "gpu_hours.lost_to_preemption") >= 0);
  }
  // The same six nodes on demand would cost more: spot is the cheaper half.
  CHECK(a.mean("cost_usd.total") < (od.count + spot.count) * od.price_per_node_hour * hours);
}

TEST_CASE("acceptance::supply::owning_more_servers_never_raises_the_burst_bill_beyond_its_ci") {
  const Answer three = ask("hybrid_burst", 8);
  const Answer five = ask("hybrid_burst", 8, {"pools.0.count=5"});
  // More owned servers take more of the same jobs (common random numbers), so the elastic burst
  // pool is needed less; only noise within the CI may say otherwise.
  CHECK(five.mean("cost_usd.per_pool.burst") <= three.high("cost_usd.per_pool.burst"));
  // The burst pool never averages more nodes than its maximum, and works at all.
  CHECK(three.mean("per_pool.burst.mean_nodes") <= 4);
  CHECK(three.mean("per_pool.burst.mean_nodes") > 0);
}

TEST_CASE("acceptance::supply::user_supplied_costs_are_never_stale") {
  const Answer a = ask("hybrid_burst", 2);
  const gpuplan::Pool& owned = a.sc.pools[0];
  SUBCASE("an on-prem pool priced by its own server template") {
    // The server template is the user's own figure: no catalog date applies to it.
    CHECK(gpuplan::priced_by_scenario(a.sc, owned));
    CHECK_FALSE(gpuplan::price_stale(a.sc, owned, gpuplan::today_utc()));
    const nlohmann::json r = gpuplan::result_json(a.sc, a.cs, a.s);
    CHECK(r["per_pool"][0]["price_stale"] == false);
    for (const nlohmann::json& w : r["warnings"])
      CHECK(w.get<std::string>().find("Pool owned:") == std::string::npos);
  }
  SUBCASE("an inline instance type without a date") {
    // price_list's instance type is the lab's own price list.
    const gpuplan::Scenario sc = scenario("price_list");
    for (const gpuplan::Pool& p : sc.pools)
      CHECK_FALSE(gpuplan::price_stale(sc, p, gpuplan::today_utc()));
  }
  SUBCASE("a catalog price still ages") {
    // The burst pool's p5.48xlarge price comes from the catalog; a date ten years on is stale.
    const auto later = std::chrono::year_month_day(std::chrono::year(2036), std::chrono::month(1),
                                                   std::chrono::day(1));
    CHECK(gpuplan::price_stale(a.sc, a.sc.pools[1], later));
    CHECK_FALSE(gpuplan::price_stale(a.sc, owned, later));
  }
}

TEST_CASE(
    "acceptance::supply::an_elastic_pool_costs_no_more_than_the_same_pool_held_at_its_maximum") {
  const Answer a = ask("elastic_pool", 6);
  REQUIRE(a.mean("metrics.saturated") == 0);
  const gpuplan::Pool& p = a.sc.pools[0];
  const double at_max = 6 * p.price_per_node_hour * window_hours(a.sc);
  for (std::size_t k = 0; k < 6; ++k) {
    CAPTURE(k);
    // An elastic pool bills the nodes it holds, never more than its maximum, never fewer than
    // its minimum.
    CHECK(a.row(k, "cost_usd.total") <= at_max * (1 + 1e-9));
    CHECK(a.row(k, "cost_usd.total") >= p.price_per_node_hour * window_hours(a.sc) * (1 - 1e-9));
    CHECK(a.row(k, "per_pool.auto.mean_nodes") <= 6);
    CHECK(a.row(k, "per_pool.auto.mean_nodes") >= 1);
  }
  // At about 35 % of the maximum's load it scales in: cheaper than holding all six.
  CHECK(a.mean("cost_usd.total") < at_max);
}

TEST_CASE("acceptance::supply::an_elastic_pools_unused_maximum_changes_nothing_it_simulates") {
  // The pool peaks far below either maximum, so every simulated figure is the same; only the
  // cost of the run may differ (per-node scans stop at the slots the pool has used).
  for (const char* queue : {"fifo", "las"}) {
    CAPTURE(queue);
    const std::string q = std::string("scheduler.queue=") + queue;
    const Answer a = ask("elastic_pool", 3, {"pools.0.elastic.max=1000", q});
    const Answer b = ask("elastic_pool", 3, {"pools.0.elastic.max=1000000", q});
    for (std::size_t k = 0; k < 3; ++k) {
      CAPTURE(k);
      for (const char* path : {"cost_usd.total", "metrics.wait_s.mean", "metrics.jobs_completed",
                               "per_pool.auto.mean_nodes", "per_pool.auto.preemptions"}) {
        CAPTURE(path);
        CHECK(a.row(k, path) == b.row(k, path));
      }
    }
  }
}
