#pragma once
//! Off-peak pricing: a pool's price is discounted in recurring hours of the day and whole days of
//! the week (docs/off-peak.md). The schedule becomes a piecewise-constant price series with a
//! step at every boundary, so the engine integrates spend exactly across boundaries.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "models/economics/billing.h"

namespace gpuplan::economics {

//! Minutes in a week (the schedule's period).
inline constexpr uint32_t MINUTES_PER_WEEK = 7 * 24 * 60;

//! One daily off-peak window [from, to) in minutes after midnight; to < from wraps past midnight
//! (22:00-06:00), to == from is not a window.
struct OffPeakWindow {
  uint32_t from_min = 0;  //!< [min] 0..1439
  uint32_t to_min = 0;    //!< [min] 0..1440
};

//! A pool's off-peak schedule: an instant is off-peak when its day is one of `days` or its time
//! of day falls in one of `hours`; the price is then (1 − discount) × the price in force.
struct OffPeakSchedule {
  double discount = 0;               //!< [0, 1] share off the price in off-peak time
  std::vector<OffPeakWindow> hours;  //!< daily windows
  uint8_t days = 0;                  //!< bit d = whole day off-peak (0 = Monday ... 6 = Sunday)
  uint32_t run_starts_min = 0;       //!< [min] minute of the week t = 0 falls on (0 = Mon 00:00)
};

//! True when minute `m` of the week (0 = Monday 00:00) is off-peak under `s`.
[[nodiscard]] bool off_peak_at_minute(const OffPeakSchedule& s, uint32_t m);

//! Price multiplier [-] at run time t_s [s]: 1 − discount off-peak, else 1.
[[nodiscard]] double off_peak_multiplier(const OffPeakSchedule& s, double t_s);

//! Number of price changes per week of `s` (boundaries between peak and off-peak minutes).
[[nodiscard]] uint32_t off_peak_boundaries_per_week(const OffPeakSchedule& s);

//! The pool's price series over [0, horizon_s) with the schedule applied: a step at t = 0, at
//! every schedule boundary and at every point of `base` (the pool's own series; empty = the
//! constant `list_usd_per_hour`, which also holds before base's first point). Each step's price
//! is the base price then × the multiplier then. nullopt when base is not strictly increasing.
[[nodiscard]] std::optional<std::vector<PricePoint>> off_peak_series(
    const OffPeakSchedule& s, std::span<const PricePoint> base, double list_usd_per_hour,
    double horizon_s);

}  // namespace gpuplan::economics
