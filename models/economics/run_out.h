#pragma once
//! When a growing demand passes a capacity, to a fraction of a month: the run-out instant that
//! the TCO projection and the engine's simulation of each option both report, on one definition.
#include <cstdint>
#include <vector>

namespace gpuplan::economics {

//! [months from 0] The instant the demand rate reaches `capacity` [GPU-h per month]: month m's
//! demand [GPU-h] is read as the rate at its middle, m + 0.5, and the rate is linear between
//! middles. `first_short` is the first month whose demand exceeds the capacity; the answer lies
//! in [first_short - 0.5, first_short + 0.5], and is 0 when first_short is 0.
[[nodiscard]] double run_out_month(const std::vector<double>& demand, uint32_t first_short,
                                   double capacity);

}  // namespace gpuplan::economics
