//! Engine pace with a topology and link sharing: a 4,096-GPU leaf-spine (512 nodes x 8 GPUs,
//! 16 leaves of 32 nodes at 3:1) under a Philly-like mix with 16-64 GPU gangs.
#include <benchmark/benchmark.h>

#include <cmath>

#include "models/compile/compile.h"
#include "sim/core/engine.h"
#include "sim/replica_buffers.h"

namespace gpuplan {
namespace {

//! The scenario: `days` simulated, placement `placement`, FIFO queue (as bm_core_year), 30% of
//! a gang's step in all-reduce.
Scenario leaf_spine_4096(double days, Placement placement) {
  Scenario sc;
  sc.name = "bench_network";
  sc.seed = 42;
  sc.horizon_s = days * 86400;
  sc.warmup_s = 86400;
  InstanceType it;
  it.id = "bench.g8";
  it.gpu = "H100-SXM";
  it.gpus_per_node = 8;
  it.intra_node_fabric = "nvlink4";
  it.nics = 8;
  it.nic_gbps = 400;
  it.price_per_hour.on_prem = 16.0;
  sc.instances.push_back(it);
  Pool p;
  p.name = "main";
  p.instance = it.id;
  p.count = 512;
  p.pricing = Pricing::on_prem;
  p.gpu = builtin_catalog().find_gpu(it.gpu);
  p.price_per_node_hour = 16.0;
  sc.pools.push_back(p);
  sc.topology.kind = TopologyKind::leaf_spine;
  sc.topology.nodes_per_leaf = 32;
  sc.topology.spines = 8;
  sc.topology.oversubscription = 3;
  sc.topology.comm_fraction = 0.3;
  sc.scheduler.placement = placement;
  JobClass jc;
  jc.name = "philly_gangs";
  // Offered load ~0.6 of 4,096 GPUs before comm slowdown (mean 3.58 GPUs x ~3.6 h per job).
  jc.rate_per_s = 190.0 / 3600;
  jc.gpus.values = {1, 2, 4, 8, 16, 32, 64};
  jc.gpus.probs = {0.6, 0.1, 0.1, 0.12, 0.04, 0.025, 0.015};
  jc.duration.kind = DistKind::lognormal;
  jc.duration.a = std::log(19 * 60.0);
  jc.duration.b = (std::log(5.4 * 3600) - std::log(19 * 60.0)) / 1.2815515655446004;
  sc.workload.push_back(jc);
  return sc;
}

void bm_network_leaf_spine_4096(benchmark::State& state) {
  const double days = static_cast<double>(state.range(0));
  const auto placement = static_cast<Placement>(state.range(1));
  const CompiledScenario cs = compile(leaf_spine_4096(days, placement));
  const ModelView m = cs.view();
  ReplicaBuffers buffers(m, 0);
  uint64_t events = 0;
  uint32_t replica = 0;
  for (auto _ : state) {
    run_replica(m, buffers.state, replica++);
    events += buffers.state.totals.events;
    benchmark::DoNotOptimize(buffers.state.totals.busy_gpu_s);
  }
  state.SetItemsProcessed(static_cast<int64_t>(events));
  state.counters["rate_changes"] = static_cast<double>(buffers.state.net.rate_changes);
  state.counters["saturated"] = buffers.state.totals.saturation != SaturationCause::none;
  state.SetLabel(placement == Placement::best_fit ? "cpu best_fit" : "cpu topology_aware");
}

BENCHMARK(bm_network_leaf_spine_4096)
    ->ArgsProduct({{30, 365},
                   {static_cast<int64_t>(Placement::best_fit),
                    static_cast<int64_t>(Placement::topology_aware)}})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace gpuplan
