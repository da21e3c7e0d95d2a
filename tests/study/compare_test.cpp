//! study::compare: a paired Monte Carlo of two scenarios with common random numbers.
#include <doctest/doctest.h>

#include <string>

#include "study/compare.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! M/M/c on `nodes` one-GPU nodes at 3 jobs/s of mean 1 s, 30 minutes with 5 minutes of warmup.
Scenario mm(uint32_t nodes) {
  Scenario sc = test::one_pool(nodes, 1, 1800, 300);
  sc.workload.push_back(test::mm_class(3.0, 1.0));
  return sc;
}

study::Comparison run(const Scenario& a, const Scenario& b, uint32_t n) {
  const CompiledScenario ca = compile(a), cb = compile(b);
  study::MonteCarloOptions o;
  o.replications = n;
  return study::compare(a, ca, b, cb, o);
}

const study::Difference& find(const study::Comparison& c, const std::string& path) {
  for (const study::Difference& d : c.differences)
    if (d.path == path) return d;
  FAIL("no difference for " << path);
  return c.differences.front();
}

}  // namespace

TEST_CASE("study::compare") {
  SUBCASE("a scenario compared with itself differs by exactly 0 with zero-width intervals") {
    const study::Comparison c = run(mm(4), mm(4), 8);
    REQUIRE(c.held());
    // every replication kept up on both sides: 8 pairs
    CHECK(c.paired.size() == 8);
    REQUIRE(c.differences.size() == std::size(study::COMPARE_PATHS));
    for (const study::Difference& d : c.differences) {
      CAPTURE(d.path);
      // replica k of both sides is the same simulation, so every difference is 0.0 exactly
      CHECK(d.paired.mean == 0.0);
      CHECK(d.paired.ci95_low == 0.0);
      CHECK(d.paired.ci95_high == 0.0);
      CHECK(d.a_mean == d.b_mean);
      CHECK_FALSE(d.significant);
    }
  }

  SUBCASE("common random numbers make the paired interval narrower than the unpaired one") {
    // A: 4 nodes at offered load 0.75; B: one node more. Same arrivals and durations in replica k.
    const study::Comparison c = run(mm(4), mm(5), 20);
    REQUIRE(c.held());
    const study::Difference& wait = find(c, "metrics.wait_s.mean");
    // a fifth server cuts the wait: the difference is negative and resolved
    CHECK(wait.paired.mean < 0);
    CHECK(wait.significant);
    // the paired half-width is below the Welch one: the noise both sides share cancels
    CHECK(wait.paired.half_width() < wait.unpaired.half_width());
    // utilization is busy GPU-time (the same jobs on both sides) over 4 or 5 GPUs, so nearly all
    // of its noise is shared: the paired interval is a small fraction of the unpaired one
    const study::Difference& util = find(c, "metrics.gpu_utilization");
    CHECK(util.paired.half_width() < 0.25 * util.unpaired.half_width());
    // both intervals centre on the same difference of means
    CHECK(wait.paired.mean == doctest::Approx(wait.unpaired.mean).epsilon(1e-12));
  }

  SUBCASE("doubling every price adds exactly A's cost, with a zero-width interval") {
    Scenario b = mm(4);
    for (Pool& p : b.pools) p.price_per_node_hour *= 2;
    const study::Comparison c = run(mm(4), b, 6);
    REQUIRE(c.held());
    const study::Difference& cost = find(c, "cost_usd.total");
    // a fixed on-demand fleet costs nodes x price x window in every replication: 4 x $1/h x 25 min
    CHECK(cost.a_mean == doctest::Approx(4 * 1500 / 3600.0).epsilon(1e-12));
    // doubling is exact in floating point, so B - A = 2x - x = x exactly, replica by replica
    CHECK(cost.paired.mean == cost.a_mean);
    // x is the same in every replication up to the rounding of its billing sums (~1e-15 relative)
    CHECK(cost.paired.ci95_high - cost.paired.ci95_low <= 1e-12 * cost.a_mean);
    CHECK(cost.significant);
    // the schedule is the same, so waits do not move at all
    CHECK(find(c, "metrics.wait_s.mean").paired.mean == 0.0);
  }

  SUBCASE("each TCO option both sides project is paired replica by replica") {
    // Three replications; B's replication 1 is out of its statistics (it saturated), so the
    // pairs are replications 0 and 2. Every COMPARE_PATHS metric is 0 here.
    study::Summary a, b;
    for (study::Summary* s : {&a, &b}) {
      s->stats.paths.assign(std::begin(study::COMPARE_PATHS), std::end(study::COMPARE_PATHS));
      s->stats.rows.assign(3, std::vector<double>(s->stats.paths.size(), 0.0));
    }
    a.stats.in_statistics = {0, 1, 2};
    b.stats.in_statistics = {0, 2};
    a.tco_values = {{"tco.options.buy.npv_usd", {10, 20, 30}},
                    {"tco.options.keep.npv_usd", {1, 2, 3}}};
    b.tco_values = {{"tco.options.buy.npv_usd", {15, 40}}};
    const std::vector<study::Difference> d = study::differences(a, b, {0, 2});
    // the headline metrics, then buy's NPV; keep is projected by A only, so it has no row
    REQUIRE(d.size() == std::size(study::COMPARE_PATHS) + 1);
    const study::Difference& npv = d.back();
    CHECK(npv.path == "tco.options.buy.npv_usd");
    // pairs (10, 15) and (30, 40): B - A = 5 and 10, mean 7.5; A's mean 20, B's 27.5
    CHECK(npv.paired.mean == doctest::Approx(7.5).epsilon(1e-12));
    CHECK(npv.a_mean == doctest::Approx(20).epsilon(1e-12));
    CHECK(npv.b_mean == doctest::Approx(27.5).epsilon(1e-12));
    CHECK(npv.paired.n == 2);
  }
}
