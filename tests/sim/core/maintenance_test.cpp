//! Planned maintenance windows in the engine (sim/core/maintenance.h, docs/failures.md "Planned
//! maintenance"): exact schedules of one job on one node under each drain policy, hot spares that
//! do not stand in for a node in maintenance, scenarios whose window never comes running as
//! without one, and a property over many windows: maintenance never adds completed work, and a
//! checkpointing drain loses nothing beyond the final write.
#include <doctest/doctest.h>

#include "models/scenario/failure_table.h"
#include "sim/core/engine.h"
#include "sim/mc_metrics.h"
#include "sim/replica_buffers.h"
#include "tests/sim/run_records.h"
#include "tests/sim/node_state.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

constexpr double H = 3600.0;

//! One node of 8 GPUs, one trace class that checkpoints every hour of compute (write 60 s,
//! reload 300 s) with jobs of `gpus` GPUs and `work_s` seconds submitted at `submits`.
Scenario one_node(const std::vector<double>& submits, double work_s, uint32_t gpus,
                  double horizon_s) {
  Scenario sc = test::one_pool(1, 8, horizon_s);
  sc.workload.push_back(test::trace_class(submits, work_s, gpus));
  ClassEconomics& e = sc.workload[0].econ;
  e.checkpoints = true;
  e.interval_s = H;
  e.checkpoint_s = 60;
  e.restart_s = 300;
  sc.limits.max_active_jobs = 16;
  return sc;
}

//! A window over the pool's first `nodes` nodes from `start_s` for `duration_s`.
MaintenanceConfig window(double start_s, double duration_s, DrainPolicy drain, uint32_t nodes = 1) {
  MaintenanceConfig w;
  w.start_s = start_s;
  w.duration_s = duration_s;
  w.nodes = nodes;
  w.batch = nodes;
  w.drain = drain;
  return w;
}

}  // namespace

TEST_CASE("sim::maintenance::exact") {
  // One 8-GPU job of 10 h on the one node from t = 0; a window from 5 h for 2 h. Uninterrupted it
  // would finish at 36,000 + 9 writes x 60 = 36,540 s.
  Scenario sc = one_node({0.0}, 10 * H, 8, 100 * H);

  SUBCASE("drain checkpoint: a final write ends at the start, nothing is lost, it restarts after") {
    sc.pools[0].maintenance.push_back(window(5 * H, 2 * H, DrainPolicy::checkpoint));
    const test::Outcome o = test::run(sc);
    REQUIRE(o.jobs.size() == 1);
    // Compute stops at 18,000 - 60 = 17,940 s of wall time: 4 cycles of 3,660 s, then 3,300 s,
    // so 17,700 s of compute are kept (the final write takes the last 60 s). It restarts when the
    // node is back at 25,200 s: reload 300 + the remaining 18,300 s + 5 writes x 60 = 44,100 s.
    CHECK(o.jobs[0].start_s == 0);
    CHECK(o.jobs[0].finish_s == doctest::Approx(44100).epsilon(1e-12));
    const MaintenanceMetrics& mt = o.metrics.maintenance;
    // one node out once, one run stopped, nothing thrown away, the node out 2 h
    CHECK(mt.node_windows == 1);
    CHECK(mt.interruptions == 1);
    CHECK(mt.lost_gpu_hours == 0);
    CHECK(mt.node_hours == doctest::Approx(2).epsilon(1e-12));
    // 8 GPUs x 2 h
    CHECK(mt.gpu_hours == doctest::Approx(16).epsilon(1e-12));
    // the node stays billed while out: 100 h x 8 GPUs provisioned
    CHECK(o.metrics.gpu_hours.provisioned == doctest::Approx(800).epsilon(1e-12));
  }

  SUBCASE("drain kill: the compute since the last checkpoint is lost") {
    sc.pools[0].maintenance.push_back(window(5 * H, 2 * H, DrainPolicy::kill));
    const test::Outcome o = test::run(sc);
    REQUIRE(o.jobs.size() == 1);
    // At 18,000 s: 4 cycles of 3,660 s, then 3,360 s of compute since the last checkpoint, lost.
    // Kept 14,400 s; from 25,200 s: 300 + 21,600 + 5 writes x 60 = 22,200 s, finish 47,400 s.
    CHECK(o.jobs[0].finish_s == doctest::Approx(47400).epsilon(1e-12));
    // 3,360 s x 8 GPUs = 7.4667 GPU-h
    CHECK(o.metrics.maintenance.lost_gpu_hours == doctest::Approx(3360.0 * 8 / H).epsilon(1e-12));
    CHECK(o.metrics.maintenance.interruptions == 1);
  }

  SUBCASE("drain wait: no job is placed on a draining node; the rest stop as with checkpoint") {
    // Two 4-GPU jobs: the 10 h one from t = 0, a 1 h one at 4 h, while the node drains (from
    // 5 h - 2 h = 3 h). Without the window the second would start at once.
    Scenario w = one_node({0.0, 4 * H}, 10 * H, 4, 100 * H);
    w.workload[0].trace_rows[1].duration_s = H;
    MaintenanceConfig mw = window(5 * H, 2 * H, DrainPolicy::wait);
    mw.drain_ahead_s = 2 * H;
    w.pools[0].maintenance.push_back(mw);
    const test::Outcome o = test::run(w);
    REQUIRE(o.jobs.size() == 2);
    // the long job stops at 5 h as under checkpoint and finishes at 44,100 s (see above)
    CHECK(o.jobs[0].finish_s == doctest::Approx(44100).epsilon(1e-12));
    // the short one waits for the node: starts at 25,200 s, 3,600 s of compute, no write
    CHECK(o.jobs[1].start_s == doctest::Approx(25200).epsilon(1e-12));
    CHECK(o.jobs[1].finish_s == doctest::Approx(28800).epsilon(1e-12));
    CHECK(o.metrics.maintenance.interruptions == 1);
    CHECK(o.metrics.maintenance.lost_gpu_hours == 0);
    // without the window: the short job starts on arrival and ends an hour later
    w.pools[0].maintenance.clear();
    const test::Outcome free = test::run(w);
    CHECK(free.jobs[1].start_s == doctest::Approx(4 * H).epsilon(1e-12));
  }

  SUBCASE("a repeating window stops the job at every repetition before the horizon") {
    // every 8 h from 5 h: starts at 5, 13, 21, ... h; the job is out 2 h of every 8 h
    MaintenanceConfig mw = window(5 * H, 2 * H, DrainPolicy::checkpoint);
    mw.every_s = 8 * H;
    sc.pools[0].maintenance.push_back(mw);
    sc.horizon_s = 24 * H;
    sc.workload[0].trace_rows[0].duration_s = 1e6;  // runs past the horizon
    const test::Outcome o = test::run(sc);
    // starts at 5, 13 and 21 h (29 h is past the 24 h horizon): 3 windows, 3 stops
    CHECK(o.metrics.maintenance.node_windows == 3);
    CHECK(o.metrics.maintenance.interruptions == 3);
    // out 2 + 2 + 2 h (the last ends at 23 h, inside the horizon)
    CHECK(o.metrics.maintenance.node_hours == doctest::Approx(6).epsilon(1e-12));
  }

  SUBCASE("a rolling window takes its batches one after another") {
    Scenario r = test::one_pool(4, 8, 100 * H);
    r.workload.push_back(test::trace_class({0.0}, H, 8));
    MaintenanceConfig mw = window(10 * H, 2 * H, DrainPolicy::kill, 4);
    mw.batch = 1;
    r.pools[0].maintenance.push_back(mw);
    const CompiledScenario cs = compile(r);
    REQUIRE(cs.maintenance.size() == 4);
    // batch b covers node b from 10 h + 2 h x b
    for (uint32_t b = 0; b < 4; ++b) {
      CHECK(cs.maintenance[b].first_node == b);
      CHECK(cs.maintenance[b].n_nodes == 1);
      CHECK(cs.maintenance[b].start == doctest::Approx((10 + 2 * b) * H).epsilon(1e-12));
    }
    const test::Outcome o = test::run(r);
    // 4 nodes x 2 h each; at most one node out at a time
    CHECK(o.metrics.maintenance.node_windows == 4);
    CHECK(o.metrics.maintenance.node_hours == doctest::Approx(8).epsilon(1e-12));
  }
}

TEST_CASE("sim::maintenance::spares") {
  SUBCASE("a hot spare does not stand in for a node in maintenance, and a spare goes out too") {
    // 3 nodes, the last a spare; a 16-GPU gang on nodes 0-1; windows on node 0 and on the spare.
    Scenario sc = one_node({0.0}, 1e6, 16, 100 * H);
    sc.pools[0].count = 3;
    sc.pools[0].spares = 1;
    sc.failures = FailureConfig{};
    sc.failures->causes.push_back({"cause", 0.0, FailureScope::node});
    sc.failures->repair = DelaySpec{DistKind::fixed, H, 0, {}, {}};
    sc.pools[0].maintenance.push_back(window(H, H, DrainPolicy::checkpoint));
    MaintenanceConfig spare = window(3 * H, H, DrainPolicy::checkpoint);
    spare.first = 2;
    sc.pools[0].maintenance.push_back(spare);
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    ReplicaBuffers b(m, 0);
    ReplicaState& s = b.state;
    init_replica(m, s, 0);
    REQUIRE(step(m, s));  // t = 0: the gang starts on nodes 0-1
    REQUIRE(s.running == 1);
    REQUIRE(step(m, s));  // t = 1 h: node 0 goes out
    CHECK(s.now == H);
    CHECK(test::node_state(s, 0) == NodeState::maintenance);
    CHECK(test::node_state(s, 2) == NodeState::spare);
    // the gang stopped and cannot restart on node 1 alone: the spare stays a spare
    CHECK(s.running == 0);
    CHECK(s.failures.pool_spares_free[0] == 1);
    REQUIRE(step(m, s));  // t = 2 h: node 0 is back, the gang restarts
    CHECK(s.now == 2 * H);
    CHECK(test::node_state(s, 0) == NodeState::up);
    CHECK(s.running == 1);
    REQUIRE(step(m, s));  // t = 3 h: the spare goes out, no job notices
    CHECK(s.now == 3 * H);
    CHECK(test::node_state(s, 2) == NodeState::maintenance);
    CHECK(s.failures.pool_spares_free[0] == 0);
    CHECK(s.running == 1);
    REQUIRE(step(m, s));  // t = 4 h: it is a ready spare again
    CHECK(test::node_state(s, 2) == NodeState::spare);
    CHECK(s.failures.pool_spares_free[0] == 1);
    // one stop (the gang at 1 h), two nodes out 1 h each
    maintenance_advance(m, s);
    CHECK(s.maintenance.totals.interruptions == 1);
    CHECK(s.maintenance.totals.node_windows == 2);
    CHECK(s.maintenance.totals.node_s == doctest::Approx(2 * H).epsilon(1e-12));
  }
}

TEST_CASE("sim::maintenance::properties") {
  SUBCASE("a window that starts at or after the horizon changes no figure") {
    // A busy M/M/c workload (8 nodes x 8 GPUs, 1-GPU jobs at load 0.8) with checkpoints.
    Scenario sc = test::one_pool(8, 8, 200 * H, 20 * H);
    sc.workload.push_back(test::mm_class(0.8 * 64 / (2 * H), 2 * H));
    sc.workload[0].econ.checkpoints = true;
    sc.workload[0].econ.interval_s = H;
    sc.workload[0].econ.checkpoint_s = 30;
    sc.limits.max_active_jobs = 4096;
    const CompiledScenario base = compile(sc);
    sc.pools[0].maintenance.push_back(window(200 * H, H, DrainPolicy::kill, 8));
    const CompiledScenario late = compile(sc);
    for (uint32_t r = 0; r < 3; ++r) {
      const SingleRun a = run_single(base.view(), {}, r);
      const SingleRun b = run_single(late.view(), {}, r);
      const std::vector<double> x = metric_row(base.view(), a.metrics);
      const std::vector<double> y = metric_row(late.view(), b.metrics);
      // the same columns plus the 5 maintenance ones, all zero
      REQUIRE(y.size() == x.size() + 5);
      CHECK(std::vector<double>(y.begin(), y.begin() + x.size()) == x);
      CHECK(std::vector<double>(y.begin() + x.size(), y.end()) == std::vector<double>(5, 0.0));
    }
  }

  SUBCASE("maintenance never adds completed work; a checkpointing drain loses only the write") {
    // One 8-GPU job longer than the 48 h horizon on one node; many windows and policies. The work
    // it completes (useful GPU-hours) can only shrink, and a drain with a final checkpoint throws
    // away at most the compute of one write (60 s x 8 GPUs) per stop, when the stop comes within
    // a write of the run's (re)start.
    Scenario sc = one_node({0.0}, 1e7, 8, 48 * H);
    const double base = test::run(sc).metrics.classes[0].gpu_hours.useful;
    // 48 h of wall time: 48 x 3,600 / 3,660 cycles x 1 h x 8 GPUs ~ 377.7 GPU-h
    CHECK(base == doctest::Approx(48 * H / 3660 * 8).epsilon(1e-3));
    int cases = 0;
    for (double start : {0.0, 0.3 * H, H, 2.5 * H, 7.01 * H})
      for (double dur : {600.0, H, 3 * H})
        for (double every : {0.0, 5 * H, 9 * H})
          for (DrainPolicy drain :
               {DrainPolicy::checkpoint, DrainPolicy::kill, DrainPolicy::wait}) {
            MaintenanceConfig w = window(start, dur, drain);
            if (every > 0) w.every_s = every;
            if (drain == DrainPolicy::wait) w.drain_ahead_s = 0.5 * H;
            if (every > 0 && !(w.out_of_service_s() < every)) continue;
            Scenario m = sc;
            m.pools[0].maintenance.push_back(w);
            const test::Outcome o = test::run(m);
            CAPTURE(start);
            CAPTURE(dur);
            CAPTURE(every);
            CAPTURE(int(drain));
            CHECK(o.metrics.classes[0].gpu_hours.useful <= base + 1e-9);
            if (drain != DrainPolicy::kill)
              CHECK(o.metrics.maintenance.lost_gpu_hours <=
                    double(o.metrics.maintenance.interruptions) * 60 * 8 / H + 1e-9);
            ++cases;
          }
    // 5 starts x 3 durations x 3 periods x 3 policies, less those that do not fit their period
    CHECK(cases > 100);
  }
}
