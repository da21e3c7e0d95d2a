#include <doctest/doctest.h>

#include "models/economics/on_prem.h"

using namespace gpuplan::economics;

namespace {

// DATA.md §6.2 worked example: 8×H100 HGX server, $300k, 5 years, 10.2 kW at 75% load (idle
// not separated, so idle = 0), PUE 1.3, $0.08/kWh, $190/kW-month colocation, network +15%.
OnPremNode hgx_h100() {
  OnPremNode n;
  n.server_capex_usd = 300000.0;
  n.depreciation_years = 5.0;
  n.idle_power_kw = 0.0;
  n.max_power_kw = 10.2;
  n.utilization = 0.75;
  n.pue = 1.3;
  n.electricity_usd_per_kwh = 0.08;
  n.colo_usd_per_kw_month = 190.0;
  n.network_capex_fraction = 0.15;
  n.gpus_per_node = 8;
  return n;
}

}  // namespace

TEST_CASE("economics::on_prem" * doctest::test_suite("economics")) {
  SUBCASE("power draw interpolates linearly between idle and maximum") {
    OnPremNode n = hgx_h100();
    n.idle_power_kw = 2.0;
    // 2 + (10.2 − 2) × 0.5 = 6.1 kW.
    CHECK(*power_draw_kw(n, 0.5) == doctest::Approx(6.1));
    // Idle at 0% load, maximum at 100%.
    CHECK(*power_draw_kw(n, 0.0) == doctest::Approx(2.0));
    CHECK(*power_draw_kw(n, 1.0) == doctest::Approx(10.2));
    CHECK_FALSE(power_draw_kw(n, 1.5).has_value());
    n.idle_power_kw = 11.0;
    CHECK_FALSE(power_draw_kw(n, 0.5).has_value());
  }

  SUBCASE("the 8xH100 worked example of DATA.md 6.2 is reproduced line by line") {
    const OnPremHourlyCost node = *on_prem_cost_per_node_hour(hgx_h100());
    // $300,000 / 43,800 h = $6.849 per server-hour.
    CHECK(node.capex_usd == doctest::Approx(6.849).epsilon(1e-3));
    // 10.2 kW × 0.75 × 1.3 × $0.08 = $0.7956 per server-hour (DATA.md: ≈ $0.80).
    CHECK(node.energy_usd == doctest::Approx(0.7956));
    // 10.2 kW × $190 / 730 h = $2.655 per server-hour (DATA.md: ≈ $2.65).
    CHECK(node.colo_usd == doctest::Approx(2.6548).epsilon(1e-3));

    const OnPremHourlyCost gpu = *on_prem_cost_per_gpu_hour(hgx_h100());
    // Per GPU-hour: capex $0.856 (DATA.md: $0.86).
    CHECK(gpu.capex_usd == doctest::Approx(0.86).epsilon(0.01));
    // Energy $0.0995 (DATA.md: $0.10).
    CHECK(gpu.energy_usd == doctest::Approx(0.10).epsilon(0.01));
    // Colocation $0.332 (DATA.md: $0.33).
    CHECK(gpu.colo_usd == doctest::Approx(0.33).epsilon(0.01));
    // Network 15% × $0.856 = $0.128 (DATA.md: ≈ $0.13).
    CHECK(gpu.network_usd == doctest::Approx(0.13).epsilon(0.02));
    // No staff in the example.
    CHECK(gpu.staff_usd == 0.0);
    // Total $1.416, inside DATA.md's "≈ $1.4–1.5".
    CHECK(gpu.total_usd == doctest::Approx(1.4159).epsilon(1e-3));
    CHECK(gpu.total_usd >= 1.4);
    CHECK(gpu.total_usd <= 1.5);
  }

  SUBCASE("liquid cooling (PUE 1.08) saves only the energy overhead against air (PUE 1.5)") {
    OnPremNode liquid = hgx_h100();
    liquid.pue = 1.08;
    OnPremNode air = hgx_h100();
    air.pue = 1.5;
    const OnPremHourlyCost l = *on_prem_cost_per_gpu_hour(liquid);
    const OnPremHourlyCost a = *on_prem_cost_per_gpu_hour(air);
    // 7.65 kW average × (1.5 − 1.08) × $0.08 / 8 GPUs = $0.03213 per GPU-hour.
    CHECK(a.total_usd - l.total_usd == doctest::Approx(0.03213).epsilon(1e-3));
    // Per server-year: 7.65 × 0.42 × 0.08 × 8,760 h = $2,251.6.
    CHECK((a.total_usd - l.total_usd) * 8 * 8760.0 == doctest::Approx(2251.6).epsilon(1e-3));
    // Colocation is billed on provisioned kW, so cooling does not change it.
    CHECK(a.colo_usd == doctest::Approx(l.colo_usd));
  }

  SUBCASE("staff and support add a per-node-year amount") {
    OnPremNode n = hgx_h100();
    n.staff_usd_per_node_year = 20000.0;
    // $20,000 / 8,760 h / 8 GPUs = $0.2854 per GPU-hour.
    CHECK(on_prem_cost_per_gpu_hour(n)->staff_usd == doctest::Approx(0.28539).epsilon(1e-4));
  }

  SUBCASE("invalid nodes are rejected") {
    OnPremNode n = hgx_h100();
    n.pue = 0.9;
    CHECK_FALSE(on_prem_cost_per_node_hour(n).has_value());
    n = hgx_h100();
    n.depreciation_years = 0.0;
    CHECK_FALSE(on_prem_cost_per_node_hour(n).has_value());
    n = hgx_h100();
    n.gpus_per_node = 0;
    CHECK_FALSE(on_prem_cost_per_gpu_hour(n).has_value());
  }
}
