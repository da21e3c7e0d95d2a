//! Core engine speed: M/M/64 against a bare std::priority_queue loop on the same model, the same
//! M/M/64 under every queue policy, and the scale target (one simulated year of 4,096 GPUs under
//! a Philly-like mix, with FIFO and with 2D-LAS).
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "models/compile/compile.h"
#include "sim/single_run.h"
#include "tools/bench/engine_bench.h"
#include "tools/bench/mm_bare_loop.h"

namespace {

using namespace gpuplan;
using bench::cluster;

//! M/M/64, lambda = 60/s, mu = 1/s, 10^5 simulated seconds (about 12 M events).
void bm_core_mm64(benchmark::State& state) {
  Scenario sc = cluster(64, 1, 1e5);
  sc.workload.push_back(bench::one_gpu_jobs(60));
  const CompiledScenario cs = compile(sc);
  const ModelView v = cs.view();
  bench::time_single_runs(state, v);
  state.SetLabel("engine, cpu, 1 thread");
}
BENCHMARK(bm_core_mm64)->Unit(benchmark::kMillisecond);

//! bm_core_mm64 under queue policy range(0) (0 fifo, 1 backfill, 2 sjf, 3 srtf, 4 las): the cost
//! of a ranked queue against FIFO's events/s. Jobs keep their work when preempted (a free
//! checkpoint every 10 ms: SRTF as queueing theory's SRPT), 5,000 s: SRTF preempts about four
//! times per job at this load, and without checkpoints it would thrash (docs/performance.md).
void bm_core_mm64_policy(benchmark::State& state) {
  Scenario sc = cluster(64, 1, 5e3);
  sc.workload.push_back(bench::one_gpu_jobs(60));
  ClassEconomics& e = sc.workload[0].econ;
  e.checkpoints = true;
  e.interval_s = 0.01;
  e.checkpoint_s = 0;
  e.restart_s = 0;
  sc.scheduler.queue = static_cast<QueuePolicy>(state.range(0));
  const CompiledScenario cs = compile(sc);
  bench::time_single_runs(state, cs.view());
  static const char* const NAMES[] = {"fifo", "backfill", "sjf", "srtf", "las"};
  state.SetLabel(std::string("engine, cpu, 1 thread, ") + NAMES[state.range(0)]);
}
BENCHMARK(bm_core_mm64_policy)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

//! The same M/M/64 as a minimal hand-written loop: std::priority_queue, std::mt19937_64, a deque.
void bm_core_mm64_bare_priority_queue(benchmark::State& state) {
  uint64_t events = 0;
  for (auto _ : state) {
    const bench::BareLoopResult r = bench::run_bare_mmc(60.0, 1.0, 64, 1e5);
    events = r.events;
    benchmark::DoNotOptimize(r.wait_sum_s);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * events));
  state.SetLabel("bare loop, cpu, 1 thread");
}
BENCHMARK(bm_core_mm64_bare_priority_queue)->Unit(benchmark::kMillisecond);

//! One simulated year of 512 nodes x 8 GPUs under a Philly-like mix at ~70% load (~2 M jobs).
Scenario philly_year() {
  Scenario sc = cluster(512, 8, 365 * 86400.0);
  JobClass c;
  c.name = "philly";
  // Philly's GPU-count shares (shared/data/README.md: 76,627 / 1,818 / 1,870 / 1,643 / 199 / 67 /
  // 23 larger of 82,247), the largest folded into 64.
  c.gpus.values = {1, 2, 4, 8, 16, 32, 64};
  c.gpus.probs = {0.93166, 0.02210, 0.02274, 0.01998, 0.00242, 0.00081, 0.00029};
  // Philly's duration median 1,144 s and mean 13,136 s: lognormal sigma = sqrt(2 ln(13136/1144)).
  c.duration.kind = DistKind::lognormal;
  c.duration.a = std::log(1144.0);
  c.duration.b = std::sqrt(2 * std::log(13136.0 / 1144.0));
  c.rate_per_s = 0.7 * 4096 / (c.gpus.mean() * 13136.0);
  sc.workload.push_back(c);
  sc.limits.max_active_jobs = 1u << 18;
  return sc;
}

//! Times single runs of the year `sc` and reports events/s and jobs.
void time_year(benchmark::State& state, const Scenario& sc) {
  const CompiledScenario cs = compile(sc);
  const ModelView v = cs.view();
  uint64_t events = 0, jobs = 0;
  for (auto _ : state) {
    const SingleRun r = run_single(v, 0);
    events = r.metrics.events;
    jobs = r.metrics.jobs_submitted;
    benchmark::DoNotOptimize(r.metrics.gpu_utilization);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * events));
  state.counters["jobs"] = double(jobs);
}

//! The scale target: one simulated year of 4,096 GPUs (~5 M jobs).
void bm_core_year_4096_gpus(benchmark::State& state) {
  time_year(state, philly_year());
  state.SetLabel("engine, cpu, 1 thread, 1 simulated year");
}
BENCHMARK(bm_core_year_4096_gpus)->Unit(benchmark::kMillisecond)->Iterations(3);

//! The same year with hardware failures at the Llama 3 rates (docs/failures.md), a 4 h repair
//! and 8 spare nodes: failure clocks, repairs and every run's checkpoint bookkeeping.
void bm_core_year_4096_gpus_failures(benchmark::State& state) {
  Scenario sc = philly_year();
  sc.pools[0].count += 8;
  sc.pools[0].spares = 8;
  FailureConfig f;
  f.table = "llama3";
  f.causes = llama3_failure_table();
  f.repair = DelaySpec{DistKind::exponential, DEFAULT_REPAIR_MEAN_S, 0, {}, {}};
  sc.failures = f;
  time_year(state, sc);
  state.SetLabel("engine, cpu, 1 thread, 1 simulated year, Llama 3 failures");
}
BENCHMARK(bm_core_year_4096_gpus_failures)->Unit(benchmark::kMillisecond)->Iterations(3);

//! The same year under Tiresias 2D-LAS (thresholds 1 and 10 GPU-hours, promote knob 8) with
//! 30-min checkpoints: preemptions between queues through the spot path.
void bm_core_year_4096_gpus_las(benchmark::State& state) {
  Scenario sc = philly_year();
  sc.scheduler.queue = QueuePolicy::las;
  sc.scheduler.las_thresholds_gpu_s = {3600.0, 36000.0};
  sc.scheduler.las_promote_knob = 8;
  ClassEconomics& e = sc.workload[0].econ;
  e.checkpoints = true;
  e.interval_s = 1800;
  e.checkpoint_s = 30;
  e.restart_s = 60;
  time_year(state, sc);
  state.SetLabel("engine, cpu, 1 thread, 1 simulated year, las");
}
BENCHMARK(bm_core_year_4096_gpus_las)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
