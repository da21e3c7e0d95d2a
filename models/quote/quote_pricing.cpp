#include "models/quote/quote.h"

#include <algorithm>
#include <cstdio>

#include "models/economics/billing.h"

// Quote pricing: plan names and terms, an instance's prices under a plan, what a cluster costs.
namespace gpuplan::quote {

using economics::SECONDS_PER_HOUR;

std::string PricingPlan::label() const {
  if (spot_share > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "spot %.0f%%", 100 * spot_share);
    return buf;
  }
  switch (base) {
    case Pricing::reserved_1y:
      return "1-yr reserved";
    case Pricing::reserved_3y:
      return "3-yr reserved";
    case Pricing::on_prem:
      return "on-prem";
    case Pricing::on_demand:
    case Pricing::spot:
      break;
  }
  return "on-demand";
}

double PricingPlan::term_years() const {
  switch (base) {
    case Pricing::reserved_1y:
      return 1;
    case Pricing::reserved_3y:
      return 3;
    case Pricing::on_demand:
    case Pricing::spot:
    case Pricing::on_prem:
      break;
  }
  return 0;
}

PlanCost plan_cost(const PricingPlan& plan, double hourly_usd, double seconds) {
  const double hours = seconds / SECONDS_PER_HOUR;
  PlanCost c;
  c.total_usd = hourly_usd * hours;
  if (plan.term_years() <= 0) return c;
  const economics::ReservedOffer offer{plan.term_years(), 0.0, hourly_usd};
  const auto r = economics::reserved_commitment(offer, 1.0, 0.0, 0.0, seconds);
  if (!r) return c;
  c.commitment_usd = r->total_usd;
  c.in_window_usd = r->in_window_usd;
  // NOTE: past the term the cluster pays on at the same rate (as a renewal would).
  c.total_usd = r->total_usd + hourly_usd * std::max(0.0, hours - r->term_hours);
  return c;
}

std::optional<PlanPrice> plan_price(const InstanceType& it, const PricingPlan& plan) {
  const InstancePrices& p = it.price_per_hour;
  // NOTE: spot is a share of nodes (spot_share), never a base.
  const std::optional<double> base =
      plan.base == Pricing::spot ? std::nullopt : price_of(p, plan.base);
  PlanPrice out;
  if (plan.spot_share < 1) {
    if (!base) return std::nullopt;
    out.base_usd_per_node_hour = *base;
  }
  if (plan.spot_share > 0) {
    if (!p.spot) return std::nullopt;
    out.spot_usd_per_node_hour = *p.spot;
  }
  return out;
}

double cluster_price_per_hour(uint32_t nodes, uint32_t spot_nodes, const PlanPrice& p) {
  return (nodes - spot_nodes) * p.base_usd_per_node_hour + spot_nodes * p.spot_usd_per_node_hour;
}

std::string risk_level(double spot_share, double slowdown) {
  if (spot_share <= 0) return "none";
  if (slowdown < 0.05) return "low";
  if (slowdown < 0.25) return "medium";
  return "high";
}

}  // namespace gpuplan::quote
