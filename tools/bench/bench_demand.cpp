//! Engine speed with time-varying demand (sim/core/arrival_profile.h): M/M/64 at a flat rate (the
//! constant-rate path, as bm_core_mm64) against the same mean rate under growth, and under growth
//! with an hourly weekly shape (a segment walk per arrival).
#include <benchmark/benchmark.h>

#include <string>

#include "models/compile/compile.h"
#include "sim/single_run.h"
#include "tools/bench/engine_bench.h"

namespace {

using namespace gpuplan;

//! M/M/64 at lambda = 50/s, mu = 1/s, 10^5 simulated seconds (about 10 M events); profile 0 =
//! flat, 1 = +8 %/month, 2 = +8 %/month and a weekly shape alternating 0.9x / 1.1x by the hour.
Scenario mm64(int profile) {
  Scenario sc = bench::cluster(64, 1, 1e5);
  JobClass c = bench::one_gpu_jobs(50);
  if (profile >= 1) c.profile.growth_per_month = 0.08;
  if (profile >= 2)
    for (int h = 0; h < 168; ++h) c.profile.weekly.push_back(h % 2 ? 1.1 : 0.9);
  sc.workload.push_back(c);
  return sc;
}

void bm_core_demand_profile(benchmark::State& state) {
  const int profile = static_cast<int>(state.range(0));
  const CompiledScenario cs = compile(mm64(profile));
  const ModelView v = cs.view();
  bench::time_single_runs(state, v);
  state.counters["segments"] = double(cs.arrival_segments.size());
  const char* labels[] = {"flat", "growth", "growth + weekly"};
  state.SetLabel(std::string("engine, cpu, 1 thread, ") + labels[profile]);
}
BENCHMARK(bm_core_demand_profile)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

}  // namespace
