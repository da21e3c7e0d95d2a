//! The serving configuration search (study/serving_search.h): properties any correct search must
//! have — the cheapest meets the goal and one replica fewer does not, nothing that meets is
//! cheaper, an abandoned configuration's lower bound is at least the cheapest's cost, the goal on
//! either side of a configuration's attainment, the same answer exhaustive or pruned and on any
//! thread count — and the searches the loader refuses.
#include <doctest/doctest.h>

#include <string>

#include "models/input/diagnostic.h"
#include "models/load/serving_scenario.h"
#include "study/serving_search.h"

using namespace gpuplan;

namespace {

//! Llama-3-8B chat at 40 requests/s (512 in, 64 out), TTFT 300 ms, TPOT 40 ms, with `search`.
std::string scenario(const std::string& search, const std::string& root = "") {
  return R"({"name": "s", "seed": 7, "replications": 2, "model": "llama-3-8b",
    "gpu": "H100-SXM", "instance": "p5.48xlarge", "pricing": "on_demand", "tp": 1,
    "replicas": 2, )" +
         root + R"("scheduler": {"max_num_batched_tokens": 2048, "max_num_seqs": 64},
    "workload": {"rate": "40/s", "tokens_in": 512, "tokens_out": 64, "requests": 3000,
                 "warmup_requests": 300},
    "slo": {"ttft": "300ms", "tpot": "40ms"},
    "search": {)" +
         search + "}}";
}

std::optional<ServingScenario> load(const std::string& text, Diagnostics& d) {
  return load_serving_scenario(text, "s.json", ".", {}, d, {});
}

ServingSearch search(const std::string& text, uint32_t threads = 1) {
  Diagnostics d;
  const auto sc = load(text, d);
  REQUIRE_MESSAGE(sc.has_value(), (d.size() ? d.recorded().front().format() : ""));
  REQUIRE(sc->search.has_value());
  return search_serving(*sc, text, "s.json", ".", {}, {}, {}, threads);
}

const SearchTrial* trial_at(const SearchCandidate& c, uint32_t n) {
  for (const SearchTrial& t : c.trials)
    if (t.replicas == n) return &t;
  return nullptr;
}

//! The first diagnostic's pointer of loading `text`, "" when it loads.
std::string refusal(const std::string& text) {
  Diagnostics d;
  const auto sc = load(text, d);
  if (sc) return "";
  return d.recorded().front().pointer + ": " + d.recorded().front().message;
}

}  // namespace

TEST_CASE("serving::search") {
  const std::string space =
      R"("instances": ["p5.48xlarge", "p4de.24xlarge", "g6e.12xlarge"], "tp": [1, 2],
         "max_num_batched_tokens": [512, 2048])";
  const ServingSearch s = search(scenario(space));
  REQUIRE(s.best.has_value());
  REQUIRE(s.best_study.has_value());
  REQUIRE(s.candidates.size() == 12);
  const SearchCandidate& best = s.candidates.front();
  CAPTURE(best.config.instance);
  CAPTURE(best.config.tp);
  CAPTURE(best.replicas);

  SUBCASE("the cheapest meets the goal and one replica fewer does not") {
    CHECK(best.verdict == SearchVerdict::cheapest);
    CHECK(best.slo_attainment.mean >= s.attainment);
    CHECK_FALSE(s.best_study->pooled.saturated);
    CHECK(s.best->view.n_replicas == best.replicas);
    CHECK(s.best_study->slo_attainment.mean == best.slo_attainment.mean);
    if (best.replicas > 1) {
      const SearchTrial* fewer = trial_at(best, best.replicas - 1);
      REQUIRE(fewer != nullptr);
      CHECK_FALSE(fewer->meets);
    }
  }
  SUBCASE("every verdict holds: nothing meeting is cheaper, a lower bound is never below") {
    int meets = 0, costlier = 0;
    for (const SearchCandidate& c : s.candidates) {
      CAPTURE(c.config.instance);
      CAPTURE(c.config.tp);
      CAPTURE(c.config.max_num_batched_tokens);
      switch (c.verdict) {
        case SearchVerdict::cheapest:
          break;
        case SearchVerdict::meets:
          ++meets;
          CHECK(c.usd_per_hour >= best.usd_per_hour);
          CHECK(c.slo_attainment.mean >= s.attainment);
          if (c.replicas > 1) CHECK_FALSE(trial_at(c, c.replicas - 1)->meets);
          break;
        case SearchVerdict::costlier:
          ++costlier;
          CHECK(c.usd_per_hour >= best.usd_per_hour);
          CHECK(c.usd_per_hour == doctest::Approx(c.replicas * c.usd_per_replica_hour));
          for (const SearchTrial& t : c.trials) CHECK((t.replicas >= c.replicas || !t.meets));
          if (c.replicas > 1) CHECK_FALSE(trial_at(c, c.replicas - 1)->meets);
          break;
        case SearchVerdict::misses:
          CHECK(c.replicas == s.max_replicas);
          break;
        case SearchVerdict::does_not_fit:
          CHECK_FALSE(c.reason.empty());
          break;
      }
    }
    CHECK(costlier > 0);  // the bound abandons some configuration here
    // ranked by cost within the meeting rows
    for (size_t k = 1; k < s.candidates.size(); ++k)
      if (s.candidates[k].verdict == SearchVerdict::meets)
        CHECK(s.candidates[k].usd_per_hour >= s.candidates[k - 1].usd_per_hour);
  }
  SUBCASE("exhaustive finds the same cheapest, and every configuration's fewest replicas") {
    const ServingSearch e = search(scenario(space + R"(, "exhaustive": true)"));
    REQUIRE(e.best.has_value());
    CHECK(e.simulations > s.simulations);
    const SearchCandidate& eb = e.candidates.front();
    CHECK(eb.usd_per_hour == best.usd_per_hour);
    CHECK(eb.config.instance == best.config.instance);
    CHECK(eb.config.tp == best.config.tp);
    for (const SearchCandidate& c : e.candidates) {
      CHECK(c.verdict != SearchVerdict::costlier);
      // a configuration the pruned search abandoned needs at least its bound
      for (const SearchCandidate& p : s.candidates)
        if (p.verdict == SearchVerdict::costlier && p.config.instance == c.config.instance &&
            p.config.tp == c.config.tp &&
            p.config.max_num_batched_tokens == c.config.max_num_batched_tokens &&
            c.verdict == SearchVerdict::meets)
          CHECK(c.replicas >= p.replicas);
    }
  }
  SUBCASE("the same answer on any thread count") {
    const ServingSearch t = search(scenario(space), 2);
    REQUIRE(t.candidates.size() == s.candidates.size());
    for (size_t k = 0; k < s.candidates.size(); ++k) {
      CHECK(t.candidates[k].config.instance == s.candidates[k].config.instance);
      CHECK(t.candidates[k].replicas == s.candidates[k].replicas);
      CHECK(t.candidates[k].slo_attainment.mean == s.candidates[k].slo_attainment.mean);
    }
  }
  SUBCASE("a configuration that cannot hold the model does not fit, with the loader's reason") {
    const ServingSearch f = search(
        scenario(R"("instances": ["g6e.12xlarge"], "tp": [1, 8])", R"("queue_capacity": 256, )"));
    bool node = false;
    for (const SearchCandidate& c : f.candidates)
      if (c.config.tp == 8) {
        CHECK(c.verdict == SearchVerdict::does_not_fit);
        node = c.reason.find("more GPUs than a g6e.12xlarge node holds (4)") != std::string::npos;
      }
    CHECK(node);
  }
}

TEST_CASE("serving::search_goal") {
  // One configuration whose attainment a TTFT of 48 ms limits (a 512-token prompt takes about
  // 15 ms, and the serving software's overheads about 10 ms more): the goal on either side of
  // what it reaches at its fewest replicas and one fewer.
  const auto goal = [](const std::string& extra) {
    std::string t = scenario(R"("tp": [1], "max_num_batched_tokens": [2048])" + extra);
    t.replace(t.find("300ms"), 5, "48ms");
    return search(t);
  };
  const ServingSearch s = goal("");
  REQUIRE(s.best.has_value());
  const SearchCandidate& c = s.candidates.front();
  REQUIRE(c.replicas >= 2);
  const SearchTrial* fewer = trial_at(c, c.replicas - 1);
  REQUIRE(fewer != nullptr);
  REQUIRE_FALSE(fewer->saturated);  // latency, not capacity, decides here
  const double met = c.slo_attainment.mean, missed = fewer->slo_attainment;
  CAPTURE(met);
  CAPTURE(missed);
  REQUIRE(met < 1.0);
  const auto at = [&](double g) {
    const ServingSearch r = goal(R"(, "attainment": )" + std::to_string(g));
    return r.best ? r.candidates.front().replicas : 0u;
  };
  CHECK(at(met - 1e-6) == c.replicas);
  CHECK(at(met + 1e-6) > c.replicas);
  CHECK(at(missed - 1e-6) <= c.replicas - 1);
  CHECK(at(missed + 1e-6) == c.replicas);
  SUBCASE("a limit below the replicas needed: misses, and no best") {
    const ServingSearch m = goal(R"(, "max_replicas": )" + std::to_string(c.replicas - 1));
    CHECK_FALSE(m.best.has_value());
    CHECK(m.candidates.front().verdict == SearchVerdict::misses);
    CHECK(m.candidates.front().replicas == c.replicas - 1);
  }
}

TEST_CASE("serving::search_refused") {
  CHECK(refusal(scenario(R"("tp": [1, 3, 1])")).find("/search/tp/2: 1 is listed twice") == 0);
  CHECK(refusal(scenario(R"("instances": ["p5.48xlarg"])")).find("/search/instances/0") == 0);
  CHECK(refusal(scenario(R"("attainment": 1.5)")).find("/search/attainment") == 0);
  CHECK(refusal(scenario(R"("max_replicas": 0)")).find("/search/max_replicas") == 0);
  CHECK(refusal(scenario(R"("spare": 1)")).find("/search/spare") == 0);
  CHECK(refusal(scenario(R"("tp": [1,2,3,4,5,6,7,8], "max_num_batched_tokens": [1,2,3,4,5,6,7,8],
      "max_num_seqs": [1,2,3,4,5])"))
            .find("/search: 1 instance types x 8 tp x 8 budgets x 5 sequence caps is 320") == 0);
  // no price to rank by, no SLOs to meet, or a cluster the search does not size
  std::string t = scenario("");
  t.replace(t.find(R"("instance": "p5.48xlarge", "pricing": "on_demand", )"), 51, "");
  CHECK(refusal(t).find("/search: a search ranks configurations by their cost") == 0);
  t = scenario("");
  t.replace(t.find(R"("slo": {"ttft": "300ms", "tpot": "40ms"},)"), 41, "");
  CHECK(refusal(t).find("/search: a search looks for the cheapest") == 0);
  // an instance type without the scenario's pricing is named, with the pricing
  t = scenario(R"("instances": ["p5.48xlarge", "p5.4xlarge"])");
  t.replace(t.find("on_demand"), 9, "reserved_1y");
  CHECK(refusal(t).find("/search/instances/1: p5.4xlarge has no reserved_1y price") == 0);
}
