#pragma once
//! Closed forms of the M/M/c queue (Erlang C) and Little's law: the quote sizes inference with
//! them, and the engine's validation tests check the simulator against them.
#include <cmath>
#include <cstdint>
#include <limits>

namespace gpuplan::queueing {

//! Erlang C: probability that an arrival waits in M/M/c with offered load a = lambda/mu
//! [servers]; 1 when c = 0 or a >= c (unstable).
[[nodiscard]] inline double erlang_c(uint32_t c, double offered_load) {
  const double a = offered_load;
  if (c == 0 || a >= c) return 1.0;
  // NOTE: Erlang B by its stable recursion, then C = B / (1 - rho (1 - B)): no factorials, so
  // no overflow at hundreds of servers.
  // Once b underflows to 0 it stays 0: stop there, so a million idle servers cost little.
  double b = 1.0;
  for (uint32_t k = 1; k <= c && b > 0; ++k) b = a * b / (k + a * b);
  const double rho = a / c;
  return b / (1.0 - rho * (1.0 - b));
}

//! Mean wait in queue [s] of M/M/c with arrival rate lambda [1/s] and service rate mu [1/s]
//! per server; +inf when lambda >= c mu.
[[nodiscard]] inline double mmc_mean_wait_s(uint32_t c, double lambda, double mu) {
  if (lambda >= c * mu) return std::numeric_limits<double>::infinity();
  return erlang_c(c, lambda / mu) / (c * mu - lambda);
}

//! P(wait + service > t_s) of M/M/c (FCFS, exponential service); 1 when unstable.
[[nodiscard]] inline double mmc_response_tail(uint32_t c, double lambda, double mu, double t_s) {
  if (lambda >= c * mu) return 1.0;
  const double pw = erlang_c(c, lambda / mu);
  const double theta = c * mu - lambda;  // rate of the wait, given that a request waits
  // NOTE: wait + service given a wait is hypoexponential(theta, mu), Erlang-2 when theta == mu.
  const double both =
      std::abs(theta - mu) < 1e-12 * mu
          ? (1 + mu * t_s) * std::exp(-mu * t_s)
          : (theta * std::exp(-mu * t_s) - mu * std::exp(-theta * t_s)) / (theta - mu);
  return (1 - pw) * std::exp(-mu * t_s) + pw * both;
}

//! q-quantile of wait + service [s] of M/M/c (bisection to 1e-12 relative); +inf when unstable.
[[nodiscard]] inline double mmc_response_quantile_s(uint32_t c, double lambda, double mu,
                                                    double q) {
  if (lambda >= c * mu) return std::numeric_limits<double>::infinity();
  double lo = 0, hi = 1.0 / mu;
  while (mmc_response_tail(c, lambda, mu, hi) > 1 - q) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (mmc_response_tail(c, lambda, mu, mid) > 1 - q ? lo : hi) = mid;
  }
  return hi;
}

//! Little's law: mean number in a stable system = arrival rate [1/s] x mean time in it [s].
[[nodiscard]] inline double little_mean_number(double lambda, double mean_time_s) {
  return lambda * mean_time_s;
}

}  // namespace gpuplan::queueing
