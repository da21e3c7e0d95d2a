#pragma once
//! The input checks the economics models share.
#include <cmath>

#include <Eigen/Core>

namespace gpuplan::economics {

//! A finite figure at or above zero (a price, a rate, a count).
[[nodiscard]] inline bool non_negative(double x) {
  return std::isfinite(x) && x >= 0.0;
}

//! A monthly demand series: at least one month, every month finite and at or above zero.
[[nodiscard]] inline bool valid_demand(const Eigen::VectorXd& demand) {
  return demand.size() > 0 && demand.allFinite() && (demand.array() >= 0.0).all();
}

}  // namespace gpuplan::economics
