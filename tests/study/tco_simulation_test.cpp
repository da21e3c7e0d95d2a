//! The TCO options simulated (study/tco_simulation.h): the run-out rule on both sides of its
//! threshold, the typed variant each option runs as, and, on the bundled growth scenario, every
//! option's simulated run-out month against its projected one.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "models/load/load.h"
#include "models/scenario/demand_profile.h"
#include "reports/tco_json.h"
#include "study/run.h"
#include "study/tco_simulation.h"

using namespace gpuplan;
using nlohmann::json;

TEST_CASE("study::tco_simulation::first_short_month") {
  const std::vector<double> offered(6, 100.0);
  const auto served = [](std::vector<double> v) { return v; };
  SUBCASE("a fleet that stays short from a month on runs out in that month") {
    CHECK(study::first_short_month(offered, served({100, 99, 98, 90, 80, 70})) == 3u);
  }
  SUBCASE("both sides of the 3 % shortfall") {
    // 97.1 % served is keeping up; 96.9 % is short
    CHECK_FALSE(study::first_short_month(offered, served({100, 100, 100, 100, 97.1, 97.1})));
    CHECK(study::first_short_month(offered, served({100, 100, 100, 100, 96.9, 96.9})) == 4u);
  }
  SUBCASE("a short month followed by one that catches up is noise, not a run-out") {
    CHECK_FALSE(study::first_short_month(offered, served({100, 90, 110, 100, 100, 100})));
    CHECK(study::first_short_month(offered, served({100, 90, 110, 90, 80, 70})) == 3u);
  }
  SUBCASE("one short last month is not enough") {
    CHECK_FALSE(study::first_short_month(offered, served({100, 100, 100, 100, 100, 50})));
  }
}

TEST_CASE("study::tco_simulation::simulated_run_out") {
  // Offered 100, 110, ..., 160 a month; the fleet serves all of it up to 125 a month, then 125.
  const std::vector<double> offered = {100, 110, 120, 130, 140, 150, 160};
  std::vector<double> served;
  for (double o : offered) served.push_back(std::min(o, 125.0));
  const auto first = study::first_short_month(offered, served);
  REQUIRE(first == 3u);
  // 125 lies halfway from month 2's 120 to month 3's 130: at 3.0
  CHECK(study::simulated_run_out(offered, served, *first) == doctest::Approx(3.0));
  // What it serves once behind is its capacity, whichever month the 3 % rule first notices.
  served = {100, 110, 120, 126, 124, 125, 125};
  CHECK(study::simulated_run_out(offered, served, 4) == doctest::Approx(3.0));
}

TEST_CASE("study::tco_simulation on the growth scenario") {
  Diagnostics d;
  const auto sc = load_scenario(
      std::string(GPUPLAN_SOURCE_DIR) + "/scenarios/growth_buy_reserve_burst.json", {}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  const CompiledScenario cs = compile(*sc);
  study::Summary s = study::run(*sc, cs);
  REQUIRE(s.tco.has_value());
  const json projected = reports::tco_json(*s.tco)["options"];

  SUBCASE("each option runs on its own pools, sized as it buys them") {
    const auto variant = [&](TcoOption option) {
      auto v = study::option_scenario(*sc, *s.tco->find(option), 12);
      REQUIRE(v.has_value());
      CHECK_FALSE(v->tco.has_value());
      CHECK(v->horizon_s == doctest::Approx(12 * PROFILE_MONTH_S));
      return *v;
    };
    const Scenario keep = variant(TcoOption::keep);
    // pools: owned, reserved, burst_spot, burst_on_demand
    CHECK(keep.pools[0].count == 32);
    CHECK(keep.pools[0].purchases.empty());
    CHECK(keep.workload[0].pool_indices == std::vector<uint32_t>{0});
    const Scenario buy = variant(TcoOption::buy);
    CHECK(buy.pools[0].count == 40);
    const Scenario reserve = variant(TcoOption::reserve_3y);
    CHECK(reserve.workload[0].pool_indices == std::vector<uint32_t>{0, 1});
    CHECK(reserve.pools[1].count == 4);
    const Scenario burst = variant(TcoOption::burst);
    CHECK(burst.workload[0].pool_indices == std::vector<uint32_t>{0, 2, 3});
    const Scenario staged = variant(TcoOption::staged);
    // the projection's purchases, each at its month's start
    const auto nodes = projected["staged"]["nodes_by_month"].get<std::vector<double>>();
    CHECK(staged.pools[0].initial_count() == 32);
    CHECK(staged.pools[0].count == nodes[11]);
    for (const PoolPurchase& p : staged.pools[0].purchases) {
      const double month = p.at_s / PROFILE_MONTH_S;
      CHECK(month == doctest::Approx(std::round(month)));
      CHECK(p.add == nodes[std::size_t(month)] - nodes[std::size_t(month) - 1]);
    }
    std::string why;
    CHECK_FALSE(study::option_scenario(*sc, *s.tco->find(TcoOption::cloud), 12, &why));
    CHECK(why.find("without limit") != std::string::npos);
  }

  SUBCASE("every option's simulated run-out is within half a month of the projected one") {
    study::simulate_tco_options(*sc, s, 1);
    const json tco = reports::tco_json(*s.tco);
    for (const auto& item : tco["options"].items()) {
      // NOTE: named, not bound: clang 14 cannot capture a structured binding in CAPTURE.
      const std::string name = item.key();
      const json& o = item.value();
      CAPTURE(name);
      const json& sim = o["simulation"];
      if (!sim["simulated"].get<bool>()) {
        CHECK((name == "cloud" || name == "hybrid"));
        continue;
      }
      const json& p = projected[name]["stops_keeping_up_month"];
      const json& m = sim["stops_keeping_up_month"];
      // the fleets bought outright and the capped ones run out; staged at 80 % never does
      CHECK(p.is_null() == m.is_null());
      if (p.is_number() && m.is_number()) CHECK(std::abs(p.get<double>() - m.get<double>()) <= 1);
      // the instant the demand passes the capacity, to a fraction of a month
      const json& pr = projected[name]["runs_out_month"];
      const json& mr = sim["runs_out_month"];
      CHECK(pr.is_null() == mr.is_null());
      if (pr.is_number() && mr.is_number()) {
        CAPTURE(pr);
        CAPTURE(mr);
        CHECK(std::abs(pr.get<double>() - mr.get<double>()) <= 0.5);
        // inside the first short month's interval on each side
        CHECK(std::abs(pr.get<double>() - p.get<double>()) <= 0.5);
        CHECK(std::abs(mr.get<double>() - m.get<double>()) <= 1.5);
      }
    }
    CHECK(tco["options"]["staged"]["serves_demand"] == true);
    // the cheapest serves the demand in the projection and in the simulation
    const std::string best = tco["cheapest_by_npv"].get<std::string>();
    CHECK(tco["options"][best]["serves_demand"] == true);
  }
}
