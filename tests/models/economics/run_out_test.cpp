//! The run-out instant (models/economics/run_out.h): linear between the months' middles.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "models/economics/run_out.h"

using gpuplan::economics::run_out_month;

TEST_CASE("economics::run_out_month") {
  // demand 100, 110, 120, 130: the rate at month m's middle, m + 0.5
  const std::vector<double> demand = {100, 110, 120, 130};
  SUBCASE("the capacity between two months' demands: linear between their middles") {
    // 115 lies halfway from month 1's 110 to month 2's 120: between their middles, at 2.0
    CHECK(run_out_month(demand, 2, 115) == doctest::Approx(2.0));
    // 112.5: a quarter of the way, 1.75
    CHECK(run_out_month(demand, 2, 112.5) == doctest::Approx(1.75));
  }
  SUBCASE("both ends of the short month's interval") {
    // a capacity equal to the month before's demand is reached at that month's middle
    CHECK(run_out_month(demand, 2, 110) == doctest::Approx(1.5));
    // just below the short month's demand: just before its middle
    CHECK(run_out_month(demand, 2, 119.99) == doctest::Approx(2.499));
  }
  SUBCASE("compounding growth: within 0.01 month of the exact crossing of the rate") {
    // a rate of 1.08^t per month; the capacity 1.08^5.3 is reached at t = 5.3, and month m's
    // total is the rate's integral over [m, m + 1)
    std::vector<double> total;
    const double g = std::log(1.08);
    for (int m = 0; m < 12; ++m) total.push_back((std::exp(g * (m + 1)) - std::exp(g * m)) / g);
    const double capacity = std::exp(g * 5.3);
    uint32_t first = 0;
    while (total[first] <= capacity) ++first;
    CHECK(first == 5);  // month 5's total is its rate at about 5.5
    CHECK(std::abs(run_out_month(total, first, capacity) - 5.3) < 0.01);
  }
  SUBCASE("short from the start: month 0") {
    CHECK(run_out_month(demand, 0, 90) == 0.0);
  }
}
