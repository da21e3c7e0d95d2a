//! study::recommend: bisection on node count over variants loaded in memory.
#include <doctest/doctest.h>

#include "study/recommend.h"

using namespace gpuplan;

namespace {

//! M/M/c of 1-GPU lab nodes at 3 jobs/s of mean 1 s; SLO: mean wait <= 0.05 s in 75% of
//! replicas; candidate counts 1..12. "memory.json" names no file: every load is from this text.
const char* const TEXT = R"({
  "name": "mem", "seed": 11, "horizon": "30m", "warmup": "5m",
  "instances": [{"id": "lab.g1", "gpu": "A100-80GB", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 8, "pricing": "on_demand"}],
  "workload": [{"name": "jobs", "arrival": {"poisson": {"rate": "3/s"}}, "gpus": 1,
                "duration": {"exponential": {"mean": "1s"}}}],
  "recommend": {"slos": [{"metric": "metrics.wait_s.mean", "max": 0.05}], "probability": 0.75,
                "candidates": [{"pool": "main", "instances": ["lab.g1"],
                                "pricing": ["on_demand"], "count": {"min": 1, "max": 12}}],
                "replications": 6}
})";

}  // namespace

TEST_CASE("study::recommend") {
  const study::ScenarioText text{TEXT, "memory.json", "", {}};
  Diagnostics diags;
  const auto sc = study::load_variant(text, {}, diags);
  REQUIRE_MESSAGE(sc.has_value(), diags.to_text());
  auto options = study::recommend_options(text, *sc, diags);
  REQUIRE_MESSAGE(options.has_value(), diags.to_text());
  // one instance x one pricing
  REQUIRE(options->size() == 1);

  study::RecommendRunOptions o;
  o.replications = 6;
  const study::Recommendation r = study::recommend(text, *sc, std::move(*options), o);
  REQUIRE(r.ranked.size() == 1);
  const CountSearch& s = r.options[0].search;
  REQUIRE(s.count.has_value());

  SUBCASE("the count found meets the SLOs and one node fewer does not") {
    CHECK(s.probes.at(*s.count).p_met >= 0.75);
    // bisection probed the count below the one it returned (unless it is the minimum)
    if (*s.count > 1) CHECK(s.probes.at(*s.count - 1).p_met < 0.75);
    // 3 Erlangs of load need at least 4 servers to keep up
    CHECK(*s.count >= 4);
  }

  SUBCASE("bisection probes about log2 of the range, not every count") {
    // count_max first, then at most ceil(log2(12)) = 4 halvings
    CHECK(s.probes.size() <= 5);
  }

  SUBCASE("the winner's study is a variant pinned to the count found") {
    REQUIRE(r.best_scenario.has_value());
    CHECK(r.best_scenario->pools[0].count == *s.count);
    REQUIRE(r.best.held);
    CHECK(r.best.info.replications == 6);
    // the probe and the winner's study are the same 6 replications: same mean cost
    CHECK(r.best.mean("cost_usd.total") == doctest::Approx(s.at_count.cost_usd));
  }

  SUBCASE("a variant applies its overrides on top of the shared ones, in memory") {
    const study::ScenarioText seeded{TEXT, "memory.json", "", {"seed=5"}};
    Diagnostics d;
    const auto v = study::load_variant(seeded, {"pools.0.count=3"}, d);
    REQUIRE(v.has_value());
    CHECK(v->seed == 5);
    CHECK(v->pools[0].count == 3);
  }
}
