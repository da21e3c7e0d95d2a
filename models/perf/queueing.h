#pragma once
//! Closed forms of the M/M/c queue (Erlang C) and Little's law: the quote's serving sizing waits
//! for batch slots by them, and the engine's validation tests check the simulator against them.
#include <cmath>
#include <cstdint>
#include <limits>

#include <boost/math/distributions/poisson.hpp>
#include <boost/math/special_functions/gamma.hpp>

namespace gpuplan::queueing {

//! Servers above which Erlang B comes from the Poisson distribution instead of the recursion.
inline constexpr uint32_t ERLANG_RECURSION_MAX = 10000;

//! Erlang C: probability that an arrival waits in M/M/c with offered load a = lambda/mu
//! [servers]; 1 when c = 0 or a >= c (unstable).
[[nodiscard]] inline double erlang_c(uint32_t c, double offered_load) {
  const double a = offered_load;
  if (c == 0 || a >= c) return 1.0;
  if (a <= 0) return 0.0;
  // NOTE: Erlang B by its stable recursion, then C = B / (1 - rho (1 - B)): no factorials, so
  // no overflow at hundreds of servers. Once b underflows to 0 it stays 0: stop there. Past
  // ERLANG_RECURSION_MAX servers the recursion's O(c) steps would dominate a quote's sizing, and
  // B = P(N = c) / P(N <= c) for N ~ Poisson(a) gives it directly (regularized gamma Q(c + 1, a)).
  double b = 1.0;
  if (c > ERLANG_RECURSION_MAX) {
    const double cdf = boost::math::gamma_q(c + 1.0, a);
    b = cdf > 0 ? boost::math::pdf(boost::math::poisson_distribution<double>(a), c) / cdf : 0.0;
  } else {
    for (uint32_t k = 1; k <= c && b > 0; ++k) b = a * b / (k + a * b);
  }
  const double rho = a / c;
  return b / (1.0 - rho * (1.0 - b));
}

//! The wait in queue of M/M/c (FCFS): it exceeds t with probability p_wait e^{-theta t},
//! theta = c mu - lambda (one Erlang C for every figure).
struct MmcWait {
  double p_wait = 1;  //!< Erlang C
  double theta = 0;   //!< [1/s] c mu - lambda; <= 0 when unstable
  //! Mean wait [s]; +inf when unstable.
  [[nodiscard]] double mean_s() const {
    return theta > 0 ? p_wait / theta : std::numeric_limits<double>::infinity();
  }
  //! q-quantile [s]: 0 while p_wait <= 1 - q; +inf when unstable.
  [[nodiscard]] double quantile_s(double q) const {
    if (theta <= 0) return std::numeric_limits<double>::infinity();
    return p_wait > 1 - q ? std::log(p_wait / (1 - q)) / theta : 0.0;
  }
};

//! The wait of M/M/c with arrival rate lambda [1/s] and service rate mu [1/s] per server.
[[nodiscard]] inline MmcWait mmc_wait(uint32_t c, double lambda, double mu) {
  return {erlang_c(c, lambda / mu), c * mu - lambda};
}

//! Mean wait in queue [s] of M/M/c with arrival rate lambda [1/s] and service rate mu [1/s]
//! per server; +inf when lambda >= c mu.
[[nodiscard]] inline double mmc_mean_wait_s(uint32_t c, double lambda, double mu) {
  return mmc_wait(c, lambda, mu).mean_s();
}

//! Little's law: mean number in a stable system = arrival rate [1/s] x mean time in it [s].
[[nodiscard]] inline double little_mean_number(double lambda, double mean_time_s) {
  return lambda * mean_time_s;
}

}  // namespace gpuplan::queueing
