#include "models/economics/off_peak.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::economics {
namespace {

constexpr uint32_t MINUTES_PER_DAY = 24 * 60;
constexpr double SECONDS_PER_WEEK = MINUTES_PER_WEEK * 60.0;

bool in_window(const OffPeakWindow& w, uint32_t tod) {
  if (w.from_min < w.to_min) return tod >= w.from_min && tod < w.to_min;
  if (w.to_min < w.from_min) return tod >= w.from_min || tod < w.to_min;
  return false;
}

// Minute of the week run time t_s falls in (0 = Monday 00:00).
uint32_t week_minute(const OffPeakSchedule& s, double t_s) {
  const double m = std::fmod(s.run_starts_min + std::floor(t_s / 60.0), double(MINUTES_PER_WEEK));
  return static_cast<uint32_t>(m < 0 ? m + MINUTES_PER_WEEK : m);
}

// Base price [USD/h] at t_s: the last point at or before t_s, else the list price.
double base_price(std::span<const PricePoint> base, double list, double t_s) {
  double price = list;
  for (const PricePoint& pt : base) {
    if (pt.t_s > t_s) break;
    price = pt.usd_per_hour;
  }
  return price;
}

}  // namespace

bool off_peak_at_minute(const OffPeakSchedule& s, uint32_t m) {
  m %= MINUTES_PER_WEEK;
  if ((s.days >> (m / MINUTES_PER_DAY)) & 1u) return true;
  const uint32_t tod = m % MINUTES_PER_DAY;
  return std::any_of(s.hours.begin(), s.hours.end(),
                     [&](const OffPeakWindow& w) { return in_window(w, tod); });
}

double off_peak_multiplier(const OffPeakSchedule& s, double t_s) {
  return off_peak_at_minute(s, week_minute(s, t_s)) ? 1.0 - s.discount : 1.0;
}

uint32_t off_peak_boundaries_per_week(const OffPeakSchedule& s) {
  uint32_t n = 0;
  bool prev = off_peak_at_minute(s, MINUTES_PER_WEEK - 1);
  for (uint32_t m = 0; m < MINUTES_PER_WEEK; ++m) {
    const bool now = off_peak_at_minute(s, m);
    n += now != prev ? 1 : 0;
    prev = now;
  }
  return n;
}

std::optional<std::vector<PricePoint>> off_peak_series(const OffPeakSchedule& s,
                                                       std::span<const PricePoint> base,
                                                       double list_usd_per_hour, double horizon_s) {
  for (size_t i = 1; i < base.size(); ++i)
    if (!(base[i].t_s > base[i - 1].t_s)) return std::nullopt;
  std::vector<double> times{0.0};
  bool prev = off_peak_at_minute(s, MINUTES_PER_WEEK - 1);
  for (uint32_t m = 0; m < MINUTES_PER_WEEK; ++m) {
    const bool now = off_peak_at_minute(s, m);
    if (now != prev) {
      // Run time of week minute m in the first week, then every week after it.
      const uint32_t offset = (m + MINUTES_PER_WEEK - s.run_starts_min) % MINUTES_PER_WEEK;
      for (double t = offset * 60.0; t < horizon_s; t += SECONDS_PER_WEEK) times.push_back(t);
    }
    prev = now;
  }
  for (const PricePoint& pt : base)
    if (pt.t_s >= 0 && pt.t_s < horizon_s) times.push_back(pt.t_s);
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<PricePoint> out;
  out.reserve(times.size());
  for (const double t : times)
    out.push_back(
        PricePoint{t, base_price(base, list_usd_per_hour, t) * off_peak_multiplier(s, t)});
  return out;
}

}  // namespace gpuplan::economics
