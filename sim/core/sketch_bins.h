#pragma once
//! The bins of the quantile sketch (sim/core/sketch.h): their constants and the log formula that
//! defines which bin a duration falls in.
#include <cmath>

#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

inline constexpr uint32_t SKETCH_BINS = 2560;  //!< counts per sketch: floor, log buckets, overflow
inline constexpr double SKETCH_FLOOR = 1e-3;   //!< [s] values below count as 0 (absolute error)
inline constexpr double SKETCH_LN_GAMMA = 0.009950330853168092;  //!< ln 1.01: log bucket width
inline constexpr double SKETCH_REL_ERROR =
    0.005;  //!< bound on |estimate − value| / value, log bins

//! Bin of a duration v [s], by its definition: 0 below the floor (also negative or NaN), the
//! overflow bin at or above the top, else its log bucket.
[[nodiscard]] GPUPLAN_HD inline uint32_t sketch_bin_by_log(double v) {
  constexpr double LN_FLOOR = -6.907755278982137;  // ln SKETCH_FLOOR
  if (!(v >= SKETCH_FLOOR)) return 0;
  const double k = (log(v) - LN_FLOOR) * (1.0 / SKETCH_LN_GAMMA);
  if (!(k < double(SKETCH_BINS - 2))) return SKETCH_BINS - 1;
  return 1 + static_cast<uint32_t>(k);
}

}  // namespace gpuplan
