//! study::run is the N = 1 case of study::monte_carlo, and result.json has one shape for both.
#include <doctest/doctest.h>

#include <string>

#include "reports/result_json.h"
#include "study/monte_carlo.h"
#include "study/run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;
using nlohmann::json;

namespace {

//! M/M/4 at offered load 0.75 for 30 minutes (5 of warmup), 12 time bins.
Scenario mm4() {
  Scenario sc = test::one_pool(4, 1, 1800, 300);
  sc.workload.push_back(test::mm_class(3.0, 1.0));
  sc.limits.time_bins = 12;
  return sc;
}

//! Every key path of `j` ("a/b/c"; arrays by index), objects and arrays included.
void key_paths(const json& j, const std::string& at, std::vector<std::string>& out) {
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      out.push_back(at + "/" + k);
      key_paths(v, at + "/" + k, out);
    }
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) key_paths(j[i], at + "/" + std::to_string(i), out);
  }
}

}  // namespace

TEST_CASE("study::run") {
  const Scenario sc = mm4();
  const CompiledScenario cs = compile(sc);
  study::MonteCarloOptions mo;  // NOTE: not const: a subcase reruns it with more replications
  mo.replications = 1;
  const study::Summary mc = study::monte_carlo(sc, cs, mo);
  const study::Summary one = study::run(sc, cs);
  REQUIRE(mc.held);
  REQUIRE(one.single != nullptr);

  SUBCASE("a run is replica 0 of Monte Carlo: every mean is the same number") {
    REQUIRE(one.stats.paths == mc.stats.paths);
    for (std::size_t i = 0; i < one.stats.paths.size(); ++i) {
      const std::string& path = one.stats.paths[i];
      CAPTURE(path);
      // the same replica (seed, index 0) through the same engine and the same quantile sketch:
      // bit for bit, quantiles included
      CHECK(one.stats.rows[0][i] == mc.stats.rows[0][i]);
    }
  }

  SUBCASE("a run's statistics have a mean and no spread") {
    const study::Statistic wait = one.stat("metrics.wait_s.mean");
    // one replication
    CHECK(wait.n == 1);
    CHECK_FALSE(wait.spread.has_value());
    CHECK(wait.mean == one.single->metrics.wait_s.mean);
  }

  SUBCASE("result.json of a run has every key of a Monte Carlo result but its spread") {
    mo.replications = 3;
    const json r = result_json(sc, cs, one),
               m = result_json(sc, cs, study::monte_carlo(sc, cs, mo));
    std::vector<std::string> run_keys, mc_keys;
    key_paths(r, "", run_keys);
    key_paths(m, "", mc_keys);
    for (const std::string& k : mc_keys) {
      // study info and bands describe several replications; a run has neither
      if (k.rfind("/monte_carlo", 0) == 0 || k.rfind("/bands", 0) == 0) continue;
      if (k.find("/ci95_") != std::string::npos || k.ends_with("/p05") ||
          (k.rfind("/summary/", 0) == 0 && (k.ends_with("/p50") || k.ends_with("/p95"))))
        continue;
      CAPTURE(k);
      CHECK(std::find(run_keys.begin(), run_keys.end(), k) != run_keys.end());
    }
    CHECK_FALSE(r.contains("monte_carlo"));
    CHECK_FALSE(r["summary"]["metrics.wait_s.mean"].contains("ci95_low"));
    CHECK(m["summary"]["metrics.wait_s.mean"].contains("ci95_low"));
    // Monte Carlo with one replication has no interval either
    CHECK_FALSE(result_json(sc, cs, mc)["summary"]["metrics.wait_s.mean"].contains("ci95_low"));
    // a run says whether it saturated; its quantiles come from the sketch, as Monte Carlo's do
    CHECK(r["metrics"]["saturated"] == false);
    CHECK(r["metrics"]["quantiles"] == "histogram");
  }

  SUBCASE("the per-job sink gets every finished job of the window and before") {
    std::size_t n = 0;
    const study::Summary s = study::run(
        sc, cs, {.jobs = [&](const JobRecord*, std::size_t k) { n += k; }, .replica_idx = 0});
    // every completed job of the statistics window has a record (warmup jobs add more), and no
    // job that never started has one
    CHECK(n >= s.single->metrics.jobs_completed);
    CHECK(n <= s.single->state().totals.jobs_started);
    // records stream out as they are produced: none is left held in the state
    CHECK(s.single->state().n_records == 0);
  }
}
