#pragma once
//! The exact edge a rounding formula draws: the first double at which a monotone test turns true,
//! walked to by single ulps from a guess near it (sketch bins, time bins).
#include "sim/core/portable.h"

namespace gpuplan {

//! The smallest positive double x with reached(x), for a test that is false below one edge and
//! true from it on, walking from `guess`: a few steps when the guess is within rounding of it.
template <class Reached>
[[nodiscard]] GPUPLAN_HD inline double first_double_where(double guess, const Reached& reached) {
  double x = guess;
  while (x > 0 && reached(bits_double(double_bits(x) - 1))) x = bits_double(double_bits(x) - 1);
  while (!reached(x)) x = bits_double(double_bits(x) + 1);
  return x;
}

}  // namespace gpuplan
