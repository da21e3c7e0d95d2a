#pragma once
//! Cloud billing arithmetic: billing granularity, reserved/committed terms and spot prices.
//! Pure functions over plain structs; invalid input gives std::nullopt, never an exception.
#include <cstdint>
#include <optional>
#include <span>

namespace gpuplan::economics {

inline constexpr double SECONDS_PER_HOUR = 3600.0;
inline constexpr double HOURS_PER_YEAR = 8760.0;  //!< 365 days, the basis of AWS RI terms
inline constexpr double HOURS_PER_MONTH = HOURS_PER_YEAR / 12.0;  //!< 730 h

//! How a provider rounds one usage interval up before it multiplies by the hourly price.
enum class BillingGranularity : uint8_t {
  per_second,       //!< round up to whole seconds (AWS, GCP, Azure VMs)
  per_hour,         //!< round up to whole hours (older clouds, many neoclouds)
  per_millisecond,  //!< round up to whole milliseconds (serverless)
};

//! The scenario's words for granularities are in models/input/names.h (enum_name, parse_enum).

//! Billing rule of one pool: granularity plus a minimum charge per usage interval.
struct BillingRule {
  BillingGranularity granularity = BillingGranularity::per_second;
  double minimum_s = 60.0;  //!< [s] least billed time for any positive usage (AWS: 60 s)
};

//! AWS EC2 Linux: per second with a 60 s minimum per instance launch.
inline constexpr BillingRule AWS_PER_SECOND{BillingGranularity::per_second, 60.0};
//! Hourly billing, every started hour is charged in full.
inline constexpr BillingRule PER_HOUR{BillingGranularity::per_hour, 0.0};
//! Serverless: per millisecond, no minimum.
inline constexpr BillingRule SERVERLESS_PER_MS{BillingGranularity::per_millisecond, 0.0};

//! One node's usage, from launch to release [s of simulated time].
struct UsageInterval {
  double start_s = 0.0;  //!< [s]
  double end_s = 0.0;    //!< [s]
};

//! Billed seconds for `usage_s` seconds of use; zero usage bills 0; nullopt when usage_s is
//! negative or not finite, or the rule's minimum is negative or not finite.
[[nodiscard]] std::optional<double> billed_seconds(const BillingRule& rule, double usage_s);

//! Cost [USD] of a pool's usage intervals, each billed separately at `price_per_hour_usd`
//! [USD per node-hour]; nullopt when an interval ends before it starts, a value is not finite,
//! or the price is negative.
[[nodiscard]] std::optional<double> usage_cost_usd(const BillingRule& rule,
                                                   double price_per_hour_usd,
                                                   std::span<const UsageInterval> intervals);

//! A reserved instance / committed-use term for one unit (a node; one GPU in tco.h): upfront
//! amount plus an hourly rate, both owed for the whole term whether the unit is used or not.
//! No upfront: upfront_usd = 0; all upfront: hourly_usd = 0; partial: both positive.
struct ReservedOffer {
  double term_years = 1.0;   //!< [years] 1 or 3 for AWS/Azure RIs and GCP CUDs
  double upfront_usd = 0.0;  //!< [USD per unit] paid at the start of the term
  double hourly_usd = 0.0;   //!< [USD per unit-hour] charged every hour of the term
};

//! Length of the term [h], at 8,760 h per year.
[[nodiscard]] double reserved_term_hours(const ReservedOffer& offer);

//! Effective hourly rate [USD per unit-hour] = upfront / term hours + hourly; nullopt when the
//! term is not positive or an amount is negative or not finite.
[[nodiscard]] std::optional<double> reserved_effective_hourly_usd(const ReservedOffer& offer);

//! How a window's share of a reservation is counted.
enum class ReservedAccounting : uint8_t {
  amortized,  //!< the upfront is spread evenly over the term (effective rate × overlap)
  cash,       //!< the upfront falls in the window that holds the term start; hourly × overlap
};

//! Cost [USD] of one reserved unit over the window [window_start_s, window_end_s) for a term
//! starting at `term_start_s`; idle time is billed like busy time. nullopt on invalid offer,
//! a window that ends before it starts, or non-finite times.
[[nodiscard]] std::optional<double> reserved_window_cost_usd(const ReservedOffer& offer,
                                                             double term_start_s,
                                                             double window_start_s,
                                                             double window_end_s,
                                                             ReservedAccounting accounting);

//! A reservation's whole commitment and the share of it inside a window (amortized: the upfront
//! spread evenly over the term), for `units` units whose terms start at `term_start_s`.
struct ReservedCommitment {
  double total_usd = 0.0;      //!< [USD] owed for the whole term: units × effective rate × term
  double in_window_usd = 0.0;  //!< [USD] the share of the term inside the window
  double term_hours = 0.0;     //!< [h] length of one term
};

//! The one rule for reserved terms (run, mc, recommend, quote): the whole commitment of `units`
//! units from `term_start_s`, and its share inside [window_start_s, window_end_s); nullopt on an
//! invalid offer or window, a negative or non-finite unit count, or non-finite times.
[[nodiscard]] std::optional<ReservedCommitment> reserved_commitment(const ReservedOffer& offer,
                                                                    double units,
                                                                    double term_start_s,
                                                                    double window_start_s,
                                                                    double window_end_s);

//! Discount of `price_usd` against `on_demand_usd` as a fraction (0.7 = 70% off); nullopt when
//! the on-demand price is not positive or either price is not finite.
[[nodiscard]] std::optional<double> discount_vs_on_demand(double price_usd, double on_demand_usd);

//! Spot price [USD per node-hour] at `discount` (fraction off, in [0, 1]) from on-demand;
//! nullopt when the discount is outside [0, 1] or the price is negative or not finite.
[[nodiscard]] std::optional<double> spot_price_from_discount(double on_demand_per_hour_usd,
                                                             double discount);

//! One step of a piecewise-constant price series: the price holds from t_s until the next step.
struct PricePoint {
  double t_s = 0.0;           //!< [s] start of this price
  double usd_per_hour = 0.0;  //!< [USD per node-hour]
};

//! Integral of a piecewise-constant price series over [t0_s, t1_s) [USD for one node]; the last
//! price holds forever. nullopt when the series is empty or not strictly increasing in time, a
//! price is negative, t0_s lies before the first point, t1_s < t0_s, or a value is not finite.
[[nodiscard]] std::optional<double> integrate_price_usd(std::span<const PricePoint> series,
                                                        double t0_s, double t1_s);

//! Cost [USD] of usage intervals priced by a time series: each interval is rounded by `rule`
//! (the extension runs past its end) and integrated over the series; nullopt as for
//! usage_cost_usd and integrate_price_usd.
[[nodiscard]] std::optional<double> usage_cost_usd(const BillingRule& rule,
                                                   std::span<const PricePoint> series,
                                                   std::span<const UsageInterval> intervals);

}  // namespace gpuplan::economics
