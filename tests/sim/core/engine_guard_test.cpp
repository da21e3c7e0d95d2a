//! The engine's guards against run-aways: an event time that is not a number or lies before the
//! clock stops the replica with its cause instead of spinning, and the bounded backfill scan
//! starts what the full scan started.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "models/compile/compile.h"
#include "sim/core/engine.h"
#include "sim/replica_buffers.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

// Steps a replica at most `max_steps` times; returns how many steps reported "go on".
int steps_taken(const ModelView& m, ReplicaState& s, int max_steps) {
  int n = 0;
  while (n < max_steps && step(m, s)) ++n;
  return n;
}

}  // namespace

TEST_CASE("sim::core::engine::guards") {
  const Scenario sc = [] {
    Scenario x = test::one_pool(4, 1, 3600);
    x.workload.push_back(test::mm_class(1.0 / 60, 30));
    return x;
  }();
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  ReplicaBuffers buffers(m, 0);
  ReplicaState& s = buffers.state;
  init_replica(m, s, 0);

  SUBCASE("a NaN event time stops the replica as bad_event_time instead of spinning") {
    REQUIRE(schedule_event(s.events, std::nan(""), EventKind::job_arrival, 0, 0));
    // Before the guard, step() returned true forever without moving the clock.
    CHECK(steps_taken(m, s, 1000) < 1000);
    CHECK(s.totals.saturation == SaturationCause::bad_event_time);
  }
  SUBCASE("a negative event time stops the replica as bad_event_time, wherever it sorts") {
    // The calendar orders times by their bits, where a negative time sorts after every other;
    // it is flagged when scheduled instead.
    REQUIRE(schedule_event(s.events, -5.0, EventKind::job_arrival, 0, 0));
    CHECK(steps_taken(m, s, 1000) == 0);
    CHECK(s.totals.saturation == SaturationCause::bad_event_time);
  }
  SUBCASE("an event at -0 is an event at +0, not a bad time") {
    REQUIRE(schedule_event(s.events, -0.0, EventKind::job_arrival, 0, 0));
    CHECK(peek_time(s.events) == 0.0);
    CHECK(!std::signbit(peek_time(s.events)));
    CHECK(steps_taken(m, s, 5) == 5);
    CHECK(s.totals.saturation == SaturationCause::none);
  }
  SUBCASE("an event before the clock stops the replica as bad_event_time") {
    s.now = 100;
    REQUIRE(schedule_event(s.events, 50, EventKind::job_arrival, 0, 0));
    CHECK(steps_taken(m, s, 1000) == 0);
    CHECK(s.totals.saturation == SaturationCause::bad_event_time);
  }
  SUBCASE("an ordinary replica never trips the guard") {
    const SingleRun r = run_single(m);
    CHECK(r.metrics.saturation == SaturationCause::none);
  }
}

TEST_CASE("sim::core::engine::backfill") {
  SUBCASE("an overloaded backfill queue runs in linear time and keeps every job") {
    // 64 one-GPU nodes offered 4x their capacity for a day: ~36.9 k arrivals, ~9.2 k served,
    // so the queue grows to ~27 k jobs, far past BACKFILL_WINDOW.
    Scenario sc = test::one_pool(64, 1, 86400);
    sc.workload.push_back(test::mm_class(4 * 64 / 600.0, 600));
    sc.scheduler.queue = QueuePolicy::backfill;
    sc.limits.max_active_jobs = 1u << 16;
    const CompiledScenario cs = compile(sc);
    const SingleRun r = run_single(cs.view());
    const ReplicaState& s = r.state();
    CHECK(s.totals.saturation == SaturationCause::none);
    // Every arrival is running or queued or done: none lost or duplicated by the compaction.
    uint64_t submitted = s.classes[0].submitted;
    CHECK(s.queue_len + s.running + s.classes[0].completed == submitted);
    // With all jobs the same size the cluster stays full: 64 GPUs busy at the horizon.
    CHECK(s.running == 64);
  }
}
