#include <doctest/doctest.h>

#include <cmath>

#include "models/economics/tco.h"

using namespace gpuplan::economics;

namespace {

// One 8-GPU node over `months` months with round numbers: 2 kW idle, 10 kW max, PUE 1,
// $0.10/kWh, nothing else.
OnPremFleet simple_fleet(uint32_t months) {
  OnPremFleet f;
  f.nodes = fixed_fleet_nodes(1.0, months);
  f.node.gpus_per_node = 8;
  f.node.server_capex_usd = 0.0;
  f.node.network_capex_fraction = 0.0;
  f.node.idle_power_kw = 2.0;
  f.node.max_power_kw = 10.0;
  f.node.pue = 1.0;
  f.node.electricity_usd_per_kwh = 0.10;
  f.node.colo_usd_per_kw_month = 0.0;
  f.node.staff_usd_per_node_year = 0.0;
  return f;
}

CloudMix on_demand_only(double usd_per_gpu_hour) {
  CloudMix m;
  m.on_demand_usd_per_gpu_hour = usd_per_gpu_hour;
  return m;
}

}  // namespace

TEST_CASE("economics::tco" * doctest::test_suite("economics")) {
  SUBCASE("demand grows by a compounded percentage per month") {
    const Eigen::VectorXd d = *monthly_demand_gpu_hours({1000.0, 0.01, 36});
    REQUIRE(d.size() == 36);
    // d_0 = 1,000; d_35 = 1,000 × 1.01^35 = 1,416.6.
    CHECK(d[0] == doctest::Approx(1000.0));
    CHECK(d[35] == doctest::Approx(1000.0 * std::pow(1.01, 35)));
    CHECK_FALSE(monthly_demand_gpu_hours({1000.0, -1.0, 36}).has_value());
    CHECK_FALSE(monthly_demand_gpu_hours({1000.0, 0.0, 0}).has_value());
  }

  SUBCASE("constant demand with no growth and no discounting has NPV equal to the sum") {
    const Eigen::VectorXd d = *monthly_demand_gpu_hours({1000.0, 0.0, 36});
    const CloudMonthly c = *cloud_monthly_cost(on_demand_only(2.0), d, CostBasis::cash);
    const CostSummary s = *summarize_costs(c.total_usd, 0.0);
    // 36 months × 1,000 GPU-h × $2 = $72,000, undiscounted and discounted alike.
    CHECK(s.total_usd == doctest::Approx(72000.0));
    CHECK(s.npv_usd == doctest::Approx(72000.0));
    CHECK(s.cumulative_usd[11] == doctest::Approx(24000.0));
  }

  SUBCASE("1% monthly growth over 36 months follows the geometric series") {
    const Eigen::VectorXd d = *monthly_demand_gpu_hours({1000.0, 0.01, 36});
    const CloudMonthly c = *cloud_monthly_cost(on_demand_only(2.0), d, CostBasis::cash);
    // Σ 2,000 × 1.01^m for m < 36 = 2,000 × (1.01^36 − 1)/0.01 = $86,153.8.
    const double closed_form = 2000.0 * (std::pow(1.01, 36) - 1.0) / 0.01;
    CHECK(summarize_costs(c.total_usd, 0.0)->total_usd == doctest::Approx(closed_form));
    // Discounting at the same 1% per month (1.01^12 − 1 per year) makes every month worth
    // $2,000 today: NPV = 36 × $2,000 = $72,000.
    CHECK(summarize_costs(c.total_usd, std::pow(1.01, 12) - 1.0)->npv_usd ==
          doctest::Approx(72000.0));
  }

  SUBCASE("discount factors discount each month from its first day") {
    const Eigen::VectorXd f = *monthly_discount_factors(0.10, 25);
    // Month 0 is today; month 12 is one year out: 1/1.1; month 24: 1/1.21.
    CHECK(f[0] == doctest::Approx(1.0));
    CHECK(f[12] == doctest::Approx(1.0 / 1.1));
    CHECK(f[24] == doctest::Approx(1.0 / 1.21));
    CHECK_FALSE(monthly_discount_factors(-1.0, 12).has_value());
  }

  SUBCASE("reserved GPUs are billed whether used or not, and both bases agree over whole terms") {
    CloudMix mix;
    mix.on_demand_usd_per_gpu_hour = 3.0;
    mix.spot_usd_per_gpu_hour = 1.0;
    mix.spot_share = 0.5;
    mix.spot_overhead = 0.1;
    mix.reserved_gpus = 2;
    mix.reserved_per_gpu = {1.0, 4380.0, 0.5};  // $1/GPU-h effective
    const Eigen::VectorXd d = Eigen::VectorXd::Constant(24, 2000.0);
    const CloudMonthly acc = *cloud_monthly_cost(mix, d, CostBasis::accrual);
    // Reserved: 2 GPUs × 730 h × $1 = $1,460 per month.
    CHECK(acc.reserved_usd[5] == doctest::Approx(1460.0));
    // Above the 1,460 reserved GPU-h: 540 GPU-h, half on spot with 10% overhead:
    // 270 × 1.1 × $1 = $297; half on-demand: 270 × $3 = $810.
    CHECK(acc.spot_usd[5] == doctest::Approx(297.0));
    CHECK(acc.on_demand_usd[5] == doctest::Approx(810.0));
    CHECK(acc.total_usd[5] == doctest::Approx(1460.0 + 297.0 + 810.0));

    const CloudMonthly cash = *cloud_monthly_cost(mix, d, CostBasis::cash);
    // Cash: the upfront 2 × $4,380 = $8,760 falls in months 0 and 12, plus 2 × 730 × $0.5.
    CHECK(cash.reserved_usd[0] == doctest::Approx(8760.0 + 730.0));
    CHECK(cash.reserved_usd[1] == doctest::Approx(730.0));
    CHECK(cash.reserved_usd[12] == doctest::Approx(8760.0 + 730.0));
    // Over two whole terms both bases total 24 × $1,460 = $35,040.
    CHECK(cash.reserved_usd.sum() == doctest::Approx(35040.0));
    CHECK(acc.reserved_usd.sum() == doctest::Approx(35040.0));

    // With no demand at all the reservation still costs $1,460 a month.
    const CloudMonthly idle =
        *cloud_monthly_cost(mix, Eigen::VectorXd::Zero(24), CostBasis::accrual);
    CHECK(idle.total_usd[3] == doctest::Approx(1460.0));
    mix.spot_share = 1.5;
    CHECK_FALSE(cloud_monthly_cost(mix, d, CostBasis::accrual).has_value());
  }

  SUBCASE("on-prem energy follows the utilization that demand implies") {
    const OnPremFleet f = simple_fleet(3);
    // Capacity 8 GPUs × 730 h = 5,840 GPU-h; demand 2,920 → 50% → 6 kW × 730 h × $0.1 = $438.
    const OnPremMonthly half =
        *on_prem_monthly_cost(f, Eigen::VectorXd::Constant(3, 2920.0), CostBasis::cash);
    CHECK(half.energy_usd[0] == doctest::Approx(438.0));
    CHECK(half.unserved_gpu_hours[0] == doctest::Approx(0.0));
    // Demand 10,000 saturates the node: 10 kW → $730, and 4,160 GPU-h are left unserved.
    const OnPremMonthly full =
        *on_prem_monthly_cost(f, Eigen::VectorXd::Constant(3, 10000.0), CostBasis::cash);
    CHECK(full.energy_usd[0] == doctest::Approx(730.0));
    CHECK(full.unserved_gpu_hours[0] == doctest::Approx(4160.0));
    // 90% availability caps service at 5,256 GPU-h.
    OnPremFleet g = f;
    g.availability = 0.9;
    CHECK(on_prem_monthly_cost(g, Eigen::VectorXd::Constant(3, 10000.0), CostBasis::cash)
              ->served_gpu_hours[0] == doctest::Approx(5256.0));
  }

  SUBCASE("on-prem capex is paid at purchase and each refresh, or depreciated evenly") {
    OnPremFleet f = simple_fleet(36);
    f.node.server_capex_usd = 120000.0;
    f.node.network_capex_fraction = 0.25;
    f.node.depreciation_years = 1.0;
    const Eigen::VectorXd d = Eigen::VectorXd::Zero(36);
    const OnPremMonthly cash = *on_prem_monthly_cost(f, d, CostBasis::cash);
    // $120k × 1.25 = $150k in months 0, 12 and 24; nothing in between.
    CHECK(cash.capex_usd[0] == doctest::Approx(150000.0));
    CHECK(cash.capex_usd[12] == doctest::Approx(150000.0));
    CHECK(cash.capex_usd[24] == doctest::Approx(150000.0));
    CHECK(cash.capex_usd[5] == 0.0);
    // Accrual: $150k / 12 months = $12,500 every month.
    const OnPremMonthly acc = *on_prem_monthly_cost(f, d, CostBasis::accrual);
    CHECK(acc.capex_usd[30] == doctest::Approx(12500.0));
    // Without refresh only the first purchase counts: $150k in total either way.
    f.refresh = false;
    CHECK(on_prem_monthly_cost(f, d, CostBasis::cash)->capex_usd.sum() ==
          doctest::Approx(150000.0));
    CHECK(on_prem_monthly_cost(f, d, CostBasis::accrual)->capex_usd.sum() ==
          doctest::Approx(150000.0));
    // Idle servers still draw idle power: 2 kW × 730 h × $0.1 = $146.
    CHECK(cash.energy_usd[1] == doctest::Approx(146.0));
    // Bought in month 3: nothing before, and demand before it goes unserved.
    f.nodes = fixed_fleet_nodes(1.0, 6, 3);
    const OnPremMonthly late =
        *on_prem_monthly_cost(f, Eigen::VectorXd::Constant(6, 100.0), CostBasis::cash);
    CHECK(late.total_usd[2] == 0.0);
    CHECK(late.unserved_gpu_hours[2] == doctest::Approx(100.0));
    CHECK(late.capex_usd[3] == doctest::Approx(150000.0));
  }

  SUBCASE("hybrid serves the base on-prem and bursts the rest to the cloud") {
    const OnPremFleet f = simple_fleet(2);
    const Eigen::VectorXd d = Eigen::VectorXd::Constant(2, 10000.0);
    const HybridMonthly h = *hybrid_monthly_cost(f, on_demand_only(2.0), d, CostBasis::cash);
    // 5,840 GPU-h on-prem at full power ($730), 4,160 GPU-h on-demand at $2 ($8,320).
    CHECK(h.burst.total_usd[0] == doctest::Approx(8320.0));
    CHECK(h.total_usd[0] == doctest::Approx(730.0 + 8320.0));
  }

  SUBCASE("break-even is the first month whose cumulative cost is no higher") {
    // Option A: one node bought for $100k (cash) plus $1k/month staff; B: 3,000 GPU-h/month
    // on-demand at $2 = $6k/month. 100k + 1k·(m+1) ≤ 6k·(m+1) first at m + 1 = 20, m = 19.
    OnPremFleet a = simple_fleet(36);
    a.node.server_capex_usd = 100000.0;
    a.node.electricity_usd_per_kwh = 0.0;
    a.node.staff_usd_per_node_year = 12000.0;
    const Eigen::VectorXd d = Eigen::VectorXd::Constant(36, 3000.0);
    const OnPremMonthly on_prem = *on_prem_monthly_cost(a, d, CostBasis::cash);
    const CloudMonthly cloud = *cloud_monthly_cost(on_demand_only(2.0), d, CostBasis::cash);
    const CostSummary sa = *summarize_costs(on_prem.total_usd, 0.0);
    const CostSummary sb = *summarize_costs(cloud.total_usd, 0.0);
    CHECK(*break_even_month(sa.cumulative_usd, sb.cumulative_usd) == 19);
    // The cloud is cheaper from the first month, and on-prem never undercuts a $0.30/GPU-h cloud
    // ($900/month, below its $1k/month staff alone).
    CHECK(*break_even_month(sb.cumulative_usd, sa.cumulative_usd) == 0);
    const CloudMonthly cheap = *cloud_monthly_cost(on_demand_only(0.3), d, CostBasis::cash);
    CHECK_FALSE(
        break_even_month(sa.cumulative_usd, summarize_costs(cheap.total_usd, 0.0)->cumulative_usd)
            .has_value());
  }
}
