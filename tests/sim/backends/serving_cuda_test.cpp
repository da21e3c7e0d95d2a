//! The serving simulator's replications on the CUDA backend agree with the host's, replication
//! by replication, on every kind of workload array the device copies (runs only where a GPU is).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/backends/mc_cuda.h"
#include "sim/mc_run.h"
#include "sim/serving/serving_buffers.h"

using namespace gpuplan;
using namespace gpuplan::serving;

namespace {

//! Two replicas of an 8B model's roofline on one H100-like GPU, shared prefixes, a short KV
//! cache (preemptions).
ServingView chat_view() {
  ServingView v;
  v.step.peak_flops = 0.47 * 989e12;
  v.step.bandwidth = 0.89 * 3.35e12;
  v.step.flops_per_token = 16e9;
  v.step.attention_flops = 4.0 * 4096 * 32;
  v.step.shared_weight_bytes = 16e9;
  v.step.kv_bytes_per_token = 131072;
  v.step.overhead_s = 0.0016;
  v.sched.kv_blocks = 3000;
  v.sched.max_num_seqs = 64;
  v.sched.max_num_batched_tokens = 2048;
  v.sched.async_scheduling = true;
  v.n_replicas = 2;
  v.router = Router::least_outstanding_tokens;
  v.seed = 17;
  v.load.rate_per_s = 12;
  v.load.n_requests = 3000;
  v.load.warmup_requests = 200;
  v.load.prompt_kind = LengthKind::geometric;
  v.load.prompt_a = 800;
  v.load.output_kind = LengthKind::geometric;
  v.load.output_a = 150;
  v.load.prefix_share = 0.5;
  v.load.prefix_groups = 4;
  v.load.prefix_tokens = 256;
  v.load.ttft_slo_s = 0.5;
  v.load.tpot_slo_s = 0.05;
  return v;
}

//! Runs replications [0, n) of `v` on the host and on the device and compares each.
void agree(const ServingView& v, uint32_t n, uint32_t queue = 1024) {
  std::vector<ServingStats> device;
  cuda_module().run_serving(v, queue, 0, n, device);
  REQUIRE(device.size() == n);
  for (uint32_t k = 0; k < n; ++k) {
    CAPTURE(k);
    ServingView mine = v;
    mine.mc_replica = k;
    ClusterBuffers b(mine, queue);
    run_cluster(mine, b.state);
    const ServingStats& a = *b.state.stats;
    const ServingStats& d = device[k];
    // the same requests and the same decisions: identical counts
    CHECK(a.arrived == d.arrived);
    CHECK(a.completed == d.completed);
    CHECK(a.counted == d.counted);
    CHECK(a.met_slo == d.met_slo);
    CHECK(a.preemptions == d.preemptions);
    CHECK(a.prefix_hit_tokens == d.prefix_hit_tokens);
    CHECK(a.steps == d.steps);
    CHECK(a.scale_ups == d.scale_ups);
    CHECK(a.saturated == d.saturated);
    // device math (log, exp; no FMA) agrees with the host within 1e-9 relative
    const auto close = [](double x, double y) {
      return std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(x));
    };
    CHECK(close(a.ttft.moments.sum, d.ttft.moments.sum));
    CHECK(close(a.itl.moments.sum, d.itl.moments.sum));
    CHECK(close(a.e2e.moments.max, d.e2e.moments.max));
    CHECK(close(a.kv_block_s, d.kv_block_s));
    CHECK(close(a.replica_s, d.replica_s));
    CHECK(close(a.end_s, d.end_s));
  }
}

}  // namespace

TEST_CASE("sim::mc::serving_cuda_agrees_with_cpu") {
  if (!cuda_backend_available()) {
    MESSAGE("skipped: " << cuda_module().why_not());
    return;
  }
  ServingView v = chat_view();
  SUBCASE("Poisson chat with shared prefixes, 70 replications (two blocks of threads)") {
    agree(v, 70);
  }
  SUBCASE("a length table, staged rates and autoscaling") {
    const LengthRow rows[] = {{300, 40}, {2000, 300}, {900, 120}};
    const RateStage stages[] = {{120, 6}, {240, 18}};
    v.load.prompt_kind = v.load.output_kind = LengthKind::table;
    v.load.table = {rows, 3};
    v.load.stages = {stages, 2};
    v.load.rate_per_s = 12;
    v.autoscale.min_replicas = 1;
    v.autoscale.max_replicas = v.n_replicas = 4;
    v.autoscale.target_requests = 16;
    v.autoscale.provision_s = 30;
    agree(v, 8);
  }
  SUBCASE("a replayed trace, disaggregated") {
    std::vector<double> at(2000);
    for (uint32_t k = 0; k < at.size(); ++k) at[k] = 0.1 * k + 0.05 * std::sin(double(k));
    v.load.arrival_s = {at.data(), static_cast<uint32_t>(at.size())};
    v.load.n_requests = at.size();
    v.n_replicas = 3;
    v.n_prefill = 1;
    v.kv_transfer_bandwidth = 50e9;
    v.kv_transfer_latency_s = 1e-3;
    agree(v, 4);
  }
  SUBCASE("closed-loop conversations behind the cache-aware router") {
    v.load.prefix_share = 0;
    v.load.prefix_groups = 0;
    v.load.streams = 100;
    v.load.think_s = 2;
    v.load.turns_kind = LengthKind::geometric;
    v.load.turns_a = 4;
    v.load.max_context = 8192;
    v.router = Router::cache_aware;
    agree(v, 4);
  }
}
