#pragma once
//! Energy and carbon of the TCO projection's options (docs/tco.md, "Energy and carbon"): kWh,
//! location-based tCO2e and embodied carbon per month and per year beside each option's cost,
//! from the same power model as result.json's `energy` section (models/compile/pool_power.h).
#include <string>
#include <vector>

#include <Eigen/Core>

#include "models/economics/on_prem_fleet.h"
#include "models/economics/tco.h"
#include "models/perf/energy/power_model.h"
#include "models/scenario/scenario.h"
#include "study/tco_result.h"

namespace gpuplan::study {

//! Facility energy and carbon of one GPU-hour (the GPU plus its share of the node, times PUE).
struct GpuHourEnergy {
  double busy_kwh = 0;        //!< [kWh] one busy GPU-hour
  double idle_kwh = 0;        //!< [kWh] one idle, provisioned GPU-hour
  double busy_tco2e = 0;      //!< [tCO2e] busy_kwh at the grid factor
  double idle_tco2e = 0;      //!< [tCO2e] idle_kwh at the grid factor
  double embodied_tco2e = 0;  //!< [tCO2e] the node's embodied carbon per GPU-hour of its life

  GpuHourEnergy& operator+=(const GpuHourEnergy& o);
  GpuHourEnergy& operator*=(double k);
};

//! The GPU-hour figures of `pool` with `kg_per_node` embodied carbon spread over `life_years`.
[[nodiscard]] GpuHourEnergy gpu_hour_energy(const energy::PoolPower& pool, double kg_per_node,
                                            double life_years);

//! The power figures a projection uses.
struct TcoPower {
  energy::PoolPower on_prem;        //!< the server pool's (tco.server); unset without one
  economics::FleetPower fleet;      //!< on_prem's node powers, PUE and price for the fleet cost
  GpuHourEnergy on_prem_hour;       //!< on_prem's GPU-hour figures
  GpuHourEnergy cloud_hour;         //!< a cloud GPU-hour's figures
  std::string cloud_source;         //!< what cloud_hour comes from
  double embodied_kg_per_node = 0;  //!< [kgCO2e]
  double embodied_life_years = 0;   //!< [years]
  std::string embodied_source;      //!< where the embodied figure comes from
};

//! The projection's power: the server pool's model; for the cloud, tco.cloud's instance under
//! the scenario-wide settings, else the cloud pools' figures weighted by `pool_busy_gpu_s` (by
//! their GPUs when nothing ran).
[[nodiscard]] TcoPower tco_power(const Scenario& sc, const std::vector<double>& pool_busy_gpu_s);

//! One option's energy per month.
struct MonthlyEnergy {
  Eigen::VectorXd kwh;             //!< [kWh] facility energy
  Eigen::VectorXd tco2e;           //!< [tCO2e] location-based, operational
  Eigen::VectorXd embodied_tco2e;  //!< [tCO2e] the share of the nodes' embodied carbon
  Eigen::VectorXd power_usd;       //!< [USD] electricity the planner pays (on-prem)
};

//! The cloud's energy for `mix` serving `demand_gpu_hours`: the demand above the reservation
//! runs busy (spot work inflated by its overhead), reserved GPUs not used sit idle.
[[nodiscard]] MonthlyEnergy cloud_energy(const GpuHourEnergy& hour, const economics::CloudMix& mix,
                                         const Eigen::VectorXd& demand_gpu_hours);

//! An on-prem fleet's energy: `cost`'s kWh (the fleet's power at each month's utilization) at
//! the pool's grid factor, and embodied carbon for every installed node-hour.
[[nodiscard]] MonthlyEnergy fleet_energy(const TcoPower& power, const economics::OnPremFleet& fleet,
                                         const economics::OnPremMonthly& cost);

//! The sum of two options' parts (a hybrid's fleet and burst).
[[nodiscard]] MonthlyEnergy operator+(const MonthlyEnergy& a, const MonthlyEnergy& b);

//! A monthly series as a vector.
[[nodiscard]] std::vector<double> series(const Eigen::VectorXd& v);

//! An option's energy: totals, the monthly kWh and tCO2e, and per 12-month year the cost
//! (`monthly_usd`), kWh, tCO2e and embodied tCO2e.
[[nodiscard]] TcoEnergy tco_energy(const MonthlyEnergy& e, const Eigen::VectorXd& monthly_usd);

//! The projection's power assumptions, in the units result.json shows.
[[nodiscard]] TcoEnergyAssumptions energy_assumptions(const TcoPower& power, bool has_on_prem);

}  // namespace gpuplan::study
