//! Loading the economics keys: billing, reserved upfront, on-prem templates, spot, elastic,
//! checkpoints, spot fallback and TCO, with JSON-pointer errors.
#include <doctest/doctest.h>

#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

using gpuplan_models_test::Loaded;

Loaded load(const std::string& pools, const std::string& cls = "", const std::string& top = "") {
  const std::string text = R"({"horizon": "1d", "pools": [)" + pools +
                           R"(], "workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}},
                           "gpus": 8, "duration": "1h")" +
                           cls + "}]" + top + "}";
  return gpuplan_models_test::load_text(text, "");
}

}  // namespace

TEST_CASE("load::economics") {
  SUBCASE("billing, spot, elastic and checkpoint keys load in SI units") {
    const Loaded r = load(
        R"({"name": "s", "instance": "p4d.24xlarge", "pricing": "spot",
            "billing": {"granularity": "hour", "minimum": "60s"},
            "spot": {"discount": 0.7, "advisor_band": "5-10%", "waves": {"rate": "6.95/h"}, "notice": "30s"},
            "elastic": {"min": 1, "max": 4, "scale_in": {"idle_timeout": "10m"}}})",
        R"(, "checkpoint": {"interval": "auto", "cost": "2m", "restart": "5m"}, "spot_tolerant": true,
            "spot_fallback": {"after": "1h", "to": "on_demand"})");
    REQUIRE(r.sc);
    const Pool& p = r.sc->pools[0];
    // an elastic pool's node slots are its max; it starts with its min
    CHECK(p.count == 4);
    CHECK(p.econ.elastic->initial_nodes == 1);
    // 70% off the p4d on-demand $21.9576 per node-hour = $6.58728
    CHECK(p.price_per_node_hour == doctest::Approx(21.9576 * 0.3).epsilon(1e-12));
    // 6.95 waves per hour, 30 s notice, 600 s idle timeout, 60 s minimum
    CHECK(p.econ.spot->wave_rate_per_hour == doctest::Approx(6.95).epsilon(1e-12));
    CHECK(*p.econ.spot->notice_s == 30);
    CHECK(p.econ.elastic->idle_timeout_s == 600);
    CHECK(p.econ.billing_minimum_s == 60);
    // band 5-10% → midpoint 7.5% per 730 h → 1.068e-4 per node-hour
    CHECK(p.econ.spot->hazard_per_node_hour ==
          doctest::Approx(-std::log1p(-0.075) / 730).epsilon(1e-12));
    const ClassEconomics& c = r.sc->workload[0].econ;
    CHECK(c.auto_interval);
    // 2 min write, 5 min reload, fallback after 3,600 s
    CHECK(c.checkpoint_s == 120);
    CHECK(c.restart_s == 300);
    CHECK(*c.fallback_after_s == 3600);
  }
  SUBCASE("a pool's spot rules come from its instance's provider, resolved once at load") {
    const Loaded r = load(
        R"({"name": "g", "instance": "a3-highgpu-8g", "pricing": "spot", "count": 2},
           {"name": "a", "instance": "p5.48xlarge", "pricing": "spot", "count": 2},
           {"name": "l", "instance": "lambda.gpu_8x_h100_sxm5", "pricing": "on_demand", "count": 2})",
        R"(, "spot_tolerant": true)");
    REQUIRE(r.sc);
    CHECK(r.sc->pools[0].econ.spot_rules == economics::SpotProvider::gcp);
    CHECK(r.sc->pools[1].econ.spot_rules == economics::SpotProvider::aws);
    // a provider without its own spot rules (Lambda) is taken as AWS-like
    CHECK(r.sc->pools[2].econ.spot_rules == economics::SpotProvider::aws);
  }
  SUBCASE("each misuse names its pointer") {
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "count": 1, "upfront": "all"})")
              .has("/pools/0/upfront"));
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "count": 1, "pricing": "reserved_1y",
                   "elastic": {"min": 0, "max": 2}})")
              .has("/pools/0/elastic"));
    CHECK(
        load(
            R"({"name": "a", "instance": "p4d.24xlarge", "count": 1, "billing": {"granularity": "minute"}})")
            .has("/pools/0/billing/granularity"));
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "pricing": "on_demand", "count": 9,
                   "elastic": {"min": 1, "max": 4}})")
              .has("/pools/0/count"));
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "count": 1, "pricing": "spot",
                   "spot": {"interruptions_per_node_hour": 0.1, "advisor_band": "<5%"}})")
              .has("/pools/0/spot/advisor_band"));
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "count": 1})",
               R"(, "spot_fallback": "wait")")
              .has("/workload/0/spot_fallback"));
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "count": 1})",
               R"(, "checkpoint": {"interval": "auto"})")
              .has("/workload/0/checkpoint/cost"));
    CHECK(load(R"({"name": "a", "instance": "p4d.24xlarge", "count": 1})", "",
               R"(, "tco": {"compare": ["on_prem"]})")
              .has("/tco/compare"));
  }
  SUBCASE("an on-prem template prices the pool at its template utilization") {
    const Loaded r =
        load(R"({"name": "o", "instance": "onprem.hgx-h100-8", "count": 2, "pricing": "on_prem",
                             "on_prem": {"server_capex": 300000, "max_power_kw": 10.2}})");
    REQUIRE(r.sc);
    // DATA.md §6.2 per node-hour: 6.849 capex + 0.796 energy + 2.655 colo + 1.027 network = 11.33
    CHECK(r.sc->pools[0].price_per_node_hour == doctest::Approx(11.327).epsilon(1e-3));
  }
}

TEST_CASE("load::catalog_rows_without_a_price") {
  const auto with_top = [](const std::string& pool, const std::string& top) {
    return load(pool, "", top);
  };
  SUBCASE("an Alibaba row in a priced study is an input error naming the row and the remedy") {
    const Loaded r = load(R"({"name": "ali", "instance": "ecs.gn7-c13g1.26xlarge", "count": 2})");
    CHECK_FALSE(r.sc.has_value());
    const Diagnostic e = r.at("/pools/0/instance");
    CHECK(e.message.find("\"ecs.gn7-c13g1.26xlarge\" (alibaba) has no price") != std::string::npos);
    CHECK(e.message.find("\"price_per_hour\"") != std::string::npos);
    CHECK(e.message.find("catalog.overlays") != std::string::npos);
    // never a silent $0: the load fails, with this one diagnostic
    CHECK(e.code == DiagCode::missing_key);
    CHECK(r.all.size() == 1);
  }
  SUBCASE("the same row priced in the scenario's instances loads, keeping the hardware") {
    const Loaded r = with_top(
        R"({"name": "ali", "instance": "ecs.gn7-c13g1.26xlarge", "count": 2})",
        R"(, "instances": [{"id": "ecs.gn7-c13g1.26xlarge", "price_per_hour": {"on_demand": 14.27}}])");
    REQUIRE(r.sc);
    const Pool& p = r.sc->pools[0];
    CHECK(p.price_per_node_hour == doctest::Approx(14.27));
    const InstanceType& it = r.sc->instance_of(p);
    CHECK(it.gpu == "A100-40GB");
    CHECK(it.gpus_per_node == 8);
    CHECK(it.intra_node_fabric == "nvlink3");
    CHECK(it.provider == "alibaba");
  }
  SUBCASE("a price for another term still leaves the pool's own term unpriced") {
    const Loaded r = with_top(
        R"({"name": "ali", "instance": "ecs.gn7-c13g1.26xlarge", "count": 2, "pricing": "reserved_1y"})",
        R"(, "instances": [{"id": "ecs.gn7-c13g1.26xlarge", "price_per_hour": {"on_demand": 14.27}}])");
    CHECK_FALSE(r.sc.has_value());
    CHECK(r.has("/pools/0/pricing"));
  }
  SUBCASE("a fractional vGPU row cannot be a pool") {
    const Loaded frac =
        load(R"({"name": "a10", "instance": "Standard_NV6ads_A10_v5", "count": 1})");
    CHECK_FALSE(frac.sc.has_value());
    CHECK(frac.at("/pools/0/instance").message.find("1/6 of one A10") != std::string::npos);
  }
}
