//! The CUDA backend agrees with the CPU backend replica by replica (runs only where a GPU is).
#include <doctest/doctest.h>

#include <cmath>

#include "sim/backends/mc_cuda.h"
#include "sim/mc_metrics.h"
#include "sim/mc_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

TEST_CASE("sim::mc::cuda_agrees_with_cpu") {
  if (!cuda_backend_available()) {
    MESSAGE("skipped: " << cuda_module().why_not());
    return;
  }
  // 8 nodes x 8 GPUs, Philly-like mix at ~70% load for 7 days: multi-node gangs, queueing.
  Scenario sc = test::one_pool(8, 8, 7 * 86400.0, 86400.0);
  JobClass mix;
  mix.name = "mix";
  mix.gpus.values = {1, 2, 4, 8, 16};
  mix.gpus.probs = {0.65, 0.1, 0.15, 0.05, 0.05};
  mix.duration.kind = DistKind::lognormal;
  mix.duration.a = std::log(1140.0);
  mix.duration.b = 1.8;
  mix.rate_per_s = 0.7 * 64 / (2.65 * 1140.0 * std::exp(0.5 * 1.8 * 1.8));
  sc.workload.push_back(mix);
  sc.limits.max_active_jobs = 4096;
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  McOptions o;
  o.replications = 64;
  o.batch = 24;  // three device batches, the last one partial
  const McStudy cpu = run_monte_carlo(m, o);
  o.backend = McBackend::cuda;
  const McStudy gpu = run_monte_carlo(m, o);
  REQUIRE(gpu.replicas.size() == cpu.replicas.size());
  for (std::size_t k = 0; k < cpu.replicas.size(); ++k) {
    CAPTURE(k);
    const ReplicaMetrics& a = cpu.replicas[k].metrics;
    const ReplicaMetrics& b = gpu.replicas[k].metrics;
    // the same job stream: identical job counts and event counts
    CHECK(a.jobs_submitted == b.jobs_submitted);
    CHECK(a.jobs_completed == b.jobs_completed);
    CHECK(a.events == b.events);
    const std::vector<double> x = metric_row(m, a), y = metric_row(m, b);
    for (std::size_t i = 0; i < x.size(); ++i) {
      CAPTURE(i);
      // device math (log, exp, cos; no FMA) agrees with the host within 1e-9 relative
      CHECK(std::abs(x[i] - y[i]) <= 1e-9 * std::max(1.0, std::abs(x[i])));
    }
  }
}
