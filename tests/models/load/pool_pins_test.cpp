//! Typed pool pins (models/load/load_options.h): a pool's instance type, pricing and count set by a
//! study load exactly as the same values in the file would, so every rule of the pool section
//! applies to them: the same effective scenario when the variant is valid, the same diagnostics
//! when it is not (a pool too small for the largest job, a pricing the instance has no price for).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "models/load/load.h"
#include "models/load/scenario_echo.h"

using namespace gpuplan;

namespace {

// An elastic pool without a count beside a fixed one: a pin gives both their count.
const std::string SCENARIO = R"({
  "horizon": "10d",
  "pools": [
    {"name": "main", "instance": "p4d.24xlarge", "count": 4},
    {"name": "burst", "instance": "p5.48xlarge", "pricing": "spot",
     "elastic": {"min": 0, "max": 8}}
  ],
  "workload": [{"name": "w", "arrival": {"poisson": {"rate": "2/h"}}, "gpus": 16, "pools": ["main"],
                "duration": "2h"}]
})";

struct Variant {
  std::optional<Scenario> sc;
  Diagnostics d;
};

Variant load(std::vector<std::string> overrides, std::vector<PoolPin> pins) {
  Variant v;
  LoadOptions lo;
  lo.empty_pools = true;
  lo.overrides = std::move(overrides);
  lo.pool_pins = std::move(pins);
  v.sc = load_scenario_text(SCENARIO, "scenario.json", "", lo, v.d);
  return v;
}

std::vector<std::string> messages(const Diagnostics& d) {
  std::vector<std::string> out;
  for (const Diagnostic& x : d.sorted()) out.push_back(x.format());
  return out;
}

}  // namespace

TEST_CASE("load::pool_pins") {
  SUBCASE("a pinned instance, pricing and count load as the file's values would") {
    const Variant text = load({"pools.0.instance=p5.48xlarge", "pools.0.pricing=reserved_1y",
                               "pools.0.count=3", "pools.1.count=2"},
                              {});
    const Variant typed = load(
        {}, {{0, "p5.48xlarge", Pricing::reserved_1y, 3}, {1, "p5.48xlarge", Pricing::spot, 2}});
    REQUIRE_MESSAGE(text.sc.has_value(), text.d.to_text());
    REQUIRE_MESSAGE(typed.sc.has_value(), typed.d.to_text());
    CHECK(typed.sc->pools[0].instance == "p5.48xlarge");
    CHECK(typed.sc->pools[0].pricing == Pricing::reserved_1y);
    CHECK(typed.sc->pools[0].count == 3);
    CHECK(typed.sc->pools[1].count == text.sc->pools[1].count);  // an elastic pool: its slots
    CHECK(typed.sc->pools[0].price_per_node_hour == text.sc->pools[0].price_per_node_hour);
    CHECK(effective_scenario_json(*typed.sc) == effective_scenario_json(*text.sc));
  }
  SUBCASE("one node of 8 GPUs is refused for 16-GPU jobs as the file's count is; two are not") {
    const Variant text = load({"pools.0.count=1"}, {});
    const Variant typed = load({}, {{0, "p4d.24xlarge", Pricing::on_demand, 1}});
    CHECK_FALSE(typed.sc.has_value());
    CHECK(messages(typed.d) == messages(text.d));
    CHECK_FALSE(messages(typed.d).empty());
    const Variant two = load({}, {{0, "p4d.24xlarge", Pricing::on_demand, 2}});
    CHECK_MESSAGE(two.sc.has_value(), two.d.to_text());
  }
  SUBCASE("a pricing the instance has no price for is the same error at /pools/0/pricing") {
    const Variant text = load({"pools.0.pricing=on_prem"}, {});
    const Variant typed = load({}, {{0, "p4d.24xlarge", Pricing::on_prem, 4}});
    CHECK_FALSE(typed.sc.has_value());
    CHECK(messages(typed.d) == messages(text.d));
    CHECK(typed.d.sorted().front().pointer == "/pools/0/pricing");
  }
}
