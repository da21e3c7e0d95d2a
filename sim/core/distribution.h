#pragma once
//! Sampling the scenario's distributions from a draw (inverse transform; the ziggurat for the
//! exponential; Box-Muller for the lognormal).
#include <cmath>

#include "sim/core/exponential.h"
#include "sim/core/model.h"

namespace gpuplan {

inline constexpr double TWO_PI = 6.283185307179586476925;

//! Index of the first cumulative weight >= u in cum[first, first + n) (binary search, no
//! recursion).
[[nodiscard]] GPUPLAN_HD inline uint32_t search_cumulative(span<const double> cum, uint32_t first,
                                                           uint32_t n, double u) {
  uint32_t lo = 0, hi = n - 1;
  while (lo < hi) {
    const uint32_t mid = (lo + hi) / 2;
    if (cum[first + mid] < u)
      lo = mid + 1;
    else
      hi = mid;
  }
  return first + lo;
}

//! A value [s] of `d` from `draw`: its first uniform (or its first unit exponential), and its
//! second uniform for the lognormal's Box-Muller.
GPUPLAN_HD inline double sample_any(const ModelView& m, const DistSpec& d, const Draw& draw) {
  const double u1 = u01_first(draw);
  switch (d.kind) {
    case DistKind::fixed:
      return d.a;
    case DistKind::exponential:
      return d.a * exponential_first(draw);
    case DistKind::uniform:
      return d.a + (d.b - d.a) * u1;
    case DistKind::lognormal:
      return exp(d.a + d.b * sqrt(-2.0 * log(u1)) * cos(TWO_PI * u01_second(draw)));
    case DistKind::loguniform:
      return d.a * exp(log(d.b / d.a) * u1);
    case DistKind::empirical:
      return m.dist_values[search_cumulative(m.dist_cum, d.table_idx, d.table_n, u1)];
  }
  return d.a;
}

//! sample_any with its two commonest kinds inline at the caller (the whole switch is too large
//! for the compiler to inline on the engine's hot path).
[[nodiscard]] GPUPLAN_HD inline double sample(const ModelView& m, const DistSpec& d,
                                              const Draw& draw) {
  if (d.kind == DistKind::exponential) return d.a * exponential_first(draw);
  if (d.kind == DistKind::fixed) return d.a;
  return sample_any(m, d, draw);
}

//! True when sample() reads its uniforms for `d`: every kind but a fixed value.
[[nodiscard]] GPUPLAN_HD inline bool draws_uniforms(const DistSpec& d) {
  return d.kind != DistKind::fixed;
}

//! A GPU count from class `c`'s choice table, given a uniform in (0, 1) (unread for one choice).
[[nodiscard]] GPUPLAN_HD inline uint32_t sample_gpus(const ModelView& m, const ClassSpec& c,
                                                     double u) {
  return m.gpu_values[search_cumulative(m.gpu_cum, c.gpus_idx, c.gpus_n, u)];
}

}  // namespace gpuplan
