#include "reports/quantity.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace gpuplan::reports;

TEST_CASE("reports::quantity") {
  SUBCASE("a metric path names what it measures") {
    CHECK(quantity_of("cost_usd.total") == Quantity::money);
    CHECK(quantity_of("cost_usd_per_useful_gpu_hour") == Quantity::money);
    CHECK(quantity_of("metrics.wait_s.p90") == Quantity::seconds);
    CHECK(quantity_of("metrics.jct_s.mean") == Quantity::seconds);
    CHECK(quantity_of("metrics.gpu_utilization") == Quantity::fraction);
    CHECK(quantity_of("p_slos_met") == Quantity::fraction);
    CHECK(quantity_of("metrics.jobs_completed") == Quantity::count);
    CHECK(quantity_of("gpus") == Quantity::count);
    // TFLOPS per dollar-hour is a rate, not money
    CHECK(quantity_of("bf16_tflops_per_usd_hour") == Quantity::plain);
    // a time-average of jobs is not a whole count
    CHECK(quantity_of("metrics.mean_queued_jobs") == Quantity::plain);
  }
  SUBCASE("money has a dollar sign, thousands separators and cents") {
    // the unformatted "$259371.980256" of issue 11
    CHECK(format_quantity(Quantity::money, 259371.980256) == "$259,371.98");
    CHECK(format_quantity(Quantity::money, -3) == "-$3.00");
  }
  SUBCASE("counts, seconds, fractions and plain numbers have separators and fixed decimals") {
    CHECK(format_quantity(Quantity::count, 1234567) == "1,234,567");
    CHECK(format_quantity(Quantity::seconds, 4321.06) == "4,321.1 s");
    CHECK(format_quantity(Quantity::fraction, 0.7942) == "79.4%");
    CHECK(format_quantity(Quantity::plain, 1234.567) == "1,234.57");
    CHECK(format_quantity(Quantity::money, NAN) == "n/a");
  }
  SUBCASE("a change carries its sign; a fraction's change is in percentage points") {
    CHECK(format_change(Quantity::money, 1234.5) == "+$1,234.50");
    CHECK(format_change(Quantity::money, -1234.5) == "-$1,234.50");
    CHECK(format_change(Quantity::seconds, -12.54) == "-12.5 s");
    CHECK(format_change(Quantity::count, 3) == "+3");
    // 0.80 -> 0.812 is 1.2 percentage points
    CHECK(format_change(Quantity::fraction, 0.012) == "+1.2 pp");
    CHECK(format_change(Quantity::fraction, -0.05) == "-5.0 pp");
  }
  SUBCASE("a CI is the mean then its bounds, each written the same way") {
    CHECK(format_with_ci(Quantity::money, 1000, 950.5, 1049.5) == "$1,000.00 [$950.50, $1,049.50]");
  }
}
