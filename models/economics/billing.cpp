#include "models/economics/billing.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::economics {
namespace {

// NOTE: event times are sums of doubles, so 3600 s of use can arrive as 3600.0000000001 s; a
// microsecond of slack keeps such values from being billed one unit too many.
constexpr double ROUNDING_SLACK_S = 1e-6;

double round_up_to(double usage_s, double unit_s) {
  return std::ceil((usage_s - ROUNDING_SLACK_S) / unit_s) * unit_s;
}

bool finite(double x) {
  return std::isfinite(x);
}

bool valid_interval(const UsageInterval& iv) {
  return finite(iv.start_s) && finite(iv.end_s) && iv.end_s >= iv.start_s;
}

}  // namespace

std::optional<double> billed_seconds(const BillingRule& rule, double usage_s) {
  if (!finite(usage_s) || usage_s < 0.0 || !finite(rule.minimum_s) || rule.minimum_s < 0.0) {
    return std::nullopt;
  }
  if (usage_s == 0.0) return 0.0;
  double billed = 0.0;
  switch (rule.granularity) {
    case BillingGranularity::per_second:
      billed = round_up_to(usage_s, 1.0);
      break;
    case BillingGranularity::per_hour:
      billed = round_up_to(usage_s, SECONDS_PER_HOUR);
      break;
    case BillingGranularity::per_millisecond:
      billed = round_up_to(usage_s, 1e-3);
      break;
  }
  return std::max(billed, rule.minimum_s);
}

std::optional<double> usage_cost_usd(const BillingRule& rule, double price_per_hour_usd,
                                     std::span<const UsageInterval> intervals) {
  if (!finite(price_per_hour_usd) || price_per_hour_usd < 0.0) return std::nullopt;
  double total_s = 0.0;
  for (const UsageInterval& iv : intervals) {
    if (!valid_interval(iv)) return std::nullopt;
    const std::optional<double> b = billed_seconds(rule, iv.end_s - iv.start_s);
    if (!b) return std::nullopt;
    total_s += *b;
  }
  return total_s / SECONDS_PER_HOUR * price_per_hour_usd;
}

double reserved_term_hours(const ReservedOffer& offer) {
  return offer.term_years * HOURS_PER_YEAR;
}

std::optional<double> reserved_effective_hourly_usd(const ReservedOffer& offer) {
  if (!finite(offer.term_years) || offer.term_years <= 0.0 || !finite(offer.upfront_usd) ||
      offer.upfront_usd < 0.0 || !finite(offer.hourly_usd) || offer.hourly_usd < 0.0) {
    return std::nullopt;
  }
  return offer.upfront_usd / reserved_term_hours(offer) + offer.hourly_usd;
}

std::optional<double> reserved_window_cost_usd(const ReservedOffer& offer, double term_start_s,
                                               double window_start_s, double window_end_s,
                                               ReservedAccounting accounting) {
  const std::optional<double> effective = reserved_effective_hourly_usd(offer);
  if (!effective || !finite(term_start_s) || !valid_interval({window_start_s, window_end_s})) {
    return std::nullopt;
  }
  const double term_end_s = term_start_s + reserved_term_hours(offer) * SECONDS_PER_HOUR;
  const double overlap_h =
      std::max(0.0, std::min(window_end_s, term_end_s) - std::max(window_start_s, term_start_s)) /
      SECONDS_PER_HOUR;
  switch (accounting) {
    case ReservedAccounting::amortized:
      return *effective * overlap_h;
    case ReservedAccounting::cash: {
      const bool holds_start = term_start_s >= window_start_s && term_start_s < window_end_s;
      return offer.hourly_usd * overlap_h + (holds_start ? offer.upfront_usd : 0.0);
    }
  }
  return std::nullopt;
}

std::optional<ReservedCommitment> reserved_commitment(const ReservedOffer& offer, double units,
                                                      double term_start_s, double window_start_s,
                                                      double window_end_s) {
  if (!finite(units) || units < 0.0) return std::nullopt;
  const std::optional<double> share = reserved_window_cost_usd(
      offer, term_start_s, window_start_s, window_end_s, ReservedAccounting::amortized);
  const std::optional<double> effective = reserved_effective_hourly_usd(offer);
  if (!share || !effective) return std::nullopt;
  const double term_h = reserved_term_hours(offer);
  return ReservedCommitment{units * *effective * term_h, units * *share, term_h};
}

std::optional<double> discount_vs_on_demand(double price_usd, double on_demand_usd) {
  if (!finite(price_usd) || !finite(on_demand_usd) || on_demand_usd <= 0.0) return std::nullopt;
  return 1.0 - price_usd / on_demand_usd;
}

std::optional<double> spot_price_from_discount(double on_demand_per_hour_usd, double discount) {
  if (!finite(on_demand_per_hour_usd) || on_demand_per_hour_usd < 0.0 || !finite(discount) ||
      discount < 0.0 || discount > 1.0) {
    return std::nullopt;
  }
  return on_demand_per_hour_usd * (1.0 - discount);
}

std::optional<double> integrate_price_usd(std::span<const PricePoint> series, double t0_s,
                                          double t1_s) {
  if (series.empty() || !finite(t0_s) || !finite(t1_s) || t1_s < t0_s ||
      t0_s < series.front().t_s) {
    return std::nullopt;
  }
  double total_usd = 0.0;
  for (size_t i = 0; i < series.size(); ++i) {
    const PricePoint& p = series[i];
    if (!finite(p.t_s) || !finite(p.usd_per_hour) || p.usd_per_hour < 0.0) return std::nullopt;
    const bool last = i + 1 == series.size();
    if (!last && !(series[i + 1].t_s > p.t_s)) return std::nullopt;
    const double seg_end_s = last ? t1_s : series[i + 1].t_s;
    const double overlap_s = std::min(seg_end_s, t1_s) - std::max(p.t_s, t0_s);
    if (overlap_s > 0.0) total_usd += overlap_s / SECONDS_PER_HOUR * p.usd_per_hour;
  }
  return total_usd;
}

std::optional<double> usage_cost_usd(const BillingRule& rule, std::span<const PricePoint> series,
                                     std::span<const UsageInterval> intervals) {
  double total_usd = 0.0;
  for (const UsageInterval& iv : intervals) {
    if (!valid_interval(iv)) return std::nullopt;
    const std::optional<double> b = billed_seconds(rule, iv.end_s - iv.start_s);
    if (!b) return std::nullopt;
    const std::optional<double> c = integrate_price_usd(series, iv.start_s, iv.start_s + *b);
    if (!c) return std::nullopt;
    total_usd += *c;
  }
  return total_usd;
}

}  // namespace gpuplan::economics
