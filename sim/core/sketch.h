#pragma once
//! Mergeable quantile sketch of nonnegative durations (DDSketch-style log buckets) over a plain
//! array of SKETCH_BINS counts, so every replica fills one per class on host and device alike and
//! merging two sketches (replicas, MPI ranks) is adding their counts.
//!
//! Bins: 0 holds values below SKETCH_FLOOR (and anything not >= it); 1 .. SKETCH_BINS - 2 are log
//! buckets [FLOOR·γ^(b−1), FLOOR·γ^b) with γ = e^SKETCH_LN_GAMMA ≈ 1.01; the last bin holds values
//! at or above SKETCH_TOP. A log bucket is estimated by its geometric midpoint, so a value in it
//! is off by at most √γ − 1 ≈ 0.4988 % relative (SKETCH_REL_ERROR rounds it up to 0.5 %); the
//! floor bin is estimated as 0 (off by less than SKETCH_FLOOR); the overflow bin as SKETCH_TOP (a
//! lower bound: no error bound above the top).
#include <cmath>

#include "sim/core/portable.h"
#include "sim/core/sketch_bins.h"
#if !GPUPLAN_DEVICE_PASS
#include "sim/core/sketch_index.h"
#endif

namespace gpuplan {

//! Bin of a duration v [s]: sketch_bin_by_log's bin, on the host from a lookup table (the same
//! bin for every double, without the log), on a device by the log.
[[nodiscard]] GPUPLAN_HD inline uint32_t sketch_bin(double v) {
#if GPUPLAN_DEVICE_PASS
  return sketch_bin_by_log(v);
#else
  return sketch_index().bin(v);
#endif
}

//! Lower edge [s] of bin b: 0 for the floor bin, FLOOR·γ^(b−1) above (the top for the last bin).
[[nodiscard]] GPUPLAN_HD inline double sketch_lower(uint32_t b) {
  return b == 0 ? 0.0 : SKETCH_FLOOR * exp((b - 1.0) * SKETCH_LN_GAMMA);
}

//! [s] Values at or above this fall in the overflow bin (FLOOR·γ^2558 ≈ 1.13e8 s, 3.6 years).
[[nodiscard]] GPUPLAN_HD inline double sketch_top() {
  return sketch_lower(SKETCH_BINS - 1);
}

//! Estimate [s] of a value in bin b: 0 in the floor bin, the geometric midpoint of a log bucket,
//! the top in the overflow bin.
[[nodiscard]] GPUPLAN_HD inline double sketch_value(uint32_t b) {
  if (b == 0) return 0.0;
  if (b + 1 >= SKETCH_BINS) return sketch_top();
  return SKETCH_FLOOR * exp((b - 0.5) * SKETCH_LN_GAMMA);
}

//! Where a CDF drawn from the sketch steps up for bin b [s]: 0 for the floor bin, a log bucket's
//! upper edge, the top for the overflow bin.
[[nodiscard]] GPUPLAN_HD inline double sketch_cdf_x(uint32_t b) {
  if (b == 0) return 0.0;
  return b + 1 >= SKETCH_BINS ? sketch_top() : sketch_lower(b + 1);
}

//! Counts one value v [s] into sketch `counts` [SKETCH_BINS].
template <class Count>
GPUPLAN_HD inline void sketch_add(Count* counts, double v) {
  counts[sketch_bin(v)] += 1;
}

//! Adds sketch `from` into sketch `into` (both [SKETCH_BINS]): the sketch of both value sets.
template <class Into, class From>
GPUPLAN_HD inline void sketch_merge(Into* into, const From* from) {
  for (uint32_t b = 0; b < SKETCH_BINS; ++b) into[b] += from[b];
}

//! Values counted in a sketch [SKETCH_BINS].
template <class Count>
[[nodiscard]] GPUPLAN_HD inline uint64_t sketch_count(const Count* counts) {
  uint64_t n = 0;
  for (uint32_t b = 0; b < SKETCH_BINS; ++b) n += counts[b];
  return n;
}

//! Quantile q in [0, 1] [s] of the counted values, as Hyndman–Fan type 7 defines it on the exact
//! values (h = q (n − 1), interpolated between order statistics ⌊h⌋ and ⌊h⌋ + 1), with each order
//! statistic replaced by its bin's estimate; 0 for an empty sketch. Off the exact type-7 quantile
//! Q by at most SKETCH_REL_ERROR · Q + SKETCH_FLOOR while the order statistics used are below
//! the top.
template <class Count>
[[nodiscard]] GPUPLAN_HD inline double sketch_quantile(const Count* counts, double q) {
  const uint64_t n = sketch_count(counts);
  if (n == 0) return 0.0;
  q = q < 0 ? 0.0 : (q > 1 ? 1.0 : q);
  const double h = q * double(n - 1);
  const uint64_t i = static_cast<uint64_t>(h);
  const double f = h - double(i);
  uint32_t b = 0;
  uint64_t upto = counts[0];  // values in bins 0..b
  while (upto <= i) upto += counts[++b];
  const double lo = sketch_value(b);
  if (!(f > 0) || i + 1 >= n) return lo;
  while (upto <= i + 1) upto += counts[++b];
  return lo + f * (sketch_value(b) - lo);
}

}  // namespace gpuplan
