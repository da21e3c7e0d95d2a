#pragma once
//! Multi-year monthly cost projection (TCO) for cloud (reserved / spot / on-demand mix), on-prem
//! (capex schedule or depreciation, plus opex) and hybrid (on-prem base + cloud burst), with NPV,
//! cumulative cost and break-even month. Month m (0-based) covers hours [730·m, 730·(m + 1)).
#include <cstdint>
#include <optional>

#include <Eigen/Core>

#include "models/economics/billing.h"
#include "models/economics/cost_basis.h"
#include "models/economics/on_prem_fleet.h"

namespace gpuplan::economics {

//! GPU-hours needed per month, growing by a fixed percentage per month (compounded).
struct DemandGrowth {
  double initial_gpu_hours_per_month = 0.0;  //!< [GPU-h] demand in month 0
  double growth_per_month = 0.0;             //!< [-] 0.01 = +1% per month
  uint32_t n_months = 36;
};

//! Demand per month [GPU-h], d_m = d_0·(1 + g)^m for m = 0..n−1; nullopt when d_0 < 0, g ≤ −1,
//! a value is not finite, or n_months is 0.
[[nodiscard]] std::optional<Eigen::VectorXd> monthly_demand_gpu_hours(const DemandGrowth& growth);

//! A cloud purchase mix, priced per GPU-hour. Demand is served first by the reserved GPUs; the
//! rest is split between spot (share spot_share, inflated by spot_overhead for lost work and
//! restarts) and on-demand.
struct CloudMix {
  double on_demand_usd_per_gpu_hour = 0.0;  //!< [USD/GPU-h]
  double spot_usd_per_gpu_hour = 0.0;       //!< [USD/GPU-h]
  double spot_share = 0.0;         //!< [0, 1] share of the demand above the reservation run on spot
  double spot_overhead = 0.0;      //!< [-] extra spot GPU-hours per useful GPU-hour (0.1 = +10%)
  uint32_t reserved_gpus = 0;      //!< GPUs committed from month 0, renewed at each term end
  ReservedOffer reserved_per_gpu;  //!< one GPU's term, upfront [USD] and hourly [USD/GPU-h]
};

//! Monthly cloud cost by purchase option [USD per month].
struct CloudMonthly {
  Eigen::VectorXd reserved_usd;
  Eigen::VectorXd spot_usd;
  Eigen::VectorXd on_demand_usd;
  Eigen::VectorXd total_usd;
};

//! Cloud cost of serving `demand_gpu_hours` [GPU-h per month] with `mix`; reserved GPUs are
//! billed every hour of every term whether used or not. nullopt when a price, share or overhead
//! is negative or not finite, spot_share > 1, the reserved offer is invalid (with reserved GPUs),
//! or a demand value is negative.
[[nodiscard]] std::optional<CloudMonthly> cloud_monthly_cost(
    const CloudMix& mix, const Eigen::VectorXd& demand_gpu_hours, CostBasis basis);

//! Hybrid plan: the on-prem fleet serves what it can, the cloud mix serves the rest.
struct HybridMonthly {
  OnPremMonthly on_prem;
  CloudMonthly burst;
  Eigen::VectorXd total_usd;  //!< [USD per month]
};

//! Cost of an on-prem base plus cloud burst for the demand above it; nullopt when either part
//! is invalid.
[[nodiscard]] std::optional<HybridMonthly> hybrid_monthly_cost(
    const OnPremFleet& fleet, const CloudMix& burst, const Eigen::VectorXd& demand_gpu_hours,
    CostBasis basis);

//! Discount factors (1 + r)^(−m/12) for months m = 0..n−1: each month's cost is discounted
//! from its first day at the effective annual rate r; nullopt when r ≤ −1 or not finite.
[[nodiscard]] std::optional<Eigen::VectorXd> monthly_discount_factors(double annual_rate,
                                                                      uint32_t n_months);

//! Totals of a monthly cost series [USD].
struct CostSummary {
  Eigen::VectorXd cumulative_usd;  //!< undiscounted running sum, through the end of month m
  double total_usd = 0.0;          //!< undiscounted sum
  double npv_usd = 0.0;            //!< sum of cost × discount factor
};

//! Cumulative cost, total and NPV of `monthly_usd` at `annual_discount_rate`; nullopt when the
//! rate is invalid (see monthly_discount_factors) or a cost is not finite.
[[nodiscard]] std::optional<CostSummary> summarize_costs(const Eigen::VectorXd& monthly_usd,
                                                         double annual_discount_rate);

//! First month m (0-based) at whose end option A's cumulative cost is at most option B's;
//! nullopt when that never happens within the horizon or the series differ in length.
[[nodiscard]] std::optional<uint32_t> break_even_month(const Eigen::VectorXd& cumulative_a_usd,
                                                       const Eigen::VectorXd& cumulative_b_usd);

}  // namespace gpuplan::economics
