#include <doctest/doctest.h>

#include <cmath>

#include "models/economics/on_prem_fleet.h"
#include "models/economics/tco.h"

using namespace gpuplan::economics;

namespace {

// An 8-GPU node priced by capex alone: $100k, no network share, one-year life, no power, colo
// or staff, so every dollar of a fleet's cost is a purchase or its depreciation.
OnPremNode capex_only_node() {
  OnPremNode n;
  n.gpus_per_node = 8;
  n.server_capex_usd = 100000.0;
  n.network_capex_fraction = 0.0;
  n.depreciation_years = 1.0;
  n.idle_power_kw = 0.0;
  n.max_power_kw = 0.0;
  n.colo_usd_per_kw_month = 0.0;
  return n;
}

// One node's GPU-hours in a month: 8 GPUs × 730 h.
constexpr double NODE_MONTH = 8 * 730.0;

Eigen::VectorXd vec(std::initializer_list<double> v) {
  Eigen::VectorXd out(static_cast<Eigen::Index>(v.size()));
  Eigen::Index i = 0;
  for (const double x : v) out[i++] = x;
  return out;
}

}  // namespace

TEST_CASE("economics::on_prem_fleet" * doctest::test_suite("economics")) {
  SUBCASE("a fleet's power follows the energy model's node powers, PUE and price when given") {
    OnPremFleet f;
    f.node = capex_only_node();
    f.nodes = fixed_fleet_nodes(2.0, 2);
    f.power = FleetPower{2.0, 10.0, 1.25, 0.1};
    // month 0 half used, month 1 idle
    const OnPremMonthly c = *on_prem_monthly_cost(f, vec({NODE_MONTH, 0}), CostBasis::cash);
    // 2 nodes × (2 + (10 − 2) × 0.5) kW × 730 h × 1.25 = 10,950 kWh, at $0.10 = $1,095
    CHECK(c.kwh[0] == doctest::Approx(10950));
    CHECK(c.energy_usd[0] == doctest::Approx(1095));
    // idle: 2 nodes × 2 kW × 730 h × 1.25 = 3,650 kWh
    CHECK(c.kwh[1] == doctest::Approx(3650));
    // without `power` the template's own figures price it: this node has no power at all
    f.power.reset();
    CHECK(on_prem_monthly_cost(f, vec({NODE_MONTH, 0}), CostBasis::cash)->kwh.sum() == 0);
    // a PUE below 1 is refused
    f.power = FleetPower{2.0, 10.0, 0.9, 0.1};
    CHECK_FALSE(on_prem_monthly_cost(f, vec({NODE_MONTH, 0}), CostBasis::cash).has_value());
  }
  SUBCASE("staged sizing buys whole nodes when demand first needs them and never sells") {
    const Eigen::VectorXd d =
        vec({NODE_MONTH, NODE_MONTH + 1, 2 * NODE_MONTH, 1.5 * NODE_MONTH, 3.2 * NODE_MONTH});
    const Eigen::VectorXd n = *staged_fleet_nodes(d, 8, 1.0);
    // exactly one node's hours need one node; one GPU-hour more needs two; a dip keeps two;
    // 3.2 nodes' hours need four.
    CHECK(n == vec({1, 2, 2, 2, 4}));
    // at 80% availability a node serves 4,672 GPU-h: 5,840 GPU-h need two nodes
    CHECK((*staged_fleet_nodes(vec({NODE_MONTH}), 8, 0.8))[0] == 2);
    CHECK_FALSE(staged_fleet_nodes(vec({-1.0}), 8, 1.0).has_value());
    CHECK_FALSE(staged_fleet_nodes(vec({1.0}), 8, 0.0).has_value());
  }

  SUBCASE(
      "a staged fleet pays each cohort's capex in its purchase month and refreshes it a life "
      "later") {
    OnPremFleet f;
    f.node = capex_only_node();
    f.nodes = fixed_fleet_nodes(2.0, 30);
    for (Eigen::Index m = 3; m < 30; ++m) f.nodes[m] = 5.0;
    const OnPremMonthly c = *on_prem_monthly_cost(f, Eigen::VectorXd::Zero(30), CostBasis::cash);
    // 2 nodes × $100k in month 0, 3 more in month 3; refreshed at months 12 and 15, 24 and 27.
    CHECK(c.capex_usd[0] == doctest::Approx(200000.0));
    CHECK(c.capex_usd[3] == doctest::Approx(300000.0));
    CHECK(c.capex_usd[12] == doctest::Approx(200000.0));
    CHECK(c.capex_usd[15] == doctest::Approx(300000.0));
    CHECK(c.capex_usd[1] == 0.0);
    // the purchase schedule counts new nodes only, not refreshes
    CHECK(c.purchased_nodes[0] == 2.0);
    CHECK(c.purchased_nodes[3] == 3.0);
    CHECK(c.purchased_nodes.sum() == 5.0);
    // accrual: 2 × $100k / 12 = $16,667 a month before month 3, 5 × $100k / 12 after
    const OnPremMonthly a = *on_prem_monthly_cost(f, Eigen::VectorXd::Zero(30), CostBasis::accrual);
    CHECK(a.capex_usd[2] == doctest::Approx(200000.0 / 12));
    CHECK(a.capex_usd[3] == doctest::Approx(500000.0 / 12));
    // through month 26: cash pays 2 + 3 + 2 + 3 + 2 nodes (months 0, 3, 12, 15, 24) = $1.2M;
    // accrual charges 2 × 27 + 3 × 24 node-months of $100k / 12 = $1.05M, the difference being
    // the 9 unaccrued months of the month-24 refresh (2 × 9/12 × $100k = $150k).
    CHECK(c.capex_usd.head(27).sum() == doctest::Approx(1200000.0));
    CHECK(a.capex_usd.head(27).sum() == doctest::Approx((2 * 27 + 3 * 24) * 100000.0 / 12));
  }

  SUBCASE("a shrinking fleet retires its oldest nodes first and writes off their book value") {
    OnPremFleet f;
    f.node = capex_only_node();
    f.nodes = vec({2, 2, 3, 3, 1, 1});
    const OnPremMonthly a = *on_prem_monthly_cost(f, Eigen::VectorXd::Zero(6), CostBasis::accrual);
    // month 4 retires 2 nodes: the month-0 pair at age 4 (8/12 of $200k left = $133,333), and
    // the month-2 node keeps depreciating at $100k / 12.
    CHECK(a.capex_usd[4] == doctest::Approx(200000.0 * 8 / 12 + 100000.0 / 12));
    const OnPremMonthly c = *on_prem_monthly_cost(f, Eigen::VectorXd::Zero(6), CostBasis::cash);
    // cash: paid when bought, nothing at retirement
    CHECK(c.capex_usd[4] == 0.0);
    CHECK(c.capex_usd.sum() == doctest::Approx(300000.0));
  }

  SUBCASE("staged sizing fills each month to the target and starts from the servers owned") {
    // at 80 % fill a node holds 4,672 GPU-h: exactly 4 nodes' worth stays at 4 nodes, one GPU-hour
    // more needs a fifth (both sides of the target)
    CHECK((*staged_fleet_nodes(vec({4 * 0.8 * NODE_MONTH}), 8, 1.0, 0.8))[0] == 4);
    CHECK((*staged_fleet_nodes(vec({4 * 0.8 * NODE_MONTH + 1}), 8, 1.0, 0.8))[0] == 5);
    // owned servers are the floor: a month that needs fewer keeps them
    CHECK(*staged_fleet_nodes(vec({NODE_MONTH, 5 * NODE_MONTH}), 8, 1.0, 1.0, 3) == vec({3, 5}));
    CHECK_FALSE(staged_fleet_nodes(vec({1.0}), 8, 1.0, 0.0).has_value());
    CHECK_FALSE(staged_fleet_nodes(vec({1.0}), 8, 1.0, 1.1).has_value());
  }

  SUBCASE("owned servers are sunk: no capex on either basis, and the first retired") {
    OnPremFleet f;
    f.node = capex_only_node();
    f.nodes = vec({3, 3, 5, 5, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2});
    f.owned_nodes = 3;
    const OnPremMonthly c = *on_prem_monthly_cost(f, Eigen::VectorXd::Zero(15), CostBasis::cash);
    // only the 2 bought in month 2 are paid for, and refreshed a life (12 months) later; the
    // owned ones are never bought nor refreshed
    CHECK(c.capex_usd[0] == 0.0);
    CHECK(c.capex_usd[2] == doctest::Approx(200000.0));
    CHECK(c.capex_usd[12] == 0.0);
    CHECK(c.capex_usd[14] == doctest::Approx(200000.0));
    CHECK(c.capex_usd.sum() == doctest::Approx(400000.0));
    CHECK(c.purchased_nodes.sum() == 2.0);
    // accrual: the month-4 shrink to 2 retires the 3 owned servers first, with no book value to
    // write off; the bought pair depreciates at $200k / 12 from month 2 on
    const OnPremMonthly a = *on_prem_monthly_cost(f, Eigen::VectorXd::Zero(15), CostBasis::accrual);
    CHECK(a.capex_usd[1] == 0.0);
    CHECK(a.capex_usd[4] == doctest::Approx(200000.0 / 12));
    // owning more servers than are installed in month 0 owns only those
    f.owned_nodes = 10;
    CHECK(on_prem_monthly_cost(f, Eigen::VectorXd::Zero(15), CostBasis::cash)->capex_usd.sum() ==
          doctest::Approx(400000.0));
  }

  SUBCASE("a fleet too small for its demand stops keeping up in the first short month") {
    OnPremFleet f;
    f.node = capex_only_node();
    f.nodes = fixed_fleet_nodes(1.0, 4);
    const Eigen::VectorXd d = vec({1000, NODE_MONTH, NODE_MONTH + 10, 9000});
    const OnPremMonthly c = *on_prem_monthly_cost(f, d, CostBasis::cash);
    // exactly full in month 1; 10 GPU-h short in month 2 and 3,160 in month 3
    CHECK(*first_unserved_month(c.unserved_gpu_hours, d) == 2);
    CHECK(c.unserved_gpu_hours.sum() == doctest::Approx(10 + 9000 - NODE_MONTH));
    CHECK_FALSE(first_unserved_month(Eigen::VectorXd::Zero(4), d).has_value());
    // a node series of the wrong length or with a negative count is refused
    f.nodes = fixed_fleet_nodes(1.0, 3);
    CHECK_FALSE(on_prem_monthly_cost(f, d, CostBasis::cash).has_value());
    f.nodes = vec({1, -1, 1, 1});
    CHECK_FALSE(on_prem_monthly_cost(f, d, CostBasis::cash).has_value());
  }

  SUBCASE("staged purchases never cost more NPV than the peak fleet bought in month 0") {
    // A growing demand over 5 years with power, colocation and staff on top of capex.
    OnPremNode node = capex_only_node();
    node.depreciation_years = 3.0;
    node.idle_power_kw = 3.0;
    node.max_power_kw = 10.2;
    node.colo_usd_per_kw_month = 190.0;
    node.staff_usd_per_node_year = 10000.0;
    const Eigen::VectorXd d = *monthly_demand_gpu_hours({20 * NODE_MONTH, 0.05, 60});
    for (const CostBasis basis : {CostBasis::cash, CostBasis::accrual}) {
      for (const bool refresh : {true, false}) {
        CAPTURE(static_cast<int>(basis));
        CAPTURE(refresh);
        OnPremFleet staged{node, *staged_fleet_nodes(d, 8, 1.0), 1.0, refresh};
        OnPremFleet peak{node, fixed_fleet_nodes(staged.nodes.maxCoeff(), 60), 1.0, refresh};
        const OnPremMonthly s = *on_prem_monthly_cost(staged, d, basis);
        const OnPremMonthly p = *on_prem_monthly_cost(peak, d, basis);
        // both serve every GPU-hour; the staged fleet starts at the 20 nodes month 0 needs
        CHECK(s.unserved_gpu_hours.sum() == doctest::Approx(0.0));
        CHECK(p.unserved_gpu_hours.sum() == doctest::Approx(0.0));
        CHECK(staged.nodes[0] == 20);
        // at 8% a year, deferring purchases and running fewer nodes can only lower the NPV
        CHECK(summarize_costs(s.total_usd, 0.08)->npv_usd <
              summarize_costs(p.total_usd, 0.08)->npv_usd);
      }
    }
  }
}
