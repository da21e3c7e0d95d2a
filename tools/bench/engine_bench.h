#pragma once
//! Pieces the engine benchmarks share: a one-pool cluster scenario and the timed single-run loop.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "models/compile/compile.h"
#include "sim/single_run.h"

namespace gpuplan::bench {

//! One pool of `nodes` nodes with `gpus_per_node` GPUs each at $1 per node-hour, no workload.
inline Scenario cluster(uint32_t nodes, uint32_t gpus_per_node, double horizon_s) {
  Scenario sc;
  sc.name = "bench";
  sc.horizon_s = horizon_s;
  InstanceType it;
  it.id = "bench.node";
  it.gpu = "A100-80GB";
  it.gpus_per_node = gpus_per_node;
  it.price_per_hour.on_demand = 1.0;
  sc.instances.push_back(it);
  Pool p;
  p.name = "main";
  p.instance = it.id;
  p.count = nodes;
  p.price_per_node_hour = 1.0;
  sc.pools.push_back(p);
  return sc;
}

//! M/M/c jobs: one GPU each, Poisson arrivals at `rate_per_s`, exponential work of mean 1 s.
inline JobClass one_gpu_jobs(double rate_per_s) {
  JobClass c;
  c.name = "jobs";
  c.rate_per_s = rate_per_s;
  c.gpus.values = {1};
  c.gpus.probs = {1};
  c.duration.kind = DistKind::exponential;
  c.duration.a = 1.0;
  return c;
}

//! Times single runs of `v` (replica 0) and reports events per second as items processed.
inline void time_single_runs(benchmark::State& state, const ModelView& v) {
  uint64_t events = 0;
  for (auto _ : state) {
    const SingleRun r = run_single(v, 0);
    events = r.metrics.events;
    benchmark::DoNotOptimize(r.metrics.wait_s.mean);
  }
  state.SetItemsProcessed(int64_t(state.iterations() * events));
}

}  // namespace gpuplan::bench
