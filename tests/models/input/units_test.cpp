#include <cmath>

#include <doctest/doctest.h>

#include "models/load/load.h"
#include "models/scenario/scenario.h"

using namespace gpuplan;

TEST_CASE("load::parse_duration") {
  SUBCASE("a number without a unit is seconds") {
    // 90 s as written.
    CHECK(parse_duration("90") == doctest::Approx(90));
    // 1.5 s as written.
    CHECK(parse_duration("1.5") == doctest::Approx(1.5));
  }
  SUBCASE("every unit converts to seconds") {
    // 250 ms = 0.25 s.
    CHECK(*parse_duration("250ms") == doctest::Approx(0.25));
    // 30 s.
    CHECK(*parse_duration("30s") == doctest::Approx(30));
    // 5 m = 300 s.
    CHECK(*parse_duration("5m") == doctest::Approx(300));
    // 36 h = 129,600 s.
    CHECK(*parse_duration("36h") == doctest::Approx(129600));
    // 30 d = 2,592,000 s.
    CHECK(*parse_duration("30d") == doctest::Approx(2592000));
    // 2 w = 1,209,600 s.
    CHECK(*parse_duration("2w") == doctest::Approx(1209600));
    // 1 y = 365 d = 31,536,000 s (no leap day).
    CHECK(*parse_duration("1y") == doctest::Approx(31536000));
  }
  SUBCASE("units may be written as words, singular or plural") {
    // 30 days = 2,592,000 s, as "30d".
    CHECK(*parse_duration("30 days") == doctest::Approx(2592000));
    // 1 day = 86,400 s.
    CHECK(*parse_duration("1 day") == doctest::Approx(86400));
    // 5 hours = 18,000 s; 2 hrs = 7,200 s.
    CHECK(*parse_duration("5 hours") == doctest::Approx(18000));
    CHECK(*parse_duration("2hrs") == doctest::Approx(7200));
    // 90 minutes = 5,400 s; 10 min = 600 s.
    CHECK(*parse_duration("90 minutes") == doctest::Approx(5400));
    CHECK(*parse_duration("10 min") == doctest::Approx(600));
    // 45 seconds; 250 milliseconds = 0.25 s.
    CHECK(*parse_duration("45 seconds") == doctest::Approx(45));
    CHECK(*parse_duration("250 milliseconds") == doctest::Approx(0.25));
    // 2 weeks = 1,209,600 s; 3 years = 3 x 365 d.
    CHECK(*parse_duration("2 weeks") == doctest::Approx(1209600));
    CHECK(*parse_duration("3 years") == doctest::Approx(3 * 31536000.0));
    // a rate per word: 12/hour = 12 / 3600 s.
    CHECK(*parse_rate("12/hour") == doctest::Approx(12.0 / 3600));
    // "months" is ambiguous (28-31 days) and stays an error.
    CHECK_FALSE(parse_duration("2 months"));
  }
  SUBCASE("whitespace, fractions and exponents are accepted") {
    // 36 h with a space = 129,600 s.
    CHECK(*parse_duration("36 h") == doctest::Approx(129600));
    // 0.5 d = 43,200 s.
    CHECK(*parse_duration("  0.5d ") == doctest::Approx(43200));
    // 1e3 s = 1000 s.
    CHECK(*parse_duration("1e3s") == doctest::Approx(1000));
  }
  SUBCASE("negative, unknown-unit, empty and non-finite durations are rejected") {
    CHECK_FALSE(parse_duration("-5s"));
    CHECK_FALSE(parse_duration("5 fortnights"));
    CHECK_FALSE(parse_duration("5M"));
    CHECK_FALSE(parse_duration(""));
    CHECK_FALSE(parse_duration("h"));
    CHECK_FALSE(parse_duration("inf"));
    CHECK_FALSE(parse_duration("nan s"));
  }
}

TEST_CASE("load::parse_rate") {
  SUBCASE("a number is per second") {
    // 0.5 per second as written.
    CHECK(*parse_rate("0.5") == doctest::Approx(0.5));
  }
  SUBCASE("every unit converts to per second") {
    // 60/s = 60 per second.
    CHECK(*parse_rate("60/s") == doctest::Approx(60));
    // 3/ms = 3000 per second.
    CHECK(*parse_rate("3/ms") == doctest::Approx(3000));
    // 120/m = 2 per second.
    CHECK(*parse_rate("120/m") == doctest::Approx(2));
    // 12/h = 1/300 per second.
    CHECK(*parse_rate("12/h") == doctest::Approx(12.0 / 3600));
    // 3/d = 3/86400 per second.
    CHECK(*parse_rate("3/d") == doctest::Approx(3.0 / 86400));
    // 7/w = 1 per day.
    CHECK(*parse_rate("7/w") == doctest::Approx(1.0 / 86400));
    // 365/y = 1 per day.
    CHECK(*parse_rate("365/y") == doctest::Approx(1.0 / 86400));
  }
  SUBCASE("whitespace and a per-duration denominator are accepted") {
    // 12 / h with spaces = 1/300 per second.
    CHECK(*parse_rate(" 12 / h ") == doctest::Approx(12.0 / 3600));
    // 5 per 10 minutes = 1/120 per second.
    CHECK(*parse_rate("5/10m") == doctest::Approx(1.0 / 120));
  }
  SUBCASE("negative, unitless-denominator and malformed rates are rejected") {
    CHECK_FALSE(parse_rate("-1/s"));
    CHECK_FALSE(parse_rate("12/fortnight"));
    CHECK_FALSE(parse_rate("12h"));
    CHECK_FALSE(parse_rate("/h"));
    CHECK_FALSE(parse_rate("12/0s"));
  }
}

TEST_CASE("load::distribution") {
  SUBCASE("analytic means match the textbook formulas") {
    // Fixed 10 s: mean 10 s.
    CHECK(Distribution{DistKind::fixed, 10, 0, {}, {}}.mean() == doctest::Approx(10));
    // Exponential with mean 7 s: mean 7 s.
    CHECK(Distribution{DistKind::exponential, 7, 0, {}, {}}.mean() == doctest::Approx(7));
    // Uniform [2, 6): mean 4 s.
    CHECK(Distribution{DistKind::uniform, 2, 6, {}, {}}.mean() == doctest::Approx(4));
    // Lognormal mu = ln 100, sigma = 0.5: mean 100 * exp(0.125) = 113.3148.
    CHECK(Distribution{DistKind::lognormal, std::log(100.0), 0.5, {}, {}}.mean() ==
          doctest::Approx(100 * std::exp(0.125)));
    // Log-uniform [1, e): mean (e - 1) / (ln e - ln 1) = e - 1.
    CHECK(Distribution{DistKind::loguniform, 1, std::exp(1.0), {}, {}}.mean() ==
          doctest::Approx(std::exp(1.0) - 1));
    // Empirical {10 w1, 40 w3}: mean (10 + 120) / 4 = 32.5 s.
    CHECK(Distribution{DistKind::empirical, 0, 0, {10, 40}, {1, 3}}.mean() ==
          doctest::Approx(32.5));
  }
  SUBCASE("a GPU choice has a probability-weighted mean and a largest value") {
    const GpuChoice c{{1, 2, 8}, {0.5, 0.25, 0.25}};
    // 0.5 * 1 + 0.25 * 2 + 0.25 * 8 = 3.
    CHECK(c.mean() == doctest::Approx(3));
    // Largest count is 8.
    CHECK(c.max() == 8);
    // An empty choice asks for nothing.
    CHECK(GpuChoice{}.max() == 0);
  }
}
