//! study::recommend: bisection on node count over variants loaded in memory.
#include <doctest/doctest.h>

#include <algorithm>

#include "models/compile/compile.h"
#include "models/scenario/demand_profile.h"
#include "sim/mc_metrics.h"
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

  SUBCASE("a variant applies its pool pins on top of the shared overrides, in memory") {
    const study::ScenarioText seeded{TEXT, "memory.json", "", {"seed=5"}};
    Diagnostics d;
    const auto v = study::load_variant(seeded, {{0, "lab.g1", Pricing::on_demand, 3}}, d);
    REQUIRE(v.has_value());
    CHECK(v->seed == 5);
    CHECK(v->pools[0].count == 3);
  }
}

namespace {

//! The same M/M/c load (3 jobs/s of mean 1 s) on an on-prem pool of 1-GPU nodes ($1/node-hour,
//! 4 nodes: not enough alone) beside a cloud pool ($3/node-hour on demand) that a candidate
//! sizes from 0 ("add nothing") to 8 nodes; `RECOMMEND` is the rest of the recommend section.
std::string hybrid_text(const std::string& onprem_count, const std::string& recommend) {
  return R"({
  "name": "hybrid", "seed": 11, "horizon": "30m", "warmup": "5m",
  "instances": [{"id": "lab.g1", "gpu": "A100-80GB", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 3.0, "on_prem": 1.0}}],
  "pools": [{"name": "onprem", "instance": "lab.g1", "count": )" +
         onprem_count + R"(, "pricing": "on_prem"},
            {"name": "cloud", "instance": "lab.g1", "count": 1, "pricing": "on_demand"}],
  "workload": [{"name": "jobs", "arrival": {"poisson": {"rate": "3/s"}}, "gpus": 1,
                "duration": {"exponential": {"mean": "1s"}}}],
  "recommend": {"slos": [{"metric": "metrics.wait_s.mean", "max": 0.05}], "probability": 0.75,
                "replications": 6, )" +
         recommend + "}}";
}

//! The recommendation of `text` (loaded, expanded and searched in memory).
study::Recommendation recommend_text(const std::string& text) {
  const study::ScenarioText t{text, "memory.json", "", {}};
  Diagnostics diags;
  const auto sc = study::load_variant(t, {}, diags);
  REQUIRE_MESSAGE(sc.has_value(), diags.to_text());
  auto options = study::recommend_options(t, *sc, diags);
  REQUIRE_MESSAGE(options.has_value(), diags.to_text());
  study::RecommendRunOptions o;
  o.replications = 6;
  return study::recommend(t, *sc, std::move(*options), o);
}

//! Every option of `r` whose search met the SLOs.
std::vector<const study::RecommendOption*> meeting(const study::Recommendation& r) {
  std::vector<const study::RecommendOption*> out;
  for (const study::RecommendOption& o : r.options)
    if (o.search.count) out.push_back(&o);
  return out;
}

}  // namespace

TEST_CASE("study::recommend::count_min_zero") {
  const char* const CLOUD = R"("candidates": [{"pool": "cloud", "instances": ["lab.g1"],
                                  "pricing": ["on_demand"], "count": {"min": 0, "max": 8}}])";

  SUBCASE("count.min 0 is accepted, and 0 nodes is chosen when the other pools suffice") {
    const study::Recommendation r = recommend_text(hybrid_text("12", CLOUD));
    REQUIRE(r.ranked.size() == 1);
    const CountSearch& s = r.options[0].search;
    REQUIRE(s.count.has_value());
    // 12 on-prem servers carry 3 Erlangs with almost no wait: adding nothing meets the SLO
    CHECK(*s.count == 0);
    REQUIRE(r.best_scenario.has_value());
    // the winner's study is the scenario with the cloud pool left empty
    CHECK(r.best_scenario->pools[1].count == 0);
    CHECK(r.best.held);
  }

  SUBCASE("a pool of 0 nodes is probed like any count, and too few nodes elsewhere need more") {
    const study::Recommendation r = recommend_text(hybrid_text("2", CLOUD));
    const CountSearch& s = r.options[0].search;
    REQUIRE(s.count.has_value());
    // 2 on-prem servers cannot carry 3 Erlangs: at least 2 cloud nodes are needed
    CHECK(*s.count >= 2);
    // bisection over 0..8 reaches the bottom of the range: count 0 was probed and failed
    CHECK(s.probes.count(0) + s.probes.count(*s.count - 1) >= 1);
    CHECK(s.probes.at(*s.count - 1).p_met < 0.75);
  }
}

TEST_CASE("study::recommend::mixed_candidate") {
  // The cloud pool is bisected; the on-prem pool beside it tries 2, 3 and 4 nodes.
  const char* const MIXED =
      R"("candidates": [{"pool": "cloud", "instances": ["lab.g1"], "pricing": ["on_demand"],
                         "count": {"min": 0, "max": 8},
                         "with": [{"pool": "onprem", "count": {"min": 2, "max": 4}}]}])";
  const study::Recommendation r = recommend_text(hybrid_text("4", MIXED));
  // one option per on-prem count
  REQUIRE(r.options.size() == 3);
  REQUIRE_FALSE(r.ranked.empty());
  const study::RecommendOption& best = r.options[r.ranked.front()];

  SUBCASE("one configuration mixes an on-prem pool and a cloud pool") {
    REQUIRE(best.with.size() == 1);
    CHECK(best.with[0].pool == "onprem");
    CHECK(best.with[0].pricing == Pricing::on_prem);
    CHECK(best.pricing == Pricing::on_demand);
    REQUIRE(r.best_scenario.has_value());
    // the winner's scenario pins both pools to the configuration found
    CHECK(r.best_scenario->pools[0].count == best.with[0].count);
    CHECK(r.best_scenario->pools[1].count == *best.search.count);
    CHECK(r.best_scenario->pools[0].pricing == Pricing::on_prem);
  }

  SUBCASE("the recommended configuration meets the SLOs and no runner-up meeting them is cheaper") {
    CHECK(best.search.at_count.p_met >= 0.75);
    for (const study::RecommendOption* o : meeting(r))
      CHECK(o->search.at_count.cost_usd >= best.search.at_count.cost_usd);
    // on-prem nodes cost a third of cloud ones, so the most on-prem nodes tried win
    CHECK(best.with[0].count == 4);
  }
}

TEST_CASE("study::recommend::budget") {
  const char* const CANDIDATES =
      R"("candidates": [{"pool": "cloud", "instances": ["lab.g1"], "pricing": ["on_demand"],
                         "count": {"min": 0, "max": 8},
                         "with": [{"pool": "onprem", "count": {"min": 2, "max": 4}}]}])";
  const study::Recommendation open = recommend_text(hybrid_text("4", CANDIDATES));
  REQUIRE_FALSE(open.ranked.empty());
  const double cheapest = study::usd_per_month(
      open.options[open.ranked.front()].search.at_count.cost_usd, open.window_s);
  REQUIRE(cheapest > 0);

  SUBCASE("raising the cap never recommends a configuration over the cap or missing an SLO") {
    for (const double cap :
         {0.5 * cheapest, 0.999 * cheapest, 1.001 * cheapest, 2 * cheapest, 100 * cheapest}) {
      CAPTURE(cap);
      const study::Recommendation r = recommend_text(
          hybrid_text("4", "\"max_usd_per_month\": " + std::to_string(cap) + ", " + CANDIDATES));
      for (const study::RecommendOption* o : meeting(r)) {
        // over budget exactly when its monthly cost is above the cap
        CHECK(o->over_budget ==
              (study::usd_per_month(o->search.at_count.cost_usd, r.window_s) > cap));
      }
      if (cap < cheapest) {
        // below the cheapest configuration meeting the SLOs nothing is recommended
        CHECK(r.ranked.empty());
        CHECK_FALSE(r.best_scenario.has_value());
        continue;
      }
      REQUIRE_FALSE(r.ranked.empty());
      const study::RecommendOption& best = r.options[r.ranked.front()];
      CHECK(best.search.at_count.p_met >= 0.75);
      CHECK(study::usd_per_month(best.search.at_count.cost_usd, r.window_s) <= cap);
      // at or above the cheapest, the cap changes nothing: the same configuration wins
      CHECK(r.ranked.front() == open.ranked.front());
    }
  }

  SUBCASE("over-budget configurations are never ranked") {
    const study::Recommendation r = recommend_text(hybrid_text(
        "4", "\"max_usd_per_month\": " + std::to_string(1.001 * cheapest) + ", " + CANDIDATES));
    for (const std::size_t i : r.ranked) CHECK_FALSE(r.options[i].over_budget);
    // the on-prem counts of 2 and 3 need more cloud nodes: above 1.001x the cheapest
    CHECK(r.ranked.size() == 1);
  }
}

TEST_CASE("study::recommend::load") {
  const auto errors = [](const std::string& recommend) {
    Diagnostics d;
    const study::ScenarioText t{hybrid_text("4", recommend), "memory.json", "", {}};
    CHECK_FALSE(study::load_variant(t, {}, d).has_value());
    return d.to_text();
  };

  SUBCASE("a with pool naming the candidate's own pool is refused, naming its pointer") {
    const std::string e = errors(
        R"("candidates": [{"pool": "cloud", "count": {"min": 0, "max": 2},
                           "with": [{"pool": "cloud"}]}])");
    CHECK(e.find("/recommend/candidates/0/with/0/pool") != std::string::npos);
    CHECK(e.find("already sized by this candidate") != std::string::npos);
  }

  SUBCASE("a negative budget cap is refused") {
    const std::string e = errors(R"("max_usd_per_month": -1, "candidates": [{"pool": "cloud"}])");
    CHECK(e.find("/recommend/max_usd_per_month") != std::string::npos);
  }

  SUBCASE("a pool's own count stays at least 1 outside recommend's variants") {
    Diagnostics d;
    const study::ScenarioText t{
        hybrid_text("0", R"("candidates": [{"pool": "cloud"}])"), "memory.json", "", {}};
    CHECK_FALSE(study::load_variant(t, {}, d).has_value());
    CHECK(d.to_text().find("/pools/0/count") != std::string::npos);
  }
}

TEST_CASE("study::recommend::slo_metrics") {
  // TEXT with its SLOs replaced by `slos`.
  const auto with_slos = [](const std::string& slos) {
    std::string text = TEXT;
    const std::string old = R"([{"metric": "metrics.wait_s.mean", "max": 0.05}])";
    text.replace(text.find(old), old.size(), slos);
    return text;
  };
  const auto load = [](const std::string& text, Diagnostics& d) {
    return study::load_variant(study::ScenarioText{text, "memory.json", "", {}}, {}, d);
  };

  SUBCASE("an SLO may name every metric of the summary, and a duration reads as one") {
    Diagnostics d;
    const auto sc = load(with_slos(R"([{"metric": "cost_usd.per_useful_gpu_hour", "max": 3},
                                       {"metric": "per_class.jobs.wait_s.p99", "max": "2h"},
                                       {"metric": "per_pool.main.gpu_utilization", "min": 0.5}])"),
                         d);
    REQUIRE_MESSAGE(sc.has_value(), d.to_text());
    REQUIRE(sc->recommend->slos.size() == 3);
    CHECK(*sc->recommend->slos[0].max == 3);
    CHECK(*sc->recommend->slos[1].max == 7200);
    CHECK(*sc->recommend->slos[2].min == 0.5);
    // Every metric an SLO may name is a column of the summary recommend reads, and the
    // durations are exactly the columns in seconds.
    const CompiledScenario cs = compile(*sc);
    const std::vector<MetricColumn> columns = metric_columns(
        {cs.pool_names, cs.class_names, cs.cause_names, cs.team_names}, metric_features(cs.view()));
    for (const MetricColumn& c : columns) {
      Diagnostics e;
      const std::string bound = c.unit == MetricUnit::seconds ? R"("1h")" : "1e9";
      const auto one =
          load(with_slos(R"([{"metric": ")" + c.path + R"(", "max": )" + bound + "}]"), e);
      INFO(c.path, ": ", e.to_text());
      REQUIRE(one.has_value());
      CHECK(*one->recommend->slos[0].max == (c.unit == MetricUnit::seconds ? 3600 : 1e9));
    }
  }

  SUBCASE("a bound that is not a number of the metric's kind, or an unknown metric, is refused") {
    Diagnostics d;
    CHECK_FALSE(load(with_slos(R"([{"metric": "metrics.gpu_utilization", "min": "2h"}])"), d));
    CHECK(d.to_text().find("/recommend/slos/0/min") != std::string::npos);
    Diagnostics e;
    CHECK_FALSE(load(with_slos(R"([{"metric": "metrics.wait.p90", "max": "2h"}])"), e));
    CHECK(e.to_text().find("/recommend/slos/0/metric") != std::string::npos);
    CHECK(e.to_text().find("metrics.wait_s.p90") != std::string::npos);  // the suggestion
  }
}

namespace {

//! A lab of 1-GPU nodes ($2/node-hour) over four months, one-hour jobs arriving at 10/h in
//! month 0 and 20 % more each month (17.3/h in month 3); SLO: mean wait <= 6 min in 75 % of
//! replicas; counts 8..40. `period` is the rest of the recommend section.
std::string growth_text(const std::string& growth, const std::string& period) {
  return R"({
  "name": "grow", "seed": 3, "horizon": "2920h", "warmup": "1d",
  "instances": [{"id": "lab.g1", "gpu": "A100-80GB", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 8, "pricing": "on_demand"}],
  "demand": {"growth_per_month": )" +
         growth + R"(},
  "workload": [{"name": "jobs", "arrival": {"poisson": {"rate": "10/h"}}, "gpus": 1,
                "duration": {"exponential": {"mean": "1h"}}}],
  "recommend": {"slos": [{"metric": "metrics.wait_s.mean", "max": "6m"}], "probability": 0.75,
                "replications": 4, )" +
         period + R"("candidates": [{"pool": "main", "count": {"min": 8, "max": 40}}]}})";
}

}  // namespace

TEST_CASE("study::recommend::growth") {
  // NOTE: doctest runs the body once per subcase; the three searches run once.
  static const study::Recommendation window =
      recommend_text(growth_text("0.2", R"("slos_hold": "over_window", )"));
  static const study::Recommendation flat =
      recommend_text(growth_text("0.2", R"("slos_hold": "every_month", "purchases": false, )"));
  static const study::Recommendation schedule = recommend_text(growth_text("0.2", ""));
  REQUIRE(window.options[0].search.count.has_value());
  REQUIRE(flat.options[0].schedule.has_value());
  REQUIRE(schedule.options[0].schedule.has_value());
  const std::vector<uint32_t>& by_month = schedule.options[0].schedule->nodes_by_month;
  const std::vector<uint32_t>& flat_months = flat.options[0].schedule->nodes_by_month;
  REQUIRE(by_month.size() == 4);
  REQUIRE(flat_months.size() == 4);

  SUBCASE("under growth every month is judged alone by default, with a purchase schedule") {
    CHECK(schedule.months.size() == 4);
    CHECK(window.months.empty());
    // the demand grows 1.2^3 = 1.73x: the last month needs more nodes than the first
    CHECK(by_month.back() > by_month.front());
    CHECK(std::is_sorted(by_month.begin(), by_month.end()));
    // every month meets its SLO
    for (const ProbeOutcome& o : schedule.options[0].schedule->at_window) CHECK(o.p_met >= 0.75);
  }

  SUBCASE("the whole window's answer is too small for the last month; every_month's is not") {
    // the window's mean wait averages the calm early months with the busy last one
    CHECK(*window.options[0].search.count < by_month.back());
    CHECK(flat_months.front() == flat_months.back());
    CHECK(flat_months.back() > *window.options[0].search.count);
  }

  SUBCASE("buying as the demand grows costs less than buying the last month's fleet at once") {
    CHECK(schedule.options[0].search.at_count.cost_usd < flat.options[0].search.at_count.cost_usd);
    // the winner's study holds the schedule: its first month's nodes, then each purchase
    REQUIRE(schedule.best_scenario.has_value());
    const Pool& pool = schedule.best_scenario->pools[0];
    CHECK(pool.count == by_month.back());
    CHECK(pool.initial_count() == by_month.front());
    for (const PoolPurchase& b : pool.purchases) {
      const auto m = uint32_t(b.at_s / PROFILE_MONTH_S + 0.5);
      CHECK(b.add == by_month[m] - by_month[m - 1]);
    }
  }

  SUBCASE("without growth the window is the default, and an explicit every_month still works") {
    Diagnostics d;
    const study::ScenarioText t{growth_text("0", ""), "memory.json", "", {}};
    const auto sc = study::load_variant(t, {}, d);
    REQUIRE(sc.has_value());
    CHECK(sc->recommend->slos_hold == SloPeriod::over_window);
    CHECK_FALSE(sc->recommend->purchases);
    const study::ScenarioText g{growth_text("0.01", ""), "memory.json", "", {}};
    const auto grows = study::load_variant(g, {}, d);
    REQUIRE(grows.has_value());
    CHECK(grows->recommend->slos_hold == SloPeriod::every_month);
    CHECK(grows->recommend->purchases);
  }
}

TEST_CASE("study::recommend::growth_load") {
  const auto errors = [](const std::string& text) {
    Diagnostics d;
    const study::ScenarioText t{text, "memory.json", "", {}};
    CHECK_FALSE(study::load_variant(t, {}, d).has_value());
    return d.to_text();
  };
  SUBCASE("a purchase schedule over the whole window is refused at its key") {
    const std::string e =
        errors(growth_text("0.2", R"("slos_hold": "over_window", "purchases": true, )"));
    CHECK(e.find("/recommend/purchases") != std::string::npos);
  }
  SUBCASE("an unknown period names the choices") {
    const std::string e = errors(growth_text("0.2", R"("slos_hold": "monthly", )"));
    CHECK(e.find("/recommend/slos_hold") != std::string::npos);
    CHECK(e.find("every_month") != std::string::npos);
  }
  SUBCASE("an elastic pool has no purchase schedule") {
    std::string text = growth_text("0.2", "");
    const std::string fixed = R"("count": 8, "pricing": "on_demand"})";
    const std::string elastic = R"("pricing": "on_demand", "elastic": {"min": 0, "max": 8}})";
    text.replace(text.find(fixed), fixed.size(), elastic);
    const std::string e = errors(text);
    CHECK(e.find("/recommend/candidates/0/pool") != std::string::npos);
    CHECK(e.find("elastic") != std::string::npos);
  }
}
