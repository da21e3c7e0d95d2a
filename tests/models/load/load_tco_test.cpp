//! Loading the "tco" section: every compared option needs a price for all of its demand, and
//! `tco.cloud` names the instance that prices cloud GPU-hours.
#include <doctest/doctest.h>

#include <string>

#include "models/catalog/catalog.h"
#include "tests/models/loaded.h"

using namespace gpuplan;
using gpuplan_models_test::load_text;
using gpuplan_models_test::Loaded;

namespace {

const std::string ON_PREM_POOL =
    R"({"name": "owned", "instance": "onprem.hgx-h100-8", "count": 4, "pricing": "on_prem",
        "on_prem": {"server_capex": 300000, "max_power_kw": 10.2}})";

// A scenario with `pools` and the `tco` object `tco`; with ON_PREM_POOL the tco key is on line 6.
Loaded load_tco(const std::string& pools, const std::string& tco) {
  return load_text(R"({"horizon": "2d", "warmup": "1d",
"pools": [)" + pools + R"(],
"workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 8,
              "duration": "1h"}],
"tco": )" + tco + "}",
                   "");
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("load::tco") {
  SUBCASE("comparing the cloud with no cloud price is an error naming the missing price") {
    const Loaded r = load_tco(ON_PREM_POOL, R"({"compare": ["on_prem", "cloud"]})");
    CHECK_FALSE(r.sc.has_value());
    const Diagnostic d = r.at("/tco/compare/1");
    CHECK(d.code == DiagCode::missing_key);
    CHECK(contains(d.message,
                   "tco.compare includes \"cloud\" but no pool has a cloud price; add an "
                   "on-demand or spot cloud pool, or an instance under tco.cloud"));
    // the file and line of the offending item come first, as for every input error
    CHECK(contains(r.d.to_text(), "scenario.json:6: /tco/compare/1: tco.compare includes"));
  }

  SUBCASE(
      "the default comparison (cloud, on_prem, hybrid) of an on-prem-only scenario is "
      "refused for cloud and for the hybrid's burst, never priced at $0") {
    const Loaded r = load_tco(ON_PREM_POOL, R"({"years": 3, "demand_growth_per_month": 0.08})");
    CHECK_FALSE(r.sc.has_value());
    const std::string text = r.d.to_text();
    CHECK(contains(text, "/tco: tco.compare includes \"cloud\" but no pool has a cloud price"));
    CHECK(contains(text,
                   "/tco: tco.compare includes \"hybrid\" but no pool prices its burst GPU-hours"));
    // the suggestion names a cloud instance with the pool's GPU
    CHECK(contains(text, "e.g. \"cloud\": {\"instance\": \""));
  }

  SUBCASE("an instance under tco.cloud prices the cloud GPU-hours and the burst") {
    const Loaded r = load_tco(ON_PREM_POOL, R"({"cloud": {"instance": "p5.48xlarge"}})");
    REQUIRE_MESSAGE(r.sc.has_value(), r.d.to_text());
    REQUIRE(r.sc->tco->cloud.has_value());
    const InstanceType* p5 = builtin_catalog().find_instance("p5.48xlarge");
    REQUIRE(p5 != nullptr);
    // the p5's on-demand node-hour price over its 8 GPUs
    CHECK(r.sc->tco->cloud->usd_per_gpu_hour ==
          doctest::Approx(*p5->price_per_hour.on_demand / 8).epsilon(1e-12));
    CHECK(r.sc->tco->cloud->pricing == Pricing::on_demand);
    // resolved at load: the study reads the type and its GPU, never the id
    CHECK(r.sc->tco->cloud->type.id == "p5.48xlarge");
    CHECK(r.sc->tco->cloud->type.gpus_per_node == p5->gpus_per_node);
    CHECK(r.sc->tco->cloud->gpu == builtin_catalog().find_gpu(p5->gpu));
    const Loaded spot =
        load_tco(ON_PREM_POOL, R"({"cloud": {"instance": "p5.48xlarge", "pricing": "spot"}})");
    REQUIRE_MESSAGE(spot.sc.has_value(), spot.d.to_text());
    CHECK(spot.sc->tco->cloud->pricing == Pricing::spot);
  }

  SUBCASE("tco.cloud names a known instance with a price under an on-demand or spot pricing") {
    CHECK(contains(load_tco(ON_PREM_POOL, R"({"cloud": {"instance": "p5.48xlarg"}})")
                       .at("/tco/cloud/instance")
                       .message,
                   "did you mean \"p5.48xlarge\""));
    CHECK(contains(load_tco(ON_PREM_POOL, R"({"cloud": {"instance": "onprem.hgx-h100-8"}})")
                       .at("/tco/cloud/instance")
                       .message,
                   "has no on_demand price"));
    CHECK(contains(load_tco(ON_PREM_POOL,
                            R"({"cloud": {"instance": "p5.48xlarge", "pricing": "reserved_1y"}})")
                       .at("/tco/cloud/pricing")
                       .message,
                   "\"on_demand\" or \"spot\""));
    CHECK(load_tco(ON_PREM_POOL, R"({"cloud": {"pricing": "spot"}})")
              .at("/tco/cloud/instance")
              .code == DiagCode::missing_key);
  }

  SUBCASE(
      "reserved pools whose instance has no on-demand price leave the demand above them "
      "unpriced") {
    const std::string inline_instance =
        R"({"id": "lab.r8", "gpu": "H100-SXM", "gpus_per_node": 8,
            "price_per_hour": {"reserved_1y": 60}})";
    const Loaded r = load_text(R"({"horizon": "2d", "instances": [)" + inline_instance + R"(],
      "pools": [{"name": "base", "instance": "lab.r8", "count": 2, "pricing": "reserved_1y"}],
      "workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 8, "duration": "1h"}],
      "tco": {"compare": ["cloud"]}})",
                               "");
    CHECK(contains(r.at("/tco/compare/0").message,
                   "its GPU-hours above the reserved pools have no price: instance type "
                   "\"lab.r8\" has no on-demand price"));
  }

  SUBCASE("spot pools that take all the non-reserved work price it without an on-demand price") {
    const std::string inline_instance =
        R"({"id": "lab.s8", "gpu": "H100-SXM", "gpus_per_node": 8, "price_per_hour": {"spot": 20}})";
    const Loaded r = load_text(R"({"horizon": "2d", "instances": [)" + inline_instance + R"(],
      "pools": [{"name": "s", "instance": "lab.s8", "count": 2, "pricing": "spot"}],
      "workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 8,
                    "duration": "1h", "spot_tolerant": true}],
      "tco": {"compare": ["cloud"]}})",
                               "");
    CHECK_MESSAGE(r.sc.has_value(), r.d.to_text());
  }
}
