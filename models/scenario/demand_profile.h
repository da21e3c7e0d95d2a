#pragma once
//! Time-varying demand as the planner writes it (docs/demand-profiles.md): compound growth per
//! month, a weekly shape, a piecewise schedule of multipliers, and a global load scale; and its
//! compilation into the core's arrival segments (sim/core/arrival_profile.h).
#include <cstdint>
#include <string>
#include <vector>

#include "sim/core/arrival_segment.h"

namespace gpuplan {

inline constexpr double PROFILE_HOUR_S = 3600.0;  //!< [s]
//! [s] the month of growth_per_month (730 h).
inline constexpr double PROFILE_MONTH_S = 730 * PROFILE_HOUR_S;
//! Default of limits.max_profile_segments: compiled rate segments of all classes together.
inline constexpr double MAX_PROFILE_SEGMENTS = 1e6;

//! From `at_s` on (until the next point), the rate is multiplied by `multiplier`.
struct ProfilePoint {
  double at_s = 0;        //!< [s] since the scenario start
  double multiplier = 1;  //!< >= 0
};

//! A rate profile: every part multiplies the rate; an empty profile leaves it constant.
struct RateProfile {
  //! g: the rate is multiplied by (1 + g)^(t / PROFILE_MONTH_S), compounded continuously.
  double growth_per_month = 0;
  //! 168 hourly multipliers of the week (or 24 of the day, repeated), hour 0 starting at t = 0.
  std::vector<double> weekly;
  std::vector<ProfilePoint> schedule;  //!< strictly increasing at_s; multiplier 1 before the first
  std::string schedule_file;           //!< the CSV the schedule was read from ("" = written inline)

  //! True when no part is set (growth 0, no weekly shape, no schedule).
  [[nodiscard]] bool empty() const {
    return growth_per_month == 0 && weekly.empty() && schedule.empty();
  }
};

//! The scenario's `demand` section: what applies to every Poisson class.
struct DemandConfig {
  double load_scale = 1;  //!< multiplies every Poisson class's rate (> 0)
  RateProfile profile;    //!< multiplies every Poisson class's rate, with each class's own
};

//! A class's arrival intensity ready for the core: a constant rate, or segments.
struct CompiledRate {
  double rate = 0;                       //!< [1/s] constant rate (or the base, with segments)
  std::vector<ArrivalSegment> segments;  //!< empty = the constant `rate`
};

//! The multiplier of `p` at time t [s] without growth (weekly shape × schedule).
[[nodiscard]] double profile_multiplier(const RateProfile& p, double t);

//! An upper bound on the segments compile_rate makes for these profiles over `horizon_s`, found
//! without building them (so a run-away profile is refused before it allocates).
[[nodiscard]] double profile_segment_bound(const RateProfile& global, const RateProfile& own,
                                           double horizon_s);

//! The intensity of a class of base rate `rate_per_s` [1/s] under `demand` and its own profile
//! over [0, horizon_s): rate · load_scale · global(t) · own(t). A profile that is constant over
//! the horizon (no growth, one multiplier) compiles to a constant rate and no segments, so a
//! growth of 0 or an all-ones shape runs exactly as the flat scenario.
[[nodiscard]] CompiledRate compile_rate(double rate_per_s, const DemandConfig& demand,
                                        const RateProfile& own, double horizon_s);

//! Expected arrivals [jobs] of `r` over [a, b) (0 <= a <= b <= horizon_s).
[[nodiscard]] double expected_arrivals(const CompiledRate& r, double horizon_s, double a, double b);

//! The mean rate [1/s] of `r` over the measured window [warmup_s, horizon_s): what the offered
//! load of a class with a profile is computed from (the constant rate without one).
[[nodiscard]] double window_mean_rate(const CompiledRate& r, double horizon_s, double warmup_s);

}  // namespace gpuplan
