//! The serving simulator (sim/serving/) against theory: one request at a time takes the
//! roofline's TTFT and TPOT exactly, the scheduler keeps vLLM's rules, preemption and prefix
//! caching count as worked by hand, and under M/M/c assumptions the wait is Erlang C's.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/perf/inference/roofline.h"
#include "models/perf/inference/serving_step.h"
#include "models/perf/queueing.h"
#include "models/perf/training/model_shape.h"
#include "sim/serving/serving_buffers.h"

using namespace gpuplan;
using namespace gpuplan::serving;

namespace {

//! A view of `model` on `tp` GPUs `gpu` with a roomy scheduler.
ServingView view_of(const char* model, const char* gpu, const char* fabric, uint32_t tp) {
  const GpuSpec& g = *builtin_catalog().find_gpu(gpu);
  inference::ServingRequest r;
  r.tp = tp;
  const auto rm =
      inference::serving_replica_model(*training::find_model_preset(model), g, fabric, r, 16);
  ServingView v;
  v.step = rm.step;
  v.sched.kv_blocks = static_cast<uint32_t>(rm.kv_blocks);
  v.sched.max_num_batched_tokens = 8192;
  v.gpus_per_replica = tp;
  return v;
}

//! A toy view: every step takes `step_s`, `blocks` KV blocks of 16 tokens.
ServingView toy_view(double step_s, uint32_t blocks) {
  ServingView v;
  v.step.constant_step_s = step_s;
  v.sched.kv_blocks = blocks;
  return v;
}

//! Two replicas behind the least-outstanding-tokens router, 200 KV blocks (3,200 tokens) for up
//! to 32 sequences, a 256-token budget, geometric lengths of the given means.
ServingView kv_pressure_view(double prompt_mean, double output_mean) {
  ServingView v = toy_view(0.01, 200);
  v.n_replicas = 2;
  v.router = Router::least_outstanding_tokens;
  v.sched.max_num_seqs = 32;
  v.sched.max_num_batched_tokens = 256;
  v.load.prompt_kind = LengthKind::geometric;
  v.load.prompt_a = prompt_mean;
  v.load.output_kind = LengthKind::geometric;
  v.load.output_a = output_mean;
  return v;
}

//! Runs `v` to its end and returns its statistics.
ServingStats run(const ServingView& v, uint32_t queue = 4096) {
  ClusterBuffers b(v, queue);
  run_cluster(v, b.state);
  return *b.state.stats;
}

}  // namespace

TEST_CASE("serving::single_request") {
  struct Case {
    const char* model;
    const char* gpu;
    const char* fabric;
    uint32_t tp;
  };
  const Case cases[] = {{"llama-3-8b", "H100-SXM", "nvlink4", 1},
                        {"llama-2-70b", "H100-SXM", "nvlink4", 4},
                        {"mixtral-8x7b", "A100-80GB", "nvlink3", 2},
                        {"llama-2-7b", "A100-80GB", "nvlink3", 1}};
  SUBCASE("one request at a time takes the roofline's TTFT and mean TPOT exactly") {
    for (const Case& c : cases) {
      CAPTURE(c.model);
      ServingView v = view_of(c.model, c.gpu, c.fabric, c.tp);
      v.load.rate_per_s = 1e-4;  // a request every ~3 hours: each one runs alone
      v.load.n_requests = 5;
      v.load.prompt_a = 2048;
      v.load.output_a = 128;
      const ServingStats st = run(v);
      inference::ServingRequest r;
      r.tp = c.tp;
      r.tokens_in = 2048;
      r.tokens_out = 128;
      const auto e = inference::estimate_serving(*training::find_model_preset(c.model),
                                                 *builtin_catalog().find_gpu(c.gpu), c.fabric, r);
      REQUIRE(st.counted == 5);
      // The prompt is one chunk (2,048 < budget 8,192): TTFT is the roofline's prefill.
      CHECK(st.ttft.moments.mean() == doctest::Approx(e.ttft_s).epsilon(1e-9));
      CHECK(st.ttft.moments.max == doctest::Approx(e.ttft_s).epsilon(1e-9));
      // The decodes read contexts 2,049 .. 2,175, mean 2,048 + 128 / 2: the roofline's TPOT.
      CHECK(st.tpot.moments.mean() == doctest::Approx(e.tpot_s).epsilon(1e-9));
      CHECK(st.e2e.moments.mean() == doctest::Approx(e.ttft_s + 127 * e.tpot_s).epsilon(1e-9));
      CHECK(st.wait.moments.max == 0);
      CHECK(st.preemptions == 0);
    }
  }
  SUBCASE("a prompt chunked in two costs more than in one: the weights are read twice") {
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    v.load.n_requests = 1;
    v.load.prompt_a = 2048;
    v.load.output_a = 1;
    const double whole = run(v).ttft.moments.mean();
    v.sched.max_num_batched_tokens = 1024;
    const ServingStats st = run(v);
    // Two steps of 1,024 tokens: compute the same FLOPs plus the second chunk's longer attention
    // split... the sum of the two chunks' steps as step_time_s gives them.
    BatchMix a, b;
    add_prefill(a, 0, 1024);
    add_prefill(b, 1024, 1024);
    CHECK(st.ttft.moments.mean() ==
          doctest::Approx(step_time_s(v.step, a) + step_time_s(v.step, b)).epsilon(1e-12));
    CHECK(st.ttft.moments.mean() >= whole * (1 - 1e-12));
    CHECK(st.steps == 2);
  }
  SUBCASE("a sequence overhead adds its time once per decoding sequence, not per prefill") {
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    BatchMix decodes, prefill;
    for (int i = 0; i < 32; ++i) add_decode(decodes, 600);
    add_prefill(prefill, 0, 512);
    const double before = step_time_s(v.step, decodes),
                 prefill_before = step_time_s(v.step, prefill);
    v.step.sequence_s = 1e-4;
    CHECK(step_time_s(v.step, decodes) == doctest::Approx(before + 32 * 1e-4).epsilon(1e-12));
    CHECK(step_time_s(v.step, prefill) == prefill_before);
    // one request alone: each of its 127 decode steps is 0.1 ms longer
    v.load.n_requests = 1;
    v.load.prompt_a = 512;
    v.load.output_a = 128;
    const double with = run(v).e2e.moments.mean();
    v.step.sequence_s = 0;
    CHECK(with - run(v).e2e.moments.mean() == doctest::Approx(127 * 1e-4).epsilon(1e-9));
  }
}

TEST_CASE("serving::request_overhead") {
  // The API server's time before the engine: TTFT and end to end shift by it, the engine's steps
  // do not change, and the TTFT SLO is judged with it, on both sides of the target.
  ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
  v.load.rate_per_s = 20;
  v.load.n_requests = 3000;
  v.load.prompt_a = 512;
  v.load.output_a = 64;
  const ServingStats base = run(v);
  v.request_overhead_s = 0.025;
  const ServingStats shifted = run(v);
  CHECK(shifted.steps == base.steps);
  CHECK(shifted.ttft.moments.mean() == doctest::Approx(base.ttft.moments.mean() + 0.025));
  CHECK(shifted.ttft.moments.max == doctest::Approx(base.ttft.moments.max + 0.025));
  CHECK(shifted.e2e.moments.mean() == doctest::Approx(base.e2e.moments.mean() + 0.025));
  CHECK(shifted.tpot.moments.mean() == base.tpot.moments.mean());
  CHECK(shifted.itl.moments.mean() == base.itl.moments.mean());
  CHECK(shifted.wait.moments.mean() == base.wait.moments.mean());
  // every request meets a TTFT target just above the longest shifted TTFT, not all one just below
  v.load.ttft_slo_s = shifted.ttft.moments.max * (1 + 1e-9);
  CHECK(run(v).met_slo == run(v).counted);
  v.load.ttft_slo_s = base.ttft.moments.max + 0.0249;
  CHECK(run(v).met_slo < run(v).counted);
}

namespace {

//! Request 0 (8 prompt tokens, `output` to generate) arrives at 0 at an idle replica of `v`;
//! request 1, the same, arrives at 25 ms. Their statistics once both complete.
ServingStats with_late_arrival(const ServingView& v, uint32_t output) {
  ClusterBuffers b(v, 16);
  ReplicaState& r = b.state.replicas[0];
  ServingStats& st = *b.state.stats;
  Request q;
  q.prompt = 8;
  q.output = output;
  arrive(v, r, st, q, 0);  // idle: its first step starts at once, async or not
  CHECK(r.step_start_s == 0);
  bool sent = false;
  while (r.busy) {
    const double now = r.step_end_s;
    if (!sent && now > 0.025) {  // the step that holds 25 ms is running
      Request late = q;
      late.id = 1;
      late.arrival_s = 0.025;
      arrive(v, r, st, late, 0.025);
      sent = true;
    }
    end_step(v, r, st, now);
    begin_step(v, r, st, now);
  }
  REQUIRE(st.completed == 2);
  return st;
}

}  // namespace

TEST_CASE("serving::async_scheduling") {
  // Constant 10 ms steps; the late request arrives during the step from 20 to 30 ms.
  ServingView v = toy_view(0.01, 1000);
  SUBCASE("a request arriving during a step joins the next one, or the one after when async") {
    for (bool async : {false, true}) {
      CAPTURE(async);
      v.sched.async_scheduling = async;
      const ServingStats st = with_late_arrival(v, 50);
      // synchronous: the step from 30 ms computes its prompt, the first token at 40 ms (15 ms);
      // asynchronous: the step from 30 ms was planned at 20 ms, so the prompt runs from 40 ms
      CHECK(st.ttft.moments.max == doctest::Approx(async ? 0.025 : 0.015));
      CHECK(st.ttft.moments.mean() == doctest::Approx(async ? (0.01 + 0.025) / 2 : 0.0125));
    }
  }
  SUBCASE("after the last running sequence's step nothing was planned ahead: admitted at once") {
    v.sched.async_scheduling = true;
    // request 0's last token is in the step from 20 to 30 ms
    CHECK(with_late_arrival(v, 3).ttft.moments.max == doctest::Approx(0.015));
  }
}

TEST_CASE("serving::scheduler") {
  SUBCASE("a step never takes more tokens than the budget nor more sequences than max_num_seqs") {
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    v.sched.max_num_batched_tokens = 512;
    v.sched.max_num_seqs = 32;
    v.load.rate_per_s = 40;  // past what one replica serves: the queue grows
    v.load.n_requests = 3000;
    v.load.prompt_kind = LengthKind::geometric;
    v.load.prompt_a = 700;
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = 150;
    const ServingStats st = run(v, 1 << 14);
    CHECK(!st.saturated);
    CHECK(st.completed == 3000);
    // 512 tokens fill steps while prompts wait
    CHECK(st.max_step_tokens == 512);
    CHECK(st.max_running == 32);
  }
  SUBCASE("running decodes are scheduled first; a waiting prompt takes the budget they leave") {
    ServingView v = toy_view(0.01, 1000);
    v.sched.max_num_batched_tokens = 100;
    ClusterBuffers b(v, 16);
    ReplicaState& r = b.state.replicas[0];
    ServingStats& st = *b.state.stats;
    // Three requests of 20 prompt tokens arrive together; the first step prefills all three.
    for (uint64_t k = 0; k < 3; ++k) {
      Request q;
      q.id = k;
      q.prompt = 20;
      q.output = 10;
      arrive(v, r, st, q, 0);
    }
    // the first arrival started a step with its own prompt; the others wait for the next
    CHECK(r.n_running == 1);
    end_step(v, r, st, r.step_end_s);
    begin_step(v, r, st, r.step_end_s);
    // step 2: one decode (request 0) + both waiting prompts: 1 + 20 + 20 tokens
    CHECK(st.max_step_tokens == 41);
    end_step(v, r, st, r.step_end_s);
    // a long prompt arrives: the next step decodes 3 sequences and prefills 97 of its tokens
    Request big;
    big.id = 3;
    big.prompt = 400;
    big.output = 2;
    arrive(v, r, st, big, r.step_end_s);
    uint32_t decodes = 0, chunk = 0;
    for (uint32_t i = 0; i < r.n_running; ++i) {
      const Sequence& s = r.seqs[r.running[i]];
      if (s.decoding) decodes += s.scheduled;
      if (s.req.id == 3) chunk = s.scheduled;
    }
    CHECK(decodes == 3);
    CHECK(chunk == 97);
  }
}

TEST_CASE("serving::kv_cache") {
  SUBCASE("two sequences outgrowing 10 blocks: the later one is preempted and recomputed") {
    // Hand-worked: blocks of 16, 10 blocks. Two prompts of 48 tokens (3 blocks each), 64 output
    // tokens, arriving 1 ns apart: the first starts a step alone (an idle replica starts at an
    // arrival), the second is prefilled in the next step, one token behind. The first needs a
    // 4th block at context 49, a 5th at 65 and a 6th at 81, when the second holds 5 (80 tokens):
    // 10 in use, so the second (last admitted, unscheduled) is preempted after 32 tokens.
    // Recomputing its 80 tokens needs 5 blocks, free only when the first finishes (7 blocks at
    // most: 48 + 63 tokens).
    ServingView v = toy_view(0.01, 10);
    v.load.n_requests = 2;
    v.load.rate_per_s = 1e9;  // both at once
    v.load.prompt_a = 48;
    v.load.output_a = 64;
    v.sched.max_num_batched_tokens = 512;
    const ServingStats st = run(v);
    CHECK(st.completed == 2);
    CHECK(st.preemptions == 1);
    // prefills: 48 + 48 + the recompute of 48 + 32
    CHECK(st.prefill_tokens == 176);
    // decodes: the first 63; the second 31 before and 31 after its recompute (token 33 comes
    // from the recompute)
    CHECK(st.decode_tokens == 125);
    CHECK(st.kv_peak_blocks == 10);
  }
  SUBCASE("a request whose blocks are not free waits; nothing is preempted for a waiting one") {
    ServingView v = toy_view(0.01, 4);
    v.load.n_requests = 2;
    v.load.rate_per_s = 1e9;
    v.load.prompt_a = 40;  // 3 blocks each, 4 in all: one at a time
    v.load.output_a = 2;
    const ServingStats st = run(v);
    CHECK(st.completed == 2);
    CHECK(st.preemptions == 0);
    // the second (arriving ~1 ns after the first) waits for the first's 2 steps
    CHECK(st.wait.moments.max == doctest::Approx(0.02).epsilon(1e-6));
  }
}

TEST_CASE("serving::prefix_cache") {
  SUBCASE("a shared prefix's full blocks are computed once and hit by later requests") {
    // Prefix 40 tokens (2 full blocks = 32 cacheable), user prompt 10: 50-token prompts. The
    // first request computes 50 and caches 2 blocks; the next two hit 32 and compute 18.
    ServingView v = toy_view(0.01, 100);
    v.load.n_requests = 3;
    v.load.rate_per_s = 1e-3;  // one at a time
    v.load.prompt_a = 10;
    v.load.output_a = 4;
    v.load.prefix_share = 1;
    v.load.prefix_groups = 1;
    v.load.prefix_tokens = 40;
    const ServingStats st = run(v);
    CHECK(st.completed == 3);
    CHECK(st.prompt_tokens == 150);
    CHECK(st.prefix_hit_tokens == 64);
    CHECK(st.prefill_tokens == 50 + 18 + 18);
  }
  SUBCASE("a prompt the prefix covers whole still computes its last block's token") {
    ServingView v = toy_view(0.01, 100);
    v.load.n_requests = 2;
    v.load.rate_per_s = 1e-3;
    v.load.prompt_a = 0;  // prompt = the 32-token prefix only
    v.load.output_a = 2;
    v.load.prefix_share = 1;
    v.load.prefix_groups = 1;
    v.load.prefix_tokens = 32;
    const ServingStats st = run(v);
    // the second hits one block (16), not two: 31 / 16 = 1, and computes 16
    CHECK(st.prefix_hit_tokens == 16);
    CHECK(st.prefill_tokens == 32 + 16);
  }
  SUBCASE("an unused cached prefix is evicted when a sequence needs its blocks") {
    // 6 blocks. Group 0's request caches 2 blocks and finishes; a 80-token request without a
    // prefix needs 5 blocks + 1 for its decode: the cached prefix is evicted, not preempted.
    ServingView v = toy_view(0.01, 6);
    v.load.n_requests = 1;
    v.load.prompt_a = 2;
    v.load.output_a = 2;
    v.load.prefix_share = 1;
    v.load.prefix_groups = 1;
    v.load.prefix_tokens = 32;
    ClusterBuffers b(v, 8);
    run_cluster(v, b.state);
    ReplicaState& r = b.state.replicas[0];
    CHECK(r.cached_blocks == 2);
    CHECK(r.evictable_blocks == 2);
    Request q;
    q.id = 1;
    q.prompt = 80;
    q.output = 3;
    arrive(v, r, *b.state.stats, q, 10);
    while (r.busy) {
      const double t = r.step_end_s;
      end_step(v, r, *b.state.stats, t);
      begin_step(v, r, *b.state.stats, t);
    }
    CHECK(b.state.stats->completed == 2);
    CHECK(r.cached_blocks == 0);
    CHECK(b.state.stats->preemptions == 0);
  }
}

TEST_CASE("serving::router") {
  SUBCASE("round-robin alternates; least outstanding tokens picks the emptier replica") {
    ServingView v = toy_view(0.01, 1000);
    v.n_replicas = 3;
    ClusterBuffers b(v, 8);
    const Request q;
    CHECK(route(v, b.state, q) == 0);
    CHECK(route(v, b.state, q) == 1);
    CHECK(route(v, b.state, q) == 2);
    CHECK(route(v, b.state, q) == 0);
    v.router = Router::least_outstanding_tokens;
    b.state.replicas[0].outstanding_tokens = 500;
    b.state.replicas[1].outstanding_tokens = 100;
    b.state.replicas[2].outstanding_tokens = 100;
    // ties to the lowest index
    CHECK(route(v, b.state, q) == 1);
  }
  SUBCASE("cache-aware: prefix affinity while balanced, on both sides of every threshold") {
    ServingView v = toy_view(0.01, 1000);
    v.n_replicas = 3;
    v.router = Router::cache_aware;
    v.load.prefix_groups = 4;
    ClusterBuffers b(v, 512);
    ClusterState& c = b.state;
    // Replica `r` holds `n` requests (waiting: only the count matters to the router).
    const auto load = [&](uint32_t r, uint32_t n) { c.replicas[r].n_waiting = n; };
    Request q;
    q.group = 2;
    q.prefix = 60;
    q.prompt = 100;
    c.tree_tokens[0] = 10;  // replica 0 has the smallest tree
    c.tree_tokens[1] = 50;
    c.tree_tokens[2] = 50;
    c.in_tree[2 * 4 + 2] = 1;  // replica 2's tree holds group 2
    load(0, 330), load(1, 340), load(2, 362);
    // max - min = 32 (not > 32): balanced, and 60 % of the prompt (> 50 %) is cached on 2
    CHECK(route(v, c, q) == 2);
    CHECK(c.tree_tokens[2] == 50 + 40);  // only the tokens beyond the prefix join its tree
    load(2, 363);
    // max - min = 33 > 32, but max = 1.1 x min exactly (not >): still balanced
    CHECK(route(v, c, q) == 2);
    load(2, 364);
    // both thresholds passed: the least loaded replica, whatever it caches
    CHECK(route(v, c, q) == 0);
    CHECK(c.in_tree[0 * 4 + 2] == 1);  // group 2 is now in replica 0's tree too
    c.in_tree[0 * 4 + 2] = 0;
    load(0, 100), load(1, 100), load(2, 100);
    c.tree_tokens[0] = 10;
    q.prefix = 50;
    // a prefix of exactly half the prompt is not above the threshold: the smallest tree
    CHECK(route(v, c, q) == 0);
    c.in_tree[0 * 4 + 2] = 0;
    q.prefix = 51;
    CHECK(route(v, c, q) == 2);
    // several replicas hold the prefix: the least loaded of them
    c.in_tree[1 * 4 + 2] = 1;
    load(1, 99);
    CHECK(route(v, c, q) == 1);
    load(1, 101);
    CHECK(route(v, c, q) == 2);
    // a request without a shared prefix goes to the smallest tree, which grows by its prompt
    c.tree_tokens[0] = 10, c.tree_tokens[1] = 50, c.tree_tokens[2] = 50;
    Request plain;
    plain.prompt = 1000;
    const uint32_t smallest = route(v, c, plain);
    CHECK(smallest == 0);
    CHECK(c.tree_tokens[0] == 1010);
    CHECK(route(v, c, plain) != smallest);
  }
  SUBCASE("cache-aware keeps each shared prefix on few replicas: more prefix hits, lower TTFT") {
    // 8 replicas, 64 system prompts of 1,024 tokens (95 % of requests), short user prompts:
    // round-robin spreads every prefix over all 8 caches; cache-aware computes each about once.
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    v.n_replicas = 8;
    v.load.n_requests = 6000;
    v.load.warmup_requests = 500;
    v.load.rate_per_s = 120;
    v.load.prompt_kind = LengthKind::geometric;
    v.load.prompt_a = 100;
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = 50;
    v.load.prefix_share = 0.95;
    v.load.prefix_groups = 64;
    v.load.prefix_tokens = 1024;
    const ServingStats rr = run(v);
    v.router = Router::cache_aware;
    const ServingStats ca = run(v);
    CHECK(rr.completed == 6000);
    CHECK(ca.completed == 6000);
    const double hit_rr = double(rr.prefix_hit_tokens) / double(rr.prompt_tokens);
    const double hit_ca = double(ca.prefix_hit_tokens) / double(ca.prompt_tokens);
    CAPTURE(hit_rr);
    CAPTURE(hit_ca);
    CHECK(hit_ca > hit_rr);
    // (docs/serving-simulation.md quotes these; the ceiling is every prefixed request hitting:
    // 0.95 x 1,024 / (100 + 0.95 x 1,024) = 0.907)
    CHECK(hit_rr == doctest::Approx(0.825).epsilon(0.002));
    CHECK(hit_ca == doctest::Approx(0.896).epsilon(0.002));
    CHECK(hit_ca < 0.95 * 1024 / (100 + 0.95 * 1024));
    // each of the 64 prefixes misses about once per replica it lands on: 8 x 64 misses of
    // ~5,700 prefixed requests under round-robin, about 64 under cache-aware
    CHECK(ca.prefill_tokens < rr.prefill_tokens);
    CHECK(ca.ttft.moments.mean() < rr.ttft.moments.mean());
  }
  SUBCASE("outstanding tokens return to 0 when every request completes") {
    ServingView v = toy_view(0.01, 1000);
    v.n_replicas = 2;
    v.router = Router::least_outstanding_tokens;
    v.load.n_requests = 200;
    v.load.rate_per_s = 50;
    v.load.prompt_kind = LengthKind::geometric;
    v.load.prompt_a = 100;
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = 20;
    ClusterBuffers b(v, 256);
    run_cluster(v, b.state);
    CHECK(b.state.stats->completed == 200);
    for (uint32_t r = 0; r < 2; ++r) CHECK(b.state.replicas[r].outstanding_tokens == 0);
  }
}

TEST_CASE("serving::wait_trend") {
  // The M/M/8 of serving::erlang_c: at load 0.8 the admission wait has no trend. Offered
  // rho = 1.25 times its capacity, the request arriving at t is admitted once the rho t requests
  // that arrived before it per unit of capacity have been, at rho t: it waits (rho - 1) t.
  // NOTE: Approx with scale(0) is relative to the larger value; by default it also allows
  // epsilon in absolute terms, which no slope below 1 could fail.
  // NOTE: `stages` empty: Poisson at `lambda`; else the staged rates (lambda their mean).
  const auto slope = [](double lambda, uint64_t requests,
                        const std::vector<RateStage>& stages = {}) {
    ServingView v = toy_view(0.002, 1u << 20);
    v.sched.max_num_seqs = 8;
    v.sched.max_num_batched_tokens = 64;
    v.load.stages = {stages.data(), uint32_t(stages.size())};
    v.load.rate_per_s = stages.empty() ? lambda : mean_stage_rate(v.load.stages);
    v.load.n_requests = requests;
    v.load.warmup_requests = 500;
    v.load.prompt_a = 1;
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = 500;
    v.seed = 37;
    const ServingStats st = run(v, 1 << 16);
    REQUIRE_FALSE(st.saturated);  // no queue overflowed
    return st.wait_trend.slope();
  };
  SUBCASE("keeping up: no trend") {
    CHECK(std::abs(slope(6.4, 40000)) < 0.002);
  }
  SUBCASE("offered 1.25 times its capacity: the wait grows by 0.25 s per second") {
    // a capacity of 8 / 1.006 s (a prompt step and 503 sampled tokens on average at 2 ms):
    // rho - 1 = 0.258, not 1 - 1 / rho = 0.205
    CHECK(slope(10, 20000) == doctest::Approx(0.258).epsilon(0.03).scale(0));
    CHECK(slope(16, 20000) == doctest::Approx(1.01).epsilon(0.03).scale(0));
  }
  SUBCASE("staged rates: the trend compares whole cycles") {
    // The same M/M/8 (capacity 8 / 1 s = 8 requests/s), its arrivals cycling through stages.
    // 4/s for 400 s, then 12/s for 100 s, 1.5 times the capacity: a queue of about 400 builds
    // in every peak and drains before the cycle ends (a mean of 5.6/s), 10 cycles.
    CHECK(std::abs(slope(0, 28000, {{400, 4}, {500, 12}})) < 0.002);
    // 9/s and 8/s, 250 s each: a mean of 8.5/s, 1.07 times the capacity, so each cycle starts
    // behind the last; the wait grows by about 1.07 - 1 = 0.07 s per second.
    CHECK(slope(0, 20000, {{250, 9}, {500, 8}}) == doctest::Approx(0.07).epsilon(0.15).scale(0));
  }
  SUBCASE("the least-squares slope of known points") {
    WaitTrend t;
    for (double x : {0.0, 1.0, 2.0, 3.0}) add(t, x, 5 + 0.25 * x);
    CHECK(t.slope() == doctest::Approx(0.25).epsilon(1e-12));
    CHECK(WaitTrend{}.slope() == 0);
  }
}

TEST_CASE("serving::replay") {
  // A replayed trace: request k arrives at arrival_s[k] with row k's lengths, whatever the seed.
  const std::vector<double> at = {0.0, 0.0, 5.0, 5.0, 12.5};
  const std::vector<LengthRow> rows = {{100, 4}, {200, 5}, {300, 6}, {400, 7}, {500, 8}};
  ServingView v = toy_view(0.01, 1u << 16);
  v.load.prompt_kind = LengthKind::table;
  v.load.table = {rows.data(), uint32_t(rows.size())};
  v.load.arrival_s = {at.data(), uint32_t(at.size())};
  v.load.n_requests = at.size();
  SUBCASE("each request is its row at its time, for any seed") {
    for (uint64_t seed : {1u, 2u, 99u}) {
      v.seed = seed;
      for (uint64_t k = 0; k < at.size(); ++k) {
        const Request q = draw_request(v, k, k > 0 ? at[k - 1] : 0.0);
        CHECK(q.arrival_s == at[k]);
        CHECK(q.prompt == rows[k].prompt);
        CHECK(q.output == rows[k].output);
      }
    }
  }
  SUBCASE(
      "run as one step of 10 ms at a time: every request is served, and only the ones that "
      "arrive together wait for each other") {
    v.sched.max_num_seqs = 1;  // one sequence at a time: a request arriving with another waits
    v.sched.max_num_batched_tokens = 1024;
    const ServingStats st = run(v);
    CHECK(st.counted == at.size());
    CHECK(st.preemptions == 0);
    // Alone, a request takes one prefill step and output - 1 decode steps of 10 ms; two arriving
    // at 0 s: the second starts after the first's 4 steps; at 5 s, after 6 steps.
    CHECK(st.wait.moments.max == doctest::Approx(0.06).epsilon(1e-9));
    CHECK(st.wait.moments.sum == doctest::Approx(0.04 + 0.06).epsilon(1e-9));
  }
}

TEST_CASE("serving::stages") {
  // Staged constant rates: 10/s for 100 s, then 40/s for 50 s, the 150-s cycle repeating.
  const std::vector<RateStage> st = {{100, 10}, {150, 40}};
  const span<const RateStage> stages{st.data(), uint32_t(st.size())};
  SUBCASE("the mean rate is the cycle's: (10 x 100 + 40 x 50) / 150") {
    CHECK(mean_stage_rate(stages) == doctest::Approx(20.0).epsilon(1e-12));
  }
  SUBCASE("a unit exponential is spent at each stage's rate, across edges and cycles") {
    CHECK(staged_arrival(stages, 10, 2.0) == doctest::Approx(10.2).epsilon(1e-12));
    // From 95 s, E = 51: 50 spent by 100 s (5 s at 10/s), the last 1 at 40/s.
    CHECK(staged_arrival(stages, 95, 51.0) == doctest::Approx(100.025).epsilon(1e-12));
    // From 149 s, E = 41: 40 spent by the cycle's end, the last 1 at 10/s in the next cycle.
    CHECK(staged_arrival(stages, 149, 41.0) == doctest::Approx(150.1).epsilon(1e-12));
    // In a later cycle: 10 s into the third.
    CHECK(staged_arrival(stages, 310, 1.0) == doctest::Approx(310.1).epsilon(1e-12));
    // E spanning whole cycles: 3000 at a mean of 20/s is 150 s exactly, from any start.
    CHECK(staged_arrival(stages, 40, 3000.0) == doctest::Approx(190.0).epsilon(1e-12));
  }
  SUBCASE("drawn requests: each stage's count is Poisson(rate x length)") {
    ServingView v = toy_view(0.001, 1u << 16);
    v.load.stages = stages;
    v.load.rate_per_s = mean_stage_rate(stages);
    constexpr int CYCLES = 200;
    std::vector<double> low(CYCLES, 0), high(CYCLES, 0);  // arrivals per cycle in each stage
    double t = 0;
    for (uint64_t k = 0;; ++k) {
      t = draw_request(v, k, t).arrival_s;
      if (t >= CYCLES * 150.0) break;
      const int c = int(t / 150);
      (std::fmod(t, 150.0) < 100 ? low : high)[c] += 1;
    }
    for (const auto& stage : {std::pair{&low, 1000.0}, std::pair{&high, 2000.0}}) {
      // NOTE: no structured binding: clang 14 cannot capture one in CAPTURE.
      const std::vector<double>& counts = *stage.first;
      const double mean = stage.second;
      double sum = 0, sum2 = 0;
      for (double n : counts) sum += n, sum2 += n * n;
      const double m = sum / CYCLES, var = (sum2 - CYCLES * m * m) / (CYCLES - 1);
      CAPTURE(mean);
      // The mean within 5 standard errors; the variance equal to it (Poisson) within 4 of the
      // sample variance's (its relative standard error is sqrt(2 / 199), 10 %).
      CHECK(std::abs(m - mean) < 5 * std::sqrt(mean / CYCLES));
      CHECK(var / mean == doctest::Approx(1.0).epsilon(0.4));
    }
  }
}

TEST_CASE("serving::streams") {
  // Closed loop: each stream sends its next request a pause of mean `think` after its previous
  // one completes.
  ServingView v = toy_view(0.01, 1u << 16);  // every step 10 ms
  v.sched.max_num_seqs = 64;
  v.sched.max_num_batched_tokens = 1024;
  v.load.prompt_a = 1;
  SUBCASE("one stream: each request alone, after a pause of mean `think`") {
    v.load.output_a = 5;  // a prefill step and four decode steps: 50 ms
    v.load.streams = 1;
    v.load.think_s = 0.02;
    v.load.n_requests = 4000;
    const ServingStats st = run(v);
    CHECK(st.counted == 4000);
    CHECK(st.e2e.moments.mean() == doctest::Approx(0.05).epsilon(1e-9));
    CHECK(st.e2e.moments.max == doctest::Approx(0.05).epsilon(1e-9));
    CHECK(st.wait.moments.max == 0);
    // The run is 4,000 answers of 50 ms and 4,000 pauses (the first before any request): their
    // mean within 5 standard errors (an exponential's is its mean over sqrt(4000)) of 20 ms.
    const double pause = (st.end_s - 4000 * 0.05) / 4000;
    CHECK(std::abs(pause - 0.02) < 5 * 0.02 / std::sqrt(4000.0));
  }
  SUBCASE("many streams: Little's law, streams = throughput x (end to end + think)") {
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = 20;
    v.load.streams = 32;
    v.load.think_s = 0.1;
    v.load.n_requests = 40000;
    v.load.warmup_requests = 4000;
    v.seed = 5;
    const ServingStats st = run(v);
    REQUIRE_FALSE(st.saturated);
    const double throughput = double(st.counted) / (st.end_s - st.first_counted_arrival_s);
    const double in_loop = throughput * (st.e2e.moments.mean() + v.load.think_s);
    CHECK(in_loop == doctest::Approx(32).epsilon(0.02));
  }
  SUBCASE("a ramp spreads the streams' first requests; without one they arrive together") {
    // 256 streams, one request each of 50 ms, on 64 slots.
    v.load.output_a = 5;
    v.load.streams = 256;
    v.load.n_requests = 256;
    const ServingStats together = run(v);
    CHECK(together.counted == 256);
    CHECK(together.first_counted_arrival_s == 0);
    // three of four wait behind the first 64, up to two answers' time
    CHECK(together.wait.moments.max >= 0.1);
    v.load.ramp_s = 10;
    const ServingStats spread = run(v);
    CHECK(spread.counted == 256);
    // the earliest of 256 uniform starts over 10 s: about 39 ms (past 0.5 s: p = 2e-6)
    CHECK(spread.first_counted_arrival_s > 0);
    CHECK(spread.first_counted_arrival_s < 0.5);
    // A started stream sends again at once (no pause), a request each 50-60 ms (its five steps
    // and the rest of the step it arrives in), while 25.6 streams a second join: the 256
    // requests are sent by T with 25.6 T^2 / 2 / 0.055 = 256, T = 1.05 s, by about 27 streams.
    CHECK(spread.end_s > 0.9);
    CHECK(spread.end_s < 1.2);
    // so they never fill 64 slots: no wait beyond a step's end
    CHECK(spread.wait.moments.max <= 0.01 + 1e-12);
  }
}

TEST_CASE("serving::conversations") {
  // One user (a stream, no pause) in conversations of 3 turns: messages of 100 tokens, answers
  // of 50, blocks of 16. Turn 1: prompt 100, no hit; it ends with 149 tokens computed (the last
  // answer token is sampled, never computed): 9 full blocks kept. Turn 2: prompt 150 + 100 =
  // 250, hits 9 blocks (144 tokens); ends with 299 computed: 18 blocks. Turn 3: prompt 400,
  // hits 288. The conversation then ends and its blocks are dropped: the next one's first turn
  // hits nothing. Per conversation: 750 prompt tokens, 432 hit.
  ServingView v = toy_view(0.01, 1u << 12);
  v.load.prompt_a = 100;
  v.load.output_a = 50;
  v.load.streams = 1;
  v.load.n_requests = 30;
  v.load.turns_a = 3;
  v.load.max_context = 1u << 20;
  SUBCASE("each turn's prompt is the conversation so far; the kept blocks are hit") {
    const ServingStats st = run(v);
    CHECK(st.completed == 30);
    CHECK(st.prompt_tokens == 10 * 750);
    CHECK(st.prefix_hit_tokens == 10 * 432);
    CHECK(st.prefill_tokens == 10 * (750 - 432));
    CHECK(st.sampled_tokens == 30 * 50);
  }
  SUBCASE("without prefix caching every turn computes its whole prompt") {
    v.sched.prefix_caching = false;
    const ServingStats st = run(v);
    CHECK(st.prompt_tokens == 10 * 750);
    CHECK(st.prefix_hit_tokens == 0);
  }
  SUBCASE("a turn that would pass max_context opens a new conversation") {
    // Turn 2 reaches 150 + 150 = 300 tokens, at the limit; turn 3 would reach 450, so it opens
    // a conversation instead (and the old one's blocks go): prompts 100, 250, 100, 250, ...
    v.load.max_context = 300;
    const ServingStats st = run(v);
    CHECK(st.prompt_tokens == 15 * 350);
    CHECK(st.prefix_hit_tokens == 15 * 144);
  }
  SUBCASE("the replica that answered holds the conversation: routers on both sides") {
    v.n_replicas = 4;
    v.router = Router::round_robin;
    // Each turn at another replica: never a hit (and the last conversation's blocks, still
    // there, are not hit by the next one's turns).
    CHECK(run(v).prefix_hit_tokens == 0);
    // Two replicas: turn 3 returns to turn 1's, whose 9 blocks it hits.
    v.n_replicas = 2;
    CHECK(run(v).prefix_hit_tokens == 10 * 144);
    // The cache-aware router sends a turn whose history is over half its prompt to the replica
    // it sent the conversation to: every hit of one replica.
    v.n_replicas = 4;
    v.router = Router::cache_aware;
    CHECK(run(v).prefix_hit_tokens == 10 * 432);
  }
  SUBCASE("turns of mean m: geometric, from one per conversation") {
    v.load.turns_kind = LengthKind::geometric;
    v.load.turns_a = 4;
    ClusterBuffers b(v, 16);
    const int n = 20000;
    double sum = 0;
    uint32_t least = serving::NONE;
    for (int k = 0; k < n; ++k) {
      Request q;
      q.id = uint32_t(k);
      q.stream = 0;
      q.prompt = 100;
      send_turn(v, b.state, q);
      const uint32_t turns = b.state.turns_left[0] + 1;
      sum += turns;
      least = turns < least ? turns : least;
    }
    // mean 4 within 5 standard errors (a geometric of mean 4 has sd sqrt(12))
    CHECK(std::abs(sum / n - 4) < 5 * std::sqrt(12.0 / n));
    CHECK(least == 1);
  }
  SUBCASE("under KV pressure every turn completes and the blocks all return") {
    ServingView p = kv_pressure_view(100, 60);
    p.load.streams = 16;
    p.load.n_requests = 3000;
    p.load.turns_kind = LengthKind::geometric;
    p.load.turns_a = 4;
    p.load.max_context = 1000;
    ClusterBuffers b(p, 64);
    run_cluster(p, b.state);
    const ServingStats& st = *b.state.stats;
    CHECK(!st.saturated);
    CHECK(st.completed == 3000);
    CHECK(st.preemptions > 0);
    CHECK(st.prefix_hit_tokens > 0);
    CHECK(st.kv_peak_blocks <= 200);
    for (uint32_t r = 0; r < 2; ++r) {
      const ReplicaState& s = b.state.replicas[r];
      CHECK(s.private_blocks == 0);
      CHECK(s.cached_blocks == s.evictable_blocks);
      uint64_t entries = 0;
      for (uint32_t g = 0; g < s.group_blocks.size; ++g) entries += s.group_blocks[g];
      CHECK(entries == s.cached_blocks);
    }
  }
}

TEST_CASE("serving::quiet_runs") {
  // Quiet runs (sim/serving/quiet_steps.h) sum a run of decode steps instead of walking the
  // batch: every statistic must come out bit for bit as step by step, whatever the workload.
  const auto same = [](ServingView v) {
    v.quiet_runs = false;
    const ServingStats slow = run(v, 1024);
    v.quiet_runs = true;
    const ServingStats fast = run(v, 1024);
    CHECK(fast.completed == slow.completed);
    CHECK(fast.steps == slow.steps);
    CHECK(fast.preemptions == slow.preemptions);
    CHECK(fast.prefix_hit_tokens == slow.prefix_hit_tokens);
    CHECK(fast.itl.moments.sum == slow.itl.moments.sum);
    CHECK(fast.kv_block_s == slow.kv_block_s);
    CHECK(fast.end_s == slow.end_s);
    // NOTE: value-initialized (padding zeroed) and then only assigned: bytes compare.
    CHECK(std::memcmp(&fast, &slow, sizeof(ServingStats)) == 0);
    return slow;
  };
  ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
  v.sched.max_num_batched_tokens = 2048;
  v.sched.max_num_seqs = 128;
  v.sched.async_scheduling = true;
  v.n_replicas = 4;
  v.router = Router::least_outstanding_tokens;
  v.load.rate_per_s = 40;
  v.load.n_requests = 8000;
  v.load.warmup_requests = 500;
  v.load.prompt_kind = LengthKind::geometric;
  v.load.prompt_a = 1000;
  v.load.output_kind = LengthKind::geometric;
  v.load.output_a = 200;
  v.load.prefix_share = 0.5;
  v.load.prefix_groups = 8;
  v.load.prefix_tokens = 512;
  v.load.ttft_slo_s = 0.5;
  v.load.tpot_slo_s = 0.05;
  SUBCASE("chat behind each router") {
    CHECK(same(v).steps > 0);
    v.router = Router::round_robin;
    same(v);
    v.router = Router::cache_aware;
    same(v);
    v.sched.async_scheduling = false;
    same(v);
  }
  SUBCASE("a KV cache short of blocks: evictions and preemptions") {
    v.sched.kv_blocks = 2000;
    CHECK(same(v).preemptions > 0);
  }
  SUBCASE("disaggregated prefill and decode") {
    v.n_prefill = 2;
    v.kv_transfer_bandwidth = 50e9;
    v.kv_transfer_latency_s = 1e-3;
    same(v);
  }
  SUBCASE("autoscaled over staged rates") {
    const RateStage stages[] = {{600, 20}, {1200, 60}};
    v.load.stages = {stages, 2};
    v.load.rate_per_s = 40;
    v.autoscale.min_replicas = 1;
    v.autoscale.max_replicas = v.n_replicas = 8;
    v.autoscale.target_requests = 24;
    v.autoscale.provision_s = 60;
    CHECK(same(v).scale_ups > 0);
  }
  SUBCASE("closed-loop users in conversations") {
    v.load.prefix_share = 0;
    v.load.prefix_groups = 0;
    v.load.streams = 300;
    v.load.think_s = 2;
    v.load.turns_kind = LengthKind::geometric;
    v.load.turns_a = 4;
    v.load.max_context = 8192;
    v.router = Router::cache_aware;
    CHECK(same(v).prefix_hit_tokens > 0);
  }
}

TEST_CASE("serving::erlang_c") {
  SUBCASE("with c slots, Poisson arrivals and memoryless lengths the mean wait is Erlang C's") {
    // M/M/c: every step takes T = 2 ms whatever its batch, prompts of 1 token, outputs geometric
    // with mean 500 steps (service ~ exponential, mean 1 s), c = 8 slots, load 0.8. A request
    // arriving during a step waits for its end: T / 2 on top of the queue's wait while busy.
    const double T = 0.002, mean_out = 500, lambda = 6.4;
    const uint32_t c = 8, reps = 8;
    ServingView v = toy_view(T, 1u << 20);
    v.sched.max_num_seqs = c;
    v.sched.max_num_batched_tokens = 64;
    v.load.rate_per_s = lambda;
    v.load.n_requests = 40000;
    v.load.warmup_requests = 2000;
    v.load.prompt_a = 1;
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = mean_out;
    double sum = 0, sum2 = 0;
    for (uint32_t k = 0; k < reps; ++k) {
      v.seed = 37;
      v.mc_replica = k;
      const ServingStats st = run(v, 1 << 14);
      REQUIRE(!st.saturated);
      const double w = st.wait.moments.mean() - T / 2;
      sum += w;
      sum2 += w * w;
    }
    const double mean = sum / reps;
    const double sd = std::sqrt((sum2 - reps * mean * mean) / (reps - 1));
    const double half = 2.365 * sd / std::sqrt(double(reps));  // t(0.975, 7)
    const double erlang = queueing::mmc_mean_wait_s(c, lambda, 1 / (mean_out * T));
    CAPTURE(mean);
    CAPTURE(half);
    CAPTURE(erlang);
    // Erlang C: W = C(8, 6.4) / (8 - 6.4) = 0.2860 s; the simulation gave 0.292 ± 0.016 (seed 37)
    CHECK(std::abs(mean - erlang) <= half);
    CHECK(half < 0.1 * erlang);
  }
}

TEST_CASE("serving::invariants") {
  SUBCASE("under KV pressure every request completes, blocks all return and no rule breaks") {
    // 200 blocks (3,200 tokens) for up to 32 sequences of ~500 tokens: preemptions are certain.
    ServingView v = kv_pressure_view(300, 200);
    v.load.rate_per_s = 4;
    v.load.n_requests = 2000;
    v.load.prefix_share = 0.5;
    v.load.prefix_groups = 4;
    v.load.prefix_tokens = 64;
    ClusterBuffers b(v, 4096);
    run_cluster(v, b.state);
    const ServingStats& st = *b.state.stats;
    CHECK(!st.saturated);
    CHECK(st.completed == 2000);
    CHECK(st.preemptions > 0);
    CHECK(st.prefix_hit_tokens > 0);
    CHECK(st.max_step_tokens <= 256);
    CHECK(st.max_running <= 32);
    CHECK(st.kv_peak_blocks <= 200);
    // every output token sampled once: the requests' outputs summed
    uint64_t outputs = 0;
    double t = 0;
    for (uint64_t k = 0; k < 2000; ++k) {
      const Request q = draw_request(v, k, t);
      t = q.arrival_s;
      outputs += q.output;
    }
    CHECK(st.sampled_tokens == outputs);
    for (uint32_t r = 0; r < 2; ++r) {
      const ReplicaState& s = b.state.replicas[r];
      CHECK(s.n_running == 0);
      CHECK(s.n_waiting == 0);
      CHECK(s.private_blocks == 0);
      // only cached prefixes nobody uses remain
      CHECK(s.cached_blocks == s.evictable_blocks);
      CHECK(s.outstanding_tokens == 0);
    }
    // The time series holds the same block-seconds and preemptions as the totals, in bins that
    // widened from the arrivals' expected span (500 s over 64 bins) to cover the whole run.
    double block_s = 0;
    uint64_t preempted = 0;
    for (uint32_t k = 0; k < SERIES_BINS; ++k) {
      block_s += st.series.kv_block_s[k];
      preempted += st.series.preemptions[k];
    }
    CHECK(block_s == doctest::Approx(st.kv_block_s).epsilon(1e-9));
    CHECK(preempted == st.preemptions);
    CHECK(st.series.width_s * SERIES_BINS > st.end_s);
    CHECK(st.series.width_s / series_width(v) ==
          std::exp2(std::round(std::log2(st.series.width_s / series_width(v)))));
  }
}

TEST_CASE("serving::series") {
  ServingSeries s;
  s.width_s = 1;
  SUBCASE("an interval is split over the bins it crosses") {
    series_add_blocks(s, 0.5, 3.5, 2);
    CHECK(s.kv_block_s[0] == 1.0);
    CHECK(s.kv_block_s[1] == 2.0);
    CHECK(s.kv_block_s[2] == 2.0);
    CHECK(s.kv_block_s[3] == 1.0);
    series_add_blocks(s, 4, 4, 7);  // an empty interval adds nothing
    CHECK(s.kv_block_s[4] == 0.0);
  }
  SUBCASE("a time past the last bin doubles the width until it fits, keeping every total") {
    series_add_blocks(s, 0.5, 3.5, 2);
    series_add_preemption(s, 2.5);
    series_add_preemption(s, 1000);  // 1,000 s needs 8 s bins (128 x 8 = 1,024)
    CHECK(s.width_s == 8);
    CHECK(s.kv_block_s[0] == 6.0);
    CHECK(s.preemptions[0] == 1);
    CHECK(s.preemptions[125] == 1);       // 1,000 / 8
    series_add_blocks(s, 1020, 1030, 1);  // crosses the end: widens to 16 s first
    CHECK(s.width_s == 16);
    CHECK(s.kv_block_s[63] == doctest::Approx(4.0).epsilon(1e-12));  // [1008, 1024)
    CHECK(s.kv_block_s[64] == doctest::Approx(6.0).epsilon(1e-12));  // [1024, 1040)
    CHECK(s.preemptions[62] == 1);                                   // 1,000 / 16
  }
}

TEST_CASE("serving::disaggregated") {
  // Llama-3-8B on H100, TP 1: one prefill and one decode replica, 50 GB/s and 1 ms per transfer.
  const auto disaggregated = [](ServingView v, uint32_t prefill, uint32_t decode) {
    v.n_replicas = prefill + decode;
    v.n_prefill = prefill;
    v.kv_transfer_bandwidth = 50e9;
    v.kv_transfer_latency_s = 1e-3;
    return v;
  };
  SUBCASE("one request: the colocated end to end plus the KV transfer, the same TTFT") {
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    v.load.n_requests = 1;
    v.load.prompt_a = 1000;
    v.load.output_a = 50;
    const ServingView d = disaggregated(v, 1, 1);
    // 128 KiB of KV per token (32 layers x 8 KV heads x 128 x 2 bytes x K and V): 1,000 tokens
    // are 131 MB, 2.62 ms at 50 GB/s, plus 1 ms
    CHECK(v.step.kv_bytes_per_token == 131072);
    const double transfer = 1e-3 + 131072.0 * 1000 / 50e9;
    CHECK(kv_transfer_s(d, 1000) == doctest::Approx(transfer).epsilon(1e-12));
    ClusterBuffers b(d, 16);
    run_cluster(d, b.state);
    const ServingStats& st = *b.state.stats;
    const ServingStats alone = run(v);
    REQUIRE(st.completed == 1);
    CHECK(st.ttft.moments.sum == doctest::Approx(alone.ttft.moments.sum).epsilon(1e-12));
    CHECK(st.e2e.moments.sum == doctest::Approx(alone.e2e.moments.sum + transfer).epsilon(1e-12));
    // the same tokens computed: the prompt once (on the prefill replica), 49 decodes
    CHECK(st.prefill_tokens == alone.prefill_tokens);
    CHECK(st.decode_tokens == alone.decode_tokens);
    CHECK(st.decode_tokens == 49);
    for (uint32_t r = 0; r < 2; ++r) {
      CHECK(b.state.replicas[r].outstanding_tokens == 0);
      CHECK(b.state.replicas[r].private_blocks == 0);
    }
    CHECK(b.state.transfers.n == 0);
  }
  SUBCASE(
      "decode replicas of another GPU: TTFT from the prefill GPU, decodes at the decode GPU's") {
    // Splitwise's mixed pools: prompts on an H100, decodes on an A100 (TP 1 each). One request
    // takes the H100's colocated TTFT, then the transfer, then exactly the decoding time it has
    // alone on an A100: its decode steps hold it alone, with the same contexts.
    ServingView h100 = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    const ServingView a100 = view_of("llama-3-8b", "A100-80GB", "nvlink3", 1);
    h100.load.n_requests = 1;
    h100.load.prompt_a = 1000;
    h100.load.output_a = 50;
    ServingView a100_alone = a100;
    a100_alone.load = h100.load;
    ServingView mixed = disaggregated(h100, 1, 1);
    mixed.decode_shape = true;
    mixed.decode_step = a100.step;
    mixed.decode_kv_blocks = a100.sched.kv_blocks;
    mixed.decode_gpus_per_replica = 1;
    REQUIRE(a100.step.bandwidth < h100.step.bandwidth);
    const ServingStats st = run(mixed);
    const ServingStats on_h100 = run(h100), on_a100 = run(a100_alone);
    REQUIRE(on_a100.completed == 1);
    REQUIRE(st.completed == 1);
    CHECK(st.ttft.moments.sum == doctest::Approx(on_h100.ttft.moments.sum).epsilon(1e-12));
    // after the KV transfer, its 49 decodes take what they take alone on an A100
    const double decoding_on_a100 = on_a100.e2e.moments.sum - on_a100.ttft.moments.sum;
    CHECK(st.e2e.moments.sum ==
          doctest::Approx(on_h100.ttft.moments.sum + kv_transfer_s(mixed, 1000) + decoding_on_a100)
              .epsilon(1e-12));
    CHECK(decoding_on_a100 > on_h100.e2e.moments.sum - on_h100.ttft.moments.sum);
    // the KV cache is measured against each replica's own: a decode replica's peak share is its
    // blocks over the A100's, not the H100's
    const double decode_blocks = std::ceil(1050.0 / 16);
    CHECK(st.kv_peak_share >= decode_blocks / a100.sched.kv_blocks);
    CHECK(cluster_gpus(mixed) == 2);
    CHECK(cluster_kv_blocks(mixed) == double(h100.sched.kv_blocks) + double(a100.sched.kv_blocks));
    // the same shape given as the decode pool's own changes nothing
    ServingView same = disaggregated(h100, 1, 1);
    const ServingStats plain = run(same);
    same.decode_shape = true;
    same.decode_step = h100.step;
    same.decode_kv_blocks = h100.sched.kv_blocks;
    const ServingStats explicit_same = run(same);
    CHECK(explicit_same.e2e.moments.sum == plain.e2e.moments.sum);
    CHECK(explicit_same.tpot.moments.sum == plain.tpot.moments.sum);
    CHECK(explicit_same.kv_peak_share == plain.kv_peak_share);
  }
  SUBCASE("a one-token answer ends on the prefill replica: nothing is transferred") {
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    v.load.n_requests = 1;
    v.load.prompt_a = 1000;
    v.load.output_a = 1;
    const ServingStats st = run(disaggregated(v, 1, 1));
    CHECK(st.completed == 1);
    CHECK(st.decode_tokens == 0);
    CHECK(st.e2e.moments.sum == doctest::Approx(st.ttft.moments.sum).epsilon(1e-12));
  }
  SUBCASE("the transfer heap hands KV caches over in arrival order, ties by request id") {
    Transfer items[8];
    TransferQueue q{{items, 8}, 0};
    const double at[] = {5, 1, 3, 1, 4, 2, 9, 0.5};
    for (uint64_t k = 0; k < 8; ++k) {
      Transfer t;
      t.at_s = at[k];
      t.req.id = k;
      CHECK(push_transfer(q, t));
    }
    CHECK_FALSE(push_transfer(q, Transfer{}));  // full
    const uint64_t order[] = {7, 1, 3, 5, 2, 4, 0, 6};
    for (uint64_t k : order) CHECK(pop_transfer(q).req.id == k);
    CHECK(q.n == 0);
  }
  SUBCASE("decode steps without prefill chunks: a lower TPOT tail on the same GPUs") {
    // Long prompts, 4 GPUs either way: colocated, every decode shares steps with 2,048-token
    // prefill chunks; disaggregated, decode steps hold decodes only (DistServe's point).
    ServingView v = view_of("llama-3-8b", "H100-SXM", "nvlink4", 1);
    v.sched.max_num_batched_tokens = 2048;
    v.n_replicas = 4;
    v.router = Router::least_outstanding_tokens;
    v.load.n_requests = 3000;
    v.load.warmup_requests = 300;
    v.load.rate_per_s = 8;
    v.load.prompt_kind = LengthKind::geometric;
    v.load.prompt_a = 3000;
    v.load.output_kind = LengthKind::geometric;
    v.load.output_a = 150;
    const ServingStats colocated = run(v);
    ClusterBuffers b(disaggregated(v, 2, 2), 4096);
    run_cluster(disaggregated(v, 2, 2), b.state);
    const ServingStats& split = *b.state.stats;
    REQUIRE_FALSE(colocated.saturated);
    REQUIRE_FALSE(split.saturated);
    CHECK(colocated.completed == 3000);
    CHECK(split.completed == 3000);
    const auto p99 = [](const Latency& l) { return sketch_quantile(l.sketch, 0.99); };
    CAPTURE(p99(colocated.tpot));
    CAPTURE(p99(split.tpot));
    CAPTURE(p99(colocated.ttft));
    CAPTURE(p99(split.ttft));
    CHECK(p99(split.tpot) < p99(colocated.tpot));
    // every KV cache arrived and every replica emptied
    CHECK(b.state.transfers.n == 0);
    for (uint32_t r = 0; r < 4; ++r) {
      CHECK(b.state.replicas[r].outstanding_tokens == 0);
      CHECK(b.state.replicas[r].private_blocks == 0);
      CHECK(b.state.replicas[r].n_running == 0);
    }
  }
}

TEST_CASE("serving::autoscaling") {
  // Requests of one prompt token and 50 output tokens on 10 ms steps whatever the batch: each
  // holds a slot about 0.5 s, so a Poisson rate of L requests/s keeps about L / 2 in flight.
  ServingView v = toy_view(0.01, 1u << 16);
  v.sched.max_num_seqs = 128;
  v.sched.max_num_batched_tokens = 1024;
  v.load.prompt_a = 1;
  v.load.output_a = 50;
  v.load.warmup_requests = 0;
  v.autoscale.min_replicas = 1;
  v.autoscale.max_replicas = 16;
  v.autoscale.target_requests = 16;
  v.autoscale.interval_s = 15;
  v.autoscale.scale_down_delay_s = 300;
  v.n_replicas = 16;
  v.seed = 11;
  const auto mean_replicas = [](const ServingStats& st) { return st.replica_s / st.end_s; };

  SUBCASE("bounds that leave no choice serve as the fixed cluster does, billed the whole run") {
    ServingView fixed = v;
    fixed.autoscale = Autoscale{};
    fixed.n_replicas = 4;
    fixed.load.rate_per_s = 100;
    fixed.load.n_requests = 20000;
    ServingView pinned = fixed;
    pinned.autoscale = v.autoscale;
    pinned.autoscale.min_replicas = pinned.autoscale.max_replicas = 4;
    const ServingStats a = run(fixed), b = run(pinned);
    CHECK(b.ttft.moments.sum == a.ttft.moments.sum);
    CHECK(b.e2e.moments.max == a.e2e.moments.max);
    CHECK(b.end_s == a.end_s);
    CHECK(b.replica_s == doctest::Approx(4 * b.end_s).epsilon(1e-12));
    CHECK(b.peak_replicas == 4);
    CHECK(b.scale_ups + b.scale_downs == 0);
  }

  SUBCASE("the count follows the concurrency: ceil(mean in flight / target), either side of it") {
    // 100 requests/s keep about 50 in flight: 50 / 16 wants 4 replicas (a 15 s mean past 64, for
    // a fifth, never comes); 10/s keep 5 in flight: one replica, the minimum.
    v.autoscale.provision_s = 0;
    v.load.rate_per_s = 100;
    v.load.n_requests = 120000;  // 20 minutes
    const ServingStats busy = run(v);
    REQUIRE_FALSE(busy.saturated);
    CAPTURE(mean_replicas(busy));
    // four from the first evaluation on (one before it)
    CHECK(mean_replicas(busy) > 3.9);
    CHECK(mean_replicas(busy) <= 4);
    CHECK(busy.peak_replicas == 4);
    v.load.rate_per_s = 10;
    v.load.n_requests = 12000;
    const ServingStats quiet = run(v);
    CAPTURE(mean_replicas(quiet));
    CHECK(mean_replicas(quiet) < 1.05);
    CHECK(quiet.peak_replicas <= 2);
    // a target above any surge wants one replica for the busy load too
    v.load.rate_per_s = 100;
    v.load.n_requests = 120000;
    v.autoscale.target_requests = 128;
    CHECK(mean_replicas(run(v)) == doctest::Approx(1));
  }

  SUBCASE("a surge waits out the provisioning; the count comes back down after the delay") {
    // 32 slots a replica serve 64 requests/s. 10 minutes at 20/s (10 in flight: one replica
    // wanted on 24 each), 10 at 100/s (50 in flight: three wanted), 20 at 20/s.
    const std::vector<RateStage> stages = {{600, 20}, {1200, 100}, {2400, 20}};
    v.sched.max_num_seqs = 32;
    v.load.stages = {stages.data(), uint32_t(stages.size())};
    v.load.rate_per_s = mean_stage_rate(v.load.stages);
    v.load.n_requests = 20 * 600 + 100 * 600 + 20 * 1200;
    v.autoscale.max_replicas = v.n_replicas = 8;
    v.autoscale.target_requests = 24;
    v.autoscale.interval_s = 5;
    v.autoscale.provision_s = 0;
    const ServingStats at_once = run(v, 1u << 14);
    v.autoscale.provision_s = 120;
    const ServingStats slow = run(v, 1u << 14);
    REQUIRE_FALSE(at_once.saturated);
    REQUIRE_FALSE(slow.saturated);
    CAPTURE(at_once.wait.moments.max);
    CAPTURE(slow.wait.moments.max);
    CAPTURE(at_once.peak_replicas);
    CAPTURE(slow.peak_replicas);
    // Two minutes of 100/s on one replica's 64/s queue about 36 x 120 = 4,320 requests, a
    // minute's work for the replicas that then start; at once, five seconds' worth at most.
    CHECK(slow.wait.moments.max > 20);
    CHECK(at_once.wait.moments.max < 5);
    // Both reach at least the surge's count; the series shows one replica before and after it.
    for (const ServingStats* st : {&at_once, &slow}) {
      CHECK(st->peak_replicas >= 3);
      CHECK(st->scale_ups >= 1);
      CHECK(st->scale_downs >= 1);
      const ServingSeries& s = st->series;
      const uint32_t first = static_cast<uint32_t>(500 / s.width_s);
      const uint32_t last = static_cast<uint32_t>(2300 / s.width_s);
      CHECK(s.replica_s[first] == doctest::Approx(s.width_s));  // one replica the whole bin
      CHECK(s.replica_s[last] == doctest::Approx(s.width_s));
      // the series holds every billed replica-second
      double sum = 0;
      for (uint32_t b = 0; b < SERIES_BINS; ++b) sum += s.replica_s[b];
      CHECK(sum == doctest::Approx(st->replica_s).epsilon(1e-9));
    }
    // Slow provisioning queues more, so the scaler asks for more, and bills more.
    CHECK(slow.peak_replicas >= at_once.peak_replicas);
  }
}
