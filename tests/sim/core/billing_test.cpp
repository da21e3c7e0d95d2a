//! Billing in the engine: granularity and minimum on provisioned intervals, reserved pools billed
//! while idle, spot discount and price series, the on-prem worked example of DATA.md §6.2, and an
//! elastic pool's provisioned GPU-hours on a hand-built trace.
#include <doctest/doctest.h>

#include <cmath>

#include "models/economics/on_prem.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! An elastic pool of `max` nodes of `gpn` GPUs at $1 per node-hour starting with `min` nodes.
Scenario elastic_pool(uint32_t gpn, uint32_t min, uint32_t max, double delay_s, double idle_s,
                      double horizon_s) {
  Scenario sc = test::one_pool(max, gpn, horizon_s);
  ElasticConfig el;
  el.min_nodes = el.initial_nodes = min;
  el.max_nodes = max;
  el.provisioning_delay = DelaySpec{DistKind::fixed, delay_s, 0, {}, {}};
  el.idle_timeout_s = idle_s;
  sc.pools[0].econ.elastic = el;
  return sc;
}

struct Run {
  ReplicaMetrics m;
  GpuHours h;
  double rounding_usd;
};

Run run(const Scenario& sc) {
  const CompiledScenario cs = compile(sc);
  const SingleRun r = run_single(cs.view());
  return {r.metrics, gpu_hours(cs.view(), r.state(), NONE),
          r.state().billing.pools[0].rounding_usd};
}

}  // namespace

TEST_CASE("sim::billing") {
  SUBCASE("a node released after 6,000 s is billed 2 h per hour, 6,000 s per second") {
    // One 90-minute job on an elastic pool that starts empty: the node is requested at t = 0,
    // ready at once, busy until 5,400 s, idle for the 600 s timeout, released at 6,000 s.
    Scenario sc = elastic_pool(1, 0, 1, 0, 600, 4 * 3600.0);
    sc.workload.push_back(test::trace_class({0}, 5400, 1));
    // per second: 6,000 s × $1/h = $1.6667
    CHECK(run(sc).m.cost_usd == doctest::Approx(6000.0 / 3600).epsilon(1e-12));
    sc.pools[0].econ.granularity = economics::BillingGranularity::per_hour;
    const Run hourly = run(sc);
    // per hour: 6,000 s rounds up to 2 h = $2, of which $0.3333 is rounding
    CHECK(hourly.m.cost_usd == doctest::Approx(2.0).epsilon(1e-12));
    CHECK(hourly.rounding_usd == doctest::Approx(1200.0 / 3600).epsilon(1e-9));
    sc.pools[0].econ.granularity = economics::BillingGranularity::per_millisecond;
    // per millisecond: 6,000.000 s exactly, no rounding
    CHECK(run(sc).m.cost_usd == doctest::Approx(6000.0 / 3600).epsilon(1e-12));
  }
  SUBCASE("a 10 s use of a node is billed the 60 s minimum") {
    Scenario sc = elastic_pool(1, 0, 1, 0, 0, 3600.0);
    sc.workload.push_back(test::trace_class({100}, 10, 1));
    sc.pools[0].econ.billing_minimum_s = 60;
    // node up from 100 s to 110 s: billed max(10 s, 60 s) = 60 s × $1/h
    CHECK(run(sc).m.cost_usd == doctest::Approx(60.0 / 3600).epsilon(1e-9));
  }
  SUBCASE("a reserved pool bills every node for the whole window, idle or not") {
    Scenario sc = test::one_pool(4, 8, 10 * 3600.0);
    sc.pools[0].pricing = Pricing::reserved_1y;
    sc.pools[0].price_per_node_hour = 2.5;
    sc.workload.push_back(test::trace_class({0}, 3600, 8));
    const Run r = run(sc);
    // 4 nodes × 10 h × $2.5 = $100, though one node is busy for 1 h only
    CHECK(r.m.cost_usd == doctest::Approx(100.0).epsilon(1e-12));
    // the job's share: 8 GPU-h × $2.5/8 per GPU-h = $2.5; the other $97.5 is idle
    const CompiledScenario cs = compile(sc);
    const SingleRun sr = run_single(cs.view());
    CHECK(sr.state().billing.classes[0].cost_usd == doctest::Approx(2.5).epsilon(1e-12));
  }
  SUBCASE("a spot discount of 70% off $10 per node-hour bills $3 per node-hour") {
    Scenario sc = test::one_pool(2, 8, 5 * 3600.0);
    sc.pools[0].pricing = Pricing::spot;
    sc.pools[0].price_per_node_hour = 10 * (1 - 0.7);
    sc.pools[0].econ.spot = SpotConfig{};
    sc.workload.push_back(test::mm_class(1.0 / 3600, 60));
    // 2 nodes × 5 h × $3 = $30 (no interruptions: the nodes stay provisioned)
    CHECK(run(sc).m.cost_usd == doctest::Approx(30.0).epsilon(1e-12));
  }
  SUBCASE("a spot price series is integrated step by step") {
    Scenario sc = test::one_pool(1, 8, 3 * 3600.0);
    sc.pools[0].pricing = Pricing::spot;
    sc.pools[0].price_per_node_hour = 2;
    sc.pools[0].econ.spot = SpotConfig{};
    sc.pools[0].econ.spot->price_series = {{0, 2.0}, {3600, 4.0}, {5400, 1.0}};
    sc.workload.push_back(test::mm_class(1.0 / 3600, 60));
    // 1 h × $2 + 0.5 h × $4 + 1.5 h × $1 = $5.5
    CHECK(run(sc).m.cost_usd == doctest::Approx(5.5).epsilon(1e-12));
  }
}

TEST_CASE("sim::billing::on_prem") {
  SUBCASE("the DATA.md §6.2 8×H100 server costs about $1.42 per GPU-hour at 75% load") {
    economics::OnPremNode node;
    node.server_capex_usd = 300000;
    node.depreciation_years = 5;
    node.max_power_kw = 10.2;
    node.utilization = 0.75;
    node.pue = 1.3;
    node.electricity_usd_per_kwh = 0.08;
    node.colo_usd_per_kw_month = 190;
    node.network_capex_fraction = 0.15;
    node.gpus_per_node = 8;
    const double expected = economics::on_prem_cost_per_gpu_hour(node)->total_usd;
    // DATA.md §6.2: capex 0.856 + energy 0.099 + colo 0.332 + network 0.128 = $1.416 per GPU-h
    CHECK(expected == doctest::Approx(1.416).epsilon(1e-3));

    // Through the engine: one server, a 6-GPU job busy all the time (75% of the GPUs).
    const double horizon = 30 * 86400.0;
    Scenario sc = test::one_pool(1, 8, horizon);
    sc.pools[0].pricing = Pricing::on_prem;
    sc.pools[0].econ.on_prem = node;
    sc.workload.push_back(test::trace_class({0}, 2 * horizon, 6));
    const Run r = run(sc);
    // cost per provisioned GPU-hour equals the model's figure at 75% utilization (to 1e-9)
    CHECK(r.m.cost_usd / r.h.provisioned == doctest::Approx(expected).epsilon(1e-9));
  }
}

TEST_CASE("sim::elastic") {
  SUBCASE("an elastic pool scales 8 -> 32 GPUs for a burst and back to its minimum") {
    // 1 node (8 GPUs) at the start, at most 4; four 8-GPU one-hour jobs at t = 0. Job 1 starts
    // at once; 3 nodes are requested at t = 0 and ready at 600 s; jobs 2-4 run 600-4,200 s.
    // Node 0 idles from 3,600 s and is released at 4,500 s; at 5,100 s nodes 1 and 2 go, and
    // node 3 stays as the minimum until the 3 h horizon.
    Scenario sc = elastic_pool(8, 1, 4, 600, 900, 3 * 3600.0);
    sc.workload.push_back(test::trace_class({0, 0, 0, 0}, 3600, 8));
    const Run r = run(sc);
    // node-seconds 4,500 + 2 × 5,100 + 10,800 = 25,500 → × 8 GPUs / 3,600 = 56.667 GPU-h
    CHECK(r.h.provisioned == doctest::Approx(25500.0 * 8 / 3600).epsilon(1e-12));
    // billed at $1 per node-hour: $7.0833
    CHECK(r.m.cost_usd == doctest::Approx(25500.0 / 3600).epsilon(1e-12));
    // every job completes; jobs 2-4 waited the 600 s provisioning delay (mean 450 s)
    CHECK(r.m.jobs_completed == 4);
    CHECK(r.m.wait_s.mean == doctest::Approx(450.0).epsilon(1e-12));
  }
}
