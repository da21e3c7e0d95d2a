#pragma once
//! An on-prem fleet over the months of a TCO projection: the installed node count per month (a
//! series, so staged purchases and a pool's purchase schedule can both feed it), sized from the
//! demand month by month, and its monthly cost (capex at each purchase and refresh, or
//! depreciation from the purchase month, plus power, colocation and staff for installed nodes).
//! Month m (0-based) covers hours [730·m, 730·(m + 1)).
#include <cstdint>
#include <optional>

#include <Eigen/Core>

#include "models/economics/cost_basis.h"
#include "models/economics/on_prem.h"

namespace gpuplan::economics {

//! Power of one node of a fleet and the site's PUE and price: study/tco.cpp fills it from the
//! energy model (models/compile/pool_power.h) so the projection and result.json's energy section
//! price power alike.
struct FleetPower {
  double idle_kw = 0.0;      //!< [kW] IT draw with every GPU idle
  double busy_kw = 0.0;      //!< [kW] IT draw with every GPU busy
  double pue = 1.0;          //!< [-] facility power ÷ IT power, ≥ 1
  double usd_per_kwh = 0.0;  //!< [USD/kWh]
};

//! The power a server template gives by itself: idle_power_kw, max_power_kw (every GPU busy at
//! full activity), its PUE and electricity price.
[[nodiscard]] FleetPower template_power(const OnPremNode& node);

//! Identical on-prem nodes, installed per month. Nodes are bought in the month the count first
//! rises (a cohort per purchase) and serve from that month; when the count falls, the oldest
//! cohorts are retired first. Each month's utilization (and so its power draw) is served
//! GPU-hours / installed GPU-hours; node.utilization is not used. A node draws
//! idle_kw + (busy_kw − idle_kw) × utilization, times PUE.
struct OnPremFleet {
  OnPremNode node;
  Eigen::VectorXd nodes;  //!< [nodes] installed in month m, one entry per projected month
  double availability = 1.0;        //!< [0, 1] share of hours the nodes can serve work
  bool refresh = true;              //!< buy a cohort again at the end of each depreciation life
  std::optional<FleetPower> power;  //!< nullopt: template_power(node)
  //! [nodes] servers already bought before month 0, the first of those installed in month 0: a
  //! sunk cost, so no capex on either basis, only their running costs; never refreshed inside
  //! the projection (their age is not known) and the first retired when the count falls.
  double owned_nodes = 0.0;
};

//! A fleet of `n_nodes` installed from `purchase_month` on (none before) over `n_months`.
[[nodiscard]] Eigen::VectorXd fixed_fleet_nodes(double n_nodes, uint32_t n_months,
                                                uint32_t purchase_month = 0);

//! Staged sizing: in each month the fewest whole nodes whose available GPU-hours, filled to
//! `fill` of them, cover that month's demand; never fewer than the month before (nodes are bought
//! when demand first needs them and kept) nor than `floor_nodes` (the servers already owned).
//! A fill below 1 leaves the headroom a queue of gangs needs: waits grow steeply as the load
//! nears 1 (docs/tco.md). nullopt when the demand is empty, negative or not finite, gpus_per_node
//! is 0, or availability or fill is not in (0, 1].
[[nodiscard]] std::optional<Eigen::VectorXd> staged_fleet_nodes(
    const Eigen::VectorXd& demand_gpu_hours, uint32_t gpus_per_node, double availability,
    double fill = 1.0, double floor_nodes = 0.0);

//! Monthly on-prem cost [USD per month], the nodes bought, and the demand served [GPU-h/month].
struct OnPremMonthly {
  Eigen::VectorXd capex_usd;   //!< servers + network share (cash or depreciation)
  Eigen::VectorXd energy_usd;  //!< kwh × electricity price
  Eigen::VectorXd kwh;         //!< [kWh] facility energy of the installed nodes
  Eigen::VectorXd colo_usd;
  Eigen::VectorXd staff_usd;
  Eigen::VectorXd total_usd;
  Eigen::VectorXd purchased_nodes;     //!< [nodes] new nodes bought in month m (not refreshes)
  Eigen::VectorXd served_gpu_hours;    //!< min(demand, available capacity)
  Eigen::VectorXd unserved_gpu_hours;  //!< demand above the available capacity
};

//! On-prem cost of `fleet` facing `demand_gpu_hours` [GPU-h per month]. Cash basis: a cohort's
//! capex falls in its purchase month and, with refresh, every depreciation life after it.
//! Accrual: a cohort is depreciated straight-line from its purchase month (for ever with
//! refresh, else for one life), and a cohort retired early writes off its remaining book value
//! in the month it leaves. nullopt when the node is invalid (see on_prem_cost_per_node_hour), the
//! power is negative or not finite or its PUE below 1,
//! availability is outside [0, 1], a demand or node count is negative or not finite, or the
//! node series and the demand differ in length.
[[nodiscard]] std::optional<OnPremMonthly> on_prem_monthly_cost(
    const OnPremFleet& fleet, const Eigen::VectorXd& demand_gpu_hours, CostBasis basis);

//! The first month whose unserved GPU-hours exceed a rounding tolerance (1e-9 of that month's
//! demand, at least 1e-9 GPU-h): the month a plan stops keeping up; nullopt when it always does.
[[nodiscard]] std::optional<uint32_t> first_unserved_month(
    const Eigen::VectorXd& unserved_gpu_hours, const Eigen::VectorXd& demand_gpu_hours);

}  // namespace gpuplan::economics
