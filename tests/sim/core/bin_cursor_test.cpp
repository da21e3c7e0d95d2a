//! The bin cursor advance_to keeps between steps (sim/core/time_bins.h): for every time it covers,
//! the bin the full walk (bin_walk, next_bin_segment) starts in, also a few ulps from each edge.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

#include "sim/core/time_bins.h"

using namespace gpuplan;

namespace {

//! The bin of the walk's first piece from `now`, or n_bins when it has none.
uint32_t walk_bin(const ModelView& m, double now) {
  BinSegment g;
  BinWalk w = bin_walk(m, now, std::nextafter(m.horizon, INFINITY));
  return next_bin_segment(m, w, g) ? g.bin : m.n_bins;
}

//! Times to probe: random ones, and each bin edge with its neighbours three ulps either side.
std::vector<double> probe_times(const ModelView& m) {
  std::vector<double> times;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(0, m.horizon);
  for (int i = 0; i < 2000; ++i) times.push_back(u(rng));
  for (uint32_t b = 0; b <= m.n_bins; ++b) {
    double x = b * m.bin_width, below = x;
    for (int k = 0; k < 3; ++k) {
      times.push_back(x);
      times.push_back(below);
      x = std::nextafter(x, INFINITY);
      below = std::nextafter(below, 0.0);
    }
  }
  return times;
}

}  // namespace

TEST_CASE("the bin cursor agrees with the bin walk for every time it covers") {
  // NOTE: widths whose multiples round (a third, a tenth, 1e6/12) and a horizon that is not one.
  struct Bins {
    double width;
    uint32_t n;
    double horizon;
  };
  for (const Bins& bins :
       {Bins{1.0 / 3, 30, 10.0}, Bins{0.1, 1000, 100.0}, Bins{1e6 / 12, 240, 2e7 - 1e-3},
        Bins{83.33333333333333, 240, 20000.0}}) {
    ModelView m{};
    m.bin_width = bins.width;
    m.n_bins = bins.n;
    m.horizon = bins.horizon;
    CAPTURE(bins.width);
    for (const double now : probe_times(m)) {
      if (!(now < m.horizon)) continue;
      CAPTURE(now);
      BinCursor c;
      set_bin_cursor(m, c, now);
      const uint32_t expected = walk_bin(m, now);
      if (expected >= m.n_bins) {
        CHECK(c.fast_end == 0);  // nothing to cover
        continue;
      }
      REQUIRE(c.fast_end > now);
      CHECK(c.bin == expected);
      CHECK(c.fast_end <= c.bin_end);
      CHECK(c.bin_end == bin_end_time(m, c.bin));
      const double last = std::nextafter(c.fast_end, 0.0);
      CHECK(walk_bin(m, last) == c.bin);
      CHECK(walk_bin(m, now + (last - now) / 2) == c.bin);
      if (c.fast_end < m.horizon) CHECK(walk_bin(m, c.fast_end) != c.bin);
    }
  }
}
