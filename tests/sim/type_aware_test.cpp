//! GPU-type-aware policies (Gavel's fifo_perf and max_min_fairness_perf, sim/core/type_aware.h):
//! hand-checked schedules with exact start and finish times on a K80 + V100 cluster, FIFO
//! equality when every speed is equal, equal normalized throughput under max-min fairness, and
//! thread-count invariance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/mc_metrics.h"
#include "sim/mc_run.h"
#include "sim/single_run.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! Adds a pool `name` of `nodes` nodes of `gpus_per_node` GPUs `gpu` to `sc`.
void add_pool(Scenario& sc, const char* name, const char* gpu, uint32_t nodes,
              uint32_t gpus_per_node) {
  InstanceType it = test::test_instance(gpus_per_node);
  it.id = std::string("test.") + name;
  it.gpu = gpu;
  sc.instances.push_back(it);
  Pool p;
  p.name = name;
  p.instance = it.id;
  p.instance_idx = static_cast<uint32_t>(sc.instances.size() - 1);
  p.gpu = builtin_catalog().find_gpu(gpu);
  p.count = nodes;
  p.price_per_node_hour = 1.0;
  sc.pools.push_back(p);
}

//! Pool 0: one 1-GPU K80 node; pool 1: one 1-GPU V100 node; no workload yet.
Scenario k80_v100(QueuePolicy policy, double horizon_s) {
  Scenario sc;
  sc.name = "test";
  sc.seed = 42;
  sc.horizon_s = horizon_s;
  add_pool(sc, "k80", "K80", 1, 1);
  add_pool(sc, "v100", "V100-16GB", 1, 1);
  sc.scheduler.queue = policy;
  return sc;
}

//! A trace class of rows (submit, V100 duration, gpus) that runs 3x faster on a V100 than on a
//! K80 and keeps all its work at whole seconds (a free checkpoint every second, no reload).
JobClass v100_class(const std::vector<TraceRow>& rows) {
  JobClass c;
  c.name = "jobs";
  c.trace = TraceFormat{};
  c.trace_rows = rows;
  c.reference_gpu = builtin_catalog().find_gpu("V100-16GB");
  c.gpu_speeds = {{builtin_catalog().find_gpu("K80"), 1.0},
                  {builtin_catalog().find_gpu("V100-16GB"), 3.0}};
  c.econ.checkpoints = true;
  c.econ.interval_s = 1.0;
  c.econ.checkpoint_s = 0.0;
  c.econ.restart_s = 0.0;
  return c;
}

using test::Outcome;
using test::run;

//! A random mix of 1- to 8-GPU jobs on a 4 x 4-GPU K80 pool and a 2 x 8-GPU V100 pool.
Scenario random_mix(QueuePolicy policy, double k80_speed, double v100_speed) {
  Scenario sc;
  sc.name = "test";
  sc.seed = 7;
  sc.horizon_s = 4 * 86400.0;
  sc.warmup_s = 86400.0;
  add_pool(sc, "k80", "K80", 4, 4);
  add_pool(sc, "v100", "V100-16GB", 2, 8);
  sc.scheduler.queue = policy;
  sc.scheduler.round_s = 360;
  JobClass c = test::mm_class(1.0 / 900, 3600.0);
  c.gpus.values = {1, 2, 4, 8};
  c.gpus.probs = {0.6, 0.2, 0.15, 0.05};
  c.reference_gpu = builtin_catalog().find_gpu("V100-16GB");
  c.gpu_speeds = {{builtin_catalog().find_gpu("K80"), k80_speed},
                  {builtin_catalog().find_gpu("V100-16GB"), v100_speed}};
  c.econ.checkpoints = true;
  c.econ.interval_s = 360;
  c.econ.checkpoint_s = 5;
  c.econ.restart_s = 30;
  sc.workload.push_back(c);
  sc.limits.max_active_jobs = 4096;
  sc.limits.time_bins = 24;
  return sc;
}

}  // namespace

TEST_CASE("sim::type_aware::speeds") {
  SUBCASE("a class's duration multiplier is its reference speed over the pool's") {
    const CompiledScenario cs = compile([] {
      Scenario sc = k80_v100(QueuePolicy::fifo_perf, 100.0);
      sc.workload.push_back(v100_class({{0, 1, 1, 0}}));
      return sc;
    }());
    // V100 reference at speed 3, K80 at 1: 3x longer on the K80, 1x on the V100
    CHECK(cs.slowdown[0] == 3.0);
    CHECK(cs.slowdown[1] == 1.0);
    // capacity-weighted mean speed of one K80 (1/3) and one V100 (1): 2/3
    CHECK(cs.classes[0].mean_speed == doctest::Approx(2.0 / 3.0).epsilon(1e-12));
  }

  SUBCASE("the offered load counts each pool's GPUs at the class's speed there") {
    const CompiledScenario cs = compile([] {
      Scenario sc = k80_v100(QueuePolicy::fifo_perf, 86400.0);
      JobClass c = test::mm_class(1.0 / 900, 600.0);
      c.reference_gpu = builtin_catalog().find_gpu("V100-16GB");
      c.gpu_speeds = {{builtin_catalog().find_gpu("K80"), 1.0},
                      {builtin_catalog().find_gpu("V100-16GB"), 3.0}};
      sc.workload.push_back(c);
      return sc;
    }());
    // 2/3 of a V100 busy on average, against one V100 plus one K80 at a third of its speed
    // (4/3 V100s): 0.5 (an arithmetic mean of the slowdowns, 2, would say 2/3)
    CHECK(cs.offered_load == doctest::Approx(0.5).epsilon(1e-12));
  }
}

TEST_CASE("sim::type_aware::fifo_perf") {
  // A (t0, 6 s on a V100), B (t1, 3 s), C (t2, 3 s); a K80 runs them 3x slower.
  const std::vector<TraceRow> rows = {{0, 6, 1, 0}, {1, 3, 1, 0}, {2, 3, 1, 0}};

  SUBCASE("type-oblivious FIFO takes the lowest-indexed free GPU, here the slow K80") {
    Scenario sc = k80_v100(QueuePolicy::fifo, 1000.0);
    sc.workload.push_back(v100_class(rows));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    // A on the K80 (pool 0): 0 + 3 x 6 = 18
    CHECK(o.jobs[0].pool_idx == 0);
    CHECK(o.jobs[0].finish_s == 18);
    // B on the V100: 1 + 3 = 4; C waits for it: 4 + 3 = 7
    CHECK(o.jobs[1].finish_s == 4);
    CHECK(o.jobs[2].start_s == 4);
    CHECK(o.jobs[2].finish_s == 7);
  }

  SUBCASE("fifo_perf takes the fastest type with room, else the next fastest, else waits") {
    Scenario sc = k80_v100(QueuePolicy::fifo_perf, 1000.0);
    sc.workload.push_back(v100_class(rows));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    // A on the V100 (pool 1): 0 + 6 = 6
    CHECK(o.jobs[0].pool_idx == 1);
    CHECK(o.jobs[0].finish_s == 6);
    // B finds the V100 busy and takes the K80 at 1. When A frees the V100 at 6, B, older than
    // the queued C, moves there with the 5/3 s of V100 work its 5 s on the K80 did (a free
    // checkpoint at the move): 6 + 3 - 5/3 = 22/3
    CHECK(o.jobs[1].pool_idx == 1);
    CHECK(o.jobs[1].start_s == 1);
    CHECK(o.jobs[1].finish_s == doctest::Approx(22.0 / 3).epsilon(1e-12));
    // C takes the K80 B left at 6, and moves to the V100 when B ends: 22/3 + 3 - (4/3) / 3
    CHECK(o.jobs[2].pool_idx == 1);
    CHECK(o.jobs[2].start_s == 6);
    CHECK(o.jobs[2].finish_s == doctest::Approx(22.0 / 3 + 3 - 4.0 / 9).epsilon(1e-12));
  }

  SUBCASE("fifo_perf moves the oldest running job, and only one the queue's head is younger than") {
    // A (t0, 6 s) and B (t1, 6 s) fill the V100 and the K80; C (t2, 1 s) waits. At 6 A ends:
    // B, older than C, takes the V100; C takes the K80 B left.
    Scenario sc = k80_v100(QueuePolicy::fifo_perf, 1000.0);
    sc.workload.push_back(v100_class({{0, 6, 1, 0}, {1, 6, 1, 0}, {2, 1, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[1].pool_idx == 1);
    CHECK(o.jobs[1].finish_s == doctest::Approx(6 + 6 - 5.0 / 3).epsilon(1e-12));
    CHECK(o.jobs[2].start_s == 6);
    // C's 1 s on the K80 takes 3 s and ends before B frees the V100: it never moves
    CHECK(o.jobs[2].pool_idx == 0);
    CHECK(o.jobs[2].finish_s == 9);
    // A class that does not checkpoint would lose B's 5 s on the K80: B stays (1 + 18 = 19)
    sc.workload.back().econ.checkpoints = false;
    const Outcome kept = run(sc);
    CHECK(kept.jobs[1].pool_idx == 0);
    CHECK(kept.jobs[1].finish_s == doctest::Approx(19).epsilon(1e-12));
    sc.workload.back().econ.checkpoints = true;
    // Under plain FIFO nothing moves: A stays on the K80, the lowest-indexed GPU, though the
    // V100 frees at 7 and 8 (0 + 3 x 6 = 18)
    sc.scheduler.queue = QueuePolicy::fifo;
    const Outcome f = run(sc);
    CHECK(f.jobs[0].pool_idx == 0);
    CHECK(f.jobs[0].finish_s == 18);
  }

  SUBCASE("with every speed equal, fifo_perf is plain FIFO exactly") {
    const CompiledScenario a = compile(random_mix(QueuePolicy::fifo, 1.0, 1.0));
    const CompiledScenario b = compile(random_mix(QueuePolicy::fifo_perf, 1.0, 1.0));
    McOptions o;
    o.replications = 4;
    o.threads = 1;
    const McStudy fa = run_monte_carlo(a.view(), o), fb = run_monte_carlo(b.view(), o);
    REQUIRE(fa.replicas.size() == fb.replicas.size());
    for (std::size_t k = 0; k < fa.replicas.size(); ++k) {
      CAPTURE(k);
      // hundreds of jobs each, with queueing (so placement choices matter)
      CHECK(fa.replicas[k].metrics.jobs_completed > 100);
      CHECK(metric_row(a.view(), fa.replicas[k].metrics) ==
            metric_row(b.view(), fb.replicas[k].metrics));
    }
  }
}

namespace {

//! One V100 under max-min fairness with 100 s rounds: A (t0, 150 s) and B (t50, 150 s), whose
//! checkpoints come every 1,000 s (none inside a run here), take `write_s`, and reload at once.
Outcome two_jobs_100s_rounds(double write_s) {
  Scenario sc;
  sc.name = "test";
  sc.seed = 42;
  sc.horizon_s = 1000.0;
  add_pool(sc, "v100", "V100-16GB", 1, 1);
  sc.scheduler.queue = QueuePolicy::max_min_fairness_perf;
  sc.scheduler.round_s = 100;
  JobClass c = v100_class({{0, 150, 1, 0}, {50, 150, 1, 0}});
  c.econ.interval_s = 1000.0;
  c.econ.checkpoint_s = write_s;
  sc.workload.push_back(c);
  return run(sc);
}

}  // namespace

TEST_CASE("sim::type_aware::max_min_fairness_perf") {
  SUBCASE("at a round end the least-served job moves to the faster type, the other yields it") {
    // Round 2 s. A (t0, 3 s on a V100) takes the V100, B (t0, 2 s) the K80. Normalized rates:
    // mean speed 2/3, so 1.5 on the V100 and 0.5 on the K80. At t = 2: A has 3, B has 1, so B
    // takes the V100 (both are preempted, keeping their checkpointed work: A 2 s of its 3, B 2/3
    // of its 2) and A goes to the K80. B ends at 2 + 4/3. At t = 4 (round end) A, 1/3 short of
    // done on the K80, moves to the free V100 and ends at 4 + 1/3.
    Scenario sc = k80_v100(QueuePolicy::max_min_fairness_perf, 1000.0);
    sc.scheduler.round_s = 2;
    sc.workload.push_back(v100_class({{0, 3, 1, 0}, {0, 2, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[1].finish_s == doctest::Approx(2 + 4.0 / 3).epsilon(1e-12));
    CHECK(o.jobs[0].finish_s == doctest::Approx(4 + 1.0 / 3).epsilon(1e-12));
    CHECK(o.jobs[0].pool_idx == 1);
    // A at 2, B at 2, A again at 4
    CHECK(o.metrics.classes[0].scheduler_preemptions == 3);
  }

  SUBCASE("a job preempted at its round end saves then and loses only the write") {
    // One V100, 100 s rounds, checkpoints every 1,000 s (none inside a run here) that take 5 s,
    // no reload. A (t0, 150 s) runs; B (t50, 150 s) waits for the round end at 100, where it has
    // less service (0 < 100) and takes the GPU; A, told by its round end, computed until 95 and
    // wrote its checkpoint until 100: 55 s are left. At 200 both have held the GPU 100 s, a tie,
    // so B keeps it and ends at 250; A ends at 250 + 55. (Stopped without a save, A would have
    // lost all 100 s and ended at 400.)
    const Outcome o = two_jobs_100s_rounds(5.0);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[1].finish_s == doctest::Approx(250).epsilon(1e-12));
    CHECK(o.jobs[0].finish_s == doctest::Approx(305).epsilon(1e-12));
    // A at 100 only
    CHECK(o.metrics.classes[0].scheduler_preemptions == 1);
  }

  SUBCASE("a write that costs nothing saves at the round end too") {
    // As above with free checkpoints: A computed until 100 and saved then, so 50 s are left and
    // it ends at 250 + 50. (A free write used to count as no warning at all: A lost its 100 s
    // and ended at 400, so rounds shorter than the checkpoint interval lost work every round.)
    const Outcome o = two_jobs_100s_rounds(0.0);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[1].finish_s == doctest::Approx(250).epsilon(1e-12));
    CHECK(o.jobs[0].finish_s == doctest::Approx(300).epsilon(1e-12));
  }

  // "k80_ok" runs 2.7/3 = 0.9 as fast on a K80 as on a V100, "steady" a third as fast; each job
  // is 300 s of V100 work. Mean work speeds (equal work): K80 (1/3 + 0.9) / 2 = 0.62, V100 1, so
  // k80_ok is relatively fast on the K80 (0.9 against 0.62) and steady on the V100. Fill speeds
  // (the harmonic means): K80 2 / (3 + 1/0.9) = 0.49, V100 1, so the V100 is filled first.
  Scenario sc = k80_v100(QueuePolicy::max_min_fairness_perf, 10000.0);
  sc.scheduler.round_s = 1000;
  JobClass k80_ok = v100_class({{0, 300, 1, 0}});
  k80_ok.name = "k80_ok";
  k80_ok.gpu_speeds = {{builtin_catalog().find_gpu("K80"), 2.7},
                       {builtin_catalog().find_gpu("V100-16GB"), 3.0}};
  JobClass steady = v100_class({{0, 300, 1, 0}});
  steady.name = "steady";
  const auto pool_and_end = [](const Outcome& o, uint32_t cls, uint32_t k = 0) {
    std::vector<std::pair<uint32_t, double>> got;
    for (const auto& j : o.jobs)
      if (j.class_idx == cls) got.emplace_back(j.pool_idx, j.finish_s);
    std::sort(got.begin(), got.end(),
              [](const auto& a, const auto& b) { return a.second < b.second; });
    return got.at(k);
  };
  SUBCASE("while no job waits, each takes the pool that gets through the work fastest") {
    // Two jobs, two free GPUs: k80_ok, first, takes the V100 though it is relatively fast on
    // the K80 (as Gavel's rounds hand out V100s first) and ends at 300 s; steady takes the K80
    // and ends at 900 s.
    sc.workload.push_back(k80_ok);
    sc.workload.push_back(steady);
    const CompiledScenario cs = compile(sc);
    CHECK(cs.pools[0].mean_work_speed == doctest::Approx((1.0 / 3 + 0.9) / 2).epsilon(1e-12));
    CHECK(cs.pools[1].mean_work_speed == doctest::Approx(1.0).epsilon(1e-12));
    CHECK(cs.pools[0].fill_speed == doctest::Approx(2 / (3 + 1 / 0.9)).epsilon(1e-12));
    CHECK(cs.pools[1].fill_speed == doctest::Approx(1.0).epsilon(1e-12));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 2);
    CHECK(pool_and_end(o, 0) == std::make_pair(1u, 300.0));
    CHECK(pool_and_end(o, 1).first == 0);
    CHECK(pool_and_end(o, 1).second == doctest::Approx(900).epsilon(1e-9));
  }
  SUBCASE("a job alone stays on the faster type at its round ends, relatively fast elsewhere") {
    // k80_ok alone, 10 s rounds: it prefers the K80 by comparative advantage, but a move goes
    // only to a type it runs faster on, so it keeps the V100 and ends at 300 s, never stopped.
    sc.scheduler.round_s = 10;
    sc.workload.push_back(k80_ok);
    sc.workload.push_back(v100_class({}));  // steady's speeds, no jobs: the same pool speeds
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 1);
    CHECK(pool_and_end(o, 0) == std::make_pair(1u, 300.0));
    CHECK(o.metrics.classes[0].scheduler_preemptions == 0);
  }
  SUBCASE("when a job waits, each starts where it is fast compared with the other work") {
    // Three jobs, two GPUs: k80_ok takes the K80 (its comparative advantage) and ends at
    // 300 / 0.9 = 333.3 s, the first steady the V100 (300 s); the second steady waits for it
    // and ends at 600 s. (By fill order k80_ok would have held the V100 and the steadies
    // shared the K80's third.)
    sc.workload.push_back(k80_ok);
    steady.trace_rows = {{0, 300, 1, 0}, {0, 300, 1, 0}};
    sc.workload.push_back(steady);
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    CHECK(pool_and_end(o, 0).first == 0);
    CHECK(pool_and_end(o, 0).second == doctest::Approx(300 / 0.9).epsilon(1e-9));
    CHECK(pool_and_end(o, 1, 0) == std::make_pair(1u, 300.0));
    CHECK(pool_and_end(o, 1, 1) == std::make_pair(1u, 600.0));
  }
  SUBCASE("when jobs wait, a free type goes to a waiting job that prefers it, not an earlier one") {
    // The same three jobs, the steadies submitted first: the first steady takes the V100; the
    // second prefers the V100 too, which is full, and outranks no one (equal service), so it
    // waits and the K80 goes to k80_ok behind it (333.3 s); the second steady takes the V100 at
    // 300 s and ends at 600 s. (Taking the first free type in rank order, the second steady held
    // the K80 at a third of its speed until 900 s and k80_ok waited for the V100 until 600 s.)
    steady.trace_rows = {{0, 300, 1, 0}, {0, 300, 1, 0}};
    sc.workload.push_back(steady);
    sc.workload.push_back(k80_ok);
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    CHECK(pool_and_end(o, 0, 0) == std::make_pair(1u, 300.0));
    CHECK(pool_and_end(o, 0, 1) == std::make_pair(1u, 600.0));
    CHECK(pool_and_end(o, 1).first == 0);
    CHECK(pool_and_end(o, 1).second == doctest::Approx(300 / 0.9).epsilon(1e-9));
  }
  SUBCASE("when no waiting job prefers the free type, the next one in rank order takes it") {
    // Three steadies alone (k80_ok has no jobs, so no weight in the pools' mean work speeds):
    // each pool is as good as the other by comparative advantage, so the steadies prefer the
    // faster, the V100. The first takes it; the K80 is not left idle for want of a job that
    // prefers it: the second steady takes it (900 s), the third the V100 at 300 s (600 s).
    steady.trace_rows = {{0, 300, 1, 0}, {0, 300, 1, 0}, {0, 300, 1, 0}};
    sc.workload.push_back(steady);
    k80_ok.trace_rows = {};
    sc.workload.push_back(k80_ok);
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    CHECK(pool_and_end(o, 0, 0) == std::make_pair(1u, 300.0));
    CHECK(pool_and_end(o, 0, 1) == std::make_pair(1u, 600.0));
    CHECK(pool_and_end(o, 0, 2).first == 0);
    CHECK(pool_and_end(o, 0, 2).second == doctest::Approx(900).epsilon(1e-9));
  }
  SUBCASE("fifo_perf gives the first job its fastest type, the V100") {
    // steady waits on the K80 with a third of its speed until 300 s, then moves with 100 s of
    // work done: 300 + 200 = 500 s
    sc.workload.push_back(k80_ok);
    sc.workload.push_back(steady);
    sc.scheduler.queue = QueuePolicy::fifo_perf;
    const Outcome fifo = run(sc);
    REQUIRE(fifo.jobs.size() == 2);
    CHECK(pool_and_end(fifo, 0) == std::make_pair(1u, 300.0));
    CHECK(pool_and_end(fifo, 1).second == doctest::Approx(500).epsilon(1e-9));
  }

  SUBCASE("two identical jobs get equal normalized throughput on a K80 + V100 cluster") {
    // 600 s of V100 work each; together 1,200 s at 1 + 1/3 per second: both end near 900 s,
    // alternating on the V100 round by round (10 s rounds).
    const std::vector<TraceRow> rows = {{0, 600, 1, 0}, {0, 600, 1, 0}};
    Scenario sc = k80_v100(QueuePolicy::max_min_fairness_perf, 10000.0);
    sc.scheduler.round_s = 10;
    sc.workload.push_back(v100_class(rows));
    const Outcome fair = run(sc);
    REQUIRE(fair.jobs.size() == 2);
    // JCTs within 3 % of each other (a round is 1 % of the run)
    CHECK(std::abs(fair.jobs[0].finish_s - fair.jobs[1].finish_s) <
          0.03 * std::max(fair.jobs[0].finish_s, fair.jobs[1].finish_s));
    // the last one ends when the total work is done at full speed: about 900 s
    CHECK(std::max(fair.jobs[0].finish_s, fair.jobs[1].finish_s) ==
          doctest::Approx(900).epsilon(0.02));
    // fifo_perf, by contrast, gives one the V100 (600 s) and the other the K80 until the V100
    // frees, then moves it there with the 200 s of V100 work done: 600 + 400 = 1,000 s
    sc.scheduler.queue = QueuePolicy::fifo_perf;
    const Outcome fifo = run(sc);
    CHECK(fifo.jobs[0].finish_s == 600);
    CHECK(fifo.jobs[1].finish_s == doctest::Approx(1000).epsilon(1e-12));
  }

  SUBCASE("thread counts and batch sizes give bit-identical replicas") {
    const CompiledScenario cs = compile(random_mix(QueuePolicy::max_min_fairness_perf, 0.3, 1.0));
    const ModelView m = cs.view();
    const auto study = [&](uint32_t threads, uint32_t batch) {
      McOptions o;
      o.replications = 6;
      o.threads = threads;
      o.batch = batch;
      return run_monte_carlo(m, o);
    };
    const McStudy one = study(1, 6);
    // the policy preempts in replica 0 and the replica does not saturate
    CHECK(one.replicas[0].metrics.classes[0].scheduler_preemptions > 0);
    CHECK_FALSE(one.replicas[0].metrics.saturated());
    for (const McStudy& other : {study(2, 6), study(3, 2)}) {
      REQUIRE(other.replicas.size() == one.replicas.size());
      for (std::size_t k = 0; k < one.replicas.size(); ++k) {
        CAPTURE(k);
        CHECK(metric_row(m, other.replicas[k].metrics) == metric_row(m, one.replicas[k].metrics));
      }
    }
  }
}
