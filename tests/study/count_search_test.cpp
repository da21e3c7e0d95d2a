#include <doctest/doctest.h>

#include <limits>

#include "sim/mc_metrics.h"
#include "study/count_search.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

constexpr double INF = std::numeric_limits<double>::infinity();

//! M/M/c with 1-GPU nodes: 36 jobs/h of mean 600 s, an offered load of 6 GPUs.
Scenario mm_scenario() {
  Scenario sc = test::one_pool(1, 1, 86400.0, 7200.0);
  sc.workload.push_back(test::mm_class(0.01, 600.0));
  return sc;
}

//! A probe of `sc` at `count` nodes priced `price` [USD/node-hour], SLO mean wait <= 60 s.
ProbeOutcome probe(Scenario sc, uint32_t count, double price) {
  sc.pools[0].count = count;
  sc.pools[0].price_per_node_hour = price;
  sc.instances[0].price_per_hour.on_demand = price;
  const CompiledScenario cs = compile(sc);
  const ModelView view = cs.view();
  McOptions mo;
  mo.replications = 16;
  const std::vector<SloBound> slos = {{HeadlineIndex::WAIT_MEAN, -INF, 60.0}};
  return probe_outcome(view, run_monte_carlo(view, mo), slos);
}

}  // namespace

TEST_CASE("study::count_search") {
  const Scenario sc = mm_scenario();
  const auto at_price = [&](double price) {
    return [&sc, price](uint32_t n) { return probe(sc, n, price); };
  };

  SUBCASE("bisection on count finds the same count as a linear scan over every count") {
    const CountSearch s = smallest_count(1, 16, 0.8, at_price(1.0));
    uint32_t linear = 0;
    for (uint32_t n = 1; n <= 16 && linear == 0; ++n)
      if (probe(sc, n, 1.0).p_met >= 0.8) linear = n;
    REQUIRE(s.count.has_value());
    // Equal by construction of the same CRN probes; the load of 6 GPUs needs more than 6 nodes.
    CHECK(*s.count == linear);
    CHECK(*s.count > 6);
    // Bisection over 16 counts needs at most 1 + ceil(log2 16) = 5 distinct probes.
    CHECK(s.probes.size() <= 5);
  }

  SUBCASE("the recommended candidate is the cheaper of two whose prices differ") {
    const std::vector<CountSearch> searches = {smallest_count(1, 16, 0.8, at_price(2.0)),
                                               smallest_count(1, 16, 0.8, at_price(1.0))};
    const std::vector<std::size_t> ranked = rank_by_cost(searches);
    REQUIRE(ranked.size() == 2);
    // Index 1 at $1/node-hour: the same count as index 0 (same job stream) at half the price.
    CHECK(ranked.front() == 1);
    CHECK(*searches[0].count == *searches[1].count);
    // 2.0: cost is linear in the node-hour price at a fixed count.
    CHECK(searches[0].at_count.cost_usd == doctest::Approx(2.0 * searches[1].at_count.cost_usd));
  }

  SUBCASE("a search meeting the SLOs above the cost cap is over budget and never ranked") {
    const std::vector<CountSearch> searches = {smallest_count(1, 16, 0.8, at_price(2.0)),
                                               smallest_count(1, 16, 0.8, at_price(1.0))};
    const double cheap = searches[1].at_count.cost_usd, dear = searches[0].at_count.cost_usd;
    // a cap between the two keeps only the cheaper one
    CHECK(rank_by_cost(searches, 0.5 * (cheap + dear)) == std::vector<std::size_t>{1});
    // a cap below both ranks none; exactly at the dearer cost ranks both
    CHECK(rank_by_cost(searches, 0.5 * cheap).empty());
    CHECK(rank_by_cost(searches, dear).size() == 2);
  }

  SUBCASE("the cap applies to the window's spend, the ranking to the whole commitment") {
    std::vector<CountSearch> searches = {smallest_count(1, 16, 0.8, at_price(1.0)),
                                         smallest_count(1, 16, 0.8, at_price(2.0))};
    // A reservation's term beyond the window makes index 0 the dearer commitment, while its
    // window spend stays the lower one.
    searches[0].at_count.cost_usd += 10 * searches[1].at_count.cost_usd;
    CHECK(rank_by_cost(searches) == std::vector<std::size_t>{1, 0});
    const double cap = searches[0].at_count.window_cost_usd;
    CHECK(rank_by_cost(searches, cap) == std::vector<std::size_t>{0});
  }

  SUBCASE("an SLO unmeetable within the count range is reported as unmet with its probability") {
    const CountSearch s = smallest_count(1, 4, 0.8, at_price(1.0));
    CHECK_FALSE(s.count.has_value());
    // 0: 4 nodes serve at most 4 of the 6 GPUs offered, so the queue grows and no replica meets
    // a 60 s mean wait; one probe (at count_max) settles it.
    CHECK(s.at_count.p_met == doctest::Approx(0.0));
    CHECK(s.probes.size() == 1);
    CHECK(rank_by_cost({s}).empty());
  }

  SUBCASE("a replica that saturated meets no SLO, whatever its figures say") {
    Scenario roomy = sc;
    roomy.pools[0].count = 16;
    const CompiledScenario cs = compile(roomy);
    const ModelView view = cs.view();
    McOptions mo;
    mo.replications = 8;
    McStudy st = run_monte_carlo(view, mo);
    // 16 nodes for 6 GPUs of load: every replica keeps a mean wait far under an hour.
    const std::vector<SloBound> slos = {{HeadlineIndex::WAIT_MEAN, -INF, 3600.0}};
    CHECK(probe_outcome(view, st, slos).p_met == doctest::Approx(1.0));
    // The engine's flag alone decides: the same figures from two saturated replicas count as
    // unmet, on both sides of the flag.
    st.replicas[0].metrics.saturation = SaturationCause::queue_overflow;
    st.replicas[3].metrics.saturation = SaturationCause::event_overflow;
    CHECK(probe_outcome(view, st, slos).p_met == doctest::Approx(6.0 / 8.0));
  }
}
