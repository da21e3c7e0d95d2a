//! Ranked queue policies (SJF, SRTF, 2D-LAS, class priorities): hand-checked schedules with exact
//! start, finish and preemption times, and SJF against the M/G/1 shortest-job-first formula.
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

//! A trace class `name` of rows (submit, duration, gpus) whose preempted runs keep all their
//! work at whole seconds (a free checkpoint every second) and reload in `restart_s`.
JobClass ranked_class(const char* name, const std::vector<TraceRow>& rows, double restart_s = 0) {
  JobClass c;
  c.name = name;
  c.trace = TraceFormat{};
  c.trace_rows = rows;
  c.econ.checkpoints = true;
  c.econ.interval_s = 1.0;
  c.econ.checkpoint_s = 0.0;
  c.econ.restart_s = restart_s;
  return c;
}

using test::Outcome;
using test::run;

//! One 1-GPU node running the given rows under `policy`.
Outcome one_gpu(QueuePolicy policy, const std::vector<TraceRow>& rows, double restart_s = 0,
                bool checkpoints = true) {
  Scenario sc = test::one_pool(1, 1, 1000.0);
  sc.scheduler.queue = policy;
  sc.workload.push_back(ranked_class("jobs", rows, restart_s));
  sc.workload.back().econ.checkpoints = checkpoints;
  return run(sc);
}

}  // namespace

TEST_CASE("sim::queue_policy::sjf") {
  // A (t0, 10 s) holds the GPU; B (t1, 5 s), C (t2, 2 s), D (t3, 4 s) wait for it.
  const std::vector<TraceRow> rows = {{0, 10, 1, 0}, {1, 5, 1, 0}, {2, 2, 1, 0}, {3, 4, 1, 0}};

  SUBCASE("FIFO serves the waiting jobs in submission order") {
    const Outcome o = one_gpu(QueuePolicy::fifo, rows);
    REQUIRE(o.jobs.size() == 4);
    // B 10-15, C 15-17, D 17-21
    CHECK(o.jobs[1].start_s == 10);
    CHECK(o.jobs[2].start_s == 15);
    CHECK(o.jobs[3].start_s == 17);
  }

  SUBCASE("SJF serves the shortest declared duration first and never preempts") {
    const Outcome o = one_gpu(QueuePolicy::sjf, rows);
    REQUIRE(o.jobs.size() == 4);
    // A runs alone to 10 although shorter jobs arrive (non-preemptive)
    CHECK(o.jobs[0].finish_s == 10);
    // then C (2 s) 10-12, D (4 s) 12-16, B (5 s) 16-21
    CHECK(o.jobs[2].start_s == 10);
    CHECK(o.jobs[3].start_s == 12);
    CHECK(o.jobs[1].start_s == 16);
    CHECK(o.jobs[1].finish_s == 21);
    // no policy preemption at all
    CHECK(o.metrics.classes[0].scheduler_preemptions == 0);
  }

  SUBCASE("an estimate error reorders jobs but draws no other random number") {
    Scenario sc = test::one_pool(1, 1, 20000.0);
    sc.scheduler.queue = QueuePolicy::sjf;
    sc.workload.push_back(test::mm_class(1.0 / 12, 10.0));
    const Outcome exact = run(sc);
    sc.scheduler.estimate_sigma = 1.0;
    const Outcome noisy = run(sc);
    // about 1,650 jobs finish in each run
    REQUIRE(exact.jobs.size() > 1000);
    // a job (same arrival index) has the same submit time in both runs; some start elsewhere
    std::size_t common = 0;
    bool same_submits = true, some_order_differs = false;
    for (const JobRecord& a : exact.jobs) {
      for (const JobRecord& b : noisy.jobs) {
        if (b.job_idx != a.job_idx) continue;
        ++common;
        same_submits &= a.submit_s == b.submit_s;
        some_order_differs |= a.start_s != b.start_s;
      }
    }
    CHECK(common > 1000);
    CHECK(same_submits);
    CHECK(some_order_differs);
  }
}

TEST_CASE("sim::queue_policy::srtf") {
  SUBCASE("a shorter arrival preempts; the victim keeps its checkpointed work") {
    // A (t0, 10 s); B (t2, 3 s): A has 8 s left > 3, so B preempts it at t = 2 and runs 2-5;
    // C (t6, 4 s): A has 7 s left > 4, so C preempts it at t = 6 and runs 6-10; A resumes at 10
    // with 7 s left and ends at 17.
    const Outcome o = one_gpu(QueuePolicy::srtf, {{0, 10, 1, 0}, {2, 3, 1, 0}, {6, 4, 1, 0}});
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[0].start_s == 0);
    CHECK(o.jobs[0].finish_s == 17);
    CHECK(o.jobs[1].start_s == 2);
    CHECK(o.jobs[1].finish_s == 5);
    CHECK(o.jobs[2].start_s == 6);
    CHECK(o.jobs[2].finish_s == 10);
    // two preemptions, both by the scheduler
    CHECK(o.metrics.classes[0].preemptions == 2);
    CHECK(o.metrics.classes[0].scheduler_preemptions == 2);
  }

  SUBCASE("a preempted job pays its restart, and the policy counts run time, reload included") {
    // restart 1 s: A resumes at 5 (reload 5-6) and is preempted again at 6 by C (A's declared
    // remaining 10 - 3 = 7 > 4) with nothing new computed; it resumes at 10 with 8 s of work and
    // a 1 s reload: 10 + 1 + 8 = 19.
    const Outcome o = one_gpu(QueuePolicy::srtf, {{0, 10, 1, 0}, {2, 3, 1, 0}, {6, 4, 1, 0}}, 1.0);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[0].finish_s == 19);
    CHECK(o.jobs[2].finish_s == 10);
  }

  SUBCASE("without checkpoints a preempted job starts over") {
    // A loses its 2 s at t = 2 and runs its full 10 s again from 5: ends at 15
    const Outcome o = one_gpu(QueuePolicy::srtf, {{0, 10, 1, 0}, {2, 3, 1, 0}}, 0, false);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[0].finish_s == 15);
  }

  SUBCASE("an equal remaining time does not preempt") {
    // A has 3 s left at t = 2, B needs 3 s: no strict gain, B waits until 5
    const Outcome o = one_gpu(QueuePolicy::srtf, {{0, 5, 1, 0}, {2, 3, 1, 0}});
    CHECK(o.jobs[1].start_s == 5);
  }
}

TEST_CASE("sim::queue_policy::las") {
  // One GPU, one threshold at 2 GPU-s: a job drops to the lower queue after 2 s of run time.
  const auto las = [](const std::vector<TraceRow>& rows, double knob) {
    Scenario sc = test::one_pool(1, 1, 1000.0);
    sc.scheduler.queue = QueuePolicy::las;
    sc.scheduler.las_thresholds_gpu_s = {2.0};
    sc.scheduler.las_promote_knob = knob;
    sc.workload.push_back(ranked_class("jobs", rows));
    return run(sc);
  };

  SUBCASE("a demotion at its exact instant lets the top queue preempt; FIFO inside a queue") {
    // A (t0, 6 s), B (t1, 3 s): both in the top queue at t = 1, so B waits (FIFO inside a queue);
    // A reaches 2 GPU-s at t = 2, drops a queue and B preempts it: B runs 2-5 (it drops too at 4,
    // but A is in the same queue now, so no preemption back); A resumes at 5 with 4 s left: 9.
    const Outcome o = las({{0, 6, 1, 0}, {1, 3, 1, 0}}, 0);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[1].start_s == 2);
    CHECK(o.jobs[1].finish_s == 5);
    CHECK(o.jobs[0].finish_s == 9);
    CHECK(o.metrics.classes[0].scheduler_preemptions == 1);
  }

  SUBCASE("a job that ends before its next threshold schedules no review") {
    // A (t0, 1.5 s) ends before it attains 2 GPU-s: the run has its arrival and its finish only,
    // and no review wakes the scheduler after the end (one used to, at t = 2)
    const Outcome o = las({{0, 1.5, 1, 0}}, 0);
    REQUIRE(o.jobs.size() == 1);
    CHECK(o.jobs[0].finish_s == 1.5);
    // 2 events: the arrival and the finish
    CHECK(o.metrics.events == 2);
  }

  SUBCASE("without a starvation guard a long job in the lower queue keeps the GPU") {
    // A (t0, 10 s), B (t1, 10 s): B preempts A at 2, drops at 4 and, alone in running, keeps
    // the GPU to 12 (same queue as A); A resumes at 12 with 8 s left: 20.
    const Outcome o = las({{0, 10, 1, 0}, {1, 10, 1, 0}}, 0);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[1].finish_s == 12);
    CHECK(o.jobs[0].finish_s == 20);
  }

  SUBCASE("the starvation guard promotes a job that waited its knob times its run time") {
    // knob 1: A waits from 2 after running 2 s, so at 4 it returns to the top queue and preempts
    // B (just demoted); they alternate every 2 s: A runs 0-2, 4-6, 8-10, 12-14, 16-18 (ends 18),
    // B runs 2-4, 6-8, 10-12, 14-16, 18-20 (ends 20).
    const Outcome o = las({{0, 10, 1, 0}, {1, 10, 1, 0}}, 1.0);
    REQUIRE(o.jobs.size() == 2);
    CHECK(o.jobs[0].finish_s == 18);
    CHECK(o.jobs[1].start_s == 2);
    CHECK(o.jobs[1].finish_s == 20);
    // A is preempted at 2, 6, 10, 14; B at 4, 8, 12, 16
    CHECK(o.metrics.classes[0].scheduler_preemptions == 8);
  }
}

TEST_CASE("sim::queue_policy::priority") {
  // One 4-GPU node; "research" (priority 0) and "production" (priority 10).
  const auto mixed = [](const std::vector<TraceRow>& research, const std::vector<TraceRow>& prod,
                        bool preemption) {
    Scenario sc = test::one_pool(1, 4, 1000.0);
    sc.scheduler.priority_preemption = preemption;
    sc.workload.push_back(ranked_class("research", research));
    sc.workload.push_back(ranked_class("production", prod));
    sc.workload.back().priority = 10;
    return run(sc);
  };
  const std::vector<TraceRow> research = {{0, 10, 2, 0}, {1, 10, 2, 0}};
  const std::vector<TraceRow> prod = {{2, 3, 2, 0}};

  SUBCASE("a production job preempts the research job that started last") {
    // R1 (t0) and R2 (t1) fill the node; P (t2, 2 GPUs) preempts R2 (same priority as R1, later
    // start) at 2 and runs 2-5; R2 resumes at 5 with 9 s left (ends 14); R1 is untouched (10).
    const Outcome o = mixed(research, prod, true);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[0].finish_s == 10);
    CHECK(o.jobs[1].finish_s == 14);
    CHECK(o.jobs[2].start_s == 2);
    CHECK(o.jobs[2].finish_s == 5);
    // per class: research suffered one preemption, production none
    CHECK(o.metrics.classes[0].scheduler_preemptions == 1);
    CHECK(o.metrics.classes[1].scheduler_preemptions == 0);
  }

  SUBCASE("without priority preemption the production job only jumps the queue") {
    // P waits for the first release (R1 at 10) and runs 10-13; a later research job would wait
    // behind it
    const Outcome o = mixed(research, prod, false);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[2].start_s == 10);
    CHECK(o.metrics.classes[0].scheduler_preemptions == 0);
  }

  SUBCASE("a waiting production job starts before an earlier research job") {
    // the node is full until 10; R3 (t2) and P (t3) both wait: P takes the 2 GPUs R1 frees at 10
    // (runs 10-13), R3 the 2 GPUs R2 frees at 11.
    const Outcome o = mixed({{0, 10, 2, 0}, {1, 10, 2, 0}, {2, 5, 2, 0}}, {{3, 3, 2, 0}}, false);
    REQUIRE(o.jobs.size() == 4);
    CHECK(o.jobs[3].start_s == 10);
    CHECK(o.jobs[2].start_s == 11);
  }
}

TEST_CASE("sim::queue_policy::preemption_grace") {
  // One 4-GPU node: R1 (t0, 10 s, 2 GPUs) and R2 (t1, 2 GPUs) of "research" fill it; P (t2, 3 s,
  // 2 GPUs, priority 10) preempts R2 (the later start). Research checkpoints only at the end of
  // a grace (interval 1000 s), a write takes 1 s; no reload.
  const auto graced = [](double grace_s, double r2_work_s, bool checkpoints, double write_s = 1.0) {
    Scenario sc = test::one_pool(1, 4, 1000.0);
    sc.scheduler.preemption_grace_s = grace_s;
    sc.workload.push_back(ranked_class("research", {{0, 10, 2, 0}, {1, r2_work_s, 2, 0}}));
    sc.workload.back().econ.checkpoints = checkpoints;
    sc.workload.back().econ.interval_s = 1000.0;
    sc.workload.back().econ.checkpoint_s = write_s;
    sc.workload.push_back(ranked_class("production", {{2, 3, 2, 0}}));
    sc.workload.back().priority = 10;
    return run(sc);
  };

  SUBCASE("a victim runs through its grace and saves a checkpoint in its last write time") {
    // grace 2 s: R2 keeps its GPUs until 4, computes 1-3 and writes 3-4, so 8 s are left; P
    // starts at 4 and ends at 7; R2 resumes at 7 and ends at 15; R1 is untouched (10).
    const Outcome o = graced(2.0, 10.0, true);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[0].finish_s == 10);
    CHECK(o.jobs[1].start_s == 1);
    CHECK(o.jobs[1].finish_s == 15);
    CHECK(o.jobs[2].start_s == 4);
    CHECK(o.jobs[2].finish_s == 7);
    // one preemption, counted when R2 is stopped
    CHECK(o.metrics.classes[0].scheduler_preemptions == 1);
    CHECK(o.metrics.classes[1].scheduler_preemptions == 0);
  }

  SUBCASE("a write that costs nothing saves at the end of the grace too") {
    // grace 2 s, free writes: R2 computes 1-4 and saves then, so 7 s are left; P runs 4-7 and
    // R2 again 7-14. (A free write used to count as no checkpoint: R2 lost 1-4 and ended at 17.)
    const Outcome o = graced(2.0, 10.0, true, 0.0);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[2].start_s == 4);
    CHECK(o.jobs[1].finish_s == 14);
  }

  SUBCASE("a grace shorter than the write time saves nothing") {
    // grace 0.5 s < 1 s write: R2 stops at 2.5 with no checkpoint and 10 s left; P runs
    // 2.5-5.5; R2 runs again 5.5-15.5
    const Outcome o = graced(0.5, 10.0, true);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[2].start_s == 2.5);
    CHECK(o.jobs[2].finish_s == 5.5);
    CHECK(o.jobs[1].finish_s == 15.5);
  }

  SUBCASE("a victim without checkpoints loses the whole run at the end of its grace") {
    // R2 runs 1-4, loses it, and runs its 10 s again from 7 (after P, 4-7): ends at 17
    const Outcome o = graced(2.0, 10.0, false);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[2].start_s == 4);
    CHECK(o.jobs[1].finish_s == 17);
  }

  SUBCASE("a victim that ends within its grace just finishes and is not counted") {
    // R2 (2.5 s of work) ends at 3.5, before its grace ends at 4; P starts then and ends at 6.5
    const Outcome o = graced(2.0, 2.5, true);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[1].finish_s == 3.5);
    CHECK(o.jobs[2].start_s == 3.5);
    CHECK(o.jobs[2].finish_s == 6.5);
    // no run was stopped
    CHECK(o.metrics.classes[0].scheduler_preemptions == 0);
  }

  SUBCASE("no grace stops the victim at once") {
    // grace 0: P starts at 2; R2 loses its 1 s (no checkpoint written) and runs 5-15
    const Outcome o = graced(0.0, 10.0, true);
    REQUIRE(o.jobs.size() == 3);
    CHECK(o.jobs[2].start_s == 2);
    CHECK(o.jobs[1].finish_s == 15);
  }
}

TEST_CASE("sim::queue_policy::work_conserving") {
  SUBCASE("with one team and no priorities every work-conserving policy has the same utilization") {
    // One 4-GPU node, 1- and 2-GPU jobs at whole seconds with whole-second durations, all done
    // long before the horizon: backfill, SJF, SRTF, LAS and fair share never leave a GPU idle
    // while a job that fits waits, and every preemption falls on a whole second, where the
    // free 1 s checkpoints keep all work. So each policy's busy GPU-time is the trace's work,
    // 2 x (6 + 3 + 5) + 1 x (4 + 7 + 2 + 8) = 49 GPU-s.
    const std::vector<TraceRow> rows = {{0, 6, 2, 0}, {0, 4, 1, 0}, {1, 7, 1, 0}, {1, 3, 2, 0},
                                        {2, 2, 1, 0}, {3, 5, 2, 0}, {5, 8, 1, 0}};
    std::vector<double> busy;
    for (QueuePolicy q : {QueuePolicy::backfill, QueuePolicy::sjf, QueuePolicy::srtf,
                          QueuePolicy::las, QueuePolicy::fair_share}) {
      Scenario sc = test::one_pool(1, 4, 100.0);
      sc.scheduler.queue = q;
      sc.scheduler.las_thresholds_gpu_s = {4.0};
      sc.workload.push_back(ranked_class("jobs", rows));
      if (q == QueuePolicy::fair_share) {
        Team t;
        t.name = "all";
        t.quota.push_back(TeamFlavorQuota{"A100-80GB", 4, {}, {}});
        sc.teams.push_back(t);
        sc.workload.back().team_name = "all";
        sc.workload.back().team = 0;
      }
      const Outcome o = run(sc);
      REQUIRE(o.jobs.size() == rows.size());
      busy.push_back(o.metrics.gpu_utilization * 4 * 100.0);
    }
    // 49 GPU-s of 400 under every policy
    for (double b : busy) CHECK(b == doctest::Approx(49.0).epsilon(1e-12));
  }
}

TEST_CASE("sim::queue_policy::common_random_numbers") {
  SUBCASE("every policy sees the same jobs: submit times and sizes do not move") {
    // 2 x 8 GPUs, a Poisson mix of 1- to 8-GPU jobs over 2 days: what `sweep --vary
    // scheduler.policy=...` compares at one seed. A job (by arrival index) that finishes under
    // two policies has one submit time and size under both; only its start and finish differ.
    const auto jobs = [](QueuePolicy q) {
      Scenario sc = test::one_pool(2, 8, 2 * 86400.0);
      sc.scheduler.queue = q;
      JobClass c = test::mm_class(1.0 / 600, 3000.0);
      c.gpus.values = {1, 2, 4, 8};
      c.gpus.probs = {0.6, 0.2, 0.1, 0.1};
      c.econ.checkpoints = true;
      c.econ.interval_s = 600;
      sc.workload.push_back(c);
      return run(sc).jobs;
    };
    const std::vector<JobRecord> fifo = jobs(QueuePolicy::fifo);
    for (QueuePolicy q : {QueuePolicy::backfill, QueuePolicy::sjf, QueuePolicy::las}) {
      const std::vector<JobRecord> other = jobs(q);
      std::size_t common = 0;
      for (const JobRecord& a : fifo) {
        const auto b = std::find_if(other.begin(), other.end(),
                                    [&](const JobRecord& x) { return x.job_idx == a.job_idx; });
        if (b == other.end()) continue;
        ++common;
        CAPTURE(a.job_idx);
        CHECK(b->submit_s == a.submit_s);
        CHECK(b->gpus == a.gpus);
      }
      // about 288 arrivals in 2 days; most finish under both policies
      CHECK(common > 150);
    }
  }
}

TEST_CASE("sim::queue_policy::mg1_sjf") {
  // One GPU, Poisson arrivals at rate 0.7/s, exponential 1 s jobs: FIFO's mean wait is
  // rho/(1-rho) E[S^2]/(2 E[S]) = 2.333 s; non-preemptive SJF by service time (Kleinrock,
  // Queueing Systems II, 3.47) waits W(x) = W0 / (1 - rho(x))^2 for a job of size x, with
  // W0 = lambda E[S^2]/2 and rho(x) = lambda * integral_0^x t f(t) dt.
  const double lambda = 0.7;
  const double w0 = lambda * 2.0 / 2.0;
  double sjf_formula = 0;
  for (double x = 0.0005; x < 40; x += 0.001) {
    const double rho_x = lambda * (1 - std::exp(-x) * (1 + x));
    sjf_formula += w0 / ((1 - rho_x) * (1 - rho_x)) * std::exp(-x) * 0.001;
  }
  const auto mean_wait = [&](QueuePolicy q) {
    Scenario sc = test::one_pool(1, 1, 400000.0, 10000.0);
    sc.scheduler.queue = q;
    sc.workload.push_back(test::mm_class(lambda, 1.0));
    return run(sc).metrics.wait_s.mean;
  };
  const double fifo = mean_wait(QueuePolicy::fifo), sjf = mean_wait(QueuePolicy::sjf);
  // the formula's value for these parameters: about 1.31 s (FIFO's 2.33 s minus 44 %)
  CHECK(sjf_formula == doctest::Approx(1.312).epsilon(0.01));
  // SJF never waits longer on average than FIFO on the same arrivals
  CHECK(sjf <= fifo);
  // FIFO within 5 % of Pollaczek-Khinchine (about 270,000 jobs)
  CHECK(fifo == doctest::Approx(7.0 / 3.0).epsilon(0.05));
  // SJF within 5 % of Kleinrock's formula
  CHECK(sjf == doctest::Approx(sjf_formula).epsilon(0.05));
}

TEST_CASE("sim::queue_policy::invariance") {
  // 4 nodes x 8 GPUs, a Philly-like mix at ~80 % load in two priority classes, under 2D-LAS with
  // a starvation guard and estimate errors: preemption by queue and by priority in every replica.
  Scenario sc = test::one_pool(4, 8, 3 * 86400.0, 86400.0);
  JobClass mix;
  mix.name = "mix";
  mix.gpus.values = {1, 2, 4, 8, 16};
  mix.gpus.probs = {0.65, 0.1, 0.15, 0.05, 0.05};
  mix.duration.kind = DistKind::lognormal;
  mix.duration.a = std::log(1140.0);
  mix.duration.b = 1.8;
  mix.rate_per_s = 0.8 * 32 / (2.65 * 1140.0 * std::exp(0.5 * 1.8 * 1.8));
  mix.econ.checkpoints = true;
  mix.econ.interval_s = 600;
  mix.econ.checkpoint_s = 10;
  mix.econ.restart_s = 30;
  sc.workload.push_back(mix);
  sc.workload.push_back(test::mm_class(1.0 / 900, 1800.0));
  sc.workload.back().name = "urgent";
  sc.workload.back().priority = 5;
  sc.scheduler.queue = QueuePolicy::las;
  sc.scheduler.las_thresholds_gpu_s = {3600.0, 36000.0};
  sc.scheduler.las_promote_knob = 4;
  sc.limits.max_active_jobs = 4096;
  sc.limits.time_bins = 24;
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  const auto study = [&](uint32_t threads, uint32_t batch) {
    McOptions o;
    o.replications = 8;
    o.threads = threads;
    o.batch = batch;
    return run_monte_carlo(m, o);
  };
  const McStudy one = study(1, 8);

  SUBCASE("the replicas preempt and do not saturate") {
    // scheduler preemptions happen in replica 0 (both classes are ranked and can be victims)
    const ReplicaMetrics& r = one.replicas[0].metrics;
    CAPTURE(std::string(saturation_name(r.saturation)));
    CAPTURE(r.saturated_at_s);
    CHECK(r.classes[0].scheduler_preemptions > 0);
    CHECK_FALSE(r.saturated());
  }

  SUBCASE("thread counts and batch sizes give bit-identical replicas") {
    for (const McStudy& other : {study(2, 8), study(2, 3), study(3, 1)}) {
      REQUIRE(other.replicas.size() == one.replicas.size());
      for (std::size_t k = 0; k < one.replicas.size(); ++k) {
        CAPTURE(k);
        CHECK(metric_row(m, other.replicas[k].metrics) == metric_row(m, one.replicas[k].metrics));
        CHECK(other.replicas[k].busy_gpus == one.replicas[k].busy_gpus);
      }
    }
  }
}
