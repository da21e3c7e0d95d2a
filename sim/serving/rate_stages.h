#pragma once
//! Staged constant rates: Poisson arrivals whose rate is constant within each stage of a cycle
//! (a load test's steps, the hours of a day) and the cycle repeating, drawn by the time change
//! of a non-homogeneous Poisson process: a unit exponential E is spent at each stage's rate until
//! it runs out, so the count in a stage is Poisson(rate x length), independent of the others.
#include <cmath>
#include <cstdint>

#include "sim/core/portable.h"

namespace gpuplan::serving {

//! One stage of the cycle: its rate holds from the previous stage's end (0 for the first) to
//! `end_s`.
struct RateStage {
  double end_s = 0;       //!< [s] end of the stage within the cycle, increasing, the last the cycle
  double rate_per_s = 0;  //!< [1/s] Poisson arrivals during the stage (> 0)
};

//! [s] The next arrival after `t` of the staged rates `stages`, from the unit exponential `e`.
//! Every stage's rate must be positive.
[[nodiscard]] GPUPLAN_HD inline double staged_arrival(span<const RateStage> stages, double t,
                                                      double e) {
  const double cycle = stages[stages.size - 1].end_s;
  double base = floor(t / cycle) * cycle;  // start of the cycle t is in
  uint32_t i = 0;
  while (i < stages.size && stages[i].end_s <= t - base) ++i;
  for (;;) {
    if (i == stages.size) {
      i = 0;
      base += cycle;
    }
    const double end = base + stages[i].end_s, rate = stages[i].rate_per_s;
    const double at = t + e / rate;
    if (at < end) return at;
    e -= (end - t) * rate;
    t = end;
    ++i;
  }
}

//! [s] Where the wait trend places an arrival at `t`: `t` itself, or with staged rates the start
//! of its cycle, so the trend compares whole cycles (a cluster that serves each cycle's peak
//! late, and catches up, shows none) and one cycle alone shows none.
[[nodiscard]] GPUPLAN_HD inline double trend_time(span<const RateStage> stages, double t) {
  if (stages.size == 0) return t;
  const double cycle = stages[stages.size - 1].end_s;
  return floor(t / cycle) * cycle;
}

//! [1/s] The mean rate over a cycle of `stages`.
[[nodiscard]] GPUPLAN_HD inline double mean_stage_rate(span<const RateStage> stages) {
  double arrivals = 0, from = 0;
  for (uint32_t i = 0; i < stages.size; ++i) {
    arrivals += stages[i].rate_per_s * (stages[i].end_s - from);
    from = stages[i].end_s;
  }
  return arrivals / from;
}

}  // namespace gpuplan::serving
