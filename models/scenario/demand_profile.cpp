#include "models/scenario/demand_profile.h"

#include <algorithm>
#include <cmath>

#include "sim/core/arrival_profile.h"

namespace gpuplan {

namespace {

// The weekly shape's multiplier in the hour that holds t (1 without a shape).
double weekly_at(const std::vector<double>& weekly, double t) {
  if (weekly.empty()) return 1;
  const double hour = std::floor(t / PROFILE_HOUR_S);
  return weekly[static_cast<size_t>(std::fmod(hour, static_cast<double>(weekly.size())))];
}

// The schedule's multiplier at t: the last point at or before t (1 before the first).
double schedule_at(const std::vector<ProfilePoint>& schedule, double t) {
  const auto after = std::upper_bound(schedule.begin(), schedule.end(), t,
                                      [](double x, const ProfilePoint& p) { return x < p.at_s; });
  return after == schedule.begin() ? 1.0 : std::prev(after)->multiplier;
}

// Start times of the pieces over which the multipliers of `a` and `b` are constant.
std::vector<double> breakpoints(const RateProfile& a, const RateProfile& b, double horizon_s) {
  std::vector<double> t = {0};
  if (!a.weekly.empty() || !b.weekly.empty()) {
    for (double h = 1; h * PROFILE_HOUR_S < horizon_s; h += 1) t.push_back(h * PROFILE_HOUR_S);
  }
  for (const RateProfile* p : {&a, &b}) {
    for (const ProfilePoint& pt : p->schedule)
      if (pt.at_s > 0 && pt.at_s < horizon_s) t.push_back(pt.at_s);
  }
  std::sort(t.begin(), t.end());
  t.erase(std::unique(t.begin(), t.end()), t.end());
  return t;
}

}  // namespace

double profile_multiplier(const RateProfile& p, double t) {
  return weekly_at(p.weekly, t) * schedule_at(p.schedule, t);
}

double profile_segment_bound(const RateProfile& global, const RateProfile& own, double horizon_s) {
  double n = 1;
  if (!global.weekly.empty() || !own.weekly.empty()) n += std::ceil(horizon_s / PROFILE_HOUR_S);
  n += static_cast<double>(global.schedule.size() + own.schedule.size());
  return n;
}

CompiledRate compile_rate(double rate_per_s, const DemandConfig& demand, const RateProfile& own,
                          double horizon_s) {
  const RateProfile& global = demand.profile;
  // NOTE: log1p(0) = 0 exactly, so growth 0 gives b = 0 and takes the constant-rate path.
  const double growth =
      (std::log1p(global.growth_per_month) + std::log1p(own.growth_per_month)) / PROFILE_MONTH_S;
  struct Piece {
    double t0, multiplier;
  };
  std::vector<Piece> pieces;
  for (const double t : breakpoints(global, own, horizon_s)) {
    const double m = profile_multiplier(global, t) * profile_multiplier(own, t);
    if (pieces.empty() || pieces.back().multiplier != m) pieces.push_back({t, m});
  }
  CompiledRate out;
  out.rate = rate_per_s * demand.load_scale;
  if (growth == 0 && pieces.size() == 1) {
    out.rate *= pieces.front().multiplier;
    return out;
  }
  for (const Piece& p : pieces) {
    const double rate0 = out.rate * p.multiplier * (growth == 0 ? 1.0 : std::exp(growth * p.t0));
    out.segments.push_back(ArrivalSegment{p.t0, rate0, growth});
  }
  return out;
}

double expected_arrivals(const CompiledRate& r, double horizon_s, double a, double b) {
  if (r.segments.empty()) return r.rate * (b - a);
  return profile_mass(r.segments.data(), static_cast<uint32_t>(r.segments.size()), horizon_s, a, b);
}

double window_mean_rate(const CompiledRate& r, double horizon_s, double warmup_s) {
  const double window = horizon_s - warmup_s;
  if (r.segments.empty() || !(window > 0)) return r.rate;
  return expected_arrivals(r, horizon_s, warmup_s, horizon_s) / window;
}

}  // namespace gpuplan
