//! Link sharing on oversubscribed uplinks, checked against hand-computed rates and finish times.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "models/compile/compile.h"
#include "sim/core/network.h"
#include "sim/replica_buffers.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

namespace gpuplan {
namespace {

//! Two leaves of 3 nodes (8 GPUs, 100 Gb/s links each) under spines at 3:1: each leaf's
//! uplinks carry 3 x 100 / 3 = 100 Gb/s. One trace class whose steps spend `comm_fraction` in
//! network all-reduce at full line rate; placement `placement`.
Scenario two_leaf_3to1(Placement placement, double comm_fraction,
                       const std::vector<TraceRow>& rows) {
  Scenario sc = test::one_pool(6, 8, 1000.0);
  sc.topology.kind = TopologyKind::leaf_spine;
  sc.topology.nodes_per_leaf = 3;
  sc.topology.link_gbps = 100;
  sc.topology.oversubscription = 3;
  sc.scheduler.placement = placement;
  JobClass jc;
  jc.name = "gangs";
  jc.trace = TraceFormat{};
  jc.trace_rows = rows;
  jc.comm_fraction = comm_fraction;
  sc.workload.push_back(jc);
  return sc;
}

//! Finish time [s] of each job, by arrival index.
std::vector<double> finishes(const Scenario& sc) {
  const CompiledScenario cs = compile(sc);
  std::vector<double> out;
  run_single(cs.view(), [&out](const JobRecord* records, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      if (records[i].job_idx >= out.size()) out.resize(records[i].job_idx + 1);
      out[records[i].job_idx] = records[i].finish_s;
    }
  });
  return out;
}

}  // namespace

TEST_CASE("sim::network") {
  SUBCASE("a lone gang across two 3:1 leaves gets a third of its line rate") {
    // 48 GPUs = 6 nodes, 3 per leaf: each leaf's 100 Gb/s of uplinks serves 3 crossing nodes,
    // 33.3 Gb/s each = 1/3 of the line rate. Half of a step is network all-reduce, so the comm
    // slowdown is 0.5 + 0.5 / (1/3) = 2.0 and 100 s of work takes 200 s.
    const auto f = finishes(two_leaf_3to1(Placement::best_fit, 0.5, {{0, 100, 48, 1}}));
    REQUIRE(f.size() == 1);
    // 0 + 100 s x 2.0
    CHECK(f[0] == doctest::Approx(200.0));
  }

  SUBCASE("two gangs crossing the same uplinks share them, and one ending speeds up the other") {
    // spread puts gang A on nodes {0, 3} and gang B on {1, 4}: two crossing nodes per leaf, so
    // each gets 100 / 2 = 50 Gb/s = half its line rate; comm slowdown 0.5 + 0.5 / 0.5 = 1.5.
    const auto f =
        finishes(two_leaf_3to1(Placement::spread, 0.5, {{0, 100, 16, 1}, {0, 200, 16, 2}}));
    REQUIRE(f.size() == 2);
    // A: 100 s of work at 1.5 s per work-second ends at 150 s.
    CHECK(f[0] == doctest::Approx(150.0));
    // B: by 150 s it has done 150 / 1.5 = 100 s of its 200 s; alone on the uplinks it runs at
    // full rate (slowdown 0.5 + 0.5 / 1 = 1), so the remaining 100 s end at 250 s (not 300 s).
    CHECK(f[1] == doctest::Approx(250.0));
  }

  SUBCASE("checkpoint writes survive a re-rate: only compute time does work") {
    // As above, with a checkpoint every 60 s of compute that takes 10 s to write. A (100 s of
    // work) shares the uplinks throughout at 1.5 s per work-second: 150 s of compute plus writes
    // after 60 and 120 s of it end at 170 s. B (200 s) runs the same phases until 170 s, having
    // computed 150 s = 100 s of work; alone it then does the other 100 s at full rate, with
    // writes after 180 and 240 s of compute: 250 s of compute + 4 writes end at 290 s.
    Scenario sc = two_leaf_3to1(Placement::spread, 0.5, {{0, 100, 16, 1}, {0, 200, 16, 2}});
    ClassEconomics& e = sc.workload[0].econ;
    e.checkpoints = true;
    e.interval_s = 60;
    e.checkpoint_s = 10;
    const auto f = finishes(sc);
    REQUIRE(f.size() == 2);
    // 0 + 150 s of compute + 2 writes of 10 s
    CHECK(f[0] == doctest::Approx(170.0));
    // 0 + 250 s of compute + 4 writes of 10 s
    CHECK(f[1] == doctest::Approx(290.0));
  }

  SUBCASE("work kept by a checkpoint follows the run's changes of rate") {
    // Gang B of the case above at 170 s: it computed 150 s at 1.5 s per work-second (100 s of its
    // 200 s of work) and runs at 1.0 since. A checkpoint after 180 s of compute keeps
    // 100 + 30 / 1.0 = 130 s of work; one after 120 s keeps 120 / 1.5 = 80 s.
    Scenario sc = two_leaf_3to1(Placement::spread, 0.5, {{0, 200, 16, 1}});
    ClassEconomics& e = sc.workload[0].econ;
    e.checkpoints = true;
    e.interval_s = 60;
    e.checkpoint_s = 10;
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    ReplicaBuffers buffers(m, 0);
    ReplicaState& s = buffers.state;
    s.jobs[0].work = 200;
    s.jobs[0].class_idx = 0;
    s.runs.jobs[0].run_start = 0;
    s.runs.jobs[0].restart_s = 0;
    s.runs.jobs[0].interval_s = 60;
    s.runs.jobs[0].slowdown = 1.5;  // the rate it started at
    s.net.jobs[0].since = 170;
    s.net.jobs[0].work_left = 100;
    s.net.jobs[0].stretch = 1.0;
    // after the change of rate: exact
    CHECK(work_done_by(m, s, 0, 180) == doctest::Approx(130.0));
    // before it: pro rata, exact here since the rate was constant until then
    CHECK(work_done_by(m, s, 0, 120) == doctest::Approx(80.0));
  }

  SUBCASE("a gang under one leaf runs at its ideal speed") {
    // best_fit takes nodes {0, 1}, both under leaf 0: no uplink crossed, slowdown 1.
    const auto f = finishes(two_leaf_3to1(Placement::best_fit, 0.5, {{0, 100, 16, 1}}));
    REQUIRE(f.size() == 1);
    // 0 + 100 s x 1.0
    CHECK(f[0] == doctest::Approx(100.0));
  }

  SUBCASE("a topology with no communication share leaves best_fit finish times unchanged") {
    // Same stream with and without a topology: comm slowdown is exactly 1 everywhere.
    const std::vector<TraceRow> rows = {{0, 100, 48, 1}, {10, 50, 16, 2}, {20, 70, 4, 3}};
    Scenario plain = two_leaf_3to1(Placement::best_fit, 0.0, rows);
    plain.topology = TopologyConfig{};
    // Every finish time is identical, bit for bit.
    CHECK(finishes(two_leaf_3to1(Placement::best_fit, 0.0, rows)) == finishes(plain));
  }

  SUBCASE("uplink load: crossing node-seconds and congested time match the hand count") {
    // spread: A on nodes {0, 3}, B on {1, 4}. Leaf 0's uplinks (100 Gb/s) carry nodes 0 and 1
    // over [0, 150) and node 1 over [150, 250): 2 x 150 + 1 x 100 = 400 node-s. Two 100 Gb/s
    // nodes want 200 Gb/s of a 100 Gb/s uplink, so it is congested for [0, 150) only.
    Scenario sc = two_leaf_3to1(Placement::spread, 0.5, {{0, 100, 16, 1}, {0, 200, 16, 2}});
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    const NetworkPlan& plan = cs.network;
    const uint32_t leaf0 = plan.node_group[1 * 6 + 0], node0 = plan.node_group[0 * 6 + 0];
    const uint32_t node2 = plan.node_group[0 * 6 + 2];
    CHECK(plan.group_level[leaf0] == 1);
    CHECK(plan.uplink_gbps[leaf0] == doctest::Approx(100.0));
    // 2 x 150 + 1 x 100 node-seconds
    CHECK(r.state().net.uplink_node_s[leaf0] == doctest::Approx(400.0));
    // congested while two nodes cross: [0, 150)
    CHECK(r.state().net.uplink_congested_s[leaf0] == doctest::Approx(150.0));
    // node 0's own link carries node 0 alone for A's 150 s, never congested
    CHECK(r.state().net.uplink_node_s[node0] == doctest::Approx(150.0));
    CHECK(r.state().net.uplink_congested_s[node0] == 0.0);
    // node 2 ran nothing
    CHECK(r.state().net.uplink_node_s[node2] == 0.0);
  }

  SUBCASE("uplink load is counted inside the statistics window only") {
    // Same run with a 100 s warmup: leaf 0 carries 2 nodes over [100, 150), 1 over [150, 250).
    Scenario sc = two_leaf_3to1(Placement::spread, 0.5, {{0, 100, 16, 1}, {0, 200, 16, 2}});
    sc.warmup_s = 100;
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    const uint32_t leaf0 = cs.network.node_group[1 * 6 + 0];
    // 2 x 50 + 1 x 100 node-seconds; congested 50 s
    CHECK(r.state().net.uplink_node_s[leaf0] == doctest::Approx(200.0));
    CHECK(r.state().net.uplink_congested_s[leaf0] == doctest::Approx(50.0));
  }

  SUBCASE("a job's comm slowdown is counted once it completes") {
    const Scenario sc = two_leaf_3to1(Placement::spread, 0.5, {{0, 100, 16, 1}, {0, 200, 16, 2}});
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    // Two multi-node jobs completed.
    CHECK(r.state().net.multi_node_completed == 2);
    // A ran at 1.5 throughout; B at 1.5 for 150 s then 1.0 for 100 s: (225 + 100) / 250 = 1.3.
    CHECK(r.state().net.comm_slowdown_sum == doctest::Approx(1.5 + 1.3));
  }
}

}  // namespace gpuplan
