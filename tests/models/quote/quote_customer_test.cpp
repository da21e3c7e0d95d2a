//! What a customer is quoted (issue 12 item 4, model side): spot mixes really mix, and GPU
//! filters resolve to the models instances actually have.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "models/quote/quote.h"

using namespace gpuplan;
using namespace gpuplan::quote;

TEST_CASE("quote::spot_mix") {
  const Catalog& cat = builtin_catalog();
  const InstanceType& p5 = *cat.find_instance("p5.48xlarge");
  const GpuSpec& h100 = *cat.find_gpu("H100-SXM");
  TrainingRequest req;
  req.params = 13e9;
  req.tokens = 1e12;
  req.deadline_s = 21 * 86400.0;
  const QuoteOptions o;
  const TrainingOption half = size_training(req, o, p5, h100, PricingPlan{Pricing::on_demand, 0.5});
  const TrainingOption all = size_training(req, o, p5, h100, PricingPlan{Pricing::on_demand, 1.0});
  REQUIRE(half.feasible);
  REQUIRE(all.feasible);

  SUBCASE("spot 50% puts half the nodes (rounded up) on spot and the rest on demand") {
    // ceil(0.5 x nodes) spot nodes; all nodes for spot 100%
    CHECK(half.spot_nodes == static_cast<uint32_t>(std::ceil(0.5 * half.nodes)));
    CHECK(half.spot_nodes < half.nodes);
    CHECK(all.spot_nodes == all.nodes);
  }
  SUBCASE("each half pays its own price per node-hour") {
    const double od = *p5.price_per_hour.on_demand, spot = *p5.price_per_hour.spot;
    // (nodes - spot nodes) x on-demand + spot nodes x spot price
    CHECK(half.hourly_usd ==
          doctest::Approx((half.nodes - half.spot_nodes) * od + half.spot_nodes * spot));
    CHECK(all.hourly_usd == doctest::Approx(all.nodes * spot));
  }
  SUBCASE("only the spot half is preempted; hardware fails on every node") {
    // spot nodes x 0.24 per node-hour + GPUs x the failure rate, in 1/s
    const double fail = DEFAULT_FAILURE_RATE_PER_GPU_HOUR * 8 / 3600;
    CHECK(half.timing.hazard_per_s ==
          doctest::Approx(half.spot_nodes * DEFAULT_SPOT_HAZARD_PER_NODE_HOUR / 3600 +
                          half.nodes * fail));
    CHECK(all.timing.hazard_per_s ==
          doctest::Approx(all.nodes * DEFAULT_SPOT_HAZARD_PER_NODE_HOUR / 3600 + all.nodes * fail));
    CHECK(half.failure_hazard_per_s == doctest::Approx(half.nodes * fail));
  }
  SUBCASE("so spot 50% and spot 100% differ in time and price") {
    // half the interruptions per node of the cluster (here 18 nodes, 9 on spot, against 9 on
    // spot: the same job hazard, so the same slowdown up to Monte Carlo error, which an earlier
    // check of P50 / work relied on)
    CHECK(half.timing.hazard_per_s / half.nodes < all.timing.hazard_per_s / all.nodes);
    CHECK(half.hourly_usd / half.nodes > all.hourly_usd / all.nodes);
    CHECK(half.total_usd != doctest::Approx(all.total_usd));
  }
  SUBCASE("a spot option that cannot finish says why and keeps the checkpoint interval assumed") {
    QuoteOptions harsh;
    harsh.spot_hazard_per_node_hour = 20;  // an interruption every 3 min per node
    const TrainingOption o1 =
        size_training(req, harsh, p5, h100, PricingPlan{Pricing::on_demand, 1});
    REQUIRE_FALSE(o1.feasible);
    CHECK(o1.infeasible_reason.find("interrupted every") != std::string::npos);
    CHECK(o1.infeasible_reason.find("checkpoint every") != std::string::npos);
    // the Daly interval of the smallest fitting cluster, below its mean time between interruptions
    CHECK(o1.timing.interval_s > 0);
    CHECK(o1.timing.interval_s <= 1 / o1.timing.hazard_per_s);
  }
}

TEST_CASE("quote::gpu_filter") {
  const auto options = [](const std::string& gpus, Diagnostics& d) {
    return parse_request_text(R"({"training": {"params": "7B", "tokens": "100B", "deadline": "30d"},
                                  "options": {"gpus": )" +
                                  gpus + "}}",
                              "request.json", d);
  };
  const auto offered = [](const std::string& id) {
    const Catalog& cat = builtin_catalog();
    return std::any_of(cat.instances.begin(), cat.instances.end(),
                       [&](const InstanceType& it) { return it.gpu == id; });
  };
  SUBCASE("a family name resolves to the models instances have, never to one none has") {
    Diagnostics d;
    const auto req = options(R"(["H100"])", d);
    REQUIRE(req);
    CHECK_FALSE(req->options.gpus.empty());
    for (const std::string& g : req->options.gpus) {
      CAPTURE(g);
      CHECK(g.rfind("H100", 0) == 0);
      CHECK(offered(g));
    }
    CHECK(std::find(req->options.gpus.begin(), req->options.gpus.end(), "H100-SXM") !=
          req->options.gpus.end());
    // Lambda's 1x H100 PCIe row (2026) makes the PCIe card an offered model too.
    CHECK(std::find(req->options.gpus.begin(), req->options.gpus.end(), "H100-PCIe") !=
          req->options.gpus.end());
  }
  SUBCASE("an exact id resolves to itself, in any case") {
    Diagnostics d;
    const auto req = options(R"(["h100-sxm"])", d);
    REQUIRE(req);
    CHECK(req->options.gpus == std::vector<std::string>{"H100-SXM"});
  }
  SUBCASE("a model no instance has is refused, naming the models instances have") {
    // K80 is in the GPU table for Gavel's speeds only; no instance type has it.
    REQUIRE_FALSE(offered("K80"));
    Diagnostics d;
    CHECK_FALSE(options(R"(["K80"])", d));
    REQUIRE(d.size() == 1);
    const Diagnostic x = d.sorted()[0];
    CHECK(x.pointer == "/options/gpus/0");
    CHECK(x.message.find("no instance type in the catalog has the GPU") != std::string::npos);
    CHECK(x.message.find("K80") != std::string::npos);
  }
  SUBCASE("a misspelling suggests or lists only models instances have") {
    Diagnostics d;
    CHECK_FALSE(options(R"(["K8O"])", d));
    REQUIRE(d.size() == 1);
    const Diagnostic x = d.sorted()[0];
    // the message never suggests K80, which no instance has
    CHECK(x.message.find("K80") == std::string::npos);
    Diagnostics d2;
    CHECK_FALSE(options(R"(["H100-SMX"])", d2));
    CHECK(d2.sorted()[0].message.find("did you mean \"H100-SXM\"") != std::string::npos);
  }
}
