#pragma once
//! The mean of replicate estimates (one per seed) with a band of three standard errors, the
//! check that theory lies within a simulation's noise.
#include <cmath>
#include <vector>

namespace gpuplan::test {

struct ReplicateMean {
  double mean = 0;
  double half_width = 0;  //!< 3 standard errors: a ~99.7 % interval for normal noise
};

inline ReplicateMean replicate_mean(const std::vector<double>& x) {
  const double n = double(x.size());
  double mean = 0, var = 0;
  for (double v : x) mean += v / n;
  for (double v : x) var += (v - mean) * (v - mean) / (n - 1);
  return {mean, 3.0 * std::sqrt(var / n)};
}

}  // namespace gpuplan::test
