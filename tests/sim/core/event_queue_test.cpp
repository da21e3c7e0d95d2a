#include <doctest/doctest.h>

#include <vector>

#include "sim/core/event_queue.h"

using namespace gpuplan;

TEST_CASE("sim::event_queue") {
  std::vector<Event> storage(8);
  EventQueue q{span<Event>{storage.data(), 8}, 0, 0};

  SUBCASE("an empty calendar peeks as never") {
    CHECK(peek_time(q) == NEVER);
  }

  SUBCASE("events at equal time pop in kind order, then in insertion order") {
    REQUIRE(schedule_event(q, 5.0, EventKind::job_arrival, 1, 0));
    REQUIRE(schedule_event(q, 5.0, EventKind::job_finish, 2, 0));
    REQUIRE(schedule_event(q, 1.0, EventKind::job_arrival, 3, 0));
    REQUIRE(schedule_event(q, 5.0, EventKind::job_finish, 4, 0));
    // time first (1.0), then finishes before arrivals at 5.0, finishes in insertion order
    CHECK(pop_event(q).target == 3);
    CHECK(pop_event(q).target == 2);
    CHECK(pop_event(q).target == 4);
    CHECK(pop_event(q).target == 1);
    CHECK(q.n == 0);
  }

  SUBCASE("a full calendar refuses an event and stays unchanged") {
    for (uint32_t i = 0; i < 8; ++i)
      REQUIRE(schedule_event(q, double(8 - i), EventKind::job_arrival, i, 0));
    CHECK_FALSE(schedule_event(q, 0.5, EventKind::job_arrival, 99, 0));
    // the earliest is still the one scheduled at t = 1
    CHECK(pop_event(q).t == 1.0);
  }

  SUBCASE("many random events come out sorted") {
    std::vector<Event> big(1000);
    EventQueue bq{span<Event>{big.data(), 1000}, 0, 0};
    uint64_t x = 12345;
    for (uint32_t i = 0; i < 1000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      REQUIRE(schedule_event(bq, double(x >> 40), EventKind::job_arrival, i, 0));
    }
    double last = -1;
    while (bq.n) {
      const Event e = pop_event(bq);
      CHECK(e.t >= last);
      last = e.t;
    }
  }

  SUBCASE("compacting drops the rejected events and the rest pop in their old order") {
    std::vector<Event> a(500), b(500);
    EventQueue qa{span<Event>{a.data(), 500}, 0, 0}, qb{span<Event>{b.data(), 500}, 0, 0};
    uint64_t x = 777;
    for (uint32_t i = 0; i < 500; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      // few distinct times, so ties are broken by kind and sequence
      const double t = double((x >> 40) % 37);
      const EventKind k = (x >> 20) % 2 ? EventKind::job_finish : EventKind::job_arrival;
      REQUIRE(schedule_event(qa, t, k, i, 0));
      REQUIRE(schedule_event(qb, t, k, i, 0));
    }
    struct OddTargets {
      bool operator()(const Event& e) const { return e.target % 2 == 1; }
    };
    compact_events(qa, OddTargets{});
    // half the targets are odd: 250 kept
    CHECK(qa.n == 250);
    while (qb.n) {
      const Event want = pop_event(qb);
      if (want.target % 2 == 0) continue;
      REQUIRE(qa.n > 0);
      const Event got = pop_event(qa);
      CHECK(got.target == want.target);
      CHECK(got.seq() == want.seq());
    }
    CHECK(qa.n == 0);
  }

  SUBCASE("arrivals kept in class lanes pop in the same order as from the heap alone") {
    std::vector<Event> ha(400), hb(400), lanes(3);
    EventQueue qa{span<Event>{ha.data(), 400}, 0, 0};
    EventQueue qb{span<Event>{hb.data(), 400}, 0, 0, span<Event>{lanes.data(), 3}};
    reset_events(qb);
    uint64_t x = 4242;
    uint32_t popped = 0;
    // one pending arrival per class, as the engine keeps them; integer times force ties between
    // finishes and arrivals, broken by kind and sequence
    for (uint32_t c = 0; c < 3; ++c) {
      REQUIRE(schedule_event(qa, double(c), EventKind::job_arrival, c, 0));
      REQUIRE(schedule_event(qb, double(c), EventKind::job_arrival, c, 0));
    }
    while (popped < 300) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const double t = double((x >> 40) % 16) + popped;
      REQUIRE(schedule_event(qa, t, EventKind::job_finish, popped, 0));
      REQUIRE(schedule_event(qb, t, EventKind::job_finish, popped, 0));
      const Event want = pop_event(qa), got = pop_event(qb);
      CHECK(got.seq() == want.seq());
      CHECK(peek_time(qb) == peek_time(qa));
      if (want.kind() == EventKind::job_arrival) {
        REQUIRE(schedule_event(qa, want.t + 1.0, EventKind::job_arrival, want.target, 0));
        REQUIRE(schedule_event(qb, want.t + 1.0, EventKind::job_arrival, want.target, 0));
      }
      ++popped;
    }
    // the three arrivals live in lanes, so the heap holds only finishes; the total matches
    CHECK(qb.n_lanes == 3);
    CHECK(pending_events(qb) == qa.n);
  }
}
