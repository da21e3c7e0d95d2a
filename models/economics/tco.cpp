#include "models/economics/tco.h"

#include <algorithm>
#include <cmath>

#include "models/economics/checks.h"

namespace gpuplan::economics {

std::optional<Eigen::VectorXd> monthly_demand_gpu_hours(const DemandGrowth& growth) {
  if (!non_negative(growth.initial_gpu_hours_per_month) ||
      !std::isfinite(growth.growth_per_month) || growth.growth_per_month <= -1.0 ||
      growth.n_months == 0) {
    return std::nullopt;
  }
  const Eigen::ArrayXd m = Eigen::ArrayXd::LinSpaced(growth.n_months, 0.0, growth.n_months - 1.0);
  return (growth.initial_gpu_hours_per_month * (m * std::log1p(growth.growth_per_month)).exp())
      .matrix();
}

std::optional<CloudMonthly> cloud_monthly_cost(const CloudMix& mix,
                                               const Eigen::VectorXd& demand_gpu_hours,
                                               CostBasis basis) {
  if (!valid_demand(demand_gpu_hours) || !non_negative(mix.on_demand_usd_per_gpu_hour) ||
      !non_negative(mix.spot_usd_per_gpu_hour) || !non_negative(mix.spot_share) ||
      mix.spot_share > 1.0 || !non_negative(mix.spot_overhead)) {
    return std::nullopt;
  }
  const Eigen::Index n = demand_gpu_hours.size();
  CloudMonthly c;
  c.reserved_usd = Eigen::VectorXd::Zero(n);
  if (mix.reserved_gpus > 0) {
    const std::optional<double> effective = reserved_effective_hourly_usd(mix.reserved_per_gpu);
    if (!effective) return std::nullopt;
    switch (basis) {
      case CostBasis::accrual:
        c.reserved_usd.setConstant(*effective * HOURS_PER_MONTH * mix.reserved_gpus);
        break;
      case CostBasis::cash: {
        c.reserved_usd.setConstant(mix.reserved_per_gpu.hourly_usd * HOURS_PER_MONTH *
                                   mix.reserved_gpus);
        const Eigen::Index term = term_months(mix.reserved_per_gpu.term_years);
        for (Eigen::Index m = 0; m < n; m += term) {
          c.reserved_usd[m] += mix.reserved_per_gpu.upfront_usd * mix.reserved_gpus;
        }
        break;
      }
    }
  }
  const double reserved_gpu_hours = mix.reserved_gpus * HOURS_PER_MONTH;
  const Eigen::ArrayXd above = (demand_gpu_hours.array() - reserved_gpu_hours).max(0.0);
  c.spot_usd =
      (above * mix.spot_share * (1.0 + mix.spot_overhead) * mix.spot_usd_per_gpu_hour).matrix();
  c.on_demand_usd = (above * (1.0 - mix.spot_share) * mix.on_demand_usd_per_gpu_hour).matrix();
  c.total_usd = c.reserved_usd + c.spot_usd + c.on_demand_usd;
  return c;
}

std::optional<HybridMonthly> hybrid_monthly_cost(const OnPremFleet& fleet, const CloudMix& burst,
                                                 const Eigen::VectorXd& demand_gpu_hours,
                                                 CostBasis basis) {
  std::optional<OnPremMonthly> base = on_prem_monthly_cost(fleet, demand_gpu_hours, basis);
  if (!base) return std::nullopt;
  std::optional<CloudMonthly> cloud = cloud_monthly_cost(burst, base->unserved_gpu_hours, basis);
  if (!cloud) return std::nullopt;
  HybridMonthly h{std::move(*base), std::move(*cloud), {}};
  h.total_usd = h.on_prem.total_usd + h.burst.total_usd;
  return h;
}

std::optional<Eigen::VectorXd> monthly_discount_factors(double annual_rate, uint32_t n_months) {
  if (!std::isfinite(annual_rate) || annual_rate <= -1.0) return std::nullopt;
  const Eigen::ArrayXd m = Eigen::ArrayXd::LinSpaced(n_months, 0.0, n_months - 1.0);
  return (-m / 12.0 * std::log1p(annual_rate)).exp().matrix();
}

std::optional<CostSummary> summarize_costs(const Eigen::VectorXd& monthly_usd,
                                           double annual_discount_rate) {
  if (!monthly_usd.allFinite()) return std::nullopt;
  const std::optional<Eigen::VectorXd> factors =
      monthly_discount_factors(annual_discount_rate, static_cast<uint32_t>(monthly_usd.size()));
  if (!factors) return std::nullopt;
  CostSummary s;
  s.cumulative_usd.resize(monthly_usd.size());
  double running = 0.0;
  for (Eigen::Index m = 0; m < monthly_usd.size(); ++m) {
    running += monthly_usd[m];
    s.cumulative_usd[m] = running;
  }
  s.total_usd = running;
  s.npv_usd = monthly_usd.dot(*factors);
  return s;
}

std::optional<uint32_t> break_even_month(const Eigen::VectorXd& cumulative_a_usd,
                                         const Eigen::VectorXd& cumulative_b_usd) {
  if (cumulative_a_usd.size() != cumulative_b_usd.size()) return std::nullopt;
  for (Eigen::Index m = 0; m < cumulative_a_usd.size(); ++m) {
    if (cumulative_a_usd[m] <= cumulative_b_usd[m]) return static_cast<uint32_t>(m);
  }
  return std::nullopt;
}

}  // namespace gpuplan::economics
