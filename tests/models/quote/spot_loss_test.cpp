//! The spot risk of a serving plan (models/quote/spot_loss.h): requests a month of reclaims drops,
//! the time more nodes are away than the headroom covers (a binomial tail), and the risk label on
//! both sides of each threshold.
#include <doctest/doctest.h>

#include <cmath>

#include "models/quote/spot_loss.h"

using namespace gpuplan;
using namespace gpuplan::quote;

namespace {

inference::ServingPlan plan_at(double requests_per_s, double slot_s, double utilization) {
  inference::ServingPlan p;
  p.requests_per_s = requests_per_s;
  p.slot_s = slot_s;
  p.utilization = utilization;
  return p;
}

}  // namespace

TEST_CASE("quote::spot_loss") {
  SUBCASE("a month of reclaims drops the requests in flight on each reclaimed node") {
    // 10 requests/s held 10 s each over 10 nodes: 10 in flight per node; 10 spot nodes at 0.24
    // reclaims per node-hour lose 1,752 nodes a month, 17,520 requests of 26.28 M
    const SpotLoss l = spot_loss(plan_at(10, 10, 0.5), 10, 10, 10, 0.24, 0);
    CHECK(l.node_losses_per_month == doctest::Approx(1752));
    CHECK(l.in_flight_per_node == doctest::Approx(10));
    CHECK(l.interrupted_share == doctest::Approx(17520.0 / (10 * 730 * 3600.0)));
    // replacement takes no time here, so nothing is ever overloaded
    CHECK(l.overloaded_share == 0);
    CHECK(l.p99_budget_share == doctest::Approx(l.interrupted_share / 0.01));
  }

  SUBCASE("overload starts when more spot nodes are away than the headroom covers") {
    // 4 serving nodes 85 % busy carry 3.4 nodes' work: of 5 nodes, 1 may be away, not 2
    const double lambda = 0.24, d = 600;
    const SpotLoss l = spot_loss(plan_at(1, 1, 0.85), 4, 5, 5, lambda, d);
    CHECK(l.nodes_lost_before_overload == 1);
    const double q = lambda * d / 3600 / (1 + lambda * d / 3600);
    const double p_le_1 = std::pow(1 - q, 5) + 5 * q * std::pow(1 - q, 4);
    CHECK(l.overloaded_share == doctest::Approx(1 - p_le_1));
    // more than the p99's 1 % of the time: the target cannot hold
    CHECK(l.p99_budget_share > 1);
    // both sides of the headroom: 76 % busy still loses only 1; 74 % may lose 2
    CHECK(spot_loss(plan_at(1, 1, 0.76), 4, 5, 5, lambda, d).nodes_lost_before_overload == 1);
    CHECK(spot_loss(plan_at(1, 1, 0.74), 4, 5, 5, lambda, d).nodes_lost_before_overload == 2);
    // a large deployment's headroom covers many nodes away at once
    const SpotLoss big = spot_loss(plan_at(1, 1, 0.85), 100, 105, 105, lambda, d);
    CHECK(big.nodes_lost_before_overload == 19);
    CHECK(big.overloaded_share < 1e-6);
  }

  SUBCASE("the risk label on both sides of a tenth and a half of the p99 budget") {
    SpotLoss l;
    CHECK(latency_spot_risk(l, 0) == "none");
    l.p99_budget_share = 0.099;
    CHECK(latency_spot_risk(l, 1) == "low");
    l.p99_budget_share = 0.1;
    CHECK(latency_spot_risk(l, 1) == "medium");
    l.p99_budget_share = 0.499;
    CHECK(latency_spot_risk(l, 1) == "medium");
    l.p99_budget_share = 0.5;
    CHECK(latency_spot_risk(l, 1) == "high");
  }
}
