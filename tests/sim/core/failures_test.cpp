//! Hardware failures in the engine (sim/core/failures.h, docs/failures.md): failure counts against
//! the Poisson expectation, effective training time against the Young/Daly expectation, a switch
//! failure taking down exactly the nodes below it, and hot spares replacing a failed node at once.
#include <doctest/doctest.h>

#include <cmath>

#include "models/scenario/failure_table.h"
#include "sim/core/engine.h"
#include "sim/replica_buffers.h"
#include "sim/single_run.h"
#include "tests/sim/node_state.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! A failure model with one cause of `scope` at `per_gpu_hour` and a fixed repair time.
FailureConfig one_cause(double per_gpu_hour, FailureScope scope, double repair_s) {
  FailureConfig f;
  f.causes.push_back({"cause", per_gpu_hour, scope});
  f.repair = DelaySpec{DistKind::fixed, repair_s, 0, {}, {}};
  return f;
}

//! `nodes` 8-GPU nodes (`spares` of them hot spares) and one job of `gpus` GPUs and `work_s`
//! seconds submitted at t = 0.
Scenario failing_pool(uint32_t nodes, uint32_t spares, uint32_t gpus, double work_s,
                      double horizon_s) {
  Scenario sc = test::one_pool(nodes, 8, horizon_s);
  sc.pools[0].spares = spares;
  sc.workload.push_back(test::trace_class({0.0}, work_s, gpus));
  sc.limits.max_active_jobs = 16;
  return sc;
}

//! Runs replicas [0, n) and returns the failure totals summed over them.
struct Totals {
  double failures = 0, expected = 0, useful_h = 0, wall_h = 0;
  uint64_t interruptions = 0, swaps = 0;
};

Totals run_replicas(const Scenario& sc, uint32_t n) {
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  const double rate_per_gpu_s = sc.failures->rate_per_gpu_s();
  Totals t;
  for (uint32_t r = 0; r < n; ++r) {
    const SingleRun run = run_single(m, {}, r);
    REQUIRE_FALSE(run.metrics.saturated());
    const ReplicaState& s = run.state();
    const FailureTotals& f = s.failures.totals;
    t.failures += double(f.failures);
    t.interruptions += f.interruptions;
    t.swaps += f.spare_swaps;
    // Serving GPU-seconds: the pool's serving nodes over the window, less those failed and not
    // replaced by a spare.
    const uint32_t serving = m.pools[0].n_nodes - m.pool_spares[0];
    const double serving_gpu_s = double(serving) * 8 * (m.horizon - m.warmup) - f.down_gpu_s;
    t.expected += rate_per_gpu_s * serving_gpu_s;
    const ClassMetrics& c = run.metrics.classes[0];
    t.useful_h += c.gpu_hours.useful;
    t.wall_h += c.gpu_hours.busy + c.requeued_gpu_hours;
  }
  return t;
}

}  // namespace

TEST_CASE("sim::failures") {
  SUBCASE("failures over many replicas match rate x serving GPU-hours within the Poisson CI") {
    // 16 nodes x 8 GPUs at 1e-3 failures per GPU-hour: 0.128 per hour, ~128 per 1000 h replica;
    // a 1 h repair and 2 spares keep almost every node serving.
    Scenario sc = failing_pool(18, 2, 8, 3600, 1000 * 3600.0);
    sc.failures = one_cause(1e-3, FailureScope::node, 3600);
    const Totals t = run_replicas(sc, 40);
    // 40 replicas x ~128 = ~5120 expected; a Poisson count lies within 4 sigma of its mean
    // (sigma = sqrt(mean) ~ 72) with probability 1 - 6e-5.
    CHECK(t.expected == doctest::Approx(40 * 0.128 * 1000).epsilon(0.01));
    CHECK(std::abs(t.failures - t.expected) < 4 * std::sqrt(t.expected));
    // with 2 spares and ~0.13 nodes in repair at a time, almost every failure is swapped at once
    CHECK(double(t.swaps) > 0.99 * t.failures);
  }

  SUBCASE("the Llama 3 table's causes add up to 419 interruptions in 54 days on 16,384 GPUs") {
    double per_gpu_hour = 0;
    for (const FailureCauseConfig& c : llama3_failure_table()) per_gpu_hour += c.rate_per_gpu_hour;
    // 419 / (16,384 x 54 x 24 GPU-h) = 1.973e-5 per GPU-hour, times those GPU-hours again = 419
    CHECK(per_gpu_hour * 16384 * 54 * 24 == doctest::Approx(419).epsilon(1e-12));
    CHECK(llama3_failure_table().size() == 18);
  }

  SUBCASE("effective training time of a gang matches the Young/Daly expectation") {
    // A 32-GPU gang (4 nodes) with 2 spares and a job longer than the horizon, checkpointing
    // every tau = 1 h of compute at C = 6 min, reloading in R = 12 min, failing at
    // lambda = 32 GPUs x 3.125e-3 per GPU-hour = 0.1 per hour (MTBF 10 h).
    const double tau = 3600, C = 360, R = 720, lambda = 0.1 / 3600;
    Scenario sc = failing_pool(6, 2, 32, 1e8, 2000 * 3600.0);
    sc.failures = one_cause(3.125e-3, FailureScope::node, 1800);
    ClassEconomics& e = sc.workload[0].econ;
    e.checkpoints = true;
    e.interval_s = tau;
    e.checkpoint_s = C;
    e.restart_s = R;
    const Totals t = run_replicas(sc, 16);
    // Expected wall time per checkpointed segment of tau, with Poisson failures at lambda, a
    // reload R after each and no downtime (a spare is ready): e^(lambda R) (e^(lambda (tau + C)) -
    // 1) / lambda (Daly, FGCS 2006, with D = 0); useful share = tau / that = 0.84298.
    const double segment = std::exp(lambda * R) * std::expm1(lambda * (tau + C)) / lambda;
    const double expected = tau / segment;
    CHECK(expected == doctest::Approx(0.84298).epsilon(1e-4));
    // ~3200 failures over 16 replicas: the simulated share lies within 1 % of the expectation
    // (about 4 standard errors: one replica's share spreads by ~1 %).
    CHECK(t.useful_h / t.wall_h == doctest::Approx(expected).epsilon(0.01));
    CHECK(t.interruptions > 2800);
  }
}

TEST_CASE("sim::failures::exact") {
  SUBCASE("a switch failure takes down exactly the nodes below its leaf until it is repaired") {
    // 2 leaves x 2 nodes; one 16-GPU gang on nodes 0-1 (leaf 0) and one 8-GPU job on node 2.
    Scenario sc = test::one_pool(4, 8, 100 * 3600.0);
    sc.topology.kind = TopologyKind::leaf_spine;
    sc.topology.nodes_per_leaf = 2;
    sc.workload.push_back(test::trace_class({0.0, 0.0}, 1e6, 16));
    sc.workload[0].trace_rows[1].gpus = 8;
    sc.limits.max_active_jobs = 16;
    sc.failures = one_cause(0.0, FailureScope::switch_leaf, 7200);
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    REQUIRE(m.failures[0].switch_level == 1);
    ReplicaBuffers b(m, 0);
    ReplicaState& s = b.state;
    init_replica(m, s, 0);
    REQUIRE(step(m, s));  // both arrivals at t = 0, both start
    REQUIRE(s.running == 2);
    const uint32_t leaf0 = m.net.node_group[1 * m.n_nodes + 0];
    REQUIRE(m.net.node_group[1 * m.n_nodes + 1] == leaf0);
    REQUIRE(m.net.node_group[1 * m.n_nodes + 2] != leaf0);
    s.now = 3600;
    fail_switch(m, s, leaf0, 0);
    // nodes 0 and 1 are out, the gang on them is back in the queue, node 2's job runs on
    CHECK(test::node_state(s, 0) == NodeState::failed);
    CHECK(test::node_state(s, 1) == NodeState::failed);
    CHECK(test::node_state(s, 2) == NodeState::up);
    CHECK(test::node_state(s, 3) == NodeState::up);
    CHECK(s.running == 1);
    CHECK(s.queue_len == 1);
    // one failure of cause 0, one interrupted run, two nodes (16 GPUs) short
    CHECK(s.failures.totals.failures == 1);
    CHECK(s.failures.by_cause[0] == 1);
    CHECK(s.failures.totals.interruptions == 1);
    CHECK(s.failures.pool_deficit[0] == 2);
    // the gang cannot fit on node 3 alone: it waits for the switch
    schedule_jobs(m, s);
    CHECK(s.running == 1);
    s.now = 3600 + 7200;
    handle_switch_repair(m, s, leaf0);
    CHECK(test::node_state(s, 0) == NodeState::up);
    CHECK(test::node_state(s, 1) == NodeState::up);
    CHECK(s.failures.pool_deficit[0] == 0);
    schedule_jobs(m, s);
    CHECK(s.running == 2);
    // the 16 GPUs were out for the 2 h repair: 32 GPU-hours down
    failures_advance(m, s);
    CHECK(s.failures.totals.down_gpu_s == doctest::Approx(16 * 7200.0));
  }

  SUBCASE("a hot spare replaces a failed node at once and the gang restarts at that instant") {
    // 3 nodes, the last a spare; a 16-GPU gang on nodes 0-1.
    Scenario sc = failing_pool(3, 1, 16, 1e6, 100 * 3600.0);
    sc.failures = one_cause(0.0, FailureScope::node, 7200);
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    ReplicaBuffers b(m, 0);
    ReplicaState& s = b.state;
    init_replica(m, s, 0);
    CHECK(test::node_state(s, 2) == NodeState::spare);
    REQUIRE(step(m, s));
    REQUIRE(s.running == 1);
    s.now = 1000;
    fail_node(m, s, 0, 0);
    CHECK(test::node_state(s, 0) == NodeState::failed);
    CHECK(test::node_state(s, 2) == NodeState::up);
    CHECK(s.failures.totals.spare_swaps == 1);
    CHECK(s.failures.pool_deficit[0] == 0);
    CHECK(s.failures.pool_spares_free[0] == 0);
    schedule_jobs(m, s);
    // restarted at once on nodes 1 and 2, its first start kept
    CHECK(s.running == 1);
    CHECK(s.jobs[0].start == 0);
    CHECK(s.runs.jobs[0].run_start == 1000);
    // the repaired node becomes the pool's spare again: the pool is not short of nodes
    s.now = 1000 + 7200;
    handle_node_repair(m, s, 0);
    CHECK(test::node_state(s, 0) == NodeState::spare);
    CHECK(s.failures.pool_spares_free[0] == 1);
  }

  SUBCASE("a job-scope failure interrupts the node's jobs and leaves the node up") {
    Scenario sc = failing_pool(2, 0, 8, 1e6, 100 * 3600.0);
    sc.failures = one_cause(0.0, FailureScope::job, 7200);
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    ReplicaBuffers b(m, 0);
    ReplicaState& s = b.state;
    init_replica(m, s, 0);
    REQUIRE(step(m, s));
    s.now = 500;
    fail_node(m, s, 0, 0);
    CHECK(test::node_state(s, 0) == NodeState::up);
    CHECK(s.failures.totals.interruptions == 1);
    schedule_jobs(m, s);
    // it restarts at once on the same (best-fit, lowest) node
    CHECK(s.running == 1);
    CHECK(s.job_nodes[0] == 0);
  }
}
