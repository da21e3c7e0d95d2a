//! One replica's row of Monte Carlo metrics: the spend billed to no class.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "sim/mc_metrics.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

TEST_CASE("sim::mc_metrics::idle_cost") {
  Scenario sc = test::one_pool(2, 1, 1000, 0);
  sc.workload.push_back(test::mm_class(0.5, 1.0));
  sc.workload.push_back(test::mm_class(0.5, 1.0));
  sc.workload[1].name = "second";
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  const std::vector<std::string> paths = metric_paths({"pool"}, {"a", "b"}, {}, {}, false);
  const auto idle = std::find(paths.begin(), paths.end(), "cost_usd.idle") - paths.begin();
  ReplicaMetrics r;
  r.pools.resize(1);
  r.classes.resize(2);

  SUBCASE("a cluster billed wholly to its classes has no idle spend, not float residue") {
    // 0.3 - (0.1 + 0.2) is -5.6e-17 in doubles; a total of 1e6 split 1/3 + 2/3 leaves a residue
    // of the order of 1e-10: both are the classes' whole spend, so idle is exactly 0.
    r.cost_usd = 0.3;
    r.classes[0].cost_usd = 0.1;
    r.classes[1].cost_usd = 0.2;
    CHECK(metric_row(m, r)[idle] == 0.0);
    r.cost_usd = 1e6;
    r.classes[0].cost_usd = 1e6 / 3;
    r.classes[1].cost_usd = 2e6 / 3;
    CHECK(metric_row(m, r)[idle] == 0.0);
  }
  SUBCASE("spend on capacity no class used is idle") {
    // $1,000 billed, $250 + $500 of it used by the classes: $250 idle
    r.cost_usd = 1000;
    r.classes[0].cost_usd = 250;
    r.classes[1].cost_usd = 500;
    CHECK(metric_row(m, r)[idle] == doctest::Approx(250.0));
  }
}
