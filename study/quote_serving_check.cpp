#include "study/quote_serving_check.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>

#include "models/load/serving_scenario.h"
#include "study/shown_options.h"

namespace gpuplan::quote {
namespace {

//! vLLM's default token budget per step for its OpenAI-compatible server: 8,192 on GPUs of
//! 70 GiB or more other than the A100 (where a larger one lowered throughput), 2,048 on the
//! others (vllm-project/vllm, vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults).
uint32_t vllm_token_budget(const GpuSpec& gpu) {
  std::string id = gpu.id;
  for (char& c : id) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const bool large =
      gpu.mem_gb * 1e9 >= 70.0 * (1ull << 30) && id.find("a100") == std::string::npos;
  return large ? 8192 : 2048;
}

//! Fewest waiting places per replica a check runs with.
constexpr uint32_t MIN_QUEUE_PER_REPLICA = 64;
//! Closed-loop streams a check simulates at most.
constexpr double MAX_STREAMS = 1e6;

uint32_t token(double x) {
  return static_cast<uint32_t>(std::max(1.0, std::round(x)));
}

}  // namespace

bool serving_meets_targets(const InferenceRequest& req, const ServingCheck& c) {
  const auto within = [](double target, const Estimate& e) {
    return !(target > 0) || e.mean <= target;
  };
  return !c.saturated && within(req.ttft_p99_s, c.ttft_p99) && within(req.tpot_p99_s, c.tpot_p99) &&
         within(req.p99_latency_s, c.e2e_p99);
}

std::optional<ServingCheck> simulate_serving(const InferenceRequest& req,
                                             const InferenceOption& opt, uint64_t n_requests,
                                             uint64_t seed) {
  ServingScenario sc;
  sc.name = "quote-serving-check";
  sc.seed = seed;
  sc.replications = SERVING_CHECK_REPLICATIONS;
  sc.model_id = req.model_label;
  sc.model = req.model;
  sc.gpu = *opt.gpu;
  sc.gpu_id = opt.gpu->id;
  sc.fabric = opt.instance->intra_node_fabric;
  sc.precision = req.precision;
  sc.tp = opt.sizing.tp;
  serving::ServingView& v = sc.view;
  v.n_replicas = opt.sizing.replicas;
  v.router = serving::Router::least_outstanding_tokens;
  serving::SchedulerConfig& s = v.sched;
  s.max_num_seqs = std::max<uint32_t>(opt.sizing.batch, 1);
  s.max_num_batched_tokens = std::max(vllm_token_budget(*opt.gpu), s.max_num_seqs);
  s.chunked_prefill = true;
  s.prefix_caching = false;   // a quote names no shared prefixes
  s.async_scheduling = true;  // vLLM's default since vllm-project/vllm#27614
  set_default_overheads(v);   // as serve-sim runs by default
  inference::ServingRequest rq;
  rq.prefill_compute = req.prefill_mfu;
  rq.decode_bandwidth = req.bandwidth_efficiency;
  rq.memory_share = 1 - req.memory_reserve;
  if (!model_replica(sc, rq)) return std::nullopt;

  serving::Workload& w = v.load;
  const uint64_t per_run = std::max<uint64_t>(
      2000, (n_requests + SERVING_CHECK_REPLICATIONS - 1) / SERVING_CHECK_REPLICATIONS);
  w.n_requests = per_run;
  w.warmup_requests = per_run / 10;
  w.ttft_slo_s = req.ttft_p99_s;
  w.tpot_slo_s = req.tpot_p99_s;
  // NOTE: a replica waiting on twice its batch behind the least-outstanding router means the
  // whole cluster is that far behind: the run stops there and reports saturation (the waits of
  // a cluster that keeps up stay far below), holding memory to a few batches a replica.
  uint64_t queue = std::max<uint64_t>(MIN_QUEUE_PER_REPLICA, 2 * uint64_t(s.max_num_seqs));
  if (req.requests_per_s > 0) {
    w.rate_per_s = req.requests_per_s;
  } else {
    if (!(req.concurrent_streams >= 1) || req.concurrent_streams > MAX_STREAMS) return std::nullopt;
    w.streams = static_cast<uint32_t>(std::round(req.concurrent_streams));
    w.think_s = 0;
    // NOTE: streams in step would send their prompts in bursts; spread over one request's time
    // in a slot, they hold every phase of a request at once, as the sizing's streams do.
    w.ramp_s = opt.sizing.slot_s;
    w.rate_per_s = w.streams / 1e-3;  // a first guess only (ServingScenario's streams)
    queue = std::max<uint64_t>(queue, streams_queue_per_replica(w.streams, v.n_replicas));
  }
  // NOTE: a run holds a record per running and waiting request; a cluster too wide for that gets
  // a shorter queue, and none at all past it.
  const uint64_t room = MAX_SERVING_RECORDS / std::max(v.n_replicas, 1u);
  if (room < uint64_t(s.max_num_seqs) + MIN_QUEUE_PER_REPLICA) return std::nullopt;
  queue = std::min(queue, room - s.max_num_seqs);
  if (w.streams > 0 && queue < (uint64_t(w.streams) + v.n_replicas - 1) / v.n_replicas)
    return std::nullopt;
  sc.queue_capacity = static_cast<uint32_t>(queue);

  uint32_t longest = 0;
  if (req.lengths) {
    const inference::TokenLengths& t = *req.lengths;
    sc.lengths_source = t.path.empty() ? req.lengths_text : t.path;
    sc.lengths.reserve(t.in.size());
    for (size_t k = 0; k < t.in.size(); ++k) {
      sc.lengths.push_back({token(t.in[k]), token(t.out[k])});
      longest = std::max(longest, sc.lengths.back().prompt + sc.lengths.back().output);
    }
  } else {
    sc.lengths_source = "fixed";
    w.prompt_a = token(req.tokens_in);
    w.output_a = token(req.tokens_out);
    longest = uint32_t(w.prompt_a + w.output_a);
  }
  if ((uint64_t(longest) + s.block_tokens - 1) / s.block_tokens > s.kv_blocks) return std::nullopt;

  const ServingStudy st = run_serving_study(sc);
  ServingCheck c;
  c.replications = sc.replications;
  c.requests = st.pooled.counted;
  c.max_num_seqs = s.max_num_seqs;
  c.max_num_batched_tokens = s.max_num_batched_tokens;
  c.slo_attainment = st.slo_attainment;
  c.ttft_p99 = st.ttft_p99;
  c.tpot_p99 = st.tpot_p99;
  c.e2e_p99 = st.e2e_p99;
  for (const ServingFigures& f : st.replicas) c.output_tokens_per_s += f.output_tokens_per_s;
  c.output_tokens_per_s /= double(std::max<size_t>(st.replicas.size(), 1));
  c.kv_occupancy_peak = st.pooled.kv_occupancy_peak;
  c.preemptions_per_1k = st.pooled.preemptions_per_1k;
  c.saturated = st.pooled.saturated;
  c.meets_targets = serving_meets_targets(req, c);
  return c;
}

std::vector<std::optional<ServingCheck>> check_shown_serving(const QuoteRequest& req,
                                                             const Quote& q,
                                                             const ComputeBudget* budget) {
  if (!req.inference) return std::vector<std::optional<ServingCheck>>(q.inference.size());
  return check_shown_options<ServingCheck>(req, q, budget, [&req](const InferenceOption& o) {
    return simulate_serving(*req.inference, o, req.options.sim_requests, req.options.seed);
  });
}

}  // namespace gpuplan::quote
