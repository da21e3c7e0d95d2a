//! Shared-GPU packing speed: one replay of the Alibaba openb workload (8,152 pods arriving up to
//! 100 % of 6,212 GPUs in trace order) under each policy (study/pack_replay.h). Targets
//! (issue 14): one policy < 1 s, FGD < 5 s. Skipped with a message when the data file is absent.
#include <benchmark/benchmark.h>

#include <optional>

#include "models/input/data_files.h"
#include "models/trace/openb_trace.h"
#include "study/pack_replay.h"

namespace {

using namespace gpuplan;

//! The openb trace from the default data path, read once; nullopt when it is absent or invalid.
const std::optional<OpenbTrace>& openb() {
  static const std::optional<OpenbTrace> trace = [] {
    const auto path = default_data_path();
    const auto nodes = resolve_data_file(OPENB_NODES_FILE, "", path);
    const auto pods = resolve_data_file(OPENB_PODS_FILE, "", path);
    Diagnostics diags;
    return nodes && pods ? read_openb(*nodes, *pods, diags) : std::nullopt;
  }();
  return trace;
}

//! Arg: the policy (0 best-fit, 1 worst-fit, 2 random, 3 fgd).
void bm_pack_openb(benchmark::State& state) {
  const auto& trace = openb();
  if (!trace) {
    state.SkipWithError("alibaba_openb_*.csv not found on the data path");
    return;
  }
  PackReplayOptions o;
  o.policy = static_cast<sharing::PackPolicy>(state.range(0));
  state.SetLabel(pack_policy_name(o.policy));
  uint32_t pods = 0;
  for (auto _ : state) {
    const PackReplayResult r = replay_openb(*trace, o);
    benchmark::DoNotOptimize(r.allocation_ratio);
    pods = r.pods_arrived;
  }
  state.SetItemsProcessed(state.iterations() * pods);
}

BENCHMARK(bm_pack_openb)->DenseRange(0, 3)->Unit(benchmark::kMillisecond);

}  // namespace
