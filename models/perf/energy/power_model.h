#pragma once
//! Power, energy and carbon of a pool of GPU nodes (docs/energy.md): a GPU power curve from idle
//! to TDP by activity, node overhead (CPUs, memory, fans, NICs), PUE, and the grid's carbon
//! intensity. A pool's energy is linear in its busy and provisioned GPU-seconds, so it follows
//! from the totals the engine already keeps, with no per-event work.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gpuplan::energy {

inline constexpr double J_PER_KWH = 3.6e6;

//! Points (activity in [0, 1], fraction of TDP) of a GPU power curve, activity increasing.
using PowerCurve = std::vector<std::pair<double, double>>;

//! The default curve: linear from `idle_fraction` of TDP at activity 0 to TDP at activity 1.
[[nodiscard]] PowerCurve linear_curve(double idle_fraction);

//! Power [W] of one GPU of `tdp_w` at `activity` on `curve` (linear between points, clamped to
//! the first and last point outside them).
[[nodiscard]] double gpu_power_w(const PowerCurve& curve, double tdp_w, double activity);

//! The resolved power, site and grid figures of one pool (models/scenario/scenario_energy.h builds
//! them).
struct PoolPower {
  uint32_t gpus_per_node = 1;
  double idle_slot_w = 0;         //!< [W] one idle GPU plus its share of the node's idle overhead
  double busy_slot_w = 0;         //!< [W] one busy GPU plus its share of the node's busy overhead
  double pue = 1;                 //!< [-] facility power ÷ IT power
  double g_co2e_per_kwh = 0;      //!< [gCO2e/kWh] grid factor (the series' mean where one is given)
  double usd_per_kwh = 0;         //!< [USD/kWh] electricity price
  bool power_billed = false;      //!< the planner pays the power (on-prem); cloud prices include it
  bool uses_grid_series = false;  //!< the hourly series of the scenario sets its grid factor
  std::string region;             //!< grid region the factor belongs to ("" = default factor)
  std::string grid_source;        //!< where the grid factor comes from
  std::string power_source;       //!< where the node powers come from

  //! IT power [W] of one whole node with all GPUs idle / all GPUs busy.
  [[nodiscard]] double node_idle_w() const { return idle_slot_w * gpus_per_node; }
  [[nodiscard]] double node_busy_w() const { return busy_slot_w * gpus_per_node; }
};

//! Energy, carbon and power cost of some GPU-time.
struct EnergyFigures {
  double it_kwh = 0;     //!< [kWh] drawn by the servers
  double kwh = 0;        //!< [kWh] drawn by the facility: it_kwh × PUE
  double tco2e = 0;      //!< [tCO2e] kwh × grid factor, location-based
  double power_usd = 0;  //!< [USD] kwh × price where the planner pays the power, else 0

  EnergyFigures& operator+=(const EnergyFigures& o);
};

//! The figures of `it_j` joules drawn by servers of `pool` at grid factor `g_co2e_per_kwh`.
[[nodiscard]] EnergyFigures figures_of(const PoolPower& pool, double it_j, double g_co2e_per_kwh);

//! A pool's energy over a window: `busy_gpu_s` GPU-seconds at the busy slot power and the rest of
//! `provisioned_gpu_s` at the idle slot power, at the pool's own grid factor.
[[nodiscard]] EnergyFigures pool_energy(const PoolPower& pool, double busy_gpu_s,
                                        double provisioned_gpu_s);

//! The idle part of pool_energy: (provisioned − busy) GPU-seconds at the idle slot power.
[[nodiscard]] EnergyFigures idle_energy(const PoolPower& pool, double busy_gpu_s,
                                        double provisioned_gpu_s);

//! Energy of `busy_gpu_s` GPU-seconds held by jobs on `pool` (the busy slot power).
[[nodiscard]] EnergyFigures busy_energy(const PoolPower& pool, double busy_gpu_s);

//! Embodied carbon [tCO2e] of `node_s` node-seconds: `kg_per_node` spread evenly over
//! `life_years` (8,760 h a year).
[[nodiscard]] double embodied_tco2e(double node_s, double kg_per_node, double life_years);

}  // namespace gpuplan::energy
