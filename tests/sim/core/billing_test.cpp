//! Billing in the engine: granularity and minimum on provisioned intervals, reserved pools billed
//! while idle, spot discount and price series, the on-prem worked example of DATA.md §6.2, an
//! elastic pool's provisioned GPU-hours on a hand-built trace, and the supply integrated only
//! where it changes against an integration at every step.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/economics/on_prem.h"
#include "sim/core/engine.h"
#include "sim/replica_buffers.h"
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

namespace {

//! The pools' supply and busy GPUs as they stand after a step: constant until the next one.
struct Standing {
  double now;
  std::vector<double> nodes, price, busy;
};

Standing standing(const ModelView& m, const ReplicaState& s) {
  Standing st{s.now, {}, {}, {}};
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    st.nodes.push_back(s.pool_nodes_up[p]);
    st.price.push_back(s.billing.pool_price_node_s[p]);
    st.busy.push_back(s.pool_busy_gpus[p]);
  }
  return st;
}

//! What a per-step integration gives: per pool node- and GPU-seconds and spend in the window,
//! and per time bin the spend and provisioned GPU-seconds.
struct Reference {
  std::vector<double> node_s, gpu_s, usd, bin_usd, bin_gpu_s;

  void add(const ModelView& m, const Standing& st, double to) {
    const auto overlap = [](double a0, double a1, double b0, double b1) {
      return std::max(0.0, std::min(a1, b1) - std::max(a0, b0));
    };
    for (uint32_t p = 0; p < m.pools.size; ++p) {
      const double dt = overlap(st.now, to, m.warmup, m.horizon);
      const double gpus = st.nodes[p] * m.pools[p].gpus_per_node;
      const double rate =
          st.nodes[p] * st.price[p] + st.busy[p] * m.pool_supply[p].price_per_busy_gpu_s;
      node_s[p] += st.nodes[p] * dt;
      gpu_s[p] += gpus * dt;
      usd[p] += rate * dt;
      for (uint32_t b = 0; b < m.n_bins; ++b) {
        const double end = b + 1 == m.n_bins ? m.horizon : (b + 1) * m.bin_width;
        const double piece = overlap(st.now, to, b * m.bin_width, end);
        bin_usd[b] += rate * piece;
        bin_gpu_s[b] += gpus * piece;
      }
    }
  }
};

}  // namespace

TEST_CASE("sim::billing::supply_integrals") {
  // The pools' supply is integrated only where it changes (integrate_supply), the busy GPUs'
  // energy price once at the end (settle_spend): the totals and every time bin must equal an
  // integration of the same state at every step. An elastic spot pool with a price series (nodes
  // come and go, the price steps) beside an on-prem pool with an energy price per busy GPU.
  for (const double warmup : {0.0, 5000.0}) {  // 5,000 s: the window starts inside a bin
    CAPTURE(warmup);
    Scenario sc = elastic_pool(4, 1, 6, 300, 600, 2 * 86400.0);
    sc.warmup_s = warmup;
    sc.pools[0].pricing = Pricing::spot;
    sc.pools[0].econ.spot = SpotConfig{};
    sc.pools[0].econ.spot->price_series = {{0, 1.5}, {20000, 3.0}, {50000, 0.75}, {90000, 2.0}};
    Pool onprem = sc.pools[0];
    onprem.name = "onprem";
    onprem.count = 2;
    onprem.pricing = Pricing::on_prem;
    onprem.econ = PoolEconomics{};
    economics::OnPremNode node;
    node.server_capex_usd = 100000;
    node.max_power_kw = 3.0;
    node.idle_power_kw = 1.0;
    node.gpus_per_node = 4;
    onprem.econ.on_prem = node;
    sc.pools.push_back(onprem);
    sc.workload.push_back(test::mm_class(14.0 / 3600, 3600.0));
    sc.workload.back().econ.spot_tolerant = true;
    sc.limits.time_bins = 37;  // 4,670 s bins: most steps fall inside one
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    REQUIRE(m.pool_supply[1].price_per_busy_gpu_s > 0);

    ReplicaBuffers buf(m, 0);
    ReplicaState& s = buf.state;
    init_replica(m, s, 0);
    const uint32_t np = m.pools.size;
    Reference ref{std::vector<double>(np), std::vector<double>(np), std::vector<double>(np),
                  std::vector<double>(m.n_bins), std::vector<double>(m.n_bins)};
    Standing last = standing(m, s);
    uint32_t supply_changes = 0;
    double rounding = 0;  // [USD] surcharges of the nodes released so far, in the window
    while (step(m, s)) {
      ref.add(m, last, s.now);
      // NOTE: a released node's billing surcharge is charged at its instant, to its time bin;
      // with no warmup every one is in the window, where rounding_usd counts it.
      double total = 0;
      for (uint32_t p = 0; p < np; ++p) total += s.billing.pools[p].rounding_usd;
      if (warmup == 0) ref.bin_usd[bin_of(m, s.now)] += total - rounding;
      rounding = total;
      const Standing now = standing(m, s);
      supply_changes += now.nodes != last.nodes || now.price != last.price;
      last = now;
    }
    REQUIRE(s.totals.saturation == SaturationCause::none);
    end_replica(m, s);
    ref.add(m, last, m.horizon);
    CHECK(supply_changes > 20);  // the pool scaled in and out and the price stepped

    double usd = 0, gpu_s = 0;
    for (uint32_t p = 0; p < np; ++p) {
      CAPTURE(p);
      const double billed = ref.usd[p] + s.billing.pools[p].rounding_usd;
      CHECK(s.billing.pools[p].provisioned_node_s == doctest::Approx(ref.node_s[p]).epsilon(1e-12));
      CHECK(s.billing.pools[p].provisioned_gpu_s == doctest::Approx(ref.gpu_s[p]).epsilon(1e-12));
      CHECK(s.pool_cost_usd[p] == doctest::Approx(billed).epsilon(1e-12));
      usd += billed;
      gpu_s += ref.gpu_s[p];
    }
    CHECK(s.totals.cost_usd == doctest::Approx(usd).epsilon(1e-12));
    CHECK(s.totals.provisioned_gpu_s == doctest::Approx(gpu_s).epsilon(1e-12));
    if (warmup > 0) continue;  // surcharges before the window reach the bins, not rounding_usd
    for (uint32_t b = 0; b < m.n_bins; ++b) {
      CAPTURE(b);
      CHECK(s.bin_spend_usd[b] == doctest::Approx(ref.bin_usd[b]).epsilon(1e-12));
      CHECK(s.bin_provisioned_gpu_s[b] == doctest::Approx(ref.bin_gpu_s[b]).epsilon(1e-12));
    }
  }
}
