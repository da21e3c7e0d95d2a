//! Monte Carlo throughput: replicas of a one-month, 1,024-GPU Philly-like cluster per second, on
//! each backend compiled in. Figures and the command line: docs/performance.md, "Monte Carlo".
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include "models/compile/compile.h"
#include "sim/mc_run.h"

namespace {

using namespace gpuplan;

//! 128 nodes x 8 GPUs for 30 days; GPUs per job 1/2/4/8 with p = .7/.1/.15/.05 (Gavel's Philly
//! mix), lognormal durations with median 19 min and p90 5.4 h, Poisson arrivals at ~70% load.
CompiledScenario philly_month(uint32_t max_active_jobs = 1u << 16) {
  Scenario sc;
  sc.name = "philly-month";
  sc.seed = 42;
  sc.horizon_s = 30 * 86400.0;
  sc.warmup_s = 2 * 86400.0;
  InstanceType it;
  it.id = "bench.g8";
  it.gpu = "A100-80GB";
  it.gpus_per_node = 8;
  it.price_per_hour.on_demand = 32.0;
  sc.instances.push_back(it);
  Pool p;
  p.name = "main";
  p.instance = it.id;
  p.count = 128;
  p.price_per_node_hour = 32.0;
  sc.pools.push_back(p);
  JobClass c;
  c.name = "training";
  c.gpus.values = {1, 2, 4, 8};
  c.gpus.probs = {0.7, 0.1, 0.15, 0.05};
  c.duration.kind = DistKind::lognormal;
  c.duration.a = std::log(19 * 60.0);
  c.duration.b =
      std::log(5.4 * 3600 / (19 * 60.0)) / 1.2815515655446004;  // p90 = median e^{1.28 sigma}
  const double mean_s = std::exp(c.duration.a + 0.5 * c.duration.b * c.duration.b);
  c.rate_per_s = 0.7 * 1024 / (1.9 * mean_s);  // E[gpus] = 1.9
  sc.workload.push_back(c);
  sc.limits.max_active_jobs = max_active_jobs;
  return compile(sc);
}

void run(benchmark::State& state, McBackend backend, uint32_t max_active_jobs = 1u << 16) {
  if (backend == McBackend::cuda && !cuda_backend_available()) {
    state.SkipWithError("no CUDA backend or device");
    return;
  }
  const CompiledScenario cs = philly_month(max_active_jobs);
  McOptions o;
  o.replications = static_cast<uint32_t>(state.range(0));
  o.backend = backend;
  uint64_t events = 0, replicas = 0, saturated = 0;
  std::string device;
  for (auto _ : state) {
    const McStudy st = run_monte_carlo(cs.view(), o);
    for (const ReplicaOutcome& r : st.replicas) {
      events += r.metrics.events;
      saturated += r.metrics.saturated() ? 1 : 0;
    }
    replicas += st.replicas.size();
    device = st.device;
  }
  state.SetItemsProcessed(static_cast<int64_t>(replicas));
  state.counters["replicas_per_s"] =
      benchmark::Counter(double(replicas), benchmark::Counter::kIsRate);
  state.counters["events_per_s"] = benchmark::Counter(double(events), benchmark::Counter::kIsRate);
  state.counters["events_per_replica"] = double(events) / double(replicas);
  state.counters["saturated_replicas"] = double(saturated);
  state.SetLabel(std::string(backend_name(backend)) + ", " + device);
}

void bm_mc_philly_month_cpu(benchmark::State& state) {
  run(state, McBackend::cpu);
}
void bm_mc_philly_month_cuda(benchmark::State& state) {
  run(state, McBackend::cuda);
}
//! The same study with 4,096 job slots per replica instead of 65,536 (the month peaks at a few
//! hundred active jobs): a sixteenth of the working memory, so many more replicas per device batch.
void bm_mc_philly_month_cuda_4096_slots(benchmark::State& state) {
  run(state, McBackend::cuda, 4096);
}
void bm_mc_philly_month_cpu_4096_slots(benchmark::State& state) {
  run(state, McBackend::cpu, 4096);
}

}  // namespace

BENCHMARK(bm_mc_philly_month_cpu)
    ->Arg(1000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(bm_mc_philly_month_cuda)
    ->Arg(1000)
    ->Arg(10000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(bm_mc_philly_month_cpu_4096_slots)
    ->Arg(1000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
BENCHMARK(bm_mc_philly_month_cuda_4096_slots)
    ->Arg(1000)
    ->Arg(10000)
    ->Arg(50000)
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();
