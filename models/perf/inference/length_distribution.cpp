#include "models/perf/inference/length_distribution.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

#include <boost/math/distributions/normal.hpp>

namespace gpuplan::inference {
namespace {

// z of the standard normal's 90th percentile: p90 = median x exp(Z90 sigma).
constexpr double Z90 = 1.2815515655446004;
// Coprime to LENGTH_SAMPLE-sized strides: visits every output quantile once, out of step with
// the prompt's.
constexpr std::size_t SHUFFLE_STRIDE = 7919;

std::string tokens(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", x);
  return buf;
}

}  // namespace

double LengthDistribution::quantile(double p) const {
  switch (kind) {
    case Kind::fixed:
      return a;
    case Kind::uniform:
      return a + p * (b - a);
    case Kind::exponential:
      return -a * std::log1p(-p);
    case Kind::lognormal: {
      const double sigma = std::log(b / a) / Z90;
      return a * std::exp(sigma * boost::math::quantile(boost::math::normal(), p));
    }
  }
  return a;
}

std::string LengthDistribution::text() const {
  switch (kind) {
    case Kind::fixed:
      return tokens(a);
    case Kind::uniform:
      return "uniform " + tokens(a) + " to " + tokens(b);
    case Kind::exponential:
      return "exponential (mean " + tokens(a) + ")";
    case Kind::lognormal:
      return "lognormal (median " + tokens(a) + ", p90 " + tokens(b) + ")";
  }
  return tokens(a);
}

TokenLengths stratified_lengths(const LengthDistribution& in, const LengthDistribution& out,
                                std::size_t n) {
  TokenLengths t;
  n = std::max<std::size_t>(n, 1);
  std::size_t stride = SHUFFLE_STRIDE % n;
  while (stride == 0 || std::gcd(stride, n) != 1) ++stride;
  const auto p = [n](std::size_t k) { return (static_cast<double>(k) + 0.5) / n; };
  for (std::size_t k = 0; k < n; ++k) {
    t.in.push_back(std::clamp(std::round(in.quantile(p(k))), 0.0, MAX_TRACE_TOKENS));
    t.out.push_back(std::clamp(std::round(out.quantile(p(k * stride % n))), 1.0, MAX_TRACE_TOKENS));
  }
  summarize_lengths(t);
  return t;
}

}  // namespace gpuplan::inference
