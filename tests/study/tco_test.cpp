//! The TCO projection as properties any correct planner satisfies, on a scenario with on-prem,
//! reserved, on-demand and spot pools: options that serve the demand cost money, the cheapest
//! serves it, prices scale costs, flat demand buys once, staged purchases beat buying the peak
//! in month 0, and an option that falls short is marked and never the cheapest.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "models/compile/compile.h"
#include "models/load/load.h"
#include "reports/tco_json.h"
#include "study/tco.h"

using namespace gpuplan;
using nlohmann::json;

namespace {

// Prices of the test scenario, all scaled by `k`.
std::string scenario_text(double k, const std::string& tco, const std::string& pools = "") {
  const auto usd = [&](double x) { return std::to_string(x * k); };
  return R"({"horizon": "8d", "warmup": "1d",
  "instances": [{"id": "lab.c8", "gpu": "H100-SXM", "gpus_per_node": 8,
                 "price_per_hour": {"on_demand": )" +
         usd(40) + R"(, "spot": )" + usd(16) + R"(, "reserved_1y": )" + usd(26) + R"(}}],
  "pools": [)" +
         (pools.empty() ? R"(
    {"name": "owned", "instance": "onprem.hgx-h100-8", "count": 4, "pricing": "on_prem",
     "on_prem": {"server_capex": )" +
                              usd(300000) + R"(, "idle_power_kw": 3, "max_power_kw": 10.2,
                 "usd_per_kwh": )" +
                              usd(0.08) + R"(, "colo_usd_per_kw_month": )" + usd(190) +
                              R"(, "staff_usd_per_node_year": )" + usd(10000) + R"(}},
    {"name": "base", "instance": "lab.c8", "count": 1, "pricing": "reserved_1y", "upfront": "partial"},
    {"name": "flex", "instance": "lab.c8", "count": 2, "pricing": "on_demand"},
    {"name": "burst", "instance": "lab.c8", "count": 2, "pricing": "spot"})"
                        : pools) +
         R"(],
  "workload": [{"name": "w", "arrival": {"poisson": {"rate": "2/h"}}, "gpus": 8, "duration": "1h",
                "spot_tolerant": true}],
  "tco": )" +
         tco + "}";
}

struct Projection {
  Scenario sc;
  CompiledScenario cs;
  json tco;
};

// The projection of `useful_gpu_hours` over the 7-day window, with busy GPU-hours per pool
// `busy_gpu_h` (the on-prem, reserved, on-demand and spot pools) and some spot overhead.
Projection project(const std::string& text, double useful_gpu_hours,
                   std::vector<double> busy_gpu_h = {300, 100, 200, 100}) {
  Diagnostics d;
  auto sc = load_scenario_text(text, "scenario.json", "", LoadOptions{}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  CompiledScenario cs = compile(*sc);
  GpuHours all;
  all.useful = useful_gpu_hours;
  all.lost = 0.02 * useful_gpu_hours;
  all.checkpoint = 0.01 * useful_gpu_hours;
  busy_gpu_h.resize(sc->pools.size());
  for (double& b : busy_gpu_h) b *= 3600.0;
  json tco = reports::tco_json(study::tco_projection(*sc, cs, all, busy_gpu_h));
  return {std::move(*sc), std::move(cs), std::move(tco)};
}

std::vector<double> monthly(const json& tco, const std::string& option) {
  return tco["options"][option]["monthly_usd"].get<std::vector<double>>();
}

// The workload offers 2 jobs/h × 8 GPUs × 1 h = 16 busy GPUs: 11,680 GPU-h a month, 2 nodes'
// worth. The runs below serve exactly that over the 7-day window (7 × 24 h × 16 GPUs).
constexpr double USEFUL = 7 * 24 * 16;

}  // namespace

TEST_CASE("study::tco") {
  const std::string growing = R"({"years": 3, "demand_growth_per_month": 0.08})";

  SUBCASE("every option that serves the demand costs more than $0, and the cheapest serves it") {
    const json t = project(scenario_text(1, growing), USEFUL).tco;
    REQUIRE(t["options"].size() == 3);
    for (const auto& item : t["options"].items()) {
      // NOTE: named, not bound: clang 14 cannot capture a structured binding in CAPTURE.
      const std::string name = item.key();
      const json& o = item.value();
      CAPTURE(name);
      // the default options all serve the demand: cloud and hybrid buy what they lack, on-prem
      // is staged to the demand
      CHECK(o["serves_demand"] == true);
      CHECK(o["stops_keeping_up_month"].is_null());
      CHECK(o["npv_usd"].get<double>() > 0);
      CHECK(o["total_usd"].get<double>() > 0);
    }
    const std::string best = t["cheapest_by_npv"].get<std::string>();
    CHECK(t["options"][best]["serves_demand"] == true);
    for (const auto& [name, o] : t["options"].items())
      CHECK(t["options"][best]["npv_usd"].get<double>() <= o["npv_usd"].get<double>());
  }

  SUBCASE("the hybrid's burst is priced at the cloud pools' prices, never at $0") {
    const json t = project(scenario_text(1, growing), USEFUL).tco;
    const json& h = t["options"]["hybrid"];
    // 4 owned nodes serve 23,360 GPU-h a month; 11,680 × 1.08^m passes that from month 10
    CHECK(h["burst_gpu_hours"].get<double>() > 0);
    // the burst runs on spot a third of the time (100 of 300 busy GPU-h), with 3% overhead, at
    // $2 per GPU-h, and on-demand the rest at $5: at least $2 per burst GPU-hour
    CHECK(h["burst_usd"].get<double>() >= 2.0 * h["burst_gpu_hours"].get<double>());
    CHECK(t["cloud_assumptions"]["spot_share"].get<double>() == doctest::Approx(1.0 / 3));
    CHECK(t["cloud_assumptions"]["on_demand_usd_per_gpu_hour"].get<double>() ==
          doctest::Approx(5.0));
  }

  SUBCASE("doubling every price doubles every option's monthly cost and NPV") {
    const json one = project(scenario_text(1, growing), USEFUL).tco;
    const json two = project(scenario_text(2, growing), USEFUL).tco;
    for (const auto& item : one["options"].items()) {
      const std::string name = item.key();
      const json& o = item.value();
      CAPTURE(name);
      const std::vector<double> a = monthly(one, name), b = monthly(two, name);
      REQUIRE(a.size() == b.size());
      for (std::size_t m = 0; m < a.size(); ++m) CHECK(b[m] == doctest::Approx(2 * a[m]));
      CHECK(two["options"][name]["npv_usd"].get<double>() ==
            doctest::Approx(2 * o["npv_usd"].get<double>()));
    }
    // the fleets and the choice do not depend on the price level
    CHECK(two["options"]["on_prem"]["nodes_by_month"] ==
          one["options"]["on_prem"]["nodes_by_month"]);
    CHECK(two["cheapest_by_npv"] == one["cheapest_by_npv"]);
  }

  SUBCASE("a growth of 0 gives flat monthly demand, and on-prem buys nothing after month 0") {
    const json t = project(scenario_text(1, R"({"years": 2})"), USEFUL).tco;
    const auto d = t["demand_gpu_hours_per_month"].get<std::vector<double>>();
    REQUIRE(d.size() == 24);
    // 2,688 GPU-h over 168 h, scaled to 730 h: 11,680 GPU-h every month
    for (const double x : d) CHECK(x == doctest::Approx(11680.0));
    const json& purchases = t["options"]["on_prem"]["purchases"];
    REQUIRE(purchases.size() == 1);
    // two nodes' hours filled to 80 %: 11,680 / (5,840 × 0.8) = 2.5, three nodes in month 0
    CHECK(purchases[0] == json{{"month", 0}, {"nodes", 3}});
  }

  SUBCASE("on-prem buys nodes in the month demand first needs them, not the peak in month 0") {
    const json t = project(scenario_text(1, growing), USEFUL).tco;
    const json& o = t["options"]["on_prem"];
    CHECK(o["sizing"] == "staged");
    const auto nodes = o["nodes_by_month"].get<std::vector<double>>();
    // filled to 80 %, month 0 needs ceil(2.5) = 3 nodes; month 35 ceil(2.5 × 1.08^35) = 37
    CHECK(nodes.front() == 3);
    CHECK(nodes.back() == 37);
    CHECK(o["nodes"] == 37);
    // the purchases add up to the final fleet, the first in month 0
    double bought = 0;
    for (const json& p : o["purchases"]) bought += p["nodes"].get<double>();
    CHECK(bought == 37);
    CHECK(o["purchases"][0]["month"] == 0);
    CHECK(o["purchases"].size() > 1);
  }

  SUBCASE("staged purchases never cost more NPV than buying the peak fleet in month 0") {
    for (const char* basis : {"cash", "accrual"}) {
      CAPTURE(basis);
      const std::string tco = std::string(R"({"years": 5, "demand_growth_per_month": 0.05,
          "discount_rate": 0.08, "compare": ["on_prem"], "basis": ")") +
                              basis + "\"";
      const json staged = project(scenario_text(1, tco + "}"), USEFUL).tco;
      const int peak = staged["options"]["on_prem"]["nodes"].get<int>();
      const json fixed =
          project(scenario_text(1, tco + ", \"on_prem_nodes\": " + std::to_string(peak) + "}"),
                  USEFUL)
              .tco;
      // both serve the demand; the peak fleet bought at once pays earlier for idle nodes
      CHECK(fixed["options"]["on_prem"]["serves_demand"] == true);
      CHECK(staged["options"]["on_prem"]["npv_usd"].get<double>() <
            fixed["options"]["on_prem"]["npv_usd"].get<double>());
    }
  }

  SUBCASE(
      "a fixed on-prem fleet too small is marked with the month it stops keeping up and is "
      "never the cheapest") {
    const json t = project(scenario_text(1, R"({"years": 3, "demand_growth_per_month": 0.08,
        "on_prem_nodes": 3})"),
                           USEFUL)
                       .tco;
    const json& o = t["options"]["on_prem"];
    CHECK(o["sizing"] == "fixed");
    CHECK(o["serves_demand"] == false);
    // 3 nodes serve 17,520 GPU-h; 11,680 × 1.08^m exceeds it first at m = 6 (1.08^6 = 1.587)
    CHECK(o["stops_keeping_up_month"] == 6);
    CHECK(o["unserved_gpu_hours"].get<double>() > 0);
    // it is the cheapest by NPV only because it serves less; it is not chosen
    CHECK(t["cheapest_by_npv"] != "on_prem");
    CHECK_FALSE(t["break_even_month"].contains("on_prem_vs_cloud"));

    const json alone = project(scenario_text(1, R"({"years": 3, "demand_growth_per_month": 0.08,
        "on_prem_nodes": 3, "compare": ["on_prem"]})"),
                               USEFUL)
                           .tco;
    // when no option serves the demand, none is the cheapest, and the projection says why
    CHECK(alone["cheapest_by_npv"].is_null());
    CHECK(alone["cheapest_note"] == "no compared option serves the projected demand");
  }

  SUBCASE("the hybrid base follows the scenario's own purchase schedule") {
    std::string text = scenario_text(1, R"({"years": 1, "compare": ["cloud", "hybrid"]})");
    const std::string owned = R"("count": 4, "pricing": "on_prem",)";
    REQUIRE(text.find(owned) != std::string::npos);
    text.replace(text.find(owned), owned.size(),
                 R"("count": 4, "purchases": [{"at": "3d", "add": 2}], "pricing": "on_prem",)");
    const json o = project(text, USEFUL).tco["options"]["hybrid"];
    const auto nodes = o["nodes_by_month"].get<std::vector<double>>();
    REQUIRE(nodes.size() == 12);
    // 4 nodes from day 0; the purchase on day 3 counts from the next month's start on.
    CHECK(nodes[0] == 4);
    CHECK(nodes[1] == 6);
    CHECK(nodes[11] == 6);
    CHECK(o["sizing"] == "scheduled");
  }

  SUBCASE("an instance under tco.cloud prices cloud demand and burst at its price") {
    const std::string owned_only =
        R"({"name": "owned", "instance": "onprem.hgx-h100-8", "count": 1, "pricing": "on_prem",
            "on_prem": {"server_capex": 300000, "max_power_kw": 10.2}})";
    const json t = project(scenario_text(1, R"({"years": 1, "compare": ["cloud", "hybrid"],
        "cloud": {"instance": "lab.c8"}})",
                                         owned_only),
                           USEFUL, {300})
                       .tco;
    // 11,680 GPU-h a month at lab.c8's $40 / 8 GPUs = $5 per GPU-h: $58,400 a month
    CHECK(monthly(t, "cloud")[0] == doctest::Approx(58400.0));
    // one owned node serves 5,840 GPU-h; the other 5,840 burst at $5: $29,200 a month
    CHECK(t["options"]["hybrid"]["burst_usd"].get<double>() == doctest::Approx(12 * 29200.0));
    CHECK(t["cloud_assumptions"]["price_source"] == "tco.cloud: lab.c8 at its on_demand price");
  }

  SUBCASE("the demand is what the workload offers, not what the simulated fleet served") {
    // A fleet that served half the demand, and one that served all of it, face the same demand.
    const json half = project(scenario_text(1, growing), USEFUL / 2).tco;
    const json full = project(scenario_text(1, growing), USEFUL).tco;
    CHECK(half["initial_demand_gpu_hours_per_month"].get<double>() == doctest::Approx(11680.0));
    CHECK(half["demand_gpu_hours_per_month"] == full["demand_gpu_hours_per_month"]);
    CHECK(half["options"]["on_prem"]["nodes_by_month"] ==
          full["options"]["on_prem"]["nodes_by_month"]);
    // what was served is reported beside it: 1,344 GPU-h over 168 h is 5,840 a month
    CHECK(half["served_gpu_hours_per_month"].get<double>() == doctest::Approx(5840.0));
    CHECK(full["served_gpu_hours_per_month"].get<double>() == doctest::Approx(11680.0));
  }

  SUBCASE("across replications the demand is one; a fleet that cannot keep up says so") {
    const auto summary_of = [](const std::string& text, bool saturate) {
      Diagnostics d;
      const auto sc = load_scenario_text(text, "scenario.json", "", LoadOptions{}, d);
      REQUIRE(sc.has_value());
      const CompiledScenario cs = compile(*sc);
      McStudy st;
      st.replicas.resize(3);
      // replications that served 1/2, 2/2 and 3/2 of the demand: the projection is the same
      for (std::size_t k = 0; k < 3; ++k) {
        st.replicas[k].metrics.gpu_hours.useful = USEFUL * double(k + 1) / 2;
        st.replicas[k].metrics.pools.resize(sc->pools.size());
        for (PoolMetrics& p : st.replicas[k].metrics.pools) p.busy_gpu_s = 3600.0 * 100;
      }
      study::Summary s;
      s.stats.in_statistics = {0, 1, 2};
      s.stats.n_saturated = saturate ? 1 : 0;
      study::summarize_tco(*sc, cs, st, s);
      REQUIRE(s.tco.has_value());
      return reports::tco_json(*s.tco);
    };
    // 3 fixed nodes serve 17,520 GPU-h a month; 11,680 × 1.08^m passes that in month 6
    const std::string text = scenario_text(1, R"({"years": 3, "demand_growth_per_month": 0.08,
        "on_prem_nodes": 3})");
    const json t = summary_of(text, false);
    CHECK(t["options"]["on_prem"]["serves_demand"] == false);
    CHECK(t["options"]["on_prem"]["stops_keeping_up_month"] == 6);
    CHECK(t["cheapest_by_npv"] != "on_prem");
    CHECK(t["options"]["cloud"]["serves_demand"] == true);
    CHECK_FALSE(t.contains("caveat"));
    // the same projection from a run in which a replication saturated carries the caveat
    const json saturated = summary_of(text, true);
    REQUIRE(saturated.contains("caveat"));
    CHECK(saturated["caveat"].get<std::string>().find("cannot keep up") != std::string::npos);
    CHECK(saturated["cheapest_by_npv"] == t["cheapest_by_npv"]);
    // what each replication served is averaged (1/2, 2/2 and 3/2 of the demand: the demand),
    // while what they share (the demand itself, the fixed fleet) keeps its exact value
    const double window_h = 7 * 24;
    CHECK(t["replications"] == 3);
    CHECK(t["served_gpu_hours_per_month"].get<double>() ==
          doctest::Approx(USEFUL * 730 / window_h));
    CHECK(t["options"]["on_prem"]["nodes_by_month"][35] == 3);
    CHECK(t["options"]["on_prem"]["nodes_by_month"][35].is_number_integer());
  }
}

// The planner's options around 4 owned servers (docs/tco.md): what each buys, that the owned
// servers are never bought again, and each option's run-out month against its closed form.
TEST_CASE("study::tco planner options") {
  const auto options = [](const std::string& extra) {
    return R"({"years": 3, "demand_growth_per_month": 0.08, "owned_nodes": 4)" + extra + "}";
  };
  // A server's capex with the default 15 % network share.
  constexpr double UNIT_CAPEX = 300000 * 1.15;

  SUBCASE("owned servers are sunk: the same fleet costs exactly their capex less") {
    const std::string fixed = R"({"years": 3, "compare": ["on_prem"], "on_prem_nodes": 6)";
    const json bought = project(scenario_text(1, fixed + "}"), USEFUL).tco;
    const json owned = project(scenario_text(1, fixed + R"(, "owned_nodes": 4})"), USEFUL).tco;
    const auto a = monthly(bought, "on_prem"), b = monthly(owned, "on_prem");
    CHECK(a[0] - b[0] == doctest::Approx(4 * UNIT_CAPEX));
    for (std::size_t m = 1; m < a.size(); ++m) CHECK(a[m] == doctest::Approx(b[m]));
    // only the 2 servers beyond the owned ones are purchases
    CHECK(owned["options"]["on_prem"]["purchases"] == json::array({{{"month", 0}, {"nodes", 2}}}));
  }

  SUBCASE("keep and buy stop keeping up where the demand passes their capacity") {
    const json t = project(scenario_text(1, options(R"(, "buy_nodes": 2,
        "compare": ["keep", "buy", "cloud"])")),
                           USEFUL)
                       .tco;
    const json& keep = t["options"]["keep"];
    // 4 servers: 23,360 GPU-h; 11,680 × 1.08^m passes it first at m = 10 (1.08^9 = 1.999)
    CHECK(keep["stops_keeping_up_month"] == 10);
    CHECK(keep["purchases"].empty());
    // keeping them costs only their running costs: far less than one server's capex a year
    CHECK(monthly(t, "keep")[0] < 0.05 * UNIT_CAPEX);
    // 6 servers: 35,040 GPU-h; 1.08^m passes 3 first at m = 15 (1.08^14 = 2.94)
    const json& buy = t["options"]["buy"];
    CHECK(buy["stops_keeping_up_month"] == 15);
    CHECK(buy["purchases"] == json::array({{{"month", 0}, {"nodes", 2}}}));
    CHECK(monthly(t, "buy")[0] - monthly(t, "keep")[0] > 2 * UNIT_CAPEX);
    // neither serves the demand, so neither is the cheapest although both cost less than cloud
    CHECK(t["cheapest_by_npv"] == "cloud");
    CHECK(keep["usd_per_served_gpu_hour"].get<double>() > 0);
  }

  SUBCASE("staged purchases start from the owned servers and keep the fill at its target") {
    // fill 0.5: 4 servers hold 11,680 GPU-h at half fill, exactly month 0's demand: nothing
    // bought in month 0; month 1's 12,614 GPU-h need a fifth.
    const json half = project(scenario_text(1, options(R"(, "fill_target": 0.5,
        "compare": ["staged"])")),
                              USEFUL)
                          .tco["options"]["staged"];
    const auto nodes = half["nodes_by_month"].get<std::vector<double>>();
    CHECK(nodes[0] == 4);
    CHECK(nodes[1] == 5);
    CHECK(half["purchases"][0] == json{{"month", 1}, {"nodes", 1}});
    CHECK(half["serves_demand"] == true);
    const auto demand = project(scenario_text(1, options(R"(, "compare": ["staged"])")), USEFUL)
                            .tco["demand_gpu_hours_per_month"]
                            .get<std::vector<double>>();
    for (std::size_t m = 0; m < nodes.size(); ++m) {
      CAPTURE(m);
      CHECK(demand[m] <= 0.5 * nodes[m] * 5840 * (1 + 1e-9));
      // and the fewest servers that do: one fewer would pass the fill (or the owned floor)
      if (nodes[m] > 4 && (m == 0 || nodes[m] > nodes[m - 1]))
        CHECK(demand[m] > 0.5 * (nodes[m] - 1) * 5840);
    }
  }

  SUBCASE("a reservation is billed every hour of its term and serves no more than its nodes") {
    const json t =
        project(scenario_text(1, options(R"(, "compare": ["reserve_1y", "keep"])")), USEFUL).tco;
    const json& r = t["options"]["reserve_1y"];
    // the scenario's one reserved lab.c8 at $26 an hour, every one of 730 h a month
    CHECK(r["reserved_nodes"] == 1);
    CHECK(monthly(t, "reserve_1y")[0] - monthly(t, "keep")[0] == doctest::Approx(26.0 * 730));
    // 4 servers and 1 reserved node: 29,200 GPU-h; 1.08^m passes 2.5 first at m = 12
    CHECK(r["stops_keeping_up_month"] == 12);
  }

  SUBCASE("burst is capped at the elastic pools' maximum") {
    std::string text = scenario_text(1, options(R"(, "compare": ["burst", "hybrid"])"));
    const std::string flex = R"("count": 2, "pricing": "on_demand")";
    REQUIRE(text.find(flex) != std::string::npos);
    text.replace(text.find(flex), flex.size(),
                 R"("pricing": "on_demand", "elastic": {"min": 0, "max": 2})");
    const json t = project(text, USEFUL).tco;
    const json& b = t["options"]["burst"];
    CHECK(b["burst_cap_gpus"] == 16);
    const json& mix = t["cloud_assumptions"];
    const double cap =
        16 * 730 / (1 + mix["spot_share"].get<double>() * mix["spot_overhead"].get<double>());
    // first month whose demand passes the 4 owned servers plus the capped burst
    int expected = 0;
    while (11680 * std::pow(1.08, expected) <= 23360 + cap) ++expected;
    CHECK(b["stops_keeping_up_month"] == expected);
    // the unlimited hybrid keeps up, and its burst is larger
    CHECK(t["options"]["hybrid"]["serves_demand"] == true);
    CHECK(t["options"]["hybrid"]["burst_gpu_hours"].get<double>() >
          b["burst_gpu_hours"].get<double>());
  }

  SUBCASE("spot takes no more than the spot-tolerant classes' share of the work") {
    std::string text = scenario_text(1, options(R"(, "compare": ["cloud"])"));
    const std::string tolerant = R"("spot_tolerant": true}])";
    REQUIRE(text.find(tolerant) != std::string::npos);
    text.replace(text.find(tolerant), tolerant.size(),
                 R"("spot_tolerant": true},
                {"name": "serve", "arrival": {"poisson": {"rate": "6/h"}}, "gpus": 8,
                 "duration": "1h"}])");
    // a quarter of the work may run on spot; the busy hours alone would give a third
    const json t = project(text, USEFUL).tco;
    CHECK(t["cloud_assumptions"]["spot_tolerant_share"].get<double>() == doctest::Approx(0.25));
    CHECK(t["cloud_assumptions"]["spot_share"].get<double>() == doctest::Approx(0.25));
  }

  SUBCASE("an option without what it is about is refused at its key") {
    const auto error_of = [](const std::string& tco) {
      Diagnostics d;
      const auto sc =
          load_scenario_text(scenario_text(1, tco), "scenario.json", "", LoadOptions{}, d);
      CHECK_FALSE(sc.has_value());
      return d.to_text();
    };
    CHECK(error_of(R"({"compare": ["keep"]})").find("owned_nodes") != std::string::npos);
    CHECK(error_of(R"({"owned_nodes": 4, "compare": ["buy"]})").find("buy_nodes") !=
          std::string::npos);
    CHECK(error_of(R"({"owned_nodes": 4, "compare": ["burst"]})").find("elastic") !=
          std::string::npos);
    // lab.c8 has a 1-year reserved price and no 3-year one
    CHECK(error_of(R"({"compare": ["reserve_3y"]})").find("no reserved_3y price") !=
          std::string::npos);
    CHECK(error_of(R"({"fill_target": 0})").find("/tco/fill_target") != std::string::npos);
    CHECK(error_of(R"({"fill_target": 1.2})").find("/tco/fill_target") != std::string::npos);
  }
}
