#pragma once
//! The statistics' time bins: [0, horizon) in n_bins equal bins (the last ends at the horizon),
//! and walks that split an interval into its pieces per bin.
#include "sim/core/model.h"
#include "sim/core/state.h"
#include "sim/core/ulp_search.h"

namespace gpuplan {

//! One piece of an interval that lies in a single time bin.
struct BinSegment {
  uint32_t bin;  //!< time bin index
  double dt;     //!< [s] length of the piece
};

//! Position of a walk over the time bins of an interval (bin_walk, next_bin_segment).
struct BinWalk {
  double now;    //!< [s] start of the part not walked yet
  double end;    //!< [s] end of the interval, clipped to the horizon
  uint32_t bin;  //!< bin holding `now`, or the one before at an exact edge
};

//! Starts a walk over the time bins [0, horizon) of the interval [from, to).
[[nodiscard]] GPUPLAN_HD inline BinWalk bin_walk(const ModelView& m, SimTime from, SimTime to) {
  return BinWalk{from, to < m.horizon ? to : m.horizon, static_cast<uint32_t>(from / m.bin_width)};
}

//! [s] End of time bin b; the last bin ends at the horizon.
[[nodiscard]] GPUPLAN_HD inline double bin_end_time(const ModelView& m, uint32_t b) {
  return (b + 1 == m.n_bins) ? m.horizon : (b + 1) * m.bin_width;
}

//! True for times whose quotient by `width` is `past` or more (the core takes no lambdas).
struct QuotientReaches {
  double width, past;
  [[nodiscard]] GPUPLAN_HD bool operator()(double t) const { return t / width >= past; }
};

//! Points `c` at the bin a walk from `now` starts in (bin_walk, then next_bin_segment's step
//! past an exact edge) and at the times that start in the same bin.
GPUPLAN_HD inline void set_bin_cursor(const ModelView& m, BinCursor& c, SimTime now) {
  const BinWalk w = bin_walk(m, now, now);
  uint32_t b = w.bin;
  while (b < m.n_bins && bin_end_time(m, b) <= now) ++b;
  c = BinCursor{};
  if (b >= m.n_bins) return;  // no bin: every walk from here is empty
  // NOTE: the quotient by the width is monotone in the time but rounds, so the first time whose
  // walk starts past bin b is found by single ulps near (b + 1) * width, not assumed to be it.
  const double x = first_double_where((b + 1) * m.bin_width, QuotientReaches{m.bin_width, b + 1.0});
  c.bin = b;
  c.bin_end = bin_end_time(m, b);
  c.fast_end = x < c.bin_end ? x : c.bin_end;
}

//! Sets `g` to the walk's next piece in one bin and moves past it; false when none is left.
//! The last bin ends at the horizon.
[[nodiscard]] GPUPLAN_HD inline bool next_bin_segment(const ModelView& m, BinWalk& w,
                                                      BinSegment& g) {
  while (w.now < w.end && w.bin < m.n_bins) {
    const double bin_end = (w.bin + 1 == m.n_bins) ? m.horizon : (w.bin + 1) * m.bin_width;
    if (bin_end <= w.now) {  // NOTE: now / width can round down at an exact bin edge
      ++w.bin;
      continue;
    }
    const double seg_end = w.end < bin_end ? w.end : bin_end;
    g = BinSegment{w.bin, seg_end - w.now};
    w.now = seg_end;
    if (w.now == bin_end) ++w.bin;
    return true;
  }
  return false;
}

//! Time bin of instant t, or NONE past the last bin.
[[nodiscard]] GPUPLAN_HD inline uint32_t bin_of(const ModelView& m, SimTime t) {
  if (!(t < m.horizon)) return NONE;
  const uint32_t b = static_cast<uint32_t>(t / m.bin_width);
  return b < m.n_bins ? b : m.n_bins - 1;
}

}  // namespace gpuplan
