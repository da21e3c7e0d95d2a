//! The M/M/c closed forms (models/perf/queueing.h) against textbook cases and an independent sum.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "models/perf/queueing.h"

using namespace gpuplan::queueing;

namespace {

// Erlang C mean wait summed term by term from its textbook definition (an independent oracle
// for the stable recursion in models/perf/queueing.h).
double textbook_wait(uint32_t c, double lambda, double mu) {
  const double a = lambda / mu;
  double term = 1.0, sum = 1.0;  // sum_{k<c} a^k / k!
  for (uint32_t k = 1; k < c; ++k) {
    term *= a / k;
    sum += term;
  }
  const double last = term * a / c / (1.0 - a / c);  // a^c / c! / (1 - rho)
  return last / (sum + last) / (c * mu - lambda);
}

}  // namespace

TEST_CASE("queueing::mmc") {
  SUBCASE("M/M/1: P(wait) is rho and a wait is Exp(mu - lambda)") {
    // rho = 0.5 / 1
    CHECK(erlang_c(1, 0.5) == doctest::Approx(0.5));
    // W_q = rho / (mu - lambda) = 0.5 / 0.5 = 1 s
    CHECK(mmc_mean_wait_s(1, 0.5, 1.0) == doctest::Approx(1.0));
    // P(W > t) = rho exp(-(mu - lambda) t): p99 = ln(0.5 / 0.01) / 0.5 = 7.82 s
    CHECK(mmc_wait(1, 0.5, 1.0).quantile_s(0.99) == doctest::Approx(std::log(50.0) / 0.5));
    // half the arrivals do not wait: the median wait is 0
    CHECK(mmc_wait(1, 0.5, 1.0).quantile_s(0.5) == 0);
  }
  SUBCASE("M/M/c mean wait matches the textbook Erlang C sum") {
    for (uint32_t c : {2u, 8u, 64u}) {
      const double lambda = 0.8 * c;
      CAPTURE(c);
      // the same quantity summed term by term, at rho = 0.8
      CHECK(mmc_mean_wait_s(c, lambda, 1.0) == doctest::Approx(textbook_wait(c, lambda, 1.0)));
    }
  }
  SUBCASE("past 10,000 servers the Poisson form of Erlang B equals the recursion") {
    for (double rho : {0.5, 0.95, 0.999}) {
      const uint32_t c = 40000;
      const double a = rho * c;
      double b = 1.0;
      for (uint32_t k = 1; k <= c && b > 0; ++k) b = a * b / (k + a * b);
      CAPTURE(rho);
      CHECK(erlang_c(c, a) == doctest::Approx(b / (1 - rho * (1 - b))).epsilon(1e-9));
    }
  }
  SUBCASE("M/M/2 at lambda = mu = 1 waits 1/3 s on average") {
    // a = 1, C(2, 1) = 1/3, W_q = C / (2 mu - lambda) = 1/3 s
    CHECK(mmc_mean_wait_s(2, 1.0, 1.0) == doctest::Approx(1.0 / 3));
  }
  SUBCASE("an unstable queue has an infinite wait and waits surely") {
    CHECK(std::isinf(mmc_mean_wait_s(4, 4.0, 1.0)));
    // a >= c: every arrival waits
    CHECK(erlang_c(4, 4.0) == 1.0);
    CHECK(std::isinf(mmc_wait(4, 5.0, 1.0).quantile_s(0.99)));
  }
  SUBCASE("Little's law multiplies the arrival rate by the mean time in the system") {
    // 6.4 jobs/s x 0.25 s = 1.6 jobs
    CHECK(little_mean_number(6.4, 0.25) == doctest::Approx(1.6));
  }
}
