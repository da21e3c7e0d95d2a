//! Team quotas with Kueue semantics (docs/teams.md): hand-checked schedules with exact start,
//! finish and reclaim times for borrowing, lending and borrowing limits and reclaim; the
//! property that a team at or under its quota never loses a job to borrowers; one team holding
//! the whole cluster changes nothing; thread counts change nothing.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/engine.h"
#include "sim/mc_metrics.h"
#include "sim/mc_run.h"
#include "sim/replica_buffers.h"
#include "sim/single_run.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! A trace class `name` of team `team` with rows (submit, duration, gpus) whose preempted runs
//! keep all their work at whole seconds (a free checkpoint every second, no reload).
JobClass team_class(const char* name, uint32_t team, const std::vector<TraceRow>& rows) {
  JobClass c;
  c.name = name;
  c.team_name = "t" + std::to_string(team);
  c.team = team;
  c.trace = TraceFormat{};
  c.trace_rows = rows;
  c.econ.checkpoints = true;
  c.econ.interval_s = 1.0;
  return c;
}

//! A team with `nominal` A100-80GB GPUs in cohort "org" (or none when `cohort` is false).
Team team(const char* name, uint32_t nominal, std::optional<uint32_t> borrowing = {},
          std::optional<uint32_t> lending = {}, bool cohort = true) {
  Team t;
  t.name = name;
  t.cohort = cohort ? "org" : "";
  t.quota.push_back(TeamFlavorQuota{"A100-80GB", nominal, borrowing, lending});
  return t;
}

using test::Outcome;
using test::run;

//! One 4-GPU node shared by teams t0 and t1 (nominal 2 each, cohort "org") under backfill.
Scenario two_teams(Team a, Team b) {
  Scenario sc = test::one_pool(1, 4, 1000.0);
  sc.scheduler.queue = QueuePolicy::backfill;
  sc.teams = {std::move(a), std::move(b)};
  return sc;
}

}  // namespace

TEST_CASE("sim::team_quota::borrowing") {
  SUBCASE("a team borrows its idle peer's quota and pays it back in GPU-hours borrowed") {
    Scenario sc = two_teams(team("t0", 2), team("t1", 2));
    sc.workload.push_back(team_class("a", 0, {{0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}}));
    sc.workload.push_back(team_class("b", 1, {{50, 1, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 4);
    // all three of t0's jobs start at once: the third borrows one of t1's idle GPUs
    CHECK(o.jobs[2].start_s == 0);
    CHECK(o.jobs[2].finish_s == 10);
    REQUIRE(o.metrics.teams.size() == 2);
    // one GPU above its nominal 2 for 10 s
    CHECK(o.metrics.teams[0].gpu_hours_borrowed == doctest::Approx(10.0 / 3600));
    // 3 GPUs for 10 s
    CHECK(o.metrics.teams[0].gpu_hours_used == doctest::Approx(30.0 / 3600));
    CHECK(o.metrics.teams[1].gpu_hours_borrowed == 0);
    // chargeback by used GPU-hours: 30 of 31 GPU-seconds
    CHECK(o.metrics.teams[0].cost_share == doctest::Approx(30.0 / 31));
  }

  SUBCASE("a lending limit of 0 keeps a team's idle quota from its peers") {
    Scenario sc = two_teams(team("t0", 2, {}, 0u), team("t1", 2));
    sc.workload.push_back(team_class("a", 0, {{50, 1, 1, 0}}));
    sc.workload.push_back(team_class("b", 1, {{0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 4);
    // t1's third job may not borrow t0's GPUs (lendable 0): it starts when t1's first finish
    CHECK(o.jobs[3].start_s == 10);
    CHECK(o.jobs[3].finish_s == 20);
  }

  SUBCASE("a borrowing limit caps how far above its quota a team goes") {
    Scenario sc = two_teams(team("t0", 2, 1u), team("t1", 2));
    sc.workload.push_back(
        team_class("a", 0, {{0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}}));
    sc.workload.push_back(team_class("b", 1, {{50, 1, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 5);
    // 2 + 1 GPUs at t = 0; the fourth job waits for a finish at t = 10 although a GPU is idle
    CHECK(o.jobs[2].start_s == 0);
    CHECK(o.jobs[3].start_s == 10);
  }

  SUBCASE("a team without a cohort neither borrows nor lends") {
    Scenario sc = two_teams(team("t0", 2, {}, {}, false), team("t1", 2));
    sc.workload.push_back(team_class("a", 0, {{0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}}));
    sc.workload.push_back(team_class("b", 1, {{50, 1, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 4);
    // the third job waits for t0's own quota at t = 10
    CHECK(o.jobs[2].start_s == 10);
  }

  SUBCASE("under strict fifo a job over its team's quota does not block other teams") {
    Scenario sc = two_teams(team("t0", 1, {}, {}, false), team("t1", 2));
    sc.scheduler.queue = QueuePolicy::fifo;
    sc.workload.push_back(team_class("a", 0, {{0, 10, 1, 0}, {0, 10, 1, 0}}));
    sc.workload.push_back(team_class("b", 1, {{1, 5, 1, 0}}));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    // t0's second job waits for t0's quota (t = 10); t1's job behind it starts at once
    CHECK(o.jobs[1].start_s == 10);
    CHECK(o.jobs[2].start_s == 1);
  }
}

TEST_CASE("sim::team_quota::reclaim") {
  // t0 fills the 4-GPU node at t = 0 (two GPUs borrowed from t1); t1 submits one 1-GPU job of
  // 5 s at t = 2.
  const std::vector<TraceRow> a_rows = {{0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}, {0, 10, 1, 0}};
  const std::vector<TraceRow> b_rows = {{2, 5, 1, 0}};

  SUBCASE("a team under its quota preempts the borrower's latest job at once") {
    Scenario sc = two_teams(team("t0", 2), team("t1", 2));
    sc.workload.push_back(team_class("a", 0, a_rows));
    sc.workload.push_back(team_class("b", 1, b_rows));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 5);
    // t1's job reclaims a GPU at t = 2 and runs 2-7
    CHECK(o.jobs[4].start_s == 2);
    CHECK(o.jobs[4].finish_s == 7);
    // the victim is t0's latest job (all started at 0: the latest submission, index 3); it kept
    // 2 s of checkpointed work and cannot borrow again while t1 holds 1 and t0 3 of the cohort's
    // 4 lendable GPUs: it restarts when t1's job ends at 7 and needs 8 s more: 15
    CHECK(o.jobs[3].start_s == 0);
    CHECK(o.jobs[3].finish_s == 15);
    CHECK(o.jobs[2].finish_s == 10);
    // one reclaim, suffered by t0
    CHECK(o.metrics.teams[0].reclaim_preemptions == 1);
    CHECK(o.metrics.teams[1].reclaim_preemptions == 0);
    CHECK(o.metrics.classes[0].preemptions == 1);
  }

  SUBCASE("with reclaim never the owner waits for the borrowers to finish") {
    Scenario sc = two_teams(team("t0", 2), team("t1", 2));
    sc.scheduler.reclaim = ReclaimPolicy::never;
    sc.workload.push_back(team_class("a", 0, a_rows));
    sc.workload.push_back(team_class("b", 1, b_rows));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 5);
    // t1's job starts when t0's jobs end at 10
    CHECK(o.jobs[4].start_s == 10);
    CHECK(o.metrics.teams[0].reclaim_preemptions == 0);
  }

  SUBCASE("lower_priority reclaim spares a borrower's job of equal or higher priority") {
    Scenario sc = two_teams(team("t0", 2), team("t1", 2));
    sc.scheduler.reclaim = ReclaimPolicy::lower_priority;
    sc.workload.push_back(team_class("a", 0, a_rows));
    sc.workload.push_back(team_class("b", 1, b_rows));
    const Outcome same = run(sc);
    // equal priorities: no reclaim, t1 waits to 10
    CHECK(same.jobs[4].start_s == 10);
    sc.workload[1].priority = 1;
    const Outcome higher = run(sc);
    // a higher-priority owner reclaims at 2
    CHECK(higher.jobs[4].start_s == 2);
  }

  SUBCASE("a job that would put its own team above its quota does not reclaim") {
    Scenario sc = two_teams(team("t0", 2), team("t1", 2));
    sc.workload.push_back(team_class("a", 0, a_rows));
    sc.workload.push_back(team_class("b", 1, {{2, 5, 3, 0}}));  // 3 GPUs > t1's nominal 2
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 5);
    // no reclaim: t1's 3-GPU job starts when the node frees at 10
    CHECK(o.jobs[4].start_s == 10);
    CHECK(o.metrics.teams[0].reclaim_preemptions == 0);
  }

  SUBCASE("a team at its quota is not preempted by a borrowing team's higher priority") {
    Scenario sc = two_teams(team("t0", 2), team("t1", 2));
    // t0 holds its quota (2 GPUs), t1 its quota plus nothing idle to borrow
    sc.workload.push_back(team_class("a", 0, {{0, 10, 2, 0}}));
    sc.workload.push_back(team_class("b", 1, {{0, 10, 2, 0}, {1, 5, 1, 0}}));
    sc.workload[1].priority = 5;
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    // t1's second job would borrow; t0 is within its quota, so it waits for t = 10
    CHECK(o.jobs[0].finish_s == 10);
    CHECK(o.jobs[2].start_s == 10);
    CHECK(o.metrics.classes[0].preemptions == 0);
  }
}

namespace {

//! Three teams of Poisson classes (1 to 8 GPUs) on one 32-GPU node at ~90 % load, with quotas
//! that make them borrow from each other; reclaim on. NOTE: one node, so every reclaim chooses
//! among all of a team's jobs (worst first: the latest started), which the property test relies on.
Scenario busy_teams(uint64_t seed) {
  Scenario sc = test::one_pool(1, 32, 3 * 86400.0, 0);
  sc.seed = seed;
  sc.scheduler.queue = QueuePolicy::backfill;
  sc.teams = {team("t0", 16), team("t1", 8, 8u), team("t2", 8, {}, 4u)};
  const double loads[] = {10, 12, 7};  // busy GPUs each team offers
  for (uint32_t k = 0; k < 3; ++k) {
    JobClass c;
    c.name = "c" + std::to_string(k);
    c.team_name = "t" + std::to_string(k);
    c.team = k;
    c.gpus.values = {1, 2, 4, 8};
    c.gpus.probs = {0.5, 0.2, 0.2, 0.1};
    c.duration.kind = DistKind::exponential;
    c.duration.a = 3600;
    c.rate_per_s = loads[k] / (2.5 * 3600);
    c.econ.checkpoints = true;
    c.econ.interval_s = 600;
    sc.workload.push_back(c);
  }
  sc.limits.max_active_jobs = 4096;
  sc.limits.time_bins = 24;
  return sc;
}

}  // namespace

TEST_CASE("sim::team_quota::properties") {
  SUBCASE("a team at or under its nominal quota never loses a job to reclaim") {
    uint64_t reclaims = 0;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
      const Scenario sc = busy_teams(seed);
      const CompiledScenario cs = compile(sc);
      const ModelView m = cs.view();
      ReplicaBuffers buf(m, 0);
      ReplicaState& s = buf.state;
      init_replica(m, s, 0);
      std::vector<uint32_t> usage(3), phase(m.max_active_jobs), job(m.max_active_jobs);
      bool ok = true;
      for (;;) {
        for (uint32_t k = 0; k < 3; ++k) usage[k] = s.teams.usage[k];
        for (uint32_t i = 0; i < m.max_active_jobs; ++i) {
          phase[i] = uint32_t(s.jobs[i].phase);
          job[i] = s.jobs[i].class_idx * 1000000 + s.jobs[i].job_idx;
        }
        if (!step(m, s)) break;
        // NOTE: all priorities are equal and there is one node, so a reclaim takes a team's
        // latest-started jobs first: a job running before this instant goes only if its team
        // was borrowing before it (finishes at this instant only lower a team's usage).
        for (uint32_t i = 0; i < m.max_active_jobs; ++i) {
          const bool was_running = phase[i] == uint32_t(JobPhase::running);
          // NOTE: the same job (a finished job's slot may hold a new arrival), queued again
          const bool requeued = s.jobs[i].phase == JobPhase::queued &&
                                s.jobs[i].class_idx * 1000000 + s.jobs[i].job_idx == job[i];
          if (!was_running || !requeued) continue;
          const uint32_t k = m.teams.class_team[s.jobs[i].class_idx];
          ++reclaims;
          ok &= usage[k] > m.teams.quotas[k].nominal;
        }
      }
      CAPTURE(seed);
      CHECK(ok);
    }
    // the workload does reclaim: borrowers lose jobs in these runs
    CHECK(reclaims > 0);
  }

  SUBCASE("one team whose quota is the whole cluster changes no result") {
    // NOTE: with teams the ranked scan does not remember failed make_room calls per class
    // (sim/core/queue_policy.h, scan_queue), so at 1.5x the load SJF also checks that this
    // shortcut is exact. (Preemptive policies differ with teams by design: between teams only
    // quota reclaim preempts.)
    for (const double load : {1.0, 1.5})
      for (QueuePolicy q : {QueuePolicy::fifo, QueuePolicy::backfill, QueuePolicy::sjf}) {
        Scenario plain = busy_teams(3);
        plain.scheduler.queue = q;
        plain.teams.clear();
        for (JobClass& c : plain.workload) c.team_name.clear();
        Scenario one = busy_teams(3);
        one.scheduler.queue = q;
        for (Scenario* sc : {&plain, &one})
          for (JobClass& c : sc->workload) c.rate_per_s *= load;
        one.teams = {team("all", 32)};
        for (JobClass& c : one.workload) c.team = 0;
        const Outcome a = run(plain), b = run(one);
        CAPTURE(int(q));
        CAPTURE(load);
        CHECK(a.metrics.events == b.metrics.events);
        // the same jobs, started and finished at the same instants
        REQUIRE(a.jobs.size() == b.jobs.size());
        bool same = true;
        for (std::size_t i = 0; i < a.jobs.size(); ++i)
          same &=
              a.jobs[i].start_s == b.jobs[i].start_s && a.jobs[i].finish_s == b.jobs[i].finish_s;
        CHECK(same);
        CHECK(a.metrics.wait_s.p90 == b.metrics.wait_s.p90);
        CHECK(a.metrics.gpu_utilization == b.metrics.gpu_utilization);
        // the team used every busy GPU-hour and was charged the whole cost
        CHECK(b.metrics.teams[0].cost_share == 1.0);
      }
  }

  SUBCASE("team results are bit-identical across thread counts and batch sizes") {
    const Scenario sc = busy_teams(5);
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    McOptions one;
    one.replications = 8;
    one.threads = 1;
    one.batch = 8;
    McOptions four = one;
    four.threads = 4;
    four.batch = 3;
    const McStudy a = run_monte_carlo(m, one), b = run_monte_carlo(m, four);
    REQUIRE(a.replicas.size() == b.replicas.size());
    for (std::size_t k = 0; k < a.replicas.size(); ++k) {
      CAPTURE(k);
      CHECK(metric_row(m, a.replicas[k].metrics) == metric_row(m, b.replicas[k].metrics));
      CHECK(a.replicas[k].team_gpus == b.replicas[k].team_gpus);
    }
  }
}
