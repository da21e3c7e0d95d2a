//! The flags of `gpuplan estimate` read into typed requests (models/quote/estimate_request.h):
//! every bad flag is one diagnostic naming it, in the order the flags are read, with close names
//! for an unknown one; a bare --gpu stands for its largest catalog node; --gpus becomes nodes.
#include "models/quote/estimate_request.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace gpuplan;
using namespace gpuplan::quote;

TEST_CASE("models::quote::estimate_request") {
  SUBCASE("every bad flag is reported, named, in reading order, with close names") {
    EstimateFlags f;
    f.model = "llama-3-8";
    f.gpu = "H100SXM";
    f.precision = "fp7";
    f.tp = "3";
    Diagnostics d;
    CHECK_FALSE(read_training_estimate(f, d).has_value());
    const std::vector<Diagnostic>& got = d.recorded();
    REQUIRE(got.size() == 3);
    CHECK(got[0].pointer == "--model");
    CHECK(got[0].code == DiagCode::unknown_name);
    CHECK(got[0].candidates.front() == "llama-3-8b");
    CHECK(got[1].pointer == "--gpu");
    CHECK(std::find(got[1].candidates.begin(), got[1].candidates.end(), "H100-SXM") !=
          got[1].candidates.end());
    CHECK(got[2].pointer == "--precision");
  }
  SUBCASE("a bare --gpu stands for the catalog node with the most of it") {
    EstimateFlags f;
    f.model = "llama-3-8b";
    f.gpu = "H100-SXM";
    Diagnostics d;
    const auto r = read_training_estimate(f, d);
    REQUIRE_MESSAGE(r.has_value(), d.to_text());
    REQUIRE(r->cluster.instance != nullptr);
    CHECK(r->cluster.instance->gpu == "H100-SXM");
    for (const InstanceType& it : builtin_catalog().instances)
      if (it.gpu == "H100-SXM") CHECK(it.gpus_per_node <= r->cluster.instance->gpus_per_node);
    CHECK(r->cluster.nodes == 1);
    CHECK(r->size_flag == "--nodes");
  }
  SUBCASE("--gpus is a whole number of nodes: 16 on 8-GPU nodes is 2, 12 is refused") {
    EstimateFlags f;
    f.model = "llama-3-8b";
    f.instance = "p5.48xlarge";
    f.gpus = "16";
    Diagnostics d;
    const auto r = read_training_estimate(f, d);
    REQUIRE_MESSAGE(r.has_value(), d.to_text());
    CHECK(r->cluster.nodes == 2);
    CHECK(r->cluster.gpus() == 16);
    CHECK(r->size_flag == "--gpus");
    f.gpus = "12";
    Diagnostics bad;
    CHECK_FALSE(read_training_estimate(f, bad).has_value());
    REQUIRE(bad.recorded().size() == 1);
    CHECK(bad.recorded()[0].pointer == "--gpus");
  }
  SUBCASE("serving TP stays inside one node: 8 on an 8-GPU node passes, 16 does not") {
    EstimateFlags f;
    f.model = "llama-2-7b";
    f.instance = "p5.48xlarge";
    f.precision = "fp16";
    f.tp = "8";
    Diagnostics d;
    const auto r = read_inference_estimate(f, d);
    REQUIRE_MESSAGE(r.has_value(), d.to_text());
    CHECK(r->serving.tp == 8);
    CHECK(r->serving.tokens_out == 1);
    f.tp = "16";
    Diagnostics bad;
    CHECK_FALSE(read_inference_estimate(f, bad).has_value());
    REQUIRE(bad.recorded().size() == 1);
    CHECK(bad.recorded()[0].pointer == "--tp");
  }
}
