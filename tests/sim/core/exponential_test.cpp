//! The engine's exponential sampler (sim/core/exponential.h): its tables recomputed from their
//! definition in long double, and its law checked against Exp(1) on four million draws.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "sim/core/exponential.h"
#include "sim/core/types.h"

namespace gpuplan {
namespace {

//! Marsaglia and Tsang's layer edges for tail start r, in long double; returns how far the 256th
//! layer misses the top of the curve, e^-X[255] + v / X[255] - 1 (zero at the right r).
long double layer_edges(long double r, long double* x) {
  const long double v = (r + 1) * expl(-r);
  x[0] = v / expl(-r);
  x[1] = r;
  for (int i = 1; i < 255; ++i) {
    const long double y = v / x[i] + expl(-x[i]);
    if (y >= 1) return 1;  // the layers reach the top too early: r is too small
    x[i + 1] = -logl(y);
  }
  x[256] = 0;
  return expl(-x[255]) + v / x[255] - 1;
}

//! `n` exponentials from the arrival stream's draws, sorted.
std::vector<double> sorted_draws(uint32_t n) {
  std::vector<double> out(n);
  for (uint32_t k = 0; k < n; ++k)
    out[k] = exponential_first(philox_draw(20261205, 0, Stream::arrivals, 0, k));
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("sim::exponential tables") {
  // The tail's start solves the layers' closing condition (bisection to long double precision).
  long double lo = 7.5L, hi = 7.9L, x[257];
  for (int it = 0; it < 200; ++it) {
    const long double mid = (lo + hi) / 2;
    (layer_edges(mid, x) > 0 ? lo : hi) = mid;
  }
  const long double r = (lo + hi) / 2;
  CHECK(fabsl(layer_edges(r, x)) < 1e-15L);
  CHECK(double(r) == doctest::Approx(7.69711747013104972).epsilon(1e-16));  // the paper's r
  CHECK(ZIGGURAT_R == ziggurat_edges()[1]);
  const double v = double((r + 1) * expl(-r));
  for (int i = 0; i <= 256; ++i) {
    CAPTURE(i);
    CHECK(ziggurat_edges()[i] == doctest::Approx(double(x[i])).epsilon(1e-15));
    CHECK(ziggurat_heights()[i] == doctest::Approx(double(expl(-x[i]))).epsilon(1e-15));
    // Every layer, the base one with its tail included, has the same area v.
    const double area =
        i == 0    ? ziggurat_edges()[0] * ziggurat_heights()[1]
        : i < 256 ? ziggurat_edges()[i] * (ziggurat_heights()[i + 1] - ziggurat_heights()[i])
                  : v;
    CHECK(area == doctest::Approx(v).epsilon(1e-12));
  }
  CHECK(ziggurat_edges()[256] == 0);
}

TEST_CASE("sim::exponential law") {
  const uint32_t n = 4'000'000;
  const std::vector<double> e = sorted_draws(n);
  SUBCASE("mean and variance are 1 within five standard errors") {
    double sum = 0, sum2 = 0;
    for (double y : e) sum += y, sum2 += y * y;
    const double mean = sum / n, var = sum2 / n - mean * mean;
    CHECK(std::fabs(mean - 1) < 5 / std::sqrt(double(n)));
    CHECK(std::fabs(var - 1) < 5 * std::sqrt(8.0 / n));  // Var of s^2 is (mu4 - 1) / n = 8 / n
  }
  SUBCASE("Kolmogorov-Smirnov distance below its 0.1 % critical value") {
    double d = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const double cdf = -std::expm1(-e[i]);
      d = std::max({d, cdf - double(i) / n, double(i + 1) / n - cdf});
    }
    CHECK(d < 1.95 / std::sqrt(double(n)));
  }
  SUBCASE("the tail beyond r and beyond 10 hold e^-r and e^-10 of the draws") {
    for (double t : {ZIGGURAT_R, 10.0}) {
      CAPTURE(t);
      const double beyond = double(e.end() - std::upper_bound(e.begin(), e.end(), t));
      const double expected = n * std::exp(-t);
      CHECK(std::fabs(beyond - expected) < 5 * std::sqrt(expected));
    }
  }
  SUBCASE("every draw lies in the range the scenario limits assume") {
    CHECK(e.front() >= UNIT_EXPONENTIAL_MIN);
    CHECK(e.back() <= UNIT_EXPONENTIAL_MAX);
  }
}

TEST_CASE("sim::exponential extremes and bits") {
  SUBCASE("the smallest uniform in each layer gives at least UNIT_EXPONENTIAL_MIN") {
    double smallest = 1;
    for (uint32_t layer = 0; layer < 256; ++layer)
      smallest = std::min(smallest, unit_exponential(0, layer));
    CHECK(smallest >= UNIT_EXPONENTIAL_MIN);
    CHECK(smallest < 1e-17);
  }
  SUBCASE("the largest uniform of the base layer goes to the tail, beyond r") {
    const double y = unit_exponential(0xffffffffu, 0xffffff00u);
    CHECK(y > ZIGGURAT_R);
    CHECK(y <= UNIT_EXPONENTIAL_MAX);
  }
  SUBCASE("a draw's first exponential reads words 0 and 1 only, its second 2 and 3") {
    const Draw a{{1u, 2u, 3u, 4u}}, b{{1u, 2u, 7u, 8u}}, c{{9u, 10u, 3u, 4u}};
    CHECK(exponential_first(a) == exponential_first(b));
    CHECK(exponential_second(a) == exponential_second(c));
    CHECK(exponential_first(a) != exponential_first(c));
  }
}

}  // namespace gpuplan
