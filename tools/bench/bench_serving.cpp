//! Serving simulation speed (sim/serving/): Llama-3-8B on 16 H100 replicas (TP 1) behind the
//! least-outstanding-tokens router, vLLM's scheduler (2,048-token budget, 128 sequences, chunked
//! prefill, prefix caching), Azure LLM conversation lengths, at about 70 % of the cluster's
//! capacity; one replica of the study on one core. Target (issue 37): 1 M requests <= 2 s.
//! Skipped with a message when the trace is absent from the data path.
#include <benchmark/benchmark.h>

#include <optional>
#include <string>

#include "models/input/data_files.h"
#include "models/load/serving_scenario.h"
#include "sim/serving/serving_buffers.h"

namespace {

using namespace gpuplan;

//! The scenario of `requests` requests, loaded once per size; nullopt when the trace is absent.
std::optional<ServingScenario> scenario(uint64_t requests) {
  const std::string text = R"({
    "name": "bench", "model": "llama-3-8b", "gpu": "H100-SXM", "tp": 1, "replicas": 16,
    "router": "least_outstanding_tokens",
    "scheduler": {"max_num_batched_tokens": 2048, "max_num_seqs": 128},
    "workload": {"rate": "160/s", "requests": )" +
                           std::to_string(requests) + R"(,
      "trace": "azure_llm_inference_conv_2023.csv",
      "prefix": {"share": 0.5, "groups": 16, "tokens": 512}},
    "slo": {"ttft": "500ms", "tpot": "50ms"}})";
  Diagnostics d;
  return load_serving_scenario(text, "bench", "", default_data_path(), d);
}

//! Arg: requests; `quiet`: quiet runs of decode steps summed (sim/serving/quiet_steps.h), as
//! every run does, or every step walked (the same results).
void run_serving(benchmark::State& state, bool quiet) {
  const auto sc = scenario(uint64_t(state.range(0)));
  if (!sc) {
    state.SkipWithError("azure_llm_inference_conv_2023.csv not found on the data path");
    return;
  }
  serving::ServingView v = serving_view(*sc);
  v.quiet_runs = quiet;
  uint64_t steps = 0;
  bool saturated = false;
  for (auto _ : state) {
    serving::ClusterBuffers b(v, sc->queue_capacity);
    serving::run_cluster(v, b.state);
    steps = b.state.stats->steps;
    saturated = b.state.stats->saturated;
    benchmark::DoNotOptimize(b.state.stats->e2e.moments.sum);
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["steps"] = double(steps);
  state.SetLabel(saturated ? "cpu, 16 replicas, SATURATED" : "cpu, 16 replicas");
}
void bm_serving_cluster(benchmark::State& state) {
  run_serving(state, true);
}
void bm_serving_cluster_stepwise(benchmark::State& state) {
  run_serving(state, false);
}

BENCHMARK(bm_serving_cluster)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(bm_serving_cluster_stepwise)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
