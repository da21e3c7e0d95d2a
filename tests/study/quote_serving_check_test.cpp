//! The quote's step-by-step check of an inference sizing (study/quote_serving_check.h): what a
//! correct check must show of a sized option, an overloaded one and a target on either side of
//! the simulated p99.
#include <doctest/doctest.h>

#include <cmath>

#include "models/catalog/catalog.h"
#include "models/catalog/catalog_age.h"
#include "models/input/diagnostic.h"
#include "study/quote_serving_check.h"
#include "tests/models/quote/chat_request.h"

using namespace gpuplan;
using namespace gpuplan::quote;

TEST_CASE("quote::serving_check") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const InferenceRequest req = chat_request();
  const InferenceOption opt =
      size_inference(req, QuoteOptions{}, p5, h100, PricingPlan{Pricing::on_demand, 0});
  REQUIRE(opt.feasible);
  const auto sim = simulate_serving(req, opt, 40000, 42);
  REQUIRE(sim.has_value());
  CAPTURE(opt.sizing.replicas);
  CAPTURE(opt.sizing.batch);
  CAPTURE(sim->ttft_p99.mean);
  CAPTURE(sim->tpot_p99.mean);

  SUBCASE("the sized option meets its targets step by step, each figure inside its interval") {
    CHECK(sim->replications == SERVING_CHECK_REPLICATIONS);
    CHECK(sim->max_num_seqs == opt.sizing.batch);
    // vLLM's default budget for an 80 GB H100 (its OpenAI server's, GPUs of 70 GiB or more)
    CHECK(sim->max_num_batched_tokens == 8192);
    // 10,000 a run, 10 % of them warmup
    CHECK(sim->requests == 4 * 9000);
    CHECK_FALSE(sim->saturated);
    CHECK(sim->meets_targets);
    CHECK(sim->slo_attainment.mean >= 0.99);
    for (const Estimate* e :
         {&sim->slo_attainment, &sim->ttft_p99, &sim->tpot_p99, &sim->e2e_p99}) {
      CHECK(e->ci95_low <= e->mean);
      CHECK(e->mean <= e->ci95_high);
    }
    // A request's whole time holds its first token and every later one.
    CHECK(sim->e2e_p99.mean > sim->ttft_p99.mean);
    // Flow conservation: a cluster that keeps up generates what arrives, 200/s x 200 tokens
    // (the runs include their fill and drain, hence the few percent).
    CHECK(sim->output_tokens_per_s == doctest::Approx(200.0 * 200).epsilon(0.05));
  }

  SUBCASE("the verdict switches where a target crosses the simulated p99") {
    for (double InferenceRequest::*target :
         {&InferenceRequest::ttft_p99_s, &InferenceRequest::tpot_p99_s,
          &InferenceRequest::p99_latency_s}) {
      const double p99 = target == &InferenceRequest::ttft_p99_s   ? sim->ttft_p99.mean
                         : target == &InferenceRequest::tpot_p99_s ? sim->tpot_p99.mean
                                                                   : sim->e2e_p99.mean;
      InferenceRequest r = req;
      r.*target = 1.02 * p99;
      CHECK(serving_meets_targets(r, *sim));
      r.*target = 0.98 * p99;
      CHECK_FALSE(serving_meets_targets(r, *sim));
    }
    // A saturated run meets nothing, whatever its p99s.
    ServingCheck stuck = *sim;
    stuck.saturated = true;
    CHECK_FALSE(serving_meets_targets(req, stuck));
  }

  SUBCASE("a TTFT target below most requests' TTFT is met by few of them") {
    InferenceRequest tight = req;
    tight.ttft_p99_s = 0.5 * sim->ttft_p99.mean;
    const auto t = simulate_serving(tight, opt, 40000, 42);
    REQUIRE(t.has_value());
    CHECK(t->slo_attainment.mean < 0.99);
    CHECK_FALSE(t->meets_targets);
    // the same runs: only the targets changed
    CHECK(t->ttft_p99.mean == sim->ttft_p99.mean);
  }

  SUBCASE("the same replicas offered three times the load cannot keep up, and say so") {
    InferenceRequest surge = req;
    surge.requests_per_s = 3 * req.requests_per_s;
    const auto s = simulate_serving(surge, opt, 40000, 42);
    REQUIRE(s.has_value());
    CHECK(s->saturated);
    CHECK_FALSE(s->meets_targets);
  }

  SUBCASE("same seed, same figures") {
    const auto again = simulate_serving(req, opt, 40000, 42);
    REQUIRE(again.has_value());
    CHECK(again->ttft_p99.mean == sim->ttft_p99.mean);
    CHECK(again->slo_attainment.ci95_low == sim->slo_attainment.ci95_low);
    CHECK(again->output_tokens_per_s == sim->output_tokens_per_s);
  }

  SUBCASE("a cluster wider than one run holds in memory is not simulated") {
    InferenceOption wide = opt;
    wide.sizing.replicas = 100000;
    CHECK_FALSE(simulate_serving(req, wide, 40000, 42).has_value());
  }
}

TEST_CASE("quote::serving_check::streams") {
  const Catalog& cat = builtin_catalog();
  InferenceRequest req = chat_request();
  req.requests_per_s = 0;
  req.concurrent_streams = 1000;
  const InferenceOption opt =
      size_inference(req, QuoteOptions{}, *cat.find_instance("p5.48xlarge"),
                     *cat.find_gpu("H100-SXM"), PricingPlan{Pricing::on_demand, 0});
  REQUIRE(opt.feasible);
  const auto sim = simulate_serving(req, opt, 40000, 7);
  REQUIRE(sim.has_value());
  CAPTURE(sim->ttft_p99.mean);
  CAPTURE(sim->tpot_p99.mean);
  CHECK_FALSE(sim->saturated);
  CHECK(sim->meets_targets);
  // Every stream always has a request in flight (no pause), so by Little's law the cluster
  // generates streams x 200 tokens per mean request time, and a request takes about its TTFT
  // plus 200 TPOTs at most (the p99s); 10 % for the runs' fill and drain.
  CHECK(sim->output_tokens_per_s >=
        0.9 * req.concurrent_streams * 200 / (sim->ttft_p99.mean + 200 * sim->tpot_p99.mean));
}

TEST_CASE("quote::check_shown_serving") {
  Diagnostics d;
  const auto req = parse_request_text(
      R"({"name": "chat", "inference": {"model": "llama-3-8b", "requests_per_s": 50,
          "tokens_in": 512, "tokens_out": 128, "ttft_p99": "500ms", "tpot_p99": "50ms"},
          "options": {"providers": ["aws"], "top": 3, "sim_requests": 8000}})",
      "request.json", d);
  REQUIRE(req);
  const Quote q = make_quote(*req, builtin_catalog(), today_utc());
  const auto checks = check_shown_serving(*req, q);
  REQUIRE(checks.size() == q.inference.size());
  uint32_t shown = 0;
  for (size_t i = 0; i < q.inference.size(); ++i) {
    CAPTURE(i);
    if (!q.inference[i].feasible) {
      CHECK_FALSE(checks[i].has_value());
      continue;
    }
    // the first `top` runnable rows are simulated, none after them
    CHECK(checks[i].has_value() == (++shown <= 3));
  }
  REQUIRE(shown > 3);
}
