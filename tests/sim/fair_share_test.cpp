//! Weighted fair share across teams (scheduler.queue "fair_share", docs/scheduling-policies.md):
//! a hand-checked schedule with exact start times, and the long-run split of GPU-hours between
//! saturating teams by their weights.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/mc_metrics.h"
#include "sim/single_run.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! A team of `weight` in cohort "org" with a nominal quota of `nominal` A100-80GB GPUs.
Team weighted_team(const char* name, double weight, uint32_t nominal) {
  Team t;
  t.name = name;
  t.cohort = "org";
  t.weight = weight;
  t.quota.push_back(TeamFlavorQuota{"A100-80GB", nominal, {}, {}});
  return t;
}

//! Class `c` as a class of team `team`.
JobClass of_team(JobClass c, const char* name, uint32_t team) {
  c.name = name;
  c.team_name = "t" + std::to_string(team);
  c.team = team;
  return c;
}

using test::Outcome;
using test::run;

//! Two teams of weights wa and wb on `nodes` x `gpus` GPUs sharing one cohort (nominal half
//! each, borrowing unlimited, so quotas never hold a job back), under fair_share.
Scenario two_teams(uint32_t nodes, uint32_t gpus, double horizon_s, double wa, double wb) {
  Scenario sc = test::one_pool(nodes, gpus, horizon_s);
  sc.scheduler.queue = QueuePolicy::fair_share;
  const uint32_t half = nodes * gpus / 2;
  sc.teams = {weighted_team("t0", wa, half), weighted_team("t1", wb, half)};
  return sc;
}

}  // namespace

TEST_CASE("sim::fair_share") {
  SUBCASE("each start goes to the team with the lowest weighted dominant share") {
    // One 4-GPU node; team 0 (weight 1) and team 1 (weight 3) each submit four 1-GPU, 10 s jobs
    // at t = 0. Shares (GPUs held / 4 / weight): 0 = 0 -> team 0 (lower index) starts A1: 0.25;
    // team 1 at 0 starts B1 (1/12), B2 (2/12), B3 (3/12 = 0.25, below team 0's 0.25 before it:
    // 2/12 < 0.25); the node is full. At 10 all four end and both shares are 0 again: A2 (team
    // 0 first on the tie), B4 (1/12), then only team 0 waits: A3, A4. FIFO would start A1-A4.
    Scenario sc = two_teams(1, 4, 1000.0, 1.0, 3.0);
    sc.workload.push_back(of_team(test::trace_class({0, 0, 0, 0}, 10, 1), "a", 0));
    sc.workload.push_back(of_team(test::trace_class({0, 0, 0, 0}, 10, 1), "b", 1));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 8);
    std::vector<double> starts;
    for (const JobRecord& j : o.jobs) starts.push_back(j.start_s);
    // team 0: A1 at 0, A2-A4 at 10; team 1: B1-B3 at 0, B4 at 10
    CHECK(starts == std::vector<double>{0, 10, 10, 10, 0, 0, 0, 10});
  }

  SUBCASE("a team whose next job does not fit does not hold the others back") {
    // One 4-GPU node; team 1 runs a 3-GPU job 0-10 (share 0.75); team 0 (share 0) asks for all
    // 4 GPUs at t = 1 and cannot fit, so team 1's 1-GPU job (t = 2) takes the free GPU at once;
    // team 0's job starts when the node is empty again at 10.
    Scenario sc = two_teams(1, 4, 1000.0, 1.0, 1.0);
    sc.workload.push_back(of_team(test::trace_class({1}, 5, 4), "a", 0));
    JobClass b = test::trace_class({0}, 10, 3);
    b.trace_rows.push_back(TraceRow{2, 5, 1, 0});
    sc.workload.push_back(of_team(b, "b", 1));
    const Outcome o = run(sc);
    REQUIRE(o.jobs.size() == 3);
    // team 1's second job at its arrival; team 0's job at 10
    CHECK(o.jobs[2].start_s == 2);
    CHECK(o.jobs[0].start_s == 10);
  }

  SUBCASE("saturating teams split the GPU-hours by their weights") {
    // 12 GPUs; each team offers 12 busy GPUs of 1-GPU jobs (100 s mean), twice what half the
    // cluster gives: both queues stay long, so every release goes to the team below its
    // weighted share (12 GPUs split 6:6 and 8:4 exactly).
    const auto split = [](double wa, double wb) {
      Scenario sc = two_teams(3, 4, 20000.0, wa, wb);
      sc.workload.push_back(of_team(test::mm_class(0.12, 100.0), "a", 0));
      sc.workload.push_back(of_team(test::mm_class(0.12, 100.0), "b", 1));
      const Outcome o = run(sc);
      REQUIRE(o.metrics.teams.size() == 2);
      return o.metrics.teams[0].gpu_hours_used / o.metrics.teams[1].gpu_hours_used;
    };
    // equal weights: equal GPU-hours within 2 %
    CHECK(split(1.0, 1.0) == doctest::Approx(1.0).epsilon(0.02));
    // weights 2:1: GPU-hours 2:1 within 3 %
    CHECK(split(2.0, 1.0) == doctest::Approx(2.0).epsilon(0.03));
  }
}
