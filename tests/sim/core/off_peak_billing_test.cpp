//! Off-peak pricing in the engine: spend integrates the schedule exactly across its boundaries,
//! for the pool and for a job class whose job crosses one; a discount of 0 bills as no schedule.
#include <doctest/doctest.h>

#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

struct Bill {
  double pool_usd;
  double class_usd;
};

Bill bill(const Scenario& sc) {
  const CompiledScenario cs = compile(sc);
  const SingleRun r = run_single(cs.view());
  return {r.metrics.cost_usd, r.state().billing.classes[0].cost_usd};
}

//! One 1-GPU node at $10 per node-hour; off-peak 22:00-06:00 at `discount`, the run starting
//! Monday 20:00.
Scenario night_pool(double horizon_s, double discount) {
  Scenario sc = test::one_pool(1, 1, horizon_s);
  sc.pools[0].price_per_node_hour = 10;
  economics::OffPeakSchedule s;
  s.discount = discount;
  s.hours = {{22 * 60, 6 * 60}};
  s.run_starts_min = 20 * 60;
  sc.pools[0].econ.off_peak = s;
  return sc;
}

}  // namespace

TEST_CASE("sim::billing::off_peak") {
  SUBCASE("a job crossing 22:00 pays peak before and off-peak after, to the cent") {
    // Horizon 20:00 -> 02:00 (6 h); one 3-hour job at t = 0 (20:00 -> 23:00).
    Scenario sc = night_pool(6 * 3600.0, 0.5);
    sc.workload.push_back(test::trace_class({0}, 3 * 3600.0, 1));
    const Bill b = bill(sc);
    // pool: 2 h × $10 (20:00-22:00) + 4 h × $5 (22:00-02:00) = $40
    CHECK(b.pool_usd == doctest::Approx(40.0).epsilon(1e-12));
    // job: 2 h × $10 + 1 h × $5 = $25 (its one GPU is the node's only GPU)
    CHECK(b.class_usd == doctest::Approx(25.0).epsilon(1e-12));
  }
  SUBCASE("a whole off-peak day follows the day boundary") {
    // Friday 20:00 -> Saturday 04:00 with Saturday off-peak at 30 % off, no daily hours.
    Scenario sc = night_pool(8 * 3600.0, 0.3);
    sc.pools[0].econ.off_peak->hours.clear();
    sc.pools[0].econ.off_peak->days = 1u << 5;
    sc.pools[0].econ.off_peak->run_starts_min = 4 * 24 * 60 + 20 * 60;
    sc.workload.push_back(test::trace_class({0}, 3600.0, 1));
    // 4 h × $10 (Friday) + 4 h × $7 (Saturday) = $68
    CHECK(bill(sc).pool_usd == doctest::Approx(68.0).epsilon(1e-12));
  }
  SUBCASE("a discount of 0 bills exactly as no schedule, over weeks of random jobs") {
    Scenario plain = test::one_pool(4, 8, 21 * 86400.0);
    plain.pools[0].price_per_node_hour = 12.5;
    plain.workload.push_back(test::mm_class(20.0 / 3600, 3600));
    Scenario zero = plain;
    economics::OffPeakSchedule s;
    s.hours = {{22 * 60, 6 * 60}, {12 * 60, 13 * 60}};
    s.days = 1u << 6;
    zero.pools[0].econ.off_peak = s;
    const Bill a = bill(plain), b = bill(zero);
    // Same spend and same class share: the steps split the integral, they do not change it.
    CHECK(b.pool_usd == doctest::Approx(a.pool_usd).epsilon(1e-12));
    CHECK(b.class_usd == doctest::Approx(a.class_usd).epsilon(1e-12));
    // 4 nodes × 504 h × $12.5 = $25,200
    CHECK(a.pool_usd == doctest::Approx(25200.0).epsilon(1e-12));
  }
}
