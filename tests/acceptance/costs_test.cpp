//! Acceptance: what the planner says things cost. Properties any correct planner satisfies, not
//! golden numbers (tests/acceptance/README.md).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "models/compile/compile.h"
#include "tests/acceptance/planner.h"

using namespace gpuplan_acceptance;

TEST_CASE("acceptance::costs::every_option_that_serves_the_demand_costs_more_than_zero") {
  for (const std::string& name : scenario_names()) {
    CAPTURE(name);
    const Answer a = ask(name, 2);
    // A scenario that cannot keep up does not serve its demand; the load check covers those.
    if (gpuplan::overloaded(a.cs.offered_load) || a.mean("metrics.saturated") > 0) continue;
    // Nodes that ran jobs were paid for by someone: no option serves demand for free.
    CHECK(a.mean("cost_usd.total") > 0);
    for (const gpuplan::Pool& p : a.sc.pools) {
      CAPTURE(p.name);
      // A pool that did work was billed for it (on-prem amortisation, cloud hours or spot).
      if (a.mean("per_pool." + p.name + ".gpu_utilization") > 0)
        CHECK(a.mean("cost_usd.per_pool." + p.name) > 0);
    }
  }
}

TEST_CASE("acceptance::costs::a_fixed_pool_costs_count_times_price_times_hours") {
  const Answer a = ask("fixed_fleet", 3);
  const gpuplan::Pool& p = a.sc.pools[0];
  const double expected = p.count * p.price_per_node_hour * window_hours(a.sc);
  for (std::size_t k = 0; k < 3; ++k) {
    CAPTURE(k);
    // A fixed on-demand pool is billed for every node over the window, busy or idle; only
    // rounding separates the sum of billed seconds from the product.
    CHECK(a.row(k, "cost_usd.total") == doctest::Approx(expected).epsilon(1e-9));
    CHECK(a.row(k, "cost_usd.per_pool." + p.name) == doctest::Approx(expected).epsilon(1e-9));
  }
}

TEST_CASE("acceptance::costs::doubling_every_price_doubles_every_cost") {
  const Answer base = ask("price_list", 3);
  const Answer doubled =
      ask("price_list", 3,
          {"instances.0.price_per_hour.on_demand=80", "instances.0.price_per_hour.reserved_1y=52",
           "instances.0.price_per_hour.spot=26"});
  std::size_t checked = 0;
  for (const std::string& path : base.s.stats.paths) {
    const bool money = path.rfind("cost_usd.", 0) == 0 ||
                       (path.rfind("per_class.", 0) == 0 &&
                        (path.ends_with(".cost_usd") || path.ends_with(".cost_per_job_usd")));
    if (!money) continue;
    for (std::size_t k = 0; k < 3; ++k) {
      CAPTURE(path);
      CAPTURE(k);
      // Prices scale every bill and nothing else (common random numbers: the same jobs run the
      // same way), so every money figure doubles up to rounding.
      CHECK(doubled.row(k, path) == doctest::Approx(2 * base.row(k, path)).epsilon(1e-9));
    }
    ++checked;
  }
  // total, per GPU-hour, idle, per job, per useful GPU-hour, 3 pools, 2 classes x 2.
  CHECK(checked >= 12);
}
