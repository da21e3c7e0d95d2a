//! Acceptance: buy, reserve or burst under growth (issue 11, item 9): when a fleet stops keeping
//! up with a demand that compounds month by month, in the load check, the simulation and the TCO
//! projection (tests/acceptance/README.md). Every expected month is computed here from (1 + g)^m.
#include <doctest/doctest.h>

#include <cmath>
#include <optional>
#include <string>

#include "reports/tco_json.h"
#include "study/load_check.h"
#include "tests/acceptance/planner.h"

using namespace gpuplan_acceptance;

namespace {

constexpr double G = 0.08;  // growth per month of tests/acceptance/scenarios/growth.json
constexpr double MONTH_S = 730 * 3600.0;  // the month of growth_per_month
constexpr double WEEK_S = 168 * 3600.0;   // the span of the load check's peak
// Offered load at t = 0 on the 4 servers: 0.45/h x 8 GPUs x 4 h over 32 GPUs.
constexpr double LOAD0 = 0.45 * 8 * 4 / 32;

// Mean of LOAD0 (1 + g)^(t / month) over [a, b): the integral of the exponential over the span.
double mean_load(double a, double b) {
  return LOAD0 * MONTH_S / ((b - a) * std::log1p(G)) *
         (std::pow(1 + G, b / MONTH_S) - std::pow(1 + G, a / MONTH_S));
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("acceptance::growth::a_fixed_fleet_stops_keeping_up_where_compounding_growth_says") {
  const gpuplan::Scenario sc = scenario("growth", {"pools.0.purchases=[]"});
  const std::vector<gpuplan::PoolSetLoad> loads = gpuplan::pool_set_loads(sc);
  REQUIRE(loads.size() == 1);
  std::optional<double> expected;
  double last = 0;
  for (double a = 0; a < sc.horizon_s; a += WEEK_S) {
    last = mean_load(a, std::min(a + WEEK_S, sc.horizon_s));
    if (!expected && last >= 1) expected = a;
  }
  REQUIRE(expected.has_value());
  SUBCASE("the load check names the first week whose offered load reaches capacity") {
    REQUIRE(loads[0].reaches_capacity_s.has_value());
    CHECK(*loads[0].reaches_capacity_s == doctest::Approx(*expected).epsilon(1e-12));
    // LOAD0 (1 + g)^(t / month) = 1 at t = month ln(1 / LOAD0) / ln(1 + g), about 10.4 months:
    // the week whose mean first reaches 1 starts less than a week before it.
    const double crossing = MONTH_S * std::log(1 / LOAD0) / std::log1p(G);
    CHECK(*loads[0].reaches_capacity_s <= crossing);
    CHECK(crossing - *loads[0].reaches_capacity_s < WEEK_S);
    // The busiest week is the last one: LOAD0 x 1.08^12 at its end, 1.13 times capacity.
    CHECK(loads[0].peak_load == doctest::Approx(last).epsilon(1e-9));
    CHECK(loads[0].peak_end_s == sc.horizon_s);
  }
  SUBCASE("the window mean keeps up, so only the peak warning says it") {
    // Mean of LOAD0 (1 + g)^(t / month) over the window [1 d, 12 months) is below 1 (about 0.71).
    CHECK(loads[0].load == doctest::Approx(mean_load(sc.warmup_s, sc.horizon_s)).epsilon(1e-9));
    CHECK(loads[0].load < 1);
    const std::vector<std::string> w = gpuplan::study::load_warnings(sc);
    REQUIRE(w.size() == 1);
    // It names the day that week starts, and says the mean alone would not have shown it.
    const std::string day = "(day " + std::to_string(std::lround(*expected / 86400)) + ")";
    CHECK_MESSAGE(has(w[0], "reaches its capacity from month"), w[0]);
    CHECK_MESSAGE(has(w[0], day), w[0]);
    CHECK(has(w[0], "on average over the window, but the demand grows"));
  }
}

TEST_CASE("acceptance::growth::staged_purchases_keep_up_longer_than_no_purchases") {
  const gpuplan::Scenario staged = scenario("growth");
  const gpuplan::Scenario fixed = scenario("growth", {"pools.0.purchases=[]"});
  SUBCASE("the load check: the fixed fleet reaches capacity, the staged one never does") {
    // 2 more servers from month 6 carry LOAD0 x 4/6 x 1.08^12 = 0.75 at the end.
    CHECK_FALSE(gpuplan::pool_set_loads(staged)[0].reaches_capacity_s.has_value());
    CHECK(gpuplan::pool_set_loads(staged)[0].peak_load < 1);
    CHECK(gpuplan::study::load_warnings(staged).empty());
    CHECK(gpuplan::pool_set_loads(fixed)[0].reaches_capacity_s.has_value());
  }
  SUBCASE("the simulation: the fixed fleet's queue grows at the end, the staged one's does not") {
    // Six replications: the fixed fleet's mean wait varies 3x between streams (it depends on
    // how deep the last months' overload runs), too much for a 3-replication interval.
    const Answer with = ask(staged, 6);
    const Answer without = ask(fixed, 6);
    // The same arrivals (common random numbers); the fixed fleet is overloaded for its last
    // 1.6 months, so jobs pile up unfinished and every later job waits longer.
    CHECK(with.mean("metrics.jobs_unfinished") < without.mean("metrics.jobs_unfinished"));
    CHECK(with.high("metrics.wait_s.mean") < without.low("metrics.wait_s.mean"));
  }
}

TEST_CASE("acceptance::growth::the_projection_starts_at_the_first_month_and_grows_as_simulated") {
  const Answer a = ask("growth", 1);
  const nlohmann::json tco = a.s.tco ? gpuplan::reports::tco_json(*a.s.tco) : nlohmann::json();
  REQUIRE(tco.is_object());
  // Without its own growth the projection takes the simulated one.
  CHECK(tco["demand_growth_per_month"].get<double>() == doctest::Approx(G));
  // Month 0's demand is what the workload offers, not what the run served: 0.45/h x 32 GPU-h a
  // job over the first 730 h, grown continuously: 0.45 x 32 x 730 x g / ln(1 + g) GPU-h, exactly
  // (no Poisson noise of the simulated year enters it).
  const double month0 = 0.45 * 32 * 730 * G / std::log1p(G);
  CHECK(tco["initial_demand_gpu_hours_per_month"].get<double>() ==
        doctest::Approx(month0).epsilon(1e-9));
  // Every month's demand is month 0's compounded.
  const auto demand = tco["demand_gpu_hours_per_month"].get<std::vector<double>>();
  REQUIRE(demand.size() == 24);
  CHECK(demand[23] == doctest::Approx(demand[0] * std::pow(1 + G, 23)).epsilon(1e-9));
}

TEST_CASE(
    "acceptance::growth::a_fixed_on_prem_fleet_stops_keeping_up_in_the_month_compounding_says") {
  const Answer a = ask("growth", 1, {"tco.on_prem_nodes=6"});
  const nlohmann::json tco = a.s.tco ? gpuplan::reports::tco_json(*a.s.tco) : nlohmann::json();
  REQUIRE(tco.is_object());
  const double d0 = tco["initial_demand_gpu_hours_per_month"].get<double>();
  // 6 servers x 8 GPUs x 730 h a month; the first month m with d0 (1 + g)^m above it.
  const double capacity = 6 * 8 * 730.0;
  int expected = 0;
  while (d0 * std::pow(1 + G, expected) <= capacity) ++expected;
  REQUIRE(expected < 24);
  const nlohmann::json& on_prem = tco["options"]["on_prem"];
  CHECK_FALSE(on_prem["serves_demand"].get<bool>());
  CHECK(on_prem["stops_keeping_up_month"].get<int>() == expected);
  // It is cheap because it does less: the cheapest option is one that serves the demand.
  REQUIRE(tco["cheapest_by_npv"].is_string());
  const std::string cheapest = tco["cheapest_by_npv"];
  CHECK(cheapest != "on_prem");
  CHECK(tco["options"][cheapest]["serves_demand"].get<bool>());
  SUBCASE("bought in stages, on-prem keeps up every month") {
    const Answer staged = ask("growth", 1);
    REQUIRE(staged.s.tco.has_value());
    const nlohmann::json o = gpuplan::reports::tco_json(*staged.s.tco)["options"]["on_prem"];
    CHECK(o["serves_demand"].get<bool>());
    CHECK(o["stops_keeping_up_month"].is_null());
    // Staged sizing buys a node in the month demand first needs it: more than 6 by the end.
    CHECK(o["nodes"].get<double>() > 6);
  }
}
