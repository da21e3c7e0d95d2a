#include "models/economics/on_prem.h"

#include <cmath>

#include "models/economics/billing.h"
#include "models/economics/checks.h"

namespace gpuplan::economics {
namespace {

bool valid(const OnPremNode& n) {
  return non_negative(n.server_capex_usd) && std::isfinite(n.depreciation_years) &&
         n.depreciation_years > 0.0 && std::isfinite(n.pue) && n.pue >= 1.0 &&
         non_negative(n.electricity_usd_per_kwh) && non_negative(n.colo_usd_per_kw_month) &&
         non_negative(n.network_capex_fraction) && non_negative(n.staff_usd_per_node_year) &&
         n.gpus_per_node > 0;
}

}  // namespace

std::optional<double> power_draw_kw(const OnPremNode& node, double utilization) {
  if (!std::isfinite(utilization) || utilization < 0.0 || utilization > 1.0 ||
      !non_negative(node.idle_power_kw) || !non_negative(node.max_power_kw) ||
      node.idle_power_kw > node.max_power_kw) {
    return std::nullopt;
  }
  return node.idle_power_kw + (node.max_power_kw - node.idle_power_kw) * utilization;
}

std::optional<OnPremHourlyCost> on_prem_cost_per_node_hour(const OnPremNode& node) {
  const std::optional<double> draw_kw = power_draw_kw(node, node.utilization);
  if (!draw_kw || !valid(node)) return std::nullopt;
  const double life_h = node.depreciation_years * HOURS_PER_YEAR;
  OnPremHourlyCost c;
  c.capex_usd = node.server_capex_usd / life_h;
  c.energy_usd = *draw_kw * node.pue * node.electricity_usd_per_kwh;
  // NOTE: colocation is sold on provisioned power, so it is charged on max_power_kw at any load.
  c.colo_usd = node.max_power_kw * node.colo_usd_per_kw_month / HOURS_PER_MONTH;
  c.network_usd = node.server_capex_usd * node.network_capex_fraction / life_h;
  c.staff_usd = node.staff_usd_per_node_year / HOURS_PER_YEAR;
  c.total_usd = c.capex_usd + c.energy_usd + c.colo_usd + c.network_usd + c.staff_usd;
  return c;
}

std::optional<OnPremHourlyCost> on_prem_cost_per_gpu_hour(const OnPremNode& node) {
  std::optional<OnPremHourlyCost> c = on_prem_cost_per_node_hour(node);
  if (!c) return std::nullopt;
  const double g = node.gpus_per_node;
  return OnPremHourlyCost{c->capex_usd / g,   c->energy_usd / g, c->colo_usd / g,
                          c->network_usd / g, c->staff_usd / g,  c->total_usd / g};
}

}  // namespace gpuplan::economics
