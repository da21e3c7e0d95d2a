//! Energy and carbon beside each TCO option (study/tco_energy.h): hand-computed kWh, power cost,
//! carbon and embodied carbon of an on-prem fleet, the cloud's busy and idle GPU-hours, and the
//! energy section's settings pricing the fleet's power.
#include "study/tco_energy.h"

#include <doctest/doctest.h>

#include <string>

#include "models/compile/compile.h"
#include "models/load/load.h"
#include "reports/tco_json.h"
#include "study/tco.h"

using namespace gpuplan;
using nlohmann::json;

namespace {

//! 4 on-prem nodes (3 kW idle, 10.2 kW busy, template PUE 1.3, $0.08/kWh) on a grid of
//! 400 g/kWh, 2,000 kgCO2e per node over 4 years, plus `energy` members and a `tco` section.
std::string scenario(const std::string& tco, const std::string& energy = "") {
  return R"({"horizon": "8d", "warmup": "1d",
  "pools": [{"name": "owned", "instance": "onprem.hgx-h100-8", "count": 4, "pricing": "on_prem",
             "on_prem": {"server_capex": 300000, "idle_power_kw": 3, "max_power_kw": 10.2,
                         "usd_per_kwh": 0.08}}],
  "workload": [{"name": "w", "arrival": {"poisson": {"rate": "2/h"}}, "gpus": 8,
                "duration": "1h"}],
  "energy": {"pools": {"owned": {"g_co2e_per_kwh": 400}}, "embodied_kgco2e_per_node": 2000,
             "embodied_life_years": 4)" +
         energy + R"(},
  "tco": )" +
         tco + "}";
}

//! The projection of the workload's 2 jobs/h x 8 GPUs x 1 h = 11,680 GPU-h a month, all served
//! in the 7-day window (2,688 useful GPU-hours).
json project(const std::string& text) {
  Diagnostics d;
  auto sc = load_scenario_text(text, "scenario.json", "", LoadOptions{}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  const CompiledScenario cs = compile(*sc);
  GpuHours all;
  all.useful = 7 * 24 * 16;
  return reports::tco_json(study::tco_projection(*sc, cs, all, {all.useful * 3600.0}));
}

}  // namespace

TEST_CASE("study::tco_energy") {
  const std::string fixed = R"({"years": 1, "compare": ["on_prem"], "on_prem_nodes": 4})";

  SUBCASE("a fleet at known utilization: kWh, power cost, carbon and embodied carbon by hand") {
    const json e = project(scenario(fixed))["options"]["on_prem"]["energy"];
    // 11,680 of 4 x 8 x 730 = 23,360 GPU-h: utilization 0.5; a node draws
    // 3 + (10.2 - 3) x 0.5 = 6.6 kW; 4 nodes x 6.6 kW x 730 h x PUE 1.3 = 25,053.6 kWh a month
    const auto monthly = e["monthly_kwh"].get<std::vector<double>>();
    REQUIRE(monthly.size() == 12);
    CHECK(monthly[0] == doctest::Approx(25053.6));
    CHECK(e["kwh"].get<double>() == doctest::Approx(12 * 25053.6));
    // at $0.08/kWh: $2,004.288 a month
    CHECK(e["power_cost_usd"].get<double>() == doctest::Approx(12 * 2004.288));
    // at 400 g/kWh: 10.02144 t a month
    CHECK(e["tco2e"].get<double>() == doctest::Approx(12 * 10.02144));
    // embodied: 2,000 kg per node over 4 x 8,760 h; 4 nodes x 12 x 730 h = a quarter of 4 nodes'
    // lives = 4 x 2,000 kg / 4 = 2.0 t
    CHECK(e["embodied_tco2e"].get<double>() == doctest::Approx(2.0));
    // one year: the per-year row holds the year's cost, kWh and carbon
    REQUIRE(e["per_year"].size() == 1);
    CHECK(e["per_year"][0]["kwh"].get<double>() == doctest::Approx(e["kwh"].get<double>()));
    CHECK(e["per_year"][0]["embodied_tco2e"].get<double>() == doctest::Approx(2.0));
  }
  SUBCASE("the fleet's power cost is the energy model's kWh at the electricity price") {
    const json t = project(scenario(fixed));
    const json& o = t["options"]["on_prem"];
    // the option's monthly cost includes exactly kWh x $0.08 of power: the same model as
    // result.json's energy section, not a separate formula
    CHECK(o["energy"]["power_cost_usd"].get<double>() ==
          doctest::Approx(o["energy"]["kwh"].get<double>() * 0.08));
    CHECK(t["energy_assumptions"]["on_prem"]["node_busy_kw"].get<double>() ==
          doctest::Approx(10.2));
  }
  SUBCASE("the energy section's PUE, price and activity now price the fleet's power") {
    const json base = project(scenario(fixed))["options"]["on_prem"];
    const json t =
        project(scenario(fixed, R"(, "pue": 1.1, "usd_per_kwh": 0.1, "gpu_activity": 0.5)"));
    const json& o = t["options"]["on_prem"];
    // busy node 3 + 0.5 x 7.2 = 6.6 kW; at utilization 0.5: 3 + 3.6 x 0.5 = 4.8 kW;
    // 4 x 4.8 x 730 x 1.1 = 15,417.6 kWh a month at $0.10 = $1,541.76
    CHECK(o["energy"]["monthly_kwh"][0].get<double>() == doctest::Approx(15417.6));
    CHECK(o["energy"]["power_cost_usd"].get<double>() == doctest::Approx(12 * 1541.76));
    // the rest of the monthly cost (capex, colocation on the template's 10.2 kW, staff) is as
    // before: only the power line changed
    const double before = base["monthly_usd"][1].get<double>() - 2004.288;
    const double after = o["monthly_usd"][1].get<double>() - 1541.76;
    CHECK(after == doctest::Approx(before));
  }
  SUBCASE("the cloud runs the demand busy and idles the reserved GPUs it does not use") {
    study::GpuHourEnergy h;
    h.busy_kwh = 1.0;
    h.idle_kwh = 0.2;
    h.busy_tco2e = 0.001;
    h.idle_tco2e = 0.0002;
    h.embodied_tco2e = 0.0001;
    economics::CloudMix mix;
    mix.reserved_gpus = 1;  // 730 GPU-h a month
    mix.spot_share = 0.5;
    mix.spot_overhead = 0.1;
    Eigen::VectorXd demand(2);
    demand << 500, 1000;
    const study::MonthlyEnergy e = study::cloud_energy(h, mix, demand);
    // month 0: 500 busy on the reservation, 230 reserved idle: 500 + 230 x 0.2 = 546 kWh
    CHECK(e.kwh[0] == doctest::Approx(546));
    // month 1: 730 on the reservation, 270 above it, half on spot with 10 % rework:
    // 730 + 270 x (0.5 x 1.1 + 0.5) = 1,013.5 busy GPU-h
    CHECK(e.kwh[1] == doctest::Approx(1013.5));
    CHECK(e.tco2e[1] == doctest::Approx(1.0135));
    // embodied on every GPU-hour provisioned: 730 and 1,013.5 GPU-h
    CHECK(e.embodied_tco2e[0] == doctest::Approx(0.073));
    CHECK(e.embodied_tco2e[1] == doctest::Approx(0.10135));
    // the cloud's power is in its price
    CHECK(e.power_usd.sum() == 0);
  }
  SUBCASE("one GPU-hour's figures follow the pool's slot powers, PUE and grid factor") {
    energy::PoolPower p;
    p.gpus_per_node = 8;
    p.busy_slot_w = 1050;
    p.idle_slot_w = 245;
    p.pue = 1.2;
    p.g_co2e_per_kwh = 500;
    const study::GpuHourEnergy h = study::gpu_hour_energy(p, 1000, 5);
    // 1,050 W x 1.2 = 1.26 kWh per busy GPU-hour; x 500 g = 0.63 kg
    CHECK(h.busy_kwh == doctest::Approx(1.26));
    CHECK(h.busy_tco2e == doctest::Approx(0.00063));
    // 245 W x 1.2 = 0.294 kWh idle
    CHECK(h.idle_kwh == doctest::Approx(0.294));
    // 1,000 kg over 5 x 8,760 node-hours, one eighth per GPU-hour: 2.854e-3 kg
    CHECK(h.embodied_tco2e == doctest::Approx(1.0 / (5 * 8760.0) / 8));
  }
  SUBCASE("tco.cloud's power is its resolved instance's: an inline type as a cloud pool of it") {
    const std::string box =
        R"("instances": [{"id": "my.l4x8", "gpu": "L4", "gpus_per_node": 8,
                          "price_per_hour": {"on_demand": 8}}],)";
    const std::string owned =
        R"({"name": "owned", "instance": "onprem.hgx-h100-8", "count": 4, "pricing": "on_prem",
            "on_prem": {"server_capex": 300000, "idle_power_kw": 3, "max_power_kw": 10.2}})";
    const auto load = [](const std::string& text) {
      Diagnostics d;
      auto sc = load_scenario_text(text, "scenario.json", "", LoadOptions{}, d);
      REQUIRE_MESSAGE(sc.has_value(), d.to_text());
      return *sc;
    };
    const std::string work =
        R"("workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 8,
                         "duration": "1h"}],)";
    // the inline type named under tco.cloud, and the same type as the only cloud pool
    const Scenario named =
        load(R"({"horizon": "8d", )" + box + R"("pools": [)" + owned + "], " + work +
             R"("tco": {"years": 1, "compare": ["cloud"],
                                           "cloud": {"instance": "my.l4x8"}}})");
    const Scenario pooled = load(R"({"horizon": "8d", )" + box + R"("pools": [)" + owned +
                                 R"(, {"name": "burst", "instance": "my.l4x8", "count": 1}], )" +
                                 work + R"("tco": {"years": 1, "compare": ["cloud"]}})");
    const study::TcoPower a = study::tco_power(named, {0.0});
    const study::TcoPower b = study::tco_power(pooled, {0.0, 3600.0});
    CHECK(a.cloud_source == "tco.cloud: my.l4x8 in its region");
    CHECK(a.cloud_hour.busy_kwh == doctest::Approx(b.cloud_hour.busy_kwh));
    CHECK(a.cloud_hour.idle_kwh == doctest::Approx(b.cloud_hour.idle_kwh));
    // an L4 draws far less than the catalog's H100 node would: the inline type was used
    const Scenario p5 = load(R"({"horizon": "8d", "pools": [)" + owned + "], " + work +
                             R"("tco": {"years": 1, "compare": ["cloud"],
                                        "cloud": {"instance": "p5.48xlarge"}}})");
    CHECK(a.cloud_hour.busy_kwh < 0.5 * study::tco_power(p5, {0.0}).cloud_hour.busy_kwh);
  }
}
