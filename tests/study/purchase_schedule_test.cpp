//! Month windows and the cheapest schedule (study/purchase_schedule.h) against a synthetic
//! probe whose month m is met exactly when it holds at least need[m] nodes.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>

#include "models/scenario/demand_profile.h"
#include "study/purchase_schedule.h"

using namespace gpuplan;

namespace {

constexpr double DAY = 86400;
constexpr double MONTH = PROFILE_MONTH_S;

//! A probe meeting month m in every replica when it holds need[m] nodes or more, in none else;
//! counts every call.
struct NeedProbe {
  std::vector<uint32_t> need;
  uint32_t calls = 0;
  ProbeOutcome operator()(const std::vector<uint32_t>& nodes) {
    ++calls;
    ProbeOutcome o;
    o.p_met = nodes.back() >= need[nodes.size() - 1] ? 1.0 : 0.0;
    return o;
  }
};

ScheduleSearch search(NeedProbe& p, uint32_t lo, uint32_t hi, bool flat) {
  return cheapest_schedule(lo, hi, uint32_t(p.need.size()), 0.9, flat,
                           [&](const std::vector<uint32_t>& n) { return p(n); });
}

}  // namespace

TEST_CASE("study::month_windows") {
  SUBCASE("a year after a week's warm-up: twelve months, the first from the warm-up's end") {
    const auto w = month_windows(7 * DAY, 365 * DAY);
    REQUIRE(w.size() == 12);
    CHECK(w[0].month == 0);
    CHECK(w[0].start_s == 7 * DAY);
    CHECK(w[0].end_s == MONTH);
    CHECK(w[5].month == 5);
    CHECK(w[5].start_s == 5 * MONTH);
    CHECK(w[11].end_s == 365 * DAY);
  }
  SUBCASE("a last piece shorter than a quarter month joins the month before; longer, it stays") {
    const auto joined = month_windows(0, 2 * MONTH + MONTH / 4 - 1);
    REQUIRE(joined.size() == 2);
    CHECK(joined[1].end_s == 2 * MONTH + MONTH / 4 - 1);
    const auto kept = month_windows(0, 2 * MONTH + MONTH / 4);
    REQUIRE(kept.size() == 3);
    CHECK(kept[2].month == 2);
  }
  SUBCASE("a first piece shorter than a quarter month joins the next") {
    const auto joined = month_windows(MONTH - MONTH / 4 + 1, 3 * MONTH);
    REQUIRE(joined.size() == 2);
    CHECK(joined[0].month == 1);
    CHECK(joined[0].start_s == MONTH - MONTH / 4 + 1);
    CHECK(month_windows(MONTH - MONTH / 4, 3 * MONTH).size() == 3);
  }
  SUBCASE("a window shorter than a month is one window; none when the warm-up covers it") {
    CHECK(month_windows(0, 10 * DAY).size() == 1);
    CHECK(month_windows(10 * DAY, 10 * DAY).empty());
  }
}

TEST_CASE("study::cheapest_schedule") {
  SUBCASE("a purchase schedule follows the need and never sells a node") {
    NeedProbe p{{3, 3, 4, 6, 5, 7}};
    const ScheduleSearch s = search(p, 1, 10, false);
    CHECK(s.nodes_by_month == std::vector<uint32_t>{3, 3, 4, 6, 6, 7});
    CHECK_FALSE(s.unmet_window.has_value());
    CHECK(s.p_met() == 1.0);
    REQUIRE(s.at_window.size() == 6);
    // every probe's earlier months are the schedule's own
    for (const auto& kv : s.probes) {
      const std::vector<uint32_t>& prefix = kv.first;
      CHECK(std::equal(prefix.begin(), prefix.end() - 1, s.nodes_by_month.begin()));
    }
  }
  SUBCASE("one count for every month: the busiest month's") {
    NeedProbe p{{3, 3, 4, 6, 5, 7}};
    const ScheduleSearch s = search(p, 1, 10, true);
    CHECK(s.nodes_by_month == std::vector<uint32_t>(6, 7));
    CHECK(s.p_met() == 1.0);
  }
  SUBCASE("a month no count meets stops the search, at count_max and one below it") {
    for (const bool flat : {false, true}) {
      NeedProbe unmet{{3, 4, 11, 12}};
      const ScheduleSearch s = search(unmet, 1, 10, flat);
      CHECK(s.nodes_by_month.empty());
      REQUIRE(s.unmet_window.has_value());
      CHECK(*s.unmet_window == (flat ? 3u : 2u));
      CHECK(s.p_met() == 0.0);
      NeedProbe met{{3, 4, 10, 10}};
      CHECK(search(met, 1, 10, flat).nodes_by_month.back() == 10);
    }
  }
  SUBCASE("each month's count is the least: one node fewer in any month fails that month") {
    std::mt19937 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
      NeedProbe p;
      const uint32_t months = 1 + rng() % 12;
      for (uint32_t m = 0; m < months; ++m) p.need.push_back(1 + rng() % 30);
      const ScheduleSearch s = search(p, 1, 32, false);
      REQUIRE(s.nodes_by_month.size() == months);
      for (uint32_t m = 0; m < months; ++m) {
        const uint32_t n = s.nodes_by_month[m];
        CHECK(n >= p.need[m]);
        if (m > 0) CHECK(n >= s.nodes_by_month[m - 1]);
        // fewer would fail this month, or sell a node bought the month before
        CHECK((n == 1 || n - 1 < p.need[m] || (m > 0 && n - 1 < s.nodes_by_month[m - 1])));
      }
    }
  }
  SUBCASE("a month whose count holds costs one probe") {
    NeedProbe p{{5, 5, 5, 5, 5, 5, 5, 5}};
    const ScheduleSearch s = search(p, 1, 64, false);
    CHECK(s.nodes_by_month == std::vector<uint32_t>(8, 5));
    // month 0: count_min, count_max, then bisection; every later month: its count only
    CHECK(p.calls <= 2 + 6 + 7);
  }
}
