//! Off-peak schedules: which minutes of the week are off-peak, how many price changes a week has,
//! and the price series a schedule compiles to (steps at every boundary, merged with a pool's own
//! series).
#include <doctest/doctest.h>

#include "models/economics/off_peak.h"

using namespace gpuplan::economics;

namespace {

constexpr uint32_t DAY = 24 * 60;

//! Off-peak 22:00-06:00 every day and all of Saturday and Sunday, 30 % off.
OffPeakSchedule nights_and_weekends() {
  OffPeakSchedule s;
  s.discount = 0.3;
  s.hours = {{22 * 60, 6 * 60}};
  s.days = (1u << 5) | (1u << 6);
  return s;
}

}  // namespace

TEST_CASE("economics::off_peak") {
  const OffPeakSchedule s = nights_and_weekends();
  SUBCASE("a window that wraps midnight covers both ends of the night") {
    // Monday 23:00 and Tuesday 05:59 are off-peak; Monday 06:00 and 21:59 are not.
    CHECK(off_peak_at_minute(s, 23 * 60));
    CHECK(off_peak_at_minute(s, DAY + 5 * 60 + 59));
    CHECK_FALSE(off_peak_at_minute(s, 6 * 60));
    CHECK_FALSE(off_peak_at_minute(s, 22 * 60 - 1));
    // Saturday noon is off-peak as a whole day.
    CHECK(off_peak_at_minute(s, 5 * DAY + 12 * 60));
  }
  SUBCASE("the week has one boundary at each end of every peak stretch") {
    // Peak runs only Monday to Friday 06:00-22:00: five stretches, each bounded by two
    // changes, 10 per week (the weekend joins Friday night to Monday 06:00).
    CHECK(off_peak_boundaries_per_week(s) == 10);
    // A schedule that is never off-peak changes nothing.
    CHECK(off_peak_boundaries_per_week(OffPeakSchedule{}) == 0);
  }
  SUBCASE("the multiplier follows the run's start in the week") {
    OffPeakSchedule late = s;
    late.run_starts_min = 21 * 60;  // t = 0 is Monday 21:00
    // 21:00 peak (1.0); one hour later, 22:00, off-peak (0.7).
    CHECK(off_peak_multiplier(late, 0) == 1.0);
    CHECK(off_peak_multiplier(late, 3600) == doctest::Approx(0.7).epsilon(1e-15));
    // Friday 21:00 + 9 h = Saturday 06:00 stays off-peak through the weekend.
    late.run_starts_min = 4 * DAY + 21 * 60;
    CHECK(off_peak_multiplier(late, 9 * 3600) == doctest::Approx(0.7).epsilon(1e-15));
  }
  SUBCASE("the series steps at t = 0 and at every boundary before the horizon") {
    OffPeakSchedule late = s;
    late.run_starts_min = 21 * 60;
    const auto series = off_peak_series(late, {}, 10.0, 12 * 3600.0);
    REQUIRE(series);
    // Monday 21:00 $10, 22:00 $7, Tuesday 06:00 $10 (t = 9 h); nothing else within 12 h.
    REQUIRE(series->size() == 3);
    CHECK((*series)[0].t_s == 0);
    CHECK((*series)[0].usd_per_hour == 10.0);
    CHECK((*series)[1].t_s == 3600);
    CHECK((*series)[1].usd_per_hour == doctest::Approx(7.0).epsilon(1e-15));
    CHECK((*series)[2].t_s == 9 * 3600);
    CHECK((*series)[2].usd_per_hour == 10.0);
    // Two weeks hold 2 × 10 boundaries plus the step at t = 0 (which is itself a boundary
    // when the run starts on one; here Monday 21:00 is not).
    CHECK(off_peak_series(late, {}, 10.0, 14 * 86400.0)->size() == 21);
  }
  SUBCASE("a pool's own series is merged: the discount applies to the price in force") {
    OffPeakSchedule late = s;
    late.run_starts_min = 21 * 60;
    const std::vector<PricePoint> spot = {{1800, 4.0}, {7200, 2.0}};
    const auto series = off_peak_series(late, spot, 5.0, 3 * 3600.0);
    REQUIRE(series);
    // 0: list $5 (before the first point); 1,800 s: $4; 3,600 s (22:00): $4 × 0.7;
    // 7,200 s: $2 × 0.7.
    REQUIRE(series->size() == 4);
    CHECK((*series)[0].usd_per_hour == 5.0);
    CHECK((*series)[1].usd_per_hour == 4.0);
    CHECK((*series)[2].usd_per_hour == doctest::Approx(2.8).epsilon(1e-15));
    CHECK((*series)[3].t_s == 7200);
    CHECK((*series)[3].usd_per_hour == doctest::Approx(1.4).epsilon(1e-15));
    // a series that is not increasing in time is refused
    const std::vector<PricePoint> bad = {{100, 1.0}, {100, 2.0}};
    CHECK_FALSE(off_peak_series(late, bad, 5.0, 3600.0).has_value());
  }
}
