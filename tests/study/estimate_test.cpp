//! `gpuplan estimate` as a study (study/estimate.h): the plan found uses every GPU and fits, the
//! days follow from the step time, and a model that does not fit names the flag to change, on
//! both sides of the threshold (the largest batch whose KV cache fits, and one more; a pinned
//! layout that fits and one that does not). The case list: every flag a bad request names, in
//! the order the command prints them.
#include "study/estimate.h"

#include <doctest/doctest.h>

#include <utility>
#include <vector>

using namespace gpuplan;

namespace {

quote::TrainingEstimateRequest training_request(const std::string& model, uint32_t nodes) {
  quote::EstimateFlags f;
  f.model = model;
  f.instance = "p5.48xlarge";
  f.nodes = std::to_string(nodes);
  f.tokens = "1T";
  Diagnostics d;
  auto r = quote::read_training_estimate(f, d);
  REQUIRE_MESSAGE(r.has_value(), d.to_text());
  return *r;
}

quote::InferenceEstimateRequest serving_request(uint32_t batch) {
  quote::EstimateFlags f;
  f.model = "llama-2-7b";
  f.gpu = "A100-80GB";
  f.precision = "fp16";
  f.batch = std::to_string(batch);
  f.tokens_in = "4000";
  f.tokens_out = "4000";
  Diagnostics d;
  auto r = quote::read_inference_estimate(f, d);
  REQUIRE_MESSAGE(r.has_value(), d.to_text());
  return *r;
}

//! Flags as typed: {"--model", "llama-3-8b"}, ... ("--json" is the command's, not the study's).
quote::EstimateFlags flags(const std::vector<std::pair<std::string, std::string>>& typed,
                           const std::string& precision) {
  quote::EstimateFlags f;
  f.precision = precision;
  for (const auto& typed_flag : typed) {
    // NOTE: named, not bound: clang 14 cannot capture a structured binding in REQUIRE_MESSAGE.
    const std::string& flag = typed_flag.first;
    const std::string& value = typed_flag.second;
    std::string* field = flag == "--model"             ? &f.model
                         : flag == "--params"          ? &f.params
                         : flag == "--gpu"             ? &f.gpu
                         : flag == "--instance"        ? &f.instance
                         : flag == "--precision"       ? &f.precision
                         : flag == "--tokens"          ? &f.tokens
                         : flag == "--tokens-per-step" ? &f.tokens_per_step
                         : flag == "--nodes"           ? &f.nodes
                         : flag == "--gpus"            ? &f.gpus
                         : flag == "--tp"              ? &f.tp
                         : flag == "--pp"              ? &f.pp
                         : flag == "--batch"           ? &f.batch
                         : flag == "--tokens-in"       ? &f.tokens_in
                         : flag == "--tokens-out"      ? &f.tokens_out
                         : flag == "--seq"             ? &f.seq
                                                       : nullptr;
    REQUIRE_MESSAGE(field != nullptr, flag);
    *field = value;
  }
  return f;
}

//! One request: the subcommand, its flags, and the flags its problems name (none: it answers).
struct Case {
  bool training = true;
  std::vector<std::pair<std::string, std::string>> typed;
  std::vector<std::string> named;
};

//! The flags the problems of `c` name, in order; empty when the estimate answered.
std::vector<std::string> named_flags(const Case& c) {
  const quote::EstimateFlags f = flags(c.typed, c.training ? "bf16" : "fp16");
  Diagnostics d;
  bool answered = false;
  if (c.training) {
    if (const auto req = quote::read_training_estimate(f, d))
      answered = study::estimate_training(*req, d).has_value();
  } else if (const auto req = quote::read_inference_estimate(f, d)) {
    answered = study::estimate_inference(*req, d).has_value();
  }
  CHECK(answered == d.ok());
  std::vector<std::string> out;
  for (const Diagnostic& x : d.recorded()) out.push_back(x.pointer);
  return out;
}

}  // namespace

TEST_CASE("study::estimate") {
  SUBCASE("training: the plan uses every GPU, fits, and the days follow from the step time") {
    Diagnostics d;
    const auto e = study::estimate_training(training_request("llama-3-8b", 2), d);
    REQUIRE_MESSAGE(e.has_value(), d.to_text());
    CHECK(e->plan.tp * e->plan.pp * e->plan.dp == 16);
    CHECK(e->time.fits());
    REQUIRE(e->days.has_value());
    CHECK(*e->days == doctest::Approx(1e12 / e->time.tokens_per_step * e->time.step_s / 86400));
  }
  SUBCASE("training: 405B on one 8-GPU node fits no plan, and --nodes is the flag to change") {
    Diagnostics d;
    CHECK_FALSE(study::estimate_training(training_request("llama-3-405b", 1), d).has_value());
    REQUIRE(d.recorded().size() == 1);
    CHECK(d.recorded()[0].pointer == "--nodes");
    CHECK(d.recorded()[0].code == DiagCode::infeasible);
  }
  SUBCASE("inference: the largest batch whose KV cache fits passes, one more names --batch") {
    Diagnostics d;
    const auto one = study::estimate_inference(serving_request(1), d);
    REQUIRE_MESSAGE(one.has_value(), d.to_text());
    const uint64_t most = one->serving.max_batch_by_memory;
    REQUIRE(most >= 1);
    CHECK(study::estimate_inference(serving_request(uint32_t(most)), d).has_value());
    CHECK(d.ok());
    CHECK_FALSE(study::estimate_inference(serving_request(uint32_t(most + 1)), d).has_value());
    REQUIRE(d.recorded().size() == 1);
    CHECK(d.recorded()[0].pointer == "--batch");
  }
  SUBCASE("a pinned layout: TP 8 x PP 4 on 32 H100 runs, TP 8 x PP 1 on 8 names its memory") {
    Diagnostics d;
    const auto fits = study::estimate_training(
        *quote::read_training_estimate(flags({{"--model", "llama-3-70b"},
                                              {"--instance", "p5.48xlarge"},
                                              {"--nodes", "4"},
                                              {"--tp", "8"},
                                              {"--pp", "4"}},
                                             "bf16"),
                                       d),
        d);
    REQUIRE_MESSAGE(fits.has_value(), d.to_text());
    CHECK(fits->plan.tp == 8);
    CHECK(fits->plan.pp == 4);
    CHECK(fits->tokens_per_gpu_s ==
          doctest::Approx(fits->time.tokens_per_step / fits->time.step_s / 32));
    const auto refused = study::estimate_training(
        *quote::read_training_estimate(
            flags({{"--model", "llama-3-70b"}, {"--gpu", "H100-SXM"}, {"--tp", "8"}, {"--pp", "1"}},
                  "bf16"),
            d),
        d);
    CHECK_FALSE(refused.has_value());
    REQUIRE(d.recorded().size() == 1);
    const Diagnostic& why = d.recorded()[0];
    CHECK(why.pointer == "--pp");
    CHECK(why.message.find("TP 8 x PP 1 on 8 x H100-SXM does not fit: needs ") == 0);
    CHECK(why.message.find(" GB per GPU, has 72.0 even with ZeRO-3") != std::string::npos);
  }
  SUBCASE("the case list: each request answers, or names the flags to change in reading order") {
    const std::vector<Case> cases = {
        {true,
         {{"--params", "13B"},
          {"--tokens", "1T"},
          {"--instance", "p5.48xlarge"},
          {"--nodes", "14"}},
         {}},
        {true, {{"--model", "llama-3-405b"}, {"--gpus", "16384"}, {"--gpu", "H100-SXM"}}, {}},
        {true, {{"--model", "llama-3-8b"}, {"--gpu", "H100-SXM"}, {"--precision", "fp8"}}, {}},
        {true,
         {{"--model", "llama-3-8b"}, {"--gpu", "A100-80GB"}, {"--tp", "2"}, {"--pp", "1"}},
         {}},
        {true,
         {{"--model", "llama-3-70b"}, {"--gpu", "H100-SXM"}, {"--tp", "8"}, {"--pp", "3"}},
         {"--pp"}},
        {true,
         {{"--model", "llama-3-70b"}, {"--gpu", "H100-SXM"}, {"--tp", "8"}, {"--pp", "128"}},
         {"--pp"}},
        {true,
         {{"--model", "llama-3-70b"},
          {"--instance", "p5.48xlarge"},
          {"--nodes", "4"},
          {"--tp", "4"}},
         {}},
        {true,
         {{"--model", "llama-3-405b"},
          {"--instance", "p5.48xlarge"},
          {"--nodes", "1"},
          {"--tp", "8"}},
         {"--nodes"}},
        {true,
         {{"--model", "llama-3-405b"}, {"--instance", "p5.48xlarge"}, {"--gpus", "8"}},
         {"--gpus"}},
        {true, {{"--model", "mixtral-8x7b"}, {"--instance", "p5.48xlarge"}, {"--nodes", "2"}}, {}},
        {true, {{"--params", "500K"}, {"--gpu", "H100-SXM"}}, {"--params"}},
        {true, {{"--params", "-3"}, {"--gpu", "H100-SXM"}}, {"--params"}},
        {true,
         {{"--model", "llama-3-8"}, {"--gpu", "H100SXM"}, {"--precision", "fp7"}, {"--tp", "3"}},
         {"--model", "--gpu", "--precision"}},
        {true, {{"--model", "llama-3-8b"}, {"--params", "8B"}, {"--gpu", "H100-SXM"}}, {"--model"}},
        {true, {}, {"--model", "--gpu"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--gpu", "A100-80GB"}},
         {"--gpu"}},
        {true,
         {{"--model", "llama-3-8b"},
          {"--instance", "p5.48xlarge"},
          {"--gpus", "16"},
          {"--nodes", "2"}},
         {"--nodes"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--nodes", "1.5"}},
         {"--nodes"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--tp", "16"}},
         {"--tp"}},
        {true, {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--tp", "3"}}, {"--tp"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--pp", "2000"}},
         {"--pp"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--seq", "0"}},
         {"--seq"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--tokens", "inf"}},
         {"--tokens"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--instance", "p5.48xlarge"}, {"--tokens-per-step", "nan"}},
         {"--tokens-per-step"}},
        // The 2026 catalog carries V100-32GB (Alibaba gn6e, hardware without a price): it answers.
        {true, {{"--model", "llama-2-7b"}, {"--gpu", "V100-32GB"}}, {}},
        // K80 is a GPU model no catalog instance carries.
        {true, {{"--model", "llama-2-7b"}, {"--gpu", "K80"}}, {"--gpu"}},
        {true,
         {{"--model", "llama-3-8b"}, {"--gpu", "H100-SXM"}, {"--precision", "BF16"}},
         {"--precision"}},
        {false,
         {{"--model", "llama-3-70b"},
          {"--gpu", "H100-SXM"},
          {"--tp", "4"},
          {"--batch", "8"},
          {"--tokens-in", "1000"},
          {"--tokens-out", "500"}},
         {}},
        {false, {{"--model", "llama-3-70b"}, {"--gpu", "H100-SXM"}, {"--tp", "1"}}, {"--tp"}},
        {false,
         {{"--model", "llama-3-405b"},
          {"--gpu", "H100-SXM"},
          {"--tp", "8"},
          {"--precision", "fp8"}},
         {}},
        {false, {{"--model", "llama-2-7b"}, {"--gpu", "A100-80GB"}, {"--tp", "16"}}, {"--tp"}},
        {false,
         {{"--model", "llama-2-7b"}, {"--gpu", "A100-80GB"}, {"--precision", "fp32"}},
         {"--precision"}},
        {false,
         {{"--model", "llama-2-7b"},
          {"--gpu", "A100-80GB"},
          {"--batch", "0"},
          {"--tokens-in", "-1"},
          {"--tokens-out", "1e9"}},
         {"--batch", "--tokens-in", "--tokens-out"}},
        {false, {{"--params", "13B"}, {"--instance", "p4d.24xlarge"}, {"--batch", "4"}}, {}},
        {false, {{"--model", "lama-2-7b"}, {"--gpu", "A100-80G"}}, {"--model", "--gpu"}},
        {false,
         {{"--model", "llama-3-8b"}, {"--gpu", "H100-SXM"}, {"--precision", "FP8"}},
         {"--precision"}},
    };
    for (const Case& c : cases) {
      std::string args = c.training ? "training" : "inference";
      for (const auto& [flag, value] : c.typed) args += " " + flag + " " + value;
      CAPTURE(args);
      CHECK(named_flags(c) == c.named);
    }
  }
}
