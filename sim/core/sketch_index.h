#pragma once
//! Host lookup for sketch_bin: a duration's bin from the top bits of its double and one comparison
//! with a bin edge: the same bin sketch_bin_by_log gives for every double, without its log (every
//! completed job records two bins).
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "sim/core/portable.h"
#include "sim/core/sketch_bins.h"
#include "sim/core/ulp_search.h"

namespace gpuplan {

//! The exact bin edges of the log formula, and each piece's first bin (a piece: the doubles
//! sharing their exponent and top PIECE_BITS mantissa bits).
class SketchIndex {
 public:
  SketchIndex() {
    // Edge b: the smallest double whose bin by the log formula is b or more. The formula is
    // monotone in v, so a walk by single ulps from γ^(b−1)·floor finds it in a few steps.
    edge_[0] = 0;
    for (uint32_t b = 1; b < SKETCH_BINS; ++b) {
      edge_[b] = first_double_where(SKETCH_FLOOR * std::exp((b - 1.0) * SKETCH_LN_GAMMA),
                                    [b](double x) { return sketch_bin_by_log(x) >= b; });
    }
    first_piece_ = piece(SKETCH_FLOOR);
    const uint64_t n = piece(edge_[SKETCH_BINS - 1]) - first_piece_ + 1;
    if (n > PIECE_CAPACITY) std::abort();  // the sketch's constants fix n at 4,694
    for (uint64_t i = 0; i < n; ++i)
      piece_bin_[i] = uint16_t(sketch_bin_by_log(bits_double((first_piece_ + i) << PIECE_SHIFT)));
  }

  //! The bin of v: sketch_bin_by_log(v).
  [[nodiscard]] uint32_t bin(double v) const {
    if (!(v >= SKETCH_FLOOR)) return 0;
    if (v >= edge_[SKETCH_BINS - 1]) return SKETCH_BINS - 1;
    // NOTE: a piece is at most 2^-PIECE_BITS = 0.78 % wide, narrower than a bucket (1 %), so it
    // holds at most one edge: its first bin, or the next one from that edge on.
    const uint32_t b = piece_bin_[piece(v) - first_piece_];
    return v >= edge_[b + 1] ? b + 1 : b;
  }

  //! Lower edge [s] of bin b ≥ 1 as the log formula draws it (tests compare both sides of it).
  [[nodiscard]] double edge(uint32_t b) const { return edge_[b]; }

 private:
  static constexpr int PIECE_BITS = 7;
  static constexpr int PIECE_SHIFT = 52 - PIECE_BITS;
  //! The floor (1e-3 s, binade 2^-10) to the top (1.13e8 s, binade 2^26): 37 binades.
  static constexpr uint32_t PIECE_CAPACITY = 37u << PIECE_BITS;

  static uint64_t piece(double v) { return double_bits(v) >> PIECE_SHIFT; }

  double edge_[SKETCH_BINS];
  uint64_t first_piece_;
  uint16_t piece_bin_[PIECE_CAPACITY];  //!< first bin of each piece from the floor's to the top's
};

//! The one host index, built on first use (about 10,000 logs).
inline const SketchIndex& sketch_index() {
  static const SketchIndex index;
  return index;
}

}  // namespace gpuplan
