//! `gpuplan quote` sizing: the 70B training anchor, spot timing against the exact expectation,
//! Erlang C against closed forms, the inference sizing against the engine, request validation.
#include <doctest/doctest.h>

#include <cmath>

#include "models/catalog/catalog_age.h"
#include "models/economics/checkpoint.h"
#include "models/quote/quote.h"
#include "study/quote_check.h"
#include "tests/models/quote/chat_request.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;
using namespace gpuplan::quote;

namespace {

//! Parses `text` as a request, keeping the diagnostics.
std::optional<QuoteRequest> parse(const std::string& text, Diagnostics& d) {
  return parse_request_text(text, "request.json", d);
}

//! The diagnostic at `pointer`, or nullptr.
const Diagnostic* at(const Diagnostics& d, const std::string& pointer) {
  static std::vector<Diagnostic> keep;
  keep = d.sorted();
  for (const auto& x : keep)
    if (x.pointer == pointer) return &x;
  return nullptr;
}

}  // namespace

TEST_CASE("quote::parse_count") {
  SUBCASE("suffixes K, M, B and T scale by powers of a thousand") {
    // 70 x 10^9
    CHECK(parse_count("70B") == doctest::Approx(7e10));
    // 2 x 10^12
    CHECK(parse_count("2T") == doctest::Approx(2e12));
    // 4 x 10^6
    CHECK(parse_count("4M") == doctest::Approx(4e6));
    // plain scientific notation reads as is
    CHECK(parse_count("1.5e9") == doctest::Approx(1.5e9));
  }
  SUBCASE("unreadable counts give nullopt") {
    CHECK_FALSE(parse_count("70X").has_value());
    CHECK_FALSE(parse_count("").has_value());
  }
  SUBCASE("money accepts a dollar sign, separators and suffixes") {
    // $5M = 5,000,000 USD
    CHECK(parse_money("$5M") == doctest::Approx(5e6));
    // $250K = 250,000 USD
    CHECK(parse_money("$250K") == doctest::Approx(2.5e5));
    // thousands separators are dropped
    CHECK(parse_money("1,200,000") == doctest::Approx(1.2e6));
    CHECK_FALSE(parse_money("five dollars").has_value());
  }
}

TEST_CASE("quote::request") {
  SUBCASE("a valid request fills defaults with their stated values") {
    Diagnostics d;
    const auto q =
        parse(R"({"training": {"params": "70B", "tokens": "2T", "deadline": "30d"}})", d);
    REQUIRE(q.has_value());
    REQUIRE(q->training.has_value());
    // 30 days = 2,592,000 s
    CHECK(*q->training->deadline_s == doctest::Approx(2592000));
    // no MFU given: the step-time model decides it per instance; floor 20%
    CHECK_FALSE(q->training->mfu.has_value());
    CHECK(q->training->mfu_floor == doctest::Approx(0.2));
    CHECK(q->training->precision == Precision::bf16);
  }
  SUBCASE("pricing names load into the scenario's Pricing enum; on_prem is not a quote plan") {
    Diagnostics d;
    const auto q = parse(R"({"training": {"params": "7B", "tokens": "1T", "deadline": "30d"},
                            "options": {"pricing": ["spot", "reserved_3y"]}})",
                         d);
    REQUIRE(q.has_value());
    CHECK(q->options.pricing == std::vector<Pricing>{Pricing::spot, Pricing::reserved_3y});
    Diagnostics bad;
    CHECK_FALSE(parse(R"({"training": {"params": "7B", "tokens": "1T", "deadline": "30d"},
                         "options": {"pricing": ["on_prem"]}})",
                      bad));
    CHECK(at(bad, "/options/pricing/0") != nullptr);
  }
  SUBCASE("a plan's label, term and price follow its Pricing") {
    const InstanceType& p5 = *builtin_catalog().find_instance("p5.48xlarge");
    const PricingPlan reserved{Pricing::reserved_1y, 0};
    CHECK(reserved.label() == "1-yr reserved");
    // a 1-year reservation commits 1 year
    CHECK(reserved.term_years() == 1);
    CHECK(plan_price(p5, reserved)->base_usd_per_node_hour == *p5.price_per_hour.reserved_1y);
    const PricingPlan half_spot{Pricing::on_demand, 0.5};
    CHECK(half_spot.label() == "spot 50%");
    CHECK(half_spot.term_years() == 0);
    CHECK(plan_price(p5, half_spot)->spot_usd_per_node_hour == *p5.price_per_hour.spot);
  }
  SUBCASE("a bad count names its pointer and line and says how to write it") {
    Diagnostics d;
    const auto q = parse(
        "{\n  \"training\": {\n    \"params\": \"70X\",\n    \"tokens\": \"2T\",\n"
        "    \"deadline\": \"30d\"\n  }\n}",
        d);
    CHECK_FALSE(q.has_value());
    const Diagnostic* e = at(d, "/training/params");
    REQUIRE(e != nullptr);
    CHECK(e->code == DiagCode::bad_unit);
    // "params" sits on line 3 of the text
    CHECK(e->line == 3);
    CHECK(e->message.find("\"70B\"") != std::string::npos);
  }
  SUBCASE("an unknown key suggests the closest key") {
    Diagnostics d;
    CHECK_FALSE(parse(R"({"training": {"params": "7B", "tokens": "1T", "dedline": "3d"}})", d));
    const Diagnostic* e = at(d, "/training/dedline");
    REQUIRE(e != nullptr);
    CHECK(e->message.find("did you mean \"deadline\"") != std::string::npos);
  }
  SUBCASE("training without a deadline or a budget is rejected at /training") {
    Diagnostics d;
    CHECK_FALSE(parse(R"({"training": {"params": "7B", "tokens": "1T"}})", d));
    const Diagnostic* e = at(d, "/training");
    REQUIRE(e != nullptr);
    CHECK(e->code == DiagCode::missing_key);
  }
  SUBCASE("a request with neither training nor inference is rejected at the root") {
    Diagnostics d;
    CHECK_FALSE(parse(R"({"name": "empty"})", d));
    REQUIRE(at(d, "") != nullptr);
  }
  SUBCASE("out-of-range values and unknown GPUs are reported together") {
    Diagnostics d;
    CHECK_FALSE(parse(R"({"training": {"params": "7B", "tokens": "1T", "deadline": "3d",
                           "mfu": 1.5}, "options": {"gpus": ["H100-SMX"]}})",
                      d));
    CHECK(at(d, "/training/mfu") != nullptr);
    const Diagnostic* g = at(d, "/options/gpus/0");
    REQUIRE(g != nullptr);
    CHECK(g->message.find("did you mean \"H100-SXM\"") != std::string::npos);
  }
}

TEST_CASE("quote::training") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  TrainingRequest req;
  req.params = 70e9;
  req.tokens = 2e12;
  req.deadline_s = 30 * 86400.0;
  // These cases check the arithmetic of a fixed MFU (the request's override of the step-time
  // model, tests/models/quote/quote_modelled_test.cpp), without hardware failures unless they say
  // so.
  req.mfu = 0.4;
  QuoteOptions o;
  o.failure_rate_per_gpu_hour = 0;

  SUBCASE("hardware failures cost the Young/Daly expectation of restarts, on every plan") {
    QuoteOptions with = o;
    with.failure_rate_per_gpu_hour = DEFAULT_FAILURE_RATE_PER_GPU_HOUR;
    // Llama 3's 419 interruptions in 54 days on 16,384 GPUs: 1.97e-5 per GPU-hour.
    CHECK(DEFAULT_FAILURE_RATE_PER_GPU_HOUR == doctest::Approx(419.0 / (16384 * 54 * 24)));
    const TrainingOption opt =
        size_training(req, with, p5, h100, PricingPlan{Pricing::on_demand, 0});
    REQUIRE(opt.feasible);
    CHECK(opt.meets_deadline);
    const double hazard = opt.gpus * DEFAULT_FAILURE_RATE_PER_GPU_HOUR / 3600;
    CHECK(opt.failure_hazard_per_s == doctest::Approx(hazard));
    CHECK(opt.timing.hazard_per_s == doctest::Approx(hazard));
    const double interval = *economics::daly_interval_s(req.checkpoint_s, 1 / hazard);
    const economics::CheckpointedJob job{opt.speed.work_s, req.checkpoint_s, req.restart_s,
                                         req.replacement_s};
    CHECK(opt.timing.expected_s ==
          doctest::Approx(*economics::expected_completion_time_s(job, interval, hazard)));
    // The overhead costs nodes: more than the 103 of failure-free work, and only a few percent.
    const TrainingOption ideal =
        size_training(req, o, p5, h100, PricingPlan{Pricing::on_demand, 0});
    CHECK(opt.nodes > ideal.nodes);
    CHECK(opt.nodes < 1.1 * ideal.nodes);
    CHECK(opt.total_usd > ideal.total_usd);
  }

  SUBCASE("70B on 2T tokens in 30 days needs about 820 H100, rounded up to 103 nodes") {
    const TrainingOption opt = size_training(req, o, p5, h100, PricingPlan{Pricing::on_demand, 0});
    REQUIRE(opt.feasible);
    // 6 x 70e9 x 2e12 = 8.4e23 FLOPs; / (0.4 x 989e12) = 2.123e9 GPU-s; / 2,592,000 s = 818.9
    // GPUs, so ceil(818.9 / 8) = 103 nodes = 824 GPUs
    const double gpus_needed = 6 * 70e9 * 2e12 / (0.4 * 989e12) / (30 * 86400.0);
    CHECK(gpus_needed == doctest::Approx(818.9).epsilon(1e-3));
    CHECK(opt.nodes == 103);
    CHECK(opt.gpus == 824);
    // the GPU count is within one node of the unrounded need
    CHECK(opt.gpus - gpus_needed < 8);
    // the all-reduce (17.5 GB per rank over 103 nodes) hides behind the 5.15 s step, so the time
    // is compute only: 2.123e9 GPU-s / 824 = 2.577e6 s = 29.8 days
    CHECK(opt.speed.allreduce_step_s < opt.speed.compute_step_s);
    CHECK(opt.timing.p50_s == doctest::Approx(6 * 70e9 * 2e12 / (824 * 0.4 * 989e12)));
    CHECK(opt.meets_deadline);
  }
  SUBCASE("the cost is GPUs x hours x the catalog price per GPU-hour") {
    const TrainingOption opt = size_training(req, o, p5, h100, PricingPlan{Pricing::on_demand, 0});
    const double hours = opt.timing.p50_s / 3600;
    // 824 GPUs x 715.8 h x ($55.04 / 8 per GPU-hour) = $4.058M
    CHECK(opt.total_usd == doctest::Approx(824 * hours * (55.04 / 8)));
    CHECK(opt.total_usd == doctest::Approx(4.058e6).epsilon(1e-3));
  }
  SUBCASE("a 1-year reservation bills the whole year even for a 30-day job") {
    const TrainingOption opt =
        size_training(req, o, p5, h100, PricingPlan{Pricing::reserved_1y, 0});
    // 103 nodes x $35.1565 per node-hour (p5 1-yr, derived) x 8,760 h
    CHECK(opt.total_usd == doctest::Approx(103 * 35.1565 * 8760));
  }
  SUBCASE("spot at the measured hazard misses the deadline and offers its fastest cluster") {
    // at 103 nodes, 52 spot nodes x 0.24 per node-hour give a cluster MTBF of 4.8 min, below the
    // 5 min checkpoint: the job never finishes; fewer nodes finish, but after the deadline
    const TrainingOption opt =
        size_training(req, o, p5, h100, PricingPlan{Pricing::on_demand, 0.5});
    REQUIRE(opt.feasible);
    CHECK_FALSE(opt.meets_deadline);
    CHECK(opt.nodes < 103);
    CHECK(opt.timing.expected_s > 30 * 86400.0);
  }
  SUBCASE("without a scale-out network an instance is a single-node option") {
    const InstanceType& lambda = *cat.find_instance("lambda.gpu_8x_h100_sxm5");
    const TrainingOption opt =
        size_training(req, o, lambda, h100, PricingPlan{Pricing::on_demand, 0});
    CHECK_FALSE(opt.feasible);
  }
}

TEST_CASE("quote::training_on_mi300x") {
  // Azure Standard_ND96isr_MI300X_v5: 8 x MI300X (1307.4 dense BF16 TFLOPS, AMD's data sheet),
  // $48.00 per node-hour on-demand (Azure Retail Prices API table of
  // Azure/karpenter-provider-azure, 2026-06-18), 8 x 400G NDR.
  const Catalog& cat = builtin_catalog();
  const InstanceType& nd = *cat.find_instance("Standard_ND96isr_MI300X_v5");
  const GpuSpec& mi300x = *cat.find_gpu("MI300X");
  TrainingRequest req;
  req.params = 70e9;
  req.tokens = 2e12;
  req.deadline_s = 30 * 86400.0;
  req.mfu = 0.4;  // the fixed-MFU arithmetic, as in quote::training
  QuoteOptions o;
  o.failure_rate_per_gpu_hour = 0;
  const TrainingOption opt = size_training(req, o, nd, mi300x, PricingPlan{Pricing::on_demand, 0});
  REQUIRE(opt.feasible);
  // Hand calculation:
  //   work = 6 x 70e9 x 2e12 = 8.4e23 FLOPs; per GPU 0.4 x 1307.4e12 = 5.2296e14 FLOP/s
  //   GPU-seconds = 8.4e23 / 5.2296e14 = 1.606241e9; in 30 days (2,592,000 s) that is 619.69
  //   GPUs, so ceil(619.69 / 8) = 78 nodes = 624 GPUs
  //   time = 1.606241e9 / 624 = 2,574,104 s = 715.03 h (29.8 days, inside the deadline)
  //   cost = 78 nodes x 715.03 h x $48.00 = $2,677,070 ($6.00 per GPU-hour)
  CHECK(opt.nodes == 78);
  CHECK(opt.gpus == 624);
  CHECK(opt.timing.p50_s == doctest::Approx(2574104).epsilon(1e-6));
  CHECK(opt.meets_deadline);
  CHECK(opt.total_usd == doctest::Approx(2677070).epsilon(1e-5));
  // The same job on p5.48xlarge (989 TFLOPS at $6.88 per GPU-hour) costs $4.058M: the MI300X
  // row is 34 % cheaper at the same MFU.
  CHECK(opt.total_usd < 0.67 * 4.058e6);
  // Only on-demand is published for it: a 1-year plan has no price, so no option.
  const TrainingOption r1 = size_training(req, o, nd, mi300x, PricingPlan{Pricing::reserved_1y, 0});
  CHECK_FALSE(r1.feasible);
}

TEST_CASE("quote::spot_timing") {
  SUBCASE("without preemptions the time to finish is the work") {
    const SpotTiming t = spot_timing(1e6, 0, 300, 600, 600, 100, 1);
    // no hazard: every figure equals the failure-free 1e6 s
    CHECK(t.p50_s == 1e6);
    CHECK(t.p90_s == 1e6);
  }
  SUBCASE("the Monte Carlo mean matches the exact expected completion time") {
    // 7 days of work, 2 spot nodes at 0.24 per node-hour (MTBF 2.08 h), C = 5 min, R = D = 10 min
    const double hazard = 2 * 0.24 / 3600;
    const SpotTiming t = spot_timing(7 * 86400.0, hazard, 300, 600, 600, 2000, 42);
    REQUIRE(std::isfinite(t.expected_s));
    // Daly interval for C = 300 s, M = 7,500 s: sqrt(2CM)(1 + sqrt(C/2M)/3 + C/18M) - C = 1,923 s
    CHECK(t.interval_s == doctest::Approx(1923).epsilon(0.01));
    // mean within 3% of the exact expectation (about 10x the Monte Carlo standard error here)
    CHECK(std::abs(t.mc_mean_s - t.expected_s) / t.expected_s < 0.03);
    // and within 4 of its own standard errors (a 1-in-16,000 miss for an unbiased sampler)
    CHECK(t.mc_mean_se_s > 0);
    CHECK(std::abs(t.mc_mean_s - t.expected_s) < 4 * t.mc_mean_se_s);
    CHECK(t.p50_s <= t.p90_s);
    CHECK(t.p50_s > 7 * 86400.0);
  }
  SUBCASE("draws scale with interruptions, not checkpoints: a long run keeps every replica") {
    // 2 years of work, one spot node at 0.01 per node-hour (MTBF 100 h), C = 1 s: a Daly
    // interval of ~849 s gives ~74,000 checkpoints, ~175 interruptions per run. One draw per
    // checkpoint cut this to 4e6 / 74,700 = 53 replicas; one per interruption keeps all 400.
    const double hazard = 0.01 / 3600;
    const SpotTiming t = spot_timing(2 * 365 * 86400.0, hazard, 1, 600, 600, 400, 7);
    REQUIRE(std::isfinite(t.expected_s));
    CHECK(t.replicas == 400);
    // the same law as before: the mean within 4 standard errors of the exact expectation
    CHECK(std::abs(t.mc_mean_s - t.expected_s) < 4 * t.mc_mean_se_s);
  }
  SUBCASE("a run too interrupted to simulate whole samples its blocks, within the draw budget") {
    // 400 days of work on 64 spot nodes at 0.24 per node-hour (MTBF 3.9 min), C = 10 s: about
    // 150,000 interruptions per run, so 50 whole runs would take 15 M draws. Just past that
    // threshold the blocks are sampled; just before it whole runs are: both give one law.
    const double hazard = 64 * 0.24 / 3600;
    const SpotTiming t = spot_timing(400 * 86400.0, hazard, 10, 60, 60, 400, 3);
    REQUIRE(std::isfinite(t.expected_s));
    CHECK(t.replicas == 0);
    CHECK(t.sampled_blocks > 1000);
    CHECK(std::abs(t.mc_mean_s - t.expected_s) < 4 * t.mc_mean_se_s);
    CHECK(t.p90_s > t.p50_s);
    // interruptions strike work and recovery, not the 60 s down after each: h T / (1 + h D)
    CHECK(t.expected_interruptions ==
          doctest::Approx(hazard * t.expected_s / (1 + hazard * 60)).epsilon(0.02));
    // the threshold: 1e6 draws / 50 runs = 20,000 draws per run = 2 + 2 x hazard x expected time
    const auto at = [&](double draws_per_run) {
      const double work = 400 * 86400.0 * (draws_per_run - 2) / 2 / (hazard * t.expected_s);
      return spot_timing(work, hazard, 10, 60, 60, 400, 3);
    };
    const SpotTiming whole = at(19000), sampled = at(21000);
    CHECK(whole.replicas == 52);
    CHECK(whole.sampled_blocks == 0);
    CHECK(sampled.replicas == 0);
    CHECK(sampled.sampled_blocks > 0);
    // the same law on both sides: the P90's excess over the mean per unit of work agrees
    const auto spread = [](const SpotTiming& s) { return (s.p90_s - s.mc_mean_s) / s.mc_mean_s; };
    CHECK(spread(sampled) ==
          doctest::Approx(spread(whole) * std::sqrt(19000.0 / 21000.0)).epsilon(0.35));
  }
  SUBCASE("the same seed gives the same figures (deterministic)") {
    const double hazard = 4 * 0.24 / 3600;
    const SpotTiming a = spot_timing(3 * 86400.0, hazard, 300, 600, 600, 400, 11);
    const SpotTiming b = spot_timing(3 * 86400.0, hazard, 300, 600, 600, 400, 11);
    // bit-identical: one seeded mt19937_64 and no platform-dependent distribution
    CHECK(a.p50_s == b.p50_s);
    CHECK(a.p90_s == b.p90_s);
    CHECK(a.mc_mean_s == b.mc_mean_s);
  }
}

TEST_CASE("quote::inference") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  const InferenceRequest req = chat_request();
  const QuoteOptions o;
  const InferenceOption opt = size_inference(req, o, p5, h100, PricingPlan{Pricing::on_demand, 0});
  REQUIRE(opt.feasible);

  SUBCASE("the option meets the targets with one spare replica and prices the output tokens") {
    CHECK(opt.meets_target);
    CHECK(opt.sizing.ttft_p99_s <= 1.0);
    CHECK(opt.sizing.tpot_p99_s <= 0.05);
    CHECK(opt.spare_replicas >= 1);
    CHECK(opt.gpus >= (opt.sizing.replicas + 1) * opt.sizing.tp);
    CHECK(opt.sizing.demand_tokens_per_s == doctest::Approx(200 * 200));
    CHECK(opt.sizing.capacity_tokens_per_s > opt.sizing.demand_tokens_per_s);
    CHECK(opt.usd_per_1m_output_tokens == doctest::Approx(opt.hourly_usd / (40000.0 * 3600) * 1e6));
  }
  SUBCASE("the engine's slot queue stays within the M/M/c bound (fixed slot time)") {
    const InferenceSimCheck sim = simulate_inference(req, opt, 400000, 42);
    CAPTURE(opt.servers);
    CAPTURE(opt.sizing.utilization);
    CAPTURE(opt.sizing.wait_mean_s);
    CAPTURE(sim.mean_wait_s);
    CAPTURE(opt.sizing.ttft_p99_s);
    CAPTURE(sim.ttft_p99_s);
    REQUIRE_FALSE(sim.saturated);
    // M/D/c waits less than M/M/c at the same load: the model errs on the safe side.
    CHECK(sim.mean_wait_s <= opt.sizing.wait_mean_s + 0.05 * opt.sizing.slot_s);
    CHECK(sim.ttft_p99_s <= 1.1 * opt.sizing.ttft_p99_s);
    // Utilization equals rho = lambda S / c within 1%.
    CHECK(std::abs(sim.utilization - opt.sizing.utilization) / opt.sizing.utilization < 0.01);
  }
  SUBCASE("spot prices a latency service's reclaims against its p99, and the label follows") {
    CHECK_FALSE(opt.spot_loss.has_value());
    CHECK(opt.risk == "none");
    const InferenceOption spot =
        size_inference(req, o, p5, h100, PricingPlan{Pricing::on_demand, 1});
    REQUIRE(spot.feasible);
    REQUIRE(spot.spot_loss.has_value());
    // the tool's 0.24 reclaims per node-hour on every spot node, every month
    CHECK(spot.spot_loss->node_losses_per_month == doctest::Approx(spot.spot_nodes * 0.24 * 730));
    CHECK(spot.risk == latency_spot_risk(*spot.spot_loss, spot.spot_nodes));
    // the same plan without a latency target keeps the availability rule
    InferenceRequest batch = req;
    batch.ttft_p99_s = batch.tpot_p99_s = 0;
    const InferenceOption bulk =
        size_inference(batch, o, p5, h100, PricingPlan{Pricing::on_demand, 1});
    CHECK(bulk.risk == risk_level(1, 0.24 * 600 / 3600 / (1 + 0.24 * 600 / 3600)));
    // reclaims that spend the whole p99 budget fail the target, a tenth of it does not
    QuoteOptions stormy = o;
    stormy.spot_hazard_per_node_hour = 5;
    const InferenceOption storm =
        size_inference(req, stormy, p5, h100, PricingPlan{Pricing::on_demand, 1});
    REQUIRE(storm.spot_loss.has_value());
    CHECK(storm.spot_loss->p99_budget_share >= 1);
    CHECK_FALSE(storm.meets_target);
    CHECK(storm.risk == "high");
    QuoteOptions calm = o;
    calm.spot_hazard_per_node_hour = 1e-4;
    const InferenceOption still =
        size_inference(req, calm, p5, h100, PricingPlan{Pricing::on_demand, 1});
    CHECK(still.spot_loss->p99_budget_share < 0.1);
    CHECK(still.meets_target);
    CHECK(still.risk == "low");
  }
}

TEST_CASE("quote::make_quote") {
  SUBCASE(
      "options are ranked feasible first, then meeting targets, then recommended, then by total "
      "cost") {
    Diagnostics d;
    const auto req = parse(R"({"training": {"params": "70B", "tokens": "2T", "deadline": "30d"},
                               "options": {"gpus": ["H100-SXM", "H200"]}})",
                           d);
    REQUIRE(req.has_value());
    const Quote q = make_quote(*req, builtin_catalog(), today_utc());
    REQUIRE(q.training.size() > 3);
    REQUIRE(q.training.front().feasible);
    for (size_t i = 1; i < q.training.size(); ++i) {
      const auto& a = q.training[i - 1];
      const auto& b = q.training[i];
      if (a.feasible && b.feasible && a.meets_deadline == b.meets_deadline &&
          a.recommended == b.recommended)
        CHECK(a.total_usd <= b.total_usd);
      if (a.feasible && b.feasible && a.meets_deadline == b.meets_deadline)
        CHECK(a.recommended >= b.recommended);
      CHECK(a.feasible >= b.feasible);
    }
  }
}

TEST_CASE("quote::compute_budget") {
  // the spot timing of a week's run at one interruption a day: hundreds of Monte Carlo replicas
  const double hazard = 1.0 / 86400;
  const auto timing = [&](const ComputeBudget* budget) {
    return spot_timing(7 * 86400.0, hazard, 300, 600, 600, 2000, 42, budget);
  };
  const auto reason_of = [](const auto& run) -> std::optional<StopReason> {
    try {
      run();
    } catch (const Stopped& stop) {
      return stop.reason;
    }
    return std::nullopt;
  };
  Diagnostics d;
  const auto req =
      parse(R"({"training": {"params": "7B", "tokens": "200B", "deadline": "30d"}})", d);
  REQUIRE(req.has_value());

  SUBCASE("a spent budget stops the Monte Carlo and the quote as out of time") {
    ComputeBudget spent;
    spent.start(0);
    CHECK(reason_of([&] { (void)timing(&spent); }) == StopReason::out_of_time);
    CHECK(reason_of([&] { (void)make_quote(*req, builtin_catalog(), today_utc(), &spent); }) ==
          StopReason::out_of_time);
  }
  SUBCASE("a cancelled budget stops them as cancelled, deadline or not") {
    ComputeBudget gone;
    gone.cancel();
    CHECK(reason_of([&] { (void)timing(&gone); }) == StopReason::cancelled);
    gone.start(3600);
    CHECK(reason_of([&] { (void)make_quote(*req, builtin_catalog(), today_utc(), &gone); }) ==
          StopReason::cancelled);
  }
  SUBCASE("a budget that is not spent changes no figure") {
    ComputeBudget ample;
    ample.start(3600);
    const SpotTiming with = timing(&ample), without = timing(nullptr);
    // the same seed and draws: bit for bit
    CHECK(with.replicas == without.replicas);
    CHECK(with.p50_s == without.p50_s);
    CHECK(with.p90_s == without.p90_s);
  }
}
