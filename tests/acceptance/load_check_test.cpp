//! Acceptance: a load the cluster cannot carry is named before anything runs (issue 11, item 5;
//! tests/acceptance/README.md).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "study/load_check.h"
#include "study/run.h"
#include "tests/acceptance/planner.h"

using namespace gpuplan_acceptance;

namespace {

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("acceptance::load_check::a_bare_rate_above_capacity_is_named_with_its_unit") {
  SUBCASE("the scenario of the issue: 0.3 as a rate") {
    const gpuplan::Scenario sc = scenario("bare_rate");
    const std::vector<std::string> w = gpuplan::study::load_warnings(sc);
    REQUIRE(w.size() == 1);
    // 0.3/s x 16 GPUs x 7,200 s over 64 GPUs, plus the notebooks' 4/h x 1 x 0.5 h / 64.
    const double load = 0.3 * 16 * 7200 / 64 + 4.0 / 3600 * 1800 / 64;
    CHECK(gpuplan::pool_set_loads(sc).front().load == doctest::Approx(load));
    CHECK(has(w[0], "Pool h100 (64 GPUs)"));
    CHECK(has(w[0], "class pretrain drives it"));
    CHECK(has(w[0], "0.3 per second = 1,080 per hour"));
    CHECK_FALSE(has(w[0], "notebooks"));
  }
  SUBCASE("a rate with a unit gets no such note") {
    const gpuplan::Scenario sc = scenario("bare_rate", {"workload.0.arrival.poisson.rate=1080/h"});
    const std::vector<std::string> w = gpuplan::study::load_warnings(sc);
    REQUIRE(w.size() == 1);
    CHECK(has(w[0], "class pretrain drives it"));
    CHECK_FALSE(has(w[0], "per second"));
  }
  SUBCASE("the study's warnings carry it, first") {
    const gpuplan::Scenario sc = scenario("bare_rate");
    const gpuplan::CompiledScenario cs = gpuplan::compile(sc);
    const gpuplan::study::Summary s = gpuplan::study::run(sc, cs);
    REQUIRE(!s.warnings.empty());
    CHECK(has(s.warnings[0], "0.3 per second = 1,080 per hour"));
  }
}

TEST_CASE("acceptance::load_check::demand_scaling_counts_in_the_check") {
  const gpuplan::Scenario flat = scenario("busy_fleet");
  const double base = gpuplan::pool_set_loads(flat).front().load;
  REQUIRE(base < 1);
  SUBCASE("load_scale multiplies the load and can push it over capacity") {
    // load_scale k runs as every rate times k, so the checked load is k times the flat one.
    const gpuplan::Scenario sc = scenario("busy_fleet", {"demand.load_scale=1.5"});
    CHECK(gpuplan::pool_set_loads(sc).front().load == doctest::Approx(1.5 * base));
    CHECK(gpuplan::study::load_warnings(sc).size() == 1);
  }
  SUBCASE("compile's offered load agrees with the check") {
    const gpuplan::Scenario sc = scenario("busy_fleet", {"demand.load_scale=1.5"});
    CHECK(gpuplan::compile(sc).offered_load == doctest::Approx(1.5 * base));
  }
}

TEST_CASE("acceptance::load_check::a_cluster_that_keeps_up_gets_no_load_warning") {
  for (const std::string& name : scenario_names()) {
    if (name == "bare_rate") continue;
    CAPTURE(name);
    const gpuplan::Scenario sc = scenario(name);
    // Every other scenario of the suite runs below capacity: no warning, every set below 1.
    CHECK(gpuplan::study::load_warnings(sc).empty());
    for (const gpuplan::PoolSetLoad& s : gpuplan::pool_set_loads(sc)) CHECK(s.load < 1);
  }
}
