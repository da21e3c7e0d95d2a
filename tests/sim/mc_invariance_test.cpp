//! Monte Carlo reproducibility: a replica's numbers depend on its index only, never on the
//! thread count or the batch size.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "sim/backends/mc_cpu.h"
#include "sim/mc_metrics.h"
#include "sim/mc_run.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! 4 nodes x 8 GPUs under a Philly-like mix at ~80% load plus an M/M-like 1-GPU class: multi-GPU
//! placement, queueing and two arrival streams in a few thousand events per replica.
Scenario mixed_scenario() {
  Scenario sc = test::one_pool(4, 8, 5 * 86400.0, 86400.0);
  JobClass mix;
  mix.name = "mix";
  mix.gpus.values = {1, 2, 4, 8};
  mix.gpus.probs = {0.7, 0.1, 0.15, 0.05};
  mix.duration.kind = DistKind::lognormal;
  mix.duration.a = std::log(1140.0);  // median 19 min
  mix.duration.b = 1.8;
  // E[gpus] = 1.9, E[duration] = 1140 e^{1.62} s: 60% of 32 GPUs
  mix.rate_per_s = 0.6 * 32 / (1.9 * 1140.0 * std::exp(0.5 * 1.8 * 1.8));
  sc.workload.push_back(mix);
  sc.workload.push_back(test::mm_class(1.0 / 600, 1800.0));  // 3 more busy GPUs on average
  sc.workload.back().name = "small";
  sc.limits.max_active_jobs = 4096;
  sc.limits.time_bins = 48;
  return sc;
}

McStudy study(const ModelView& m, uint32_t n, uint32_t threads, uint32_t batch) {
  McOptions o;
  o.replications = n;
  o.threads = threads;
  o.batch = batch;
  return run_monte_carlo(m, o);
}

//! Every metric and time bin of every replica of `a` equals `b`'s bit for bit.
void require_identical(const ModelView& m, const McStudy& a, const McStudy& b) {
  REQUIRE(a.replicas.size() == b.replicas.size());
  for (std::size_t k = 0; k < a.replicas.size(); ++k) {
    CAPTURE(k);
    const ReplicaOutcome& x = a.replicas[k];
    const ReplicaOutcome& y = b.replicas[k];
    CHECK(metric_row(m, x.metrics) == metric_row(m, y.metrics));
    CHECK(x.busy_gpus == y.busy_gpus);
    CHECK(x.queued_jobs == y.queued_jobs);
    CHECK(x.spend_usd == y.spend_usd);
  }
  CHECK(a.wait_hist_all == b.wait_hist_all);
  CHECK(a.jct_hist_all == b.jct_hist_all);
}

}  // namespace

TEST_CASE("sim::mc::invariance") {
  const Scenario sc = mixed_scenario();
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  constexpr uint32_t N = 16;
  const McStudy reference = study(m, N, 1, N);

  SUBCASE("the replicas are distinct and non-trivial") {
    // each replica submits jobs (4 counted days x (150 + 144) per day ~ 1,200), and replicas
    // differ from each other (independent random streams)
    CHECK(reference.replicas[0].metrics.jobs_submitted > 100);
    CHECK(reference.replicas[0].metrics.wait_s.mean != reference.replicas[1].metrics.wait_s.mean);
    CHECK_FALSE(reference.replicas[0].metrics.saturated());
  }

  SUBCASE("two threads give bit-identical replicas") {
    require_identical(m, reference, study(m, N, 2, N));
  }

  SUBCASE("batches of 1, 7 and N give bit-identical replicas") {
    require_identical(m, reference, study(m, N, 2, 1));
    require_identical(m, reference, study(m, N, 2, 7));
    require_identical(m, reference, study(m, N, 1, 7));
  }

  SUBCASE("replica k of a study equals a lone single run of replica k (without per-job records)") {
    for (uint32_t k : {0u, 5u, 15u}) {
      const SingleRun lone = run_single(m, {}, k);
      CHECK(metric_row(m, lone.metrics) == metric_row(m, reference.replicas[k].metrics));
    }
  }

  SUBCASE("listed replicas, in any order, equal the same replicas of a batch") {
    // (how a device study reruns its saturated replicas on the host)
    CpuBackend host(m, 2);
    const std::vector<uint32_t> listed = {11, 3, 15, 4};
    std::vector<ReplicaOutcome> out(listed.size());
    host.run_listed(listed, out.data());
    for (std::size_t i = 0; i < listed.size(); ++i)
      CHECK(metric_row(m, out[i].metrics) == metric_row(m, reference.replicas[listed[i]].metrics));
  }

  SUBCASE("a study of N replicas is the first N replicas of a larger one") {
    const McStudy larger = study(m, N + 5, 2, 4);
    for (uint32_t k = 0; k < N; ++k)
      CHECK(metric_row(m, larger.replicas[k].metrics) ==
            metric_row(m, reference.replicas[k].metrics));
  }
}

TEST_CASE("sim::mc::elastic_slots_written_only_once_requested") {
  // An elastic pool of 4,096 slots that uses a few dozen: a replica's setup writes only the slots
  // it starts with and those the last replica on its buffers requested (sim/core/node_slots.h).
  // Reused buffers must leave no trace: every replica equals a lone run of it, on any thread and
  // batch count; and a spot elastic pool, whose per-node interruption clocks run on every slot,
  // too.
  for (const bool spot : {false, true}) {
    CAPTURE(spot);
    Scenario sc = mixed_scenario();
    ElasticConfig el;
    el.min_nodes = el.initial_nodes = 1;
    el.max_nodes = 4096;
    el.provisioning_delay = DelaySpec{DistKind::fixed, 300, 0, {}, {}};
    el.idle_timeout_s = 600;
    Pool burst = sc.pools[0];
    burst.name = "burst";
    burst.count = el.max_nodes;
    burst.econ.elastic = el;
    if (spot) {
      burst.pricing = Pricing::spot;
      SpotConfig sp;
      sp.hazard_per_node_hour = 0.2;
      burst.econ.spot = sp;
      for (JobClass& c : sc.workload) c.econ.spot_tolerant = true;
    }
    sc.pools.push_back(burst);
    sc.workload[0].rate_per_s *= 2;  // more than the fixed pool: the burst pool scales out
    const CompiledScenario cs = compile(sc);
    const ModelView m = cs.view();
    constexpr uint32_t N = 8;
    const McStudy one = study(m, N, 1, N);
    double most = 0;
    for (const ReplicaOutcome& o : one.replicas)
      most = std::max(most, o.metrics.pools[1].mean_nodes);
    CHECK(most > 1.5);  // it scaled out, on average, ...
    CHECK(most < 100);  // ... far below its max
    require_identical(m, one, study(m, N, 2, 3));
    for (uint32_t k : {0u, 3u, 7u}) {
      const SingleRun lone = run_single(m, {}, k);
      CHECK(metric_row(m, lone.metrics) == metric_row(m, one.replicas[k].metrics));
    }
  }
}

TEST_CASE("sim::mc::job_slots_beyond_the_peak_change_no_result") {
  // The CUDA backend gives each replica four times the job slots replica 0 used at its peak
  // (sim/mc_run.cpp), and runs again any replica that saturates there: exact only because slots
  // a run never reaches change nothing it computes.
  const CompiledScenario cs = compile(mixed_scenario());
  const ModelView m = cs.view();
  const uint32_t peak = peak_job_slots(m, 0);
  REQUIRE(peak > 8);
  REQUIRE(4 * peak < m.max_active_jobs);
  ModelView tight = m;
  tight.max_active_jobs = 4 * peak;
  const McStudy full = study(m, 16, 2, 8), fewer = study(tight, 16, 2, 8);
  uint32_t compared = 0;
  for (std::size_t k = 0; k < full.replicas.size(); ++k) {
    CAPTURE(k);
    if (fewer.replicas[k].metrics.saturated()) continue;
    ++compared;
    CHECK(metric_row(m, full.replicas[k].metrics) == metric_row(m, fewer.replicas[k].metrics));
    CHECK(full.replicas[k].busy_gpus == fewer.replicas[k].busy_gpus);
  }
  // (without the backend's floor of 1,024 slots a queue burst of one replica may outgrow them)
  CHECK(compared >= full.replicas.size() * 3 / 4);
  // one slot fewer than replica 0's peak saturates it, and the pilot says so
  tight.max_active_jobs = peak - 1;
  CHECK(peak_job_slots(tight, 0) == 0);
}
