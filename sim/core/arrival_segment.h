#pragma once
//! One piece of a class's time-varying arrival intensity (sim/core/arrival_profile.h), the unit a
//! demand profile compiles to (models/scenario/demand_profile.h).
#include "sim/core/types.h"

namespace gpuplan {

//! One piece of a class's arrival intensity, over [t0, next segment's t0) (the last: to horizon).
struct ArrivalSegment {
  SimTime t0;     //!< [s] start; the first segment of a class starts at 0
  double rate0;   //!< [1/s] intensity at t0 (>= 0)
  double growth;  //!< [1/s] b: the intensity is rate0 · e^{b (t − t0)} inside the segment
};

}  // namespace gpuplan
