//! Hand-checked schedules: exact start and finish times of a few multi-GPU jobs.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! Runs trace rows (submit, duration, gpus) on 2 nodes x 4 GPUs; returns records in trace order.
std::vector<JobRecord> run_trace(const std::vector<TraceRow>& rows, QueuePolicy policy) {
  Scenario sc = test::one_pool(2, 4, 100.0);
  sc.scheduler.queue = policy;
  JobClass c;
  c.name = "trace";
  c.trace = TraceFormat{};
  c.trace_rows = rows;
  sc.workload.push_back(c);
  const CompiledScenario cs = compile(sc);
  std::vector<JobRecord> out;
  run_single(cs.view(),
             [&out](const JobRecord* r, std::size_t n) { out.insert(out.end(), r, r + n); });
  std::sort(out.begin(), out.end(),
            [](const JobRecord& a, const JobRecord& b) { return a.job_idx < b.job_idx; });
  return out;
}

}  // namespace

TEST_CASE("sim::schedule::hand_checked") {
  // J1 (t0, 4 GPUs, 10 s), J2 (t0, 2 GPUs, 5 s), J3 (t1, 8 GPUs = two whole nodes, 3 s),
  // J4 (t2, 2 GPUs, 4 s) on two 4-GPU nodes.
  const std::vector<TraceRow> rows = {{0, 10, 4}, {0, 5, 2}, {1, 3, 8}, {2, 4, 2}};

  SUBCASE("strict FIFO: the gang blocks the small job behind it") {
    const auto r = run_trace(rows, QueuePolicy::fifo);
    REQUIRE(r.size() == 4);
    // J1 best-fits node 0 (tie: lowest index); J2 goes to node 1, the only one with room
    CHECK(r[0].start_s == 0);
    CHECK(r[0].finish_s == 10);
    CHECK(r[1].start_s == 0);
    CHECK(r[1].finish_s == 5);
    // J3 needs both nodes whole: only after J1 leaves node 0 at t = 10
    CHECK(r[2].start_s == 10);
    CHECK(r[2].finish_s == 13);
    // J4 waits behind J3 (strict FIFO) although node 1 had 2 free GPUs from t = 2
    CHECK(r[3].start_s == 13);
    CHECK(r[3].finish_s == 17);
  }

  SUBCASE("backfill lets the small job use the free GPUs at once") {
    const auto r = run_trace(rows, QueuePolicy::backfill);
    REQUIRE(r.size() == 4);
    // J4 fits in node 1's two free GPUs at t = 2
    CHECK(r[3].start_s == 2);
    CHECK(r[3].finish_s == 6);
    // J3 still starts when node 0 frees at t = 10 (node 1 is whole again from t = 6)
    CHECK(r[2].start_s == 10);
  }

  SUBCASE("a release and an arrival at the same instant: the release is seen first") {
    // J1 holds all 8 GPUs until t = 5; J2 (8 GPUs) arrives exactly at t = 5 and starts then
    const auto r = run_trace({{0, 5, 8}, {5, 1, 8}}, QueuePolicy::fifo);
    REQUIRE(r.size() == 2);
    CHECK(r[1].start_s == 5);
    CHECK(r[1].finish_s == 6);
  }

  SUBCASE("best fit packs small jobs onto the fuller node") {
    // J1 takes 3 GPUs of node 0; J2 (1 GPU) fits node 0's last GPU (fewest free), not node 1
    const auto r = run_trace({{0, 10, 3}, {1, 10, 1}, {2, 10, 4}}, QueuePolicy::fifo);
    REQUIRE(r.size() == 3);
    // J3 needs a whole 4-GPU node: node 1 is still empty, so it starts at once
    CHECK(r[2].start_s == 2);
  }
}

TEST_CASE("sim::determinism") {
  Scenario sc = test::one_pool(8, 8, 5e4, 1e3);
  JobClass c = test::mm_class(0.05, 600);
  c.gpus.values = {1, 2, 4, 8};
  c.gpus.probs = {0.7, 0.1, 0.15, 0.05};
  sc.workload.push_back(c);
  const CompiledScenario cs = compile(sc);

  SUBCASE("the same scenario and seed give identical metrics and records") {
    std::vector<double> finish_a, finish_b;
    const SingleRun a = run_single(cs.view(), [&](const JobRecord* r, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i) finish_a.push_back(r[i].finish_s);
    });
    const SingleRun b = run_single(cs.view(), [&](const JobRecord* r, std::size_t n) {
      for (std::size_t i = 0; i < n; ++i) finish_b.push_back(r[i].finish_s);
    });
    REQUIRE(!finish_a.empty());
    CHECK(a.metrics.wait_s.mean == b.metrics.wait_s.mean);
    CHECK(a.metrics.jct_s.p99 == b.metrics.jct_s.p99);
    CHECK(a.metrics.cost_usd == b.metrics.cost_usd);
    CHECK(finish_a == finish_b);
  }

  SUBCASE("another replica index gives another random job stream") {
    const SingleRun a = run_single(cs.view(), {}, 0);
    const SingleRun b = run_single(cs.view(), {}, 1);
    CHECK(a.metrics.jobs_submitted != b.metrics.jobs_submitted);
  }
}

TEST_CASE("sim::saturation") {
  SUBCASE("an overloaded cluster stops and is flagged saturated") {
    // offered load 2.0: 16 jobs/s of 1 s on 8 GPUs; the queue passes 64 slots quickly
    Scenario sc = test::one_pool(8, 1, 1e4);
    sc.workload.push_back(test::mm_class(16, 1));
    sc.limits.max_active_jobs = 64;
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    CHECK(r.metrics.saturated());
    CHECK(r.metrics.saturation == SaturationCause::queue_overflow);
    CHECK(r.metrics.saturated_at_s < 100);
  }
}
