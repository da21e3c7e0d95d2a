#include "models/economics/on_prem_fleet.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "models/economics/billing.h"
#include "models/economics/checks.h"

namespace gpuplan::economics {
namespace {

//! Nodes bought together in one month; they are refreshed and retired together.
struct Cohort {
  double nodes = 0.0;
  Eigen::Index bought = 0;  //!< month of purchase
  bool sunk = false;        //!< owned before the projection: no capex, no refresh
};

bool valid_power(const FleetPower& p) {
  const auto ok = [](double x) { return std::isfinite(x) && x >= 0.0; };
  return ok(p.idle_kw) && ok(p.busy_kw) && ok(p.usd_per_kwh) && std::isfinite(p.pue) &&
         p.pue >= 1.0;
}

}  // namespace

FleetPower template_power(const OnPremNode& node) {
  return {node.idle_power_kw, node.max_power_kw, node.pue, node.electricity_usd_per_kwh};
}

Eigen::VectorXd fixed_fleet_nodes(double n_nodes, uint32_t n_months, uint32_t purchase_month) {
  Eigen::VectorXd nodes = Eigen::VectorXd::Zero(n_months);
  for (uint32_t m = purchase_month; m < n_months; ++m) nodes[m] = n_nodes;
  return nodes;
}

std::optional<Eigen::VectorXd> staged_fleet_nodes(const Eigen::VectorXd& demand_gpu_hours,
                                                  uint32_t gpus_per_node, double availability,
                                                  double fill, double floor_nodes) {
  const auto share = [](double x) { return std::isfinite(x) && x > 0.0 && x <= 1.0; };
  if (!valid_demand(demand_gpu_hours) || gpus_per_node == 0 || !share(availability) ||
      !share(fill) || !std::isfinite(floor_nodes) || floor_nodes < 0.0) {
    return std::nullopt;
  }
  const double node_gpu_hours = gpus_per_node * HOURS_PER_MONTH * availability * fill;
  Eigen::VectorXd nodes(demand_gpu_hours.size());
  double held = floor_nodes;
  for (Eigen::Index m = 0; m < demand_gpu_hours.size(); ++m) {
    // NOTE: the tolerance keeps a demand of exactly k nodes' hours from rounding up to k + 1.
    held = std::max(held, std::ceil(demand_gpu_hours[m] / node_gpu_hours - 1e-9));
    nodes[m] = held;
  }
  return nodes;
}

std::optional<OnPremMonthly> on_prem_monthly_cost(const OnPremFleet& fleet,
                                                  const Eigen::VectorXd& demand_gpu_hours,
                                                  CostBasis basis) {
  const OnPremNode& node = fleet.node;
  const Eigen::VectorXd& nodes = fleet.nodes;
  const FleetPower power = fleet.power.value_or(template_power(node));
  if (!valid_demand(demand_gpu_hours) || !on_prem_cost_per_node_hour(node) || !valid_power(power) ||
      !std::isfinite(fleet.availability) || fleet.availability < 0.0 || fleet.availability > 1.0 ||
      !std::isfinite(fleet.owned_nodes) || fleet.owned_nodes < 0.0 ||
      nodes.size() != demand_gpu_hours.size() || !nodes.allFinite() ||
      (nodes.array() < 0.0).any()) {
    return std::nullopt;
  }
  const Eigen::Index n = demand_gpu_hours.size();
  const Eigen::ArrayXd installed_gpu_hours = nodes.array() * node.gpus_per_node * HOURS_PER_MONTH;
  const Eigen::ArrayXd served =
      demand_gpu_hours.array().min(installed_gpu_hours * fleet.availability);
  const Eigen::ArrayXd utilization =
      (installed_gpu_hours > 0.0).select(served / installed_gpu_hours, 0.0);

  OnPremMonthly r;
  r.served_gpu_hours = served.matrix();
  r.unserved_gpu_hours = demand_gpu_hours - r.served_gpu_hours;
  const Eigen::ArrayXd draw_kw = power.idle_kw + (power.busy_kw - power.idle_kw) * utilization;
  r.kwh = (nodes.array() * draw_kw * power.pue * HOURS_PER_MONTH).matrix();
  r.energy_usd = r.kwh * power.usd_per_kwh;
  r.colo_usd = (nodes.array() * node.max_power_kw * node.colo_usd_per_kw_month).matrix();
  r.staff_usd = (nodes.array() * node.staff_usd_per_node_year / 12.0).matrix();

  // Capex by cohort: retire the oldest first, then refresh or depreciate the rest, then buy.
  const double unit_capex_usd = node.server_capex_usd * (1.0 + node.network_capex_fraction);
  const long life_whole = term_months(node.depreciation_years);
  const double life_months = node.depreciation_years * 12.0;
  r.capex_usd = Eigen::VectorXd::Zero(n);
  r.purchased_nodes = Eigen::VectorXd::Zero(n);
  std::vector<Cohort> cohorts;
  double held = 0.0;
  for (Eigen::Index m = 0; m < n; ++m) {
    for (auto c = cohorts.begin(); c != cohorts.end() && held > nodes[m];) {
      const double retired = std::min(c->nodes, held - nodes[m]);
      const double age = static_cast<double>(m - c->bought);
      // NOTE: on accrual a cohort leaving before its life ends writes off its book value, so
      // both bases charge the same capex for it.
      if (basis == CostBasis::accrual && !c->sunk && (fleet.refresh || age < life_months)) {
        const double in_life = fleet.refresh ? std::fmod(age, life_months) : age;
        r.capex_usd[m] += retired * unit_capex_usd * (1.0 - in_life / life_months);
      }
      c->nodes -= retired;
      held -= retired;
      c = c->nodes > 0.0 ? c + 1 : cohorts.erase(c);
    }
    for (const Cohort& c : cohorts) {
      if (c.sunk) continue;
      const Eigen::Index age = m - c.bought;
      switch (basis) {
        case CostBasis::cash:
          if (fleet.refresh && age % life_whole == 0) r.capex_usd[m] += c.nodes * unit_capex_usd;
          break;
        case CostBasis::accrual:
          if (fleet.refresh || static_cast<double>(age) < life_months)
            r.capex_usd[m] += c.nodes * unit_capex_usd / life_months;
          break;
      }
    }
    if (m == 0 && fleet.owned_nodes > 0.0 && nodes[0] > 0.0) {
      const double owned = std::min(fleet.owned_nodes, nodes[0]);
      cohorts.push_back({owned, 0, true});
      held = owned;
    }
    if (nodes[m] > held) {
      const double bought = nodes[m] - held;
      cohorts.push_back({bought, m});
      held = nodes[m];
      r.purchased_nodes[m] = bought;
      r.capex_usd[m] += basis == CostBasis::cash ? bought * unit_capex_usd
                                                 : bought * unit_capex_usd / life_months;
    }
  }
  r.total_usd = r.capex_usd + r.energy_usd + r.colo_usd + r.staff_usd;
  return r;
}

std::optional<uint32_t> first_unserved_month(const Eigen::VectorXd& unserved_gpu_hours,
                                             const Eigen::VectorXd& demand_gpu_hours) {
  for (Eigen::Index m = 0; m < unserved_gpu_hours.size(); ++m) {
    const double demand = m < demand_gpu_hours.size() ? demand_gpu_hours[m] : 0.0;
    if (unserved_gpu_hours[m] > 1e-9 * std::max(1.0, demand)) return static_cast<uint32_t>(m);
  }
  return std::nullopt;
}

}  // namespace gpuplan::economics
