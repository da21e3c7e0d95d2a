//! The quantile sketch (sim/core/sketch.h): its error bound on adversarial values, merging, the
//! empty sketch, and the host lookup against the log formula it replaces.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "sim/core/sketch.h"
#include "sim/mc_stats.h"

using namespace gpuplan;

namespace {

std::vector<uint32_t> sketch_of(const std::vector<double>& values) {
  std::vector<uint32_t> counts(SKETCH_BINS, 0);
  for (double v : values) sketch_add(counts.data(), v);
  return counts;
}

//! The documented bound: SKETCH_REL_ERROR relative plus SKETCH_FLOOR absolute.
bool within_bound(double estimate, double exact) {
  return std::abs(estimate - exact) <= SKETCH_REL_ERROR * exact + SKETCH_FLOOR;
}

//! Checks every percentile q = 0, 0.005, ..., 1 of `values` against the exact type-7 quantile.
void check_quantiles(const std::vector<double>& values) {
  const std::vector<uint32_t> counts = sketch_of(values);
  for (int k = 0; k <= 200; ++k) {
    const double q = k / 200.0;
    const double exact = quantile_type7(values, q);
    const double estimate = sketch_quantile(counts.data(), q);
    CAPTURE(q);
    CAPTURE(exact);
    CAPTURE(estimate);
    CHECK(within_bound(estimate, exact));
  }
}

//! Values at the edges of every 7th log bucket, and one ulp on either side of them.
std::vector<double> edge_values() {
  std::vector<double> v;
  for (uint32_t b = 1; b + 1 < SKETCH_BINS; b += 7) {
    const double e = sketch_lower(b);
    v.push_back(e);
    v.push_back(std::nextafter(e, 0.0));
    v.push_back(std::nextafter(e, INFINITY));
  }
  return v;
}

}  // namespace

TEST_CASE("sim::sketch") {
  SUBCASE("a single value is estimated within 0.5 % above the floor and within 1 ms below it") {
    std::vector<double> values = edge_values();
    for (double v = 1e-4; v < 1e8; v *= 1.0007) values.push_back(v);
    for (double v : {0.0, 5e-4, SKETCH_FLOOR, 1.0, 60.0, 3600.0, 86400.0, 1e7}) values.push_back(v);
    for (double v : values) {
      CAPTURE(v);
      const double estimate = sketch_value(sketch_bin(v));
      if (v >= SKETCH_FLOOR) {
        // √1.01 − 1 = 0.4988 % is the worst case of a geometric midpoint
        CHECK(std::abs(estimate - v) <= 0.0049876 * v * (1 + 1e-12));
      } else {
        // the floor bin reports 0, less than 1 ms off
        CHECK(estimate == 0.0);
      }
    }
  }

  SUBCASE("a log bucket is 1 % wide and the top is about 1.13e8 s") {
    // γ = 1.01 up to the rounding of ln 1.01
    CHECK(sketch_lower(101) / sketch_lower(100) == doctest::Approx(1.01).epsilon(1e-14));
    // 1 ms · 1.01^2558 = 1.1326e8 s (3.6 years): longer than any supported horizon
    CHECK(sketch_top() == doctest::Approx(1.1325937e8).epsilon(1e-6));
    // values at or above the top land in the overflow bin and are reported as the top
    CHECK(sketch_bin(2e8) == SKETCH_BINS - 1);
    CHECK(sketch_bin(INFINITY) == SKETCH_BINS - 1);
    CHECK(sketch_value(sketch_bin(2e8)) == sketch_top());
    // negative and NaN inputs fall in the floor bin instead of indexing out of the array
    CHECK(sketch_bin(-1.0) == 0);
    CHECK(sketch_bin(NAN) == 0);
  }

  SUBCASE("quantiles of lognormal waits with many zeros stay within the bound of the exact ones") {
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> wide(std::log(60.0), 3.0);
    std::bernoulli_distribution waited(0.6);
    std::vector<double> values;
    for (int i = 0; i < 100000; ++i) values.push_back(waited(rng) ? wide(rng) : 0.0);
    check_quantiles(values);
  }

  SUBCASE("quantiles of values on bucket edges, and of a few far-apart values, stay in the bound") {
    check_quantiles(edge_values());
    // 7 values over 11 decades: type 7 interpolates across huge gaps between order statistics
    check_quantiles({2e-4, SKETCH_FLOOR, 0.0123, 3.3, 1e4, 2.5e6, 9.9e7});
    // identical values: every quantile is that value
    check_quantiles(std::vector<double>(1000, 1234.5));
  }

  SUBCASE("merging two sketches gives exactly the sketch of the union") {
    std::mt19937_64 rng(11);
    std::exponential_distribution<double> fast(2.0), slow(1e-4);
    std::vector<double> a, b;
    for (int i = 0; i < 5000; ++i) a.push_back(fast(rng));
    for (int i = 0; i < 3000; ++i) b.push_back(slow(rng));
    std::vector<double> both = a;
    both.insert(both.end(), b.begin(), b.end());
    // pooled counts are 64-bit in Monte Carlo; replica counts 32-bit
    std::vector<uint64_t> merged(SKETCH_BINS, 0);
    sketch_merge(merged.data(), sketch_of(a).data());
    sketch_merge(merged.data(), sketch_of(b).data());
    const std::vector<uint32_t> whole = sketch_of(both);
    CHECK(std::equal(merged.begin(), merged.end(), whole.begin()));
    // 5,000 + 3,000 values
    CHECK(sketch_count(merged.data()) == 8000);
    for (double q : {0.0, 0.5, 0.9, 0.99, 1.0})
      CHECK(sketch_quantile(merged.data(), q) == sketch_quantile(whole.data(), q));
  }

  SUBCASE("an empty sketch counts nothing and answers 0 for every quantile") {
    const std::vector<uint32_t> empty(SKETCH_BINS, 0);
    CHECK(sketch_count(empty.data()) == 0);
    for (double q : {0.0, 0.5, 1.0}) CHECK(sketch_quantile(empty.data(), q) == 0.0);
  }

  SUBCASE("a one-value sketch answers that value's estimate for every quantile") {
    const std::vector<uint32_t> one = sketch_of({42.0});
    for (double q : {0.0, 0.5, 0.99, 1.0})
      CHECK(sketch_quantile(one.data(), q) == sketch_value(sketch_bin(42.0)));
  }

  SUBCASE("the host lookup gives the log formula's bin for every double tried") {
    // Each exact edge, its neighbours up to 4 ulps away, every piece start the lookup reads, and
    // 2 M random doubles from below the floor to above the top, by value and by bit pattern.
    const SketchIndex& index = sketch_index();
    std::vector<double> values;
    for (uint32_t b = 1; b < SKETCH_BINS; ++b) {
      double lo = index.edge(b), hi = index.edge(b);
      values.push_back(lo);
      for (int k = 0; k < 4; ++k) {
        lo = std::nextafter(lo, 0.0);
        hi = std::nextafter(hi, INFINITY);
        values.push_back(lo);
        values.push_back(hi);
      }
    }
    for (double v = SKETCH_FLOOR / 2; v < 2 * sketch_top(); v *= 1 + 1.0 / 256) values.push_back(v);
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> log_v(std::log(1e-4), std::log(1e9));
    std::uniform_int_distribution<uint64_t> bits(0x3f00000000000000ull, 0x41d0000000000000ull);
    for (int i = 0; i < 1000000; ++i) {
      values.push_back(std::exp(log_v(rng)));
      const uint64_t x = bits(rng);
      double v;
      std::memcpy(&v, &x, sizeof v);
      values.push_back(v);
    }
    for (double v : {0.0, -0.0, -1.0, double(NAN), double(INFINITY), SKETCH_FLOOR, sketch_top()})
      values.push_back(v);
    uint64_t differ = 0;
    for (double v : values) differ += sketch_bin(v) != sketch_bin_by_log(v);
    CHECK(differ == 0);
    // each edge is where the formula's bin steps up
    for (uint32_t b = 2; b < SKETCH_BINS; ++b) {
      CAPTURE(b);
      CHECK(sketch_bin_by_log(index.edge(b)) == b);
      CHECK(sketch_bin_by_log(std::nextafter(index.edge(b), 0.0)) == b - 1);
    }
  }
}
