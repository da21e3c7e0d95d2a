#pragma once
//! Time-varying arrival rates (docs/demand-profiles.md): a class's Poisson intensity as compiled
//! segments, each rate(t) = rate0 · e^{growth · (t − t0)}, and the next arrival of the
//! non-homogeneous Poisson process by exact time change: with E ~ Exp(1) drawn as for a flat
//! class, the next arrival after `now` is the t where ∫_now^t rate = E (analytic per segment).
#include <cmath>

#include "sim/core/arrival_segment.h"
#include "sim/core/model.h"

namespace gpuplan {

//! Expected arrivals [jobs] over `len` [s] from an instant where the intensity is `rate` [1/s]
//! and grows with coefficient `growth` [1/s]: rate · (e^{b len} − 1) / b (rate · len when b = 0).
[[nodiscard]] GPUPLAN_HD inline double segment_mass(double rate, double growth, double len) {
  if (growth == 0) return rate * len;
  return rate * expm1(growth * len) / growth;
}

//! The time [s] after which `segment_mass(rate, growth, ·)` reaches `mass` (> 0 needs rate > 0):
//! log1p(mass · b / rate) / b (mass / rate when b = 0); NEVER when a declining intensity never
//! adds up to `mass`.
[[nodiscard]] GPUPLAN_HD inline double segment_time(double rate, double growth, double mass) {
  if (growth == 0) return mass / rate;
  const double x = mass * growth / rate;
  if (!(x > -1)) return NEVER;
  return log1p(x) / growth;
}

//! Index of the segment of `seg[0, n)` (n >= 1, sorted by t0, seg[0].t0 = 0) that holds `t`.
[[nodiscard]] GPUPLAN_HD inline uint32_t segment_at(const ArrivalSegment* seg, uint32_t n,
                                                    SimTime t) {
  uint32_t lo = 0, hi = n;  // NOTE: invariant seg[lo].t0 <= t < seg[hi].t0 (seg[n] = +inf)
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (seg[mid].t0 <= t) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return lo;
}

//! The first t > now where the intensity of `seg[0, n)` integrated from `now` reaches `mass`
//! (an Exp(1) draw), or NEVER when it does not before `end` [s] (the horizon).
[[nodiscard]] GPUPLAN_HD inline SimTime profile_next_time(const ArrivalSegment* seg, uint32_t n,
                                                          SimTime end, SimTime now, double mass) {
  SimTime t = now;
  for (uint32_t i = segment_at(seg, n, now); i < n; ++i) {
    const ArrivalSegment& s = seg[i];
    const SimTime stop = i + 1 < n ? seg[i + 1].t0 : end;
    if (!(stop > t)) continue;
    const double rate = s.growth == 0 ? s.rate0 : s.rate0 * exp(s.growth * (t - s.t0));
    if (rate > 0) {
      const double m = segment_mass(rate, s.growth, stop - t);
      if (mass < m) {
        // NOTE: rounding may put the inverse at or past the boundary; the arrival then falls on
        // it, never in the next segment.
        const SimTime at = t + segment_time(rate, s.growth, mass);
        return at < stop ? at : stop;
      }
      mass -= m;
    }
    t = stop;
  }
  return NEVER;
}

//! Expected arrivals [jobs] of `seg[0, n)` over [a, b) (0 <= a <= b <= end).
[[nodiscard]] GPUPLAN_HD inline double profile_mass(const ArrivalSegment* seg, uint32_t n,
                                                    SimTime end, SimTime a, SimTime b) {
  double total = 0;
  for (uint32_t i = segment_at(seg, n, a); i < n; ++i) {
    const ArrivalSegment& s = seg[i];
    const SimTime lo = s.t0 > a ? s.t0 : a;
    SimTime hi = i + 1 < n ? seg[i + 1].t0 : end;
    if (hi > b) hi = b;
    if (!(hi > lo)) break;
    const double rate = s.growth == 0 ? s.rate0 : s.rate0 * exp(s.growth * (lo - s.t0));
    total += segment_mass(rate, s.growth, hi - lo);
  }
  return total;
}

//! The next arrival time [s] of a class with a compiled profile, from its Exp(1) draw `mass`.
[[nodiscard]] GPUPLAN_HD inline SimTime profile_arrival(const ModelView& m, const ClassSpec& cls,
                                                        SimTime now, double mass) {
  return profile_next_time(&m.arrival_segments[cls.profile_idx], cls.profile_n, m.horizon, now,
                           mass);
}

}  // namespace gpuplan
