#pragma once
//! Counter-based random numbers: Philox4x32-10 keyed by (seed, replica), one counter space per
//! (stream, class, draw index). A draw depends only on those, never on thread count or order.
#include <cmath>

#include <Random123/philox.h>

#include "sim/core/types.h"

namespace gpuplan {

//! Four independent 32-bit words for draw `idx` of `stream` for class `sub` in one replica.
struct Draw {
  uint32_t w[4];
};

[[nodiscard]] GPUPLAN_HD inline Draw philox_draw(uint64_t seed, uint32_t replica, Stream stream,
                                                 uint32_t sub, uint32_t idx) {
  r123::Philox4x32 gen;
  const r123::Philox4x32::ctr_type ctr = {
      {idx, sub, static_cast<uint32_t>(stream), static_cast<uint32_t>(seed >> 32)}};
  const r123::Philox4x32::key_type key = {{static_cast<uint32_t>(seed), replica}};
  const auto r = gen(ctr, key);
  return Draw{{r[0], r[1], r[2], r[3]}};
}

//! A uniform double in the open interval (0, 1) from 64 random bits (53 used).
[[nodiscard]] GPUPLAN_HD inline double open_u01(uint32_t hi, uint32_t lo) {
  const uint64_t bits = ((static_cast<uint64_t>(hi) << 32) | lo) >> 11;
  return (static_cast<double>(bits) + 0.5) * (1.0 / 9007199254740992.0);  // 2^-53
}

//! First uniform of a draw (words 0, 1).
[[nodiscard]] GPUPLAN_HD inline double u01_first(const Draw& d) {
  return open_u01(d.w[0], d.w[1]);
}
//! Second uniform of a draw (words 2, 3).
[[nodiscard]] GPUPLAN_HD inline double u01_second(const Draw& d) {
  return open_u01(d.w[2], d.w[3]);
}

}  // namespace gpuplan
