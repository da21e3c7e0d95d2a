//! The scheduler section and class priorities (models/load/load.cpp, docs/scheduling-policies.md).
#include <doctest/doctest.h>

#include "models/load/load.h"
#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

// Two classes on one pool; line numbers on the right are the ones the tests rely on.
std::string scenario(const std::string& scheduler) {
  return R"({
  "horizon": "1d",
  "instances": [{"id": "lab.g1", "gpu": "A100-80GB", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 4}],
  "workload": [
    {"name": "prod", "priority": 10, "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
     "duration": {"fixed": "1h"}},
    {"name": "research", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
     "duration": {"fixed": "1h"}}
  ],
  "scheduler": )" +
         scheduler + R"(
})";  // "scheduler" is on line 12
}

gpuplan_models_test::Loaded load(const std::string& scheduler,
                                 std::vector<std::string> overrides = {}) {
  return gpuplan_models_test::load_text(scenario(scheduler), ".", std::move(overrides));
}

}  // namespace

TEST_CASE("load::scheduler") {
  SUBCASE("LAS thresholds are GPU-time durations; the knob and priorities are read") {
    const auto r =
        load(R"({"queue": "las", "las": {"thresholds": ["1h", "10h"], "promote_knob": 4}})");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    CHECK(r.sc->scheduler.queue == QueuePolicy::las);
    // 1 and 10 GPU-hours = 3,600 and 36,000 GPU-s
    CHECK(r.sc->scheduler.las_thresholds_gpu_s == std::vector<double>{3600.0, 36000.0});
    // the knob as written
    CHECK(r.sc->scheduler.las_promote_knob == 4);
    // prod's priority as written, research's the default 0
    CHECK(r.sc->workload[0].priority == 10);
    CHECK(r.sc->workload[1].priority == 0);
  }

  SUBCASE("policy is an alias of queue and wins over it, also through --set") {
    const auto a = load(R"({"policy": "srtf"})");
    REQUIRE_MESSAGE(a.sc, a.d.to_text());
    CHECK(a.sc->scheduler.queue == QueuePolicy::srtf);
    const auto b =
        load(R"({"queue": "backfill", "estimate_error": 0.5})", {"scheduler.policy=sjf"});
    REQUIRE_MESSAGE(b.sc, b.d.to_text());
    CHECK(b.sc->scheduler.queue == QueuePolicy::sjf);
    // sigma as written
    CHECK(b.sc->scheduler.estimate_sigma == 0.5);
  }

  SUBCASE("an unknown policy names its pointer and line and suggests the closest") {
    const auto r = load(R"({"policy": "lass"})");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/scheduler/policy");
    CHECK(d.line == 12);
    CHECK(d.message == "unknown queue policy \"lass\"; did you mean \"las\"?");
  }

  SUBCASE("thresholds must increase, and an unknown LAS key is refused") {
    const auto r = load(R"({"queue": "las", "las": {"thresholds": ["10h", "1h"], "knob": 2}})");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/scheduler/las/thresholds/1").message.find("thresholds must increase") !=
          std::string::npos);
    CHECK(r.at("/scheduler/las/knob").message.find("unknown key \"knob\"") != std::string::npos);
  }
}
