//! The statistics section: which jobs count (models/load/load_statistics.cpp, docs/outputs.md).
#include <doctest/doctest.h>

#include "models/load/load.h"
#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

// One pool, one class; "statistics" is on line 8.
std::string scenario(const std::string& statistics) {
  return R"({
  "horizon": "10d", "warmup": "1d",
  "instances": [{"id": "lab.g1", "gpu": "A100-80GB", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 4}],
  "workload": [{"name": "jobs", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
                "duration": {"fixed": "1h"}}],
  "statistics": )" +
         statistics + R"(
})";
}

gpuplan_models_test::Loaded load(const std::string& statistics) {
  return gpuplan_models_test::load_text(scenario(statistics), ".");
}

}  // namespace

TEST_CASE("load::statistics") {
  SUBCASE("a time window and a submission-index window are read") {
    const auto a = load(R"({"arrivals_until": "5d"})");
    REQUIRE_MESSAGE(a.sc, a.d.to_text());
    CHECK(a.sc->statistics.arrivals_until_s == 5 * 86400.0);
    const auto b = load(R"({"job_ids": [40, 140]})");
    REQUIRE_MESSAGE(b.sc, b.d.to_text());
    CHECK(b.sc->statistics.first_job == 40);
    CHECK(b.sc->statistics.end_job == 140);
    // neither key: the default window
    const auto c = load("{}");
    REQUIRE_MESSAGE(c.sc, c.d.to_text());
    CHECK(c.sc->statistics.arrivals_until_s == 0);
    CHECK(c.sc->statistics.end_job == 0);
  }

  SUBCASE("a window outside [warmup, horizon] or empty is refused with its path and numbers") {
    const struct {
      const char* statistics;
      const char* pointer;
      const char* words;
    } cases[] = {
        {R"({"arrivals_until": "12h"})", "/statistics/arrivals_until",
         "after the warmup (86400 s)"},
        {R"({"arrivals_until": "11d"})", "/statistics/arrivals_until", "horizon (864000 s)"},
        {R"({"job_ids": [5, 5]})", "/statistics/job_ids", "[5, 5) is empty"},
        {R"({"job_ids": [5]})", "/statistics/job_ids", "[first, end)"},
        {R"({"job_ids": [-1, 5]})", "/statistics/job_ids/0", ""},
        {R"({"jobs": "all"})", "/statistics/jobs", ""},
        {R"("3w")", "/statistics", "arrivals_until"},
    };
    for (const auto& k : cases) {
      const auto r = load(k.statistics);
      const std::string text = r.d.to_text();
      CAPTURE(k.statistics);
      CAPTURE(text);
      CHECK_FALSE(r.sc);
      REQUIRE(r.has(k.pointer));
      // the line of the value: the scenario's line 8, or the key's own line inside it
      CHECK(r.at(k.pointer).line == 8);
      CHECK(r.at(k.pointer).message.find(k.words) != std::string::npos);
    }
  }
}
