#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "models/catalog/catalog_age.h"
#include "models/catalog/catalog_table.h"
#include "models/perf/energy/energy_data.h"
#include "models/compile/pool_power.h"
#include "tests/models/loaded.h"

using gpuplan_models_test::load_text;
namespace energy = gpuplan::energy;

namespace {

//! One pool of `count` nodes of `instance` with an `energy` section `energy_json`.
std::string scenario(const std::string& instance, int count, const std::string& energy_json,
                     const std::string& pricing = "on_demand") {
  return R"({"name": "e", "horizon": "1d", "pools": [{"name": "main", "instance": ")" + instance +
         R"(", "count": )" + std::to_string(count) + R"(, "pricing": ")" + pricing +
         R"("}], "workload": [{"name": "jobs", "arrival": {"poisson": {"rate": "1/h"}},
         "gpus": 8, "duration": {"fixed": "1h"}}])" +
         (energy_json.empty() ? "" : R"(, "energy": )" + energy_json) + "}";
}

}  // namespace

TEST_CASE("energy::power_model") {
  SUBCASE("the default curve runs linearly from a tenth of TDP idle to TDP at full activity") {
    const energy::PowerCurve c = energy::linear_curve(0.1);
    // 700 W TDP: 70 W idle, 385 W half way, 700 W at full activity.
    CHECK(energy::gpu_power_w(c, 700, 0) == doctest::Approx(70));
    CHECK(energy::gpu_power_w(c, 700, 0.5) == doctest::Approx(385));
    CHECK(energy::gpu_power_w(c, 700, 1) == doctest::Approx(700));
  }
  SUBCASE("a busy 8xH100 node draws the 8.4 kW peak measured by Latif et al., 82 % of 10.2 kW") {
    const auto l = load_text(scenario("p5.48xlarge", 1, ""), ".");
    REQUIRE(l.sc);
    const auto pp = energy::resolve_pool_powers(*l.sc).at(0);
    // 8 x 700 W GPUs + 8 x 350 W node overhead = 8.4 kW; idle: 8 x 70 W + 1.4 kW = 1.96 kW.
    CHECK(pp.node_busy_w() == doctest::Approx(8400));
    CHECK(pp.node_idle_w() == doctest::Approx(1960));
    // us-east-1: CCF's SERC factor 379.069 g/kWh and AWS's regional PUE 1.15.
    CHECK(pp.g_co2e_per_kwh == doctest::Approx(379.069));
    CHECK(pp.pue == doctest::Approx(1.15));
    CHECK_FALSE(pp.power_billed);
  }
  SUBCASE("a pool's energy is busy GPU-seconds at the busy slot power plus idle ones at idle") {
    energy::PoolPower pp;
    pp.gpus_per_node = 8;
    pp.busy_slot_w = 1000;
    pp.idle_slot_w = 100;
    pp.pue = 1.5;
    pp.g_co2e_per_kwh = 400;
    pp.usd_per_kwh = 0.1;
    pp.power_billed = true;
    // 3600 busy GPU-s at 1 kW = 1 kWh, 36000 idle GPU-s at 0.1 kW = 1 kWh; x PUE 1.5 = 3 kWh.
    const auto f = energy::pool_energy(pp, 3600, 39600);
    CHECK(f.it_kwh == doctest::Approx(2));
    CHECK(f.kwh == doctest::Approx(3));
    // 3 kWh x 400 g/kWh = 1.2 kg = 0.0012 t; 3 kWh x $0.10 = $0.30.
    CHECK(f.tco2e == doctest::Approx(0.0012));
    CHECK(f.power_usd == doctest::Approx(0.3));
  }
  SUBCASE("an on-prem pool takes its server template's powers, PUE and electricity price") {
    const std::string text = R"({"name": "e", "horizon": "1d", "pools": [{"name": "main",
      "instance": "onprem.hgx-h100-8", "count": 2, "pricing": "on_prem", "on_prem":
      {"server_capex": 300000, "idle_power_kw": 3.0, "max_power_kw": 10.2, "pue": 1.4,
       "usd_per_kwh": 0.12}}], "workload": [{"name": "jobs", "arrival": {"poisson":
       {"rate": "1/h"}}, "gpus": 8, "duration": {"fixed": "1h"}}]})";
    const auto l = load_text(text, ".");
    REQUIRE(l.sc);
    const auto pp = energy::resolve_pool_powers(*l.sc).at(0);
    // The template's 3.0 kW idle and 10.2 kW at full load, as the on-prem cost model uses.
    CHECK(pp.node_idle_w() == doctest::Approx(3000));
    CHECK(pp.node_busy_w() == doctest::Approx(10200));
    CHECK(pp.pue == doctest::Approx(1.4));
    CHECK(pp.usd_per_kwh == doctest::Approx(0.12));
    CHECK(pp.power_billed);
  }
  SUBCASE("an hourly series' mean weights each hour by its overlap with the window") {
    // Hours 0 and 1 at 100 and 300 g/kWh: [0.5 h, 1.5 h) is half of each, mean 200; the series
    // repeats, so hour 2 is hour 0 again.
    const std::vector<double> s = {100, 300};
    CHECK(energy::series_mean(s, 1800, 5400) == doctest::Approx(200));
    CHECK(energy::series_mean(s, 7200, 10800) == doctest::Approx(100));
  }
}

// Llama 3.1's model card (github meta-llama/llama-models, models/llama3_1/MODEL_CARD.md) reports
// 39.3 M GPU-hours on H100-80GB (TDP 700 W) and 11,390 tCO2eq location-based. Meta's method
// counts each GPU at its TDP, adjusted for PUE. Derivation with gpuplan's model:
//   energy = GPU-hours x busy slot power x PUE; carbon = energy x grid factor.
//   Stated factors: utilization factor (gpu_activity) 1.0, so a busy H100 draws its 700 W TDP;
//   node overhead 0 (Meta counts GPU power only); PUE 1.09 (Meta's reported 2022 fleet PUE);
//   grid 379.069 gCO2e/kWh (CCF's US SERC factor, the region of most of Meta's US sites).
//   39.3e6 h x 0.7 kW = 27.51 GWh; x 1.09 = 29.99 GWh; x 379.069 g/kWh = 11,367 tCO2e.
// That is 0.2 % below the reported 11,390 t; the test accepts +-5 %, the spread of plausible PUE
// (1.08-1.10) and grid factors (SERC 379 to RFC 411 g/kWh is +8 %, so +-5 % still pins the
// method). With gpuplan's default node overhead (350 W per GPU slot, from the measured 8.4 kW
// node) the same run is 1.5x: the card leaves CPUs, memory, fans and NICs out.
TEST_CASE("energy::llama31_sanity") {
  const double gpu_hours = 39.3e6;
  const double reported_t = 11390;
  SUBCASE("the card's GPU-hours at TDP, PUE 1.09 and the SERC factor land within 5 % of 11,390 t") {
    const auto l = load_text(
        scenario(
            "p5.48xlarge", 1,
            R"({"gpu_activity": 1.0, "node_overhead_w": 0, "pue": 1.09, "region": "us-serc"})"),
        ".");
    REQUIRE(l.sc);
    const auto pp = energy::resolve_pool_powers(*l.sc).at(0);
    const auto f = energy::busy_energy(pp, gpu_hours * 3600.0);
    // 27.51 GWh at the GPUs, 29.99 GWh at the facility, 11,367 tCO2e (derivation above).
    CHECK(f.it_kwh == doctest::Approx(27.51e6));
    CHECK(f.kwh == doctest::Approx(29.9859e6));
    CHECK(f.tco2e == doctest::Approx(11366.7).epsilon(1e-4));
    CHECK(f.tco2e > reported_t * 0.95);
    CHECK(f.tco2e < reported_t * 1.05);
  }
  SUBCASE("with gpuplan's default node overhead the estimate is 1.5x the GPU-only figure") {
    const auto l =
        load_text(scenario("p5.48xlarge", 1, R"({"pue": 1.09, "region": "us-serc"})"), ".");
    REQUIRE(l.sc);
    const auto f =
        energy::busy_energy(energy::resolve_pool_powers(*l.sc).at(0), gpu_hours * 3600.0);
    // (700 + 350) W / 700 W = 1.5: 17,050 tCO2e.
    CHECK(f.tco2e == doctest::Approx(11366.7 * 1.5).epsilon(1e-4));
  }
}

TEST_CASE("load::energy") {
  SUBCASE("a PUE below 1 names its pointer and says why") {
    const auto l = load_text(scenario("p5.48xlarge", 1, R"({"pue": 0.9})"), ".");
    CHECK_FALSE(l.sc);
    CHECK(l.at("/energy/pue").message.find("at least 1") != std::string::npos);
  }
  SUBCASE("negative carbon, power and price figures are out of range") {
    const auto l =
        load_text(scenario("p5.48xlarge", 1,
                           R"({"g_co2e_per_kwh": -1, "node_overhead_w": -5, "usd_per_kwh": -0.1,
                     "embodied_kgco2e_per_node": -1})"),
                  ".");
    CHECK_FALSE(l.sc);
    CHECK(l.at("/energy/g_co2e_per_kwh").code == gpuplan::DiagCode::out_of_range);
    CHECK(l.at("/energy/node_overhead_w").code == gpuplan::DiagCode::out_of_range);
    CHECK(l.at("/energy/usd_per_kwh").code == gpuplan::DiagCode::out_of_range);
    CHECK(l.at("/energy/embodied_kgco2e_per_node").code == gpuplan::DiagCode::out_of_range);
  }
  SUBCASE("an unknown region suggests the closest known one") {
    const auto l = load_text(scenario("p5.48xlarge", 1, R"({"region": "us-east-l"})"), ".");
    CHECK_FALSE(l.sc);
    CHECK(l.at("/energy/region").message.find("did you mean \"us-east-1\"") != std::string::npos);
  }
  SUBCASE("an unknown pool under energy.pools suggests the pool") {
    const auto l =
        load_text(scenario("p5.48xlarge", 1, R"({"pools": {"mian": {"pue": 1.2}}})"), ".");
    CHECK_FALSE(l.sc);
    CHECK(l.at("/energy/pools/mian").message.find("did you mean \"main\"") != std::string::npos);
  }
  SUBCASE("a grid series with bad rows reports each at its file line") {
    const auto dir = std::filesystem::temp_directory_path() / "gpuplan_energy_series";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "grid.csv") << "hour,g_co2e_per_kwh\n0,380\n2,390\n2,-4\n";
    const auto l =
        load_text(scenario("p5.48xlarge", 1, R"({"grid_series": "grid.csv"})"), dir.string());
    CHECK_FALSE(l.sc);
    REQUIRE(l.all.size() == 2);
    // Line 3 skips hour 1; line 4 has a negative intensity.
    CHECK(l.all[0].line == 3);
    CHECK(l.all[0].pointer == "/energy/grid_series");
    CHECK(l.all[1].line == 4);
    CHECK(l.all[1].format().find("grid.csv:4: /energy/grid_series: ") != std::string::npos);
  }
  SUBCASE("a valid grid series sets the factor of the pools without their own") {
    const auto dir = std::filesystem::temp_directory_path() / "gpuplan_energy_series_ok";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "grid.csv") << "hour,g_co2e_per_kwh\n0,100\n1,300\n";
    const auto l =
        load_text(scenario("p5.48xlarge", 1, R"({"grid_series": "grid.csv"})"), dir.string());
    REQUIRE(l.sc);
    const auto pp = energy::resolve_pool_powers(*l.sc).at(0);
    // A 1-day window over a repeating 2-hour series of 100 and 300: mean 200 g/kWh.
    CHECK(pp.uses_grid_series);
    CHECK(pp.g_co2e_per_kwh == doctest::Approx(200));
  }
}

TEST_CASE("catalog::staleness_and_gpus") {
  using namespace std::chrono;
  const year_month_day today{year{2026}, month{12}, day{2}};
  SUBCASE("the threshold in months is the user's: 6 flags a 7-month-old price, 12 does not") {
    CHECK(gpuplan::is_stale("2026-05-01", today, 6));
    CHECK_FALSE(gpuplan::is_stale("2026-05-01", today, 12));
  }
  SUBCASE("an on-prem template ages like a cloud row, on both sides of the threshold") {
    gpuplan::InstanceType it;
    it.provider = "on_prem";
    it.price_per_hour.on_prem = 10.0;
    // 2025-12-02 is exactly 12 months before 2026-12-02: not yet stale; a day older is.
    it.as_of = "2025-12-02";
    CHECK_FALSE(gpuplan::row_stale(it, today, 12));
    it.as_of = "2025-12-01";
    CHECK(gpuplan::row_stale(it, today, 12));
    it.provider = "aws";
    CHECK(gpuplan::row_stale(it, today, 12));
    // A row without any price has nothing to age, however old or undated.
    it.price_per_hour = {};
    it.as_of = "";
    CHECK_FALSE(gpuplan::row_stale(it, today, 1));
  }
  SUBCASE("the GPU table shows BF16, FP8, memory, bandwidth and TDP of the H100") {
    const std::string t = gpuplan::format_gpu_table(gpuplan::builtin_catalog().gpus);
    const auto row =
        t.substr(t.find("H100-SXM"), t.find('\n', t.find("H100-SXM")) - t.find("H100-SXM"));
    // H100 SXM: 989 dense BF16 TFLOPS, 1979 FP8, 80 GB at 3.35 TB/s, 700 W.
    for (const char* x : {"989", "1979", "80", "3.35", "700"})
      CHECK(row.find(x) != std::string::npos);
  }
}

TEST_CASE("energy::data") {
  SUBCASE("every region has a positive factor and a source; PUEs are at least 1") {
    const auto& d = energy::builtin_energy_data();
    CHECK(d.regions.size() > 20);
    for (const auto& r : d.regions) {
      CHECK(r.g_co2e_per_kwh > 0);
      CHECK_FALSE(r.source.empty());
      if (r.pue) CHECK(*r.pue >= 1);
    }
  }
}
