#include <doctest/doctest.h>

#include <limits>
#include <vector>

#include "models/economics/billing.h"

using namespace gpuplan::economics;

TEST_CASE("economics::billing" * doctest::test_suite("economics")) {
  SUBCASE("per-second billing with a 60 s minimum rounds up to whole seconds above the minimum") {
    // 61 s is above the 60 s minimum, so exactly 61 s are billed.
    CHECK(*billed_seconds(AWS_PER_SECOND, 61.0) == doctest::Approx(61.0));
    // 60.2 s rounds up to the next whole second: 61 s.
    CHECK(*billed_seconds(AWS_PER_SECOND, 60.2) == doctest::Approx(61.0));
    // 30 s of use is below the minimum, so the minimum of 60 s is billed.
    CHECK(*billed_seconds(AWS_PER_SECOND, 30.0) == doctest::Approx(60.0));
    // 0.2 s still counts as a launch: 60 s.
    CHECK(*billed_seconds(AWS_PER_SECOND, 0.2) == doctest::Approx(60.0));
    // A node that never ran bills nothing.
    CHECK(*billed_seconds(AWS_PER_SECOND, 0.0) == 0.0);
  }

  SUBCASE("per-hour billing charges every started hour in full") {
    // 61 min = 3,660 s starts a second hour: 2 h = 7,200 s.
    CHECK(*billed_seconds(PER_HOUR, 61.0 * 60.0) == doctest::Approx(7200.0));
    // Exactly 1 h is 1 h, even when event-time arithmetic overshoots by 1e-10 s.
    CHECK(*billed_seconds(PER_HOUR, 3600.0 + 1e-10) == doctest::Approx(3600.0));
    // One second of use is a whole hour.
    CHECK(*billed_seconds(PER_HOUR, 1.0) == doctest::Approx(3600.0));
  }

  SUBCASE("serverless billing rounds up to whole milliseconds with no minimum") {
    // 1,500 ms is already whole: 1.5 s.
    CHECK(*billed_seconds(SERVERLESS_PER_MS, 1.5) == doctest::Approx(1.5));
    // 1,500.4 ms rounds up to 1,501 ms.
    CHECK(*billed_seconds(SERVERLESS_PER_MS, 1.5004) == doctest::Approx(1.501));
    // 0.3 ms rounds up to 1 ms, with no minimum above that.
    CHECK(*billed_seconds(SERVERLESS_PER_MS, 0.0003) == doctest::Approx(0.001));
  }

  SUBCASE("negative or non-finite usage is rejected") {
    CHECK_FALSE(billed_seconds(AWS_PER_SECOND, -1.0).has_value());
    CHECK_FALSE(
        billed_seconds(AWS_PER_SECOND, std::numeric_limits<double>::infinity()).has_value());
    CHECK_FALSE(billed_seconds({BillingGranularity::per_second, -5.0}, 10.0).has_value());
  }

  SUBCASE("a pool's intervals are billed one by one and priced per hour") {
    const std::vector<UsageInterval> iv{{0.0, 61.0}, {100.0, 130.0}};
    // 61 s + 60 s (minimum) = 121 s at $3.6/h = $0.121.
    CHECK(*usage_cost_usd(AWS_PER_SECOND, 3.6, iv) == doctest::Approx(0.121));
    // Per hour the same intervals bill 2 h at $3.6/h = $7.2.
    CHECK(*usage_cost_usd(PER_HOUR, 3.6, iv) == doctest::Approx(7.2));
    const std::vector<UsageInterval> reversed{{10.0, 5.0}};
    CHECK_FALSE(usage_cost_usd(AWS_PER_SECOND, 3.6, reversed).has_value());
    CHECK_FALSE(usage_cost_usd(AWS_PER_SECOND, -1.0, iv).has_value());
  }

  SUBCASE("a reservation's effective rate spreads the upfront over the term") {
    // All upfront $8,760 for 1 year (8,760 h) = $1/h.
    CHECK(*reserved_effective_hourly_usd({1.0, 8760.0, 0.0}) == doctest::Approx(1.0));
    // Partial: $4,380 / 8,760 h + $0.5/h = $1/h.
    CHECK(*reserved_effective_hourly_usd({1.0, 4380.0, 0.5}) == doctest::Approx(1.0));
    // 3-year no upfront at $1.45/h stays $1.45/h; the term is 26,280 h.
    CHECK(*reserved_effective_hourly_usd({3.0, 0.0, 1.45}) == doctest::Approx(1.45));
    CHECK(reserved_term_hours({3.0, 0.0, 1.45}) == doctest::Approx(26280.0));
    CHECK_FALSE(reserved_effective_hourly_usd({0.0, 100.0, 1.0}).has_value());
    CHECK_FALSE(reserved_effective_hourly_usd({1.0, -1.0, 1.0}).has_value());
  }

  SUBCASE("a reservation bills idle time: a window's cost does not depend on use") {
    const ReservedOffer partial{1.0, 4380.0, 0.5};
    const double day_s = 86400.0;
    // A 30-day window inside the term: 720 h × $1/h = $720, used or not (no usage enters).
    CHECK(*reserved_window_cost_usd(partial, 0.0, 10 * day_s, 40 * day_s,
                                    ReservedAccounting::amortized) == doctest::Approx(720.0));
    // Cash basis: the window holding the term start owes the $4,380 upfront + 720 h × $0.5.
    CHECK(*reserved_window_cost_usd(partial, 0.0, 0.0, 30 * day_s, ReservedAccounting::cash) ==
          doctest::Approx(4380.0 + 360.0));
    // A later window owes only the hourly part: 720 h × $0.5 = $360.
    CHECK(*reserved_window_cost_usd(partial, 0.0, 30 * day_s, 60 * day_s,
                                    ReservedAccounting::cash) == doctest::Approx(360.0));
    // A window straddling the term end pays for the 12 h inside the term: 12 × $1.
    const double term_end_s = 8760.0 * 3600.0;
    CHECK(*reserved_window_cost_usd(partial, 0.0, term_end_s - 12 * 3600.0, term_end_s + day_s,
                                    ReservedAccounting::amortized) == doctest::Approx(12.0));
    // Before the term starts nothing is owed.
    CHECK(*reserved_window_cost_usd(partial, day_s, 0.0, day_s, ReservedAccounting::amortized) ==
          0.0);
    // Summed over the whole term both bases give the same total: 8,760 h × $1 = $8,760.
    CHECK(*reserved_window_cost_usd(partial, 0.0, 0.0, term_end_s, ReservedAccounting::cash) ==
          doctest::Approx(8760.0));
  }

  SUBCASE("spot discount arithmetic goes both ways") {
    // p4d.24xlarge $32.7726/h at 70% off = $9.83178/h.
    CHECK(*spot_price_from_discount(32.7726, 0.70) == doctest::Approx(9.83178));
    // $5.09 observed spot vs $32.7726 on-demand = 1 − 5.09/32.7726 ≈ 84.47% off.
    CHECK(*discount_vs_on_demand(5.09, 32.7726) == doctest::Approx(0.844687).epsilon(1e-5));
    CHECK_FALSE(spot_price_from_discount(32.7726, 1.2).has_value());
    CHECK_FALSE(discount_vs_on_demand(1.0, 0.0).has_value());
  }

  SUBCASE("a piecewise-constant spot price integrates over any interval") {
    const std::vector<PricePoint> series{{0.0, 1.0}, {3600.0, 2.0}, {7200.0, 0.5}};
    // [1800, 9000): 0.5 h × $1 + 1 h × $2 + 0.5 h × $0.5 = $2.75.
    CHECK(*integrate_price_usd(series, 1800.0, 9000.0) == doctest::Approx(2.75));
    // The last price holds forever: 10 h past the last point at $0.5 = $5.
    CHECK(*integrate_price_usd(series, 7200.0, 7200.0 + 36000.0) == doctest::Approx(5.0));
    // An empty interval costs nothing.
    CHECK(*integrate_price_usd(series, 100.0, 100.0) == 0.0);
    CHECK_FALSE(integrate_price_usd(series, -1.0, 10.0).has_value());
    const std::vector<PricePoint> unsorted{{0.0, 1.0}, {0.0, 2.0}};
    CHECK_FALSE(integrate_price_usd(unsorted, 0.0, 10.0).has_value());
  }

  SUBCASE("usage priced by a series is rounded by the billing rule before integrating") {
    const std::vector<PricePoint> series{{0.0, 1.0}, {3600.0, 2.0}};
    const std::vector<UsageInterval> iv{{3590.0, 3620.0}};
    // 30 s bills 60 s: [3590, 3650) = 10 s at $1/h + 50 s at $2/h = $110/3600.
    CHECK(*usage_cost_usd(AWS_PER_SECOND, series, iv) == doctest::Approx(110.0 / 3600.0));
  }
}
