#pragma once
//! The scenario's `energy` section (docs/energy.md): power-model, site and grid settings,
//! scenario-wide and per pool, as written; models/compile/pool_power.h resolves them with the
//! built-in defaults into each pool's PoolPower.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/perf/energy/power_model.h"

namespace gpuplan {

//! Settings of one level (the scenario, or one pool over it); absent = inherit or default.
struct EnergyInput {
  std::optional<double> pue;                //!< [-] >= 1
  std::optional<std::string> region;        //!< grid region id (models/catalog/energy.json)
  std::optional<double> g_co2e_per_kwh;     //!< [gCO2e/kWh] grid factor, overrides the region
  std::optional<double> usd_per_kwh;        //!< [USD/kWh]
  std::optional<double> gpu_activity;       //!< [0, 1] power-curve point of a busy GPU
  std::optional<double> gpu_idle_fraction;  //!< [0, 1] idle GPU power ÷ TDP
  std::optional<double> node_overhead_w;    //!< [W] non-GPU power of a busy node
  energy::PowerCurve power_curve;           //!< (activity, fraction of TDP); empty = linear
};

//! The `energy` section.
struct EnergyConfig {
  EnergyInput site;                                        //!< scenario-wide settings
  std::vector<std::pair<std::string, EnergyInput>> pools;  //!< per pool name, over `site`
  std::string grid_series_file;     //!< resolved path of the hourly CSV ("" = none)
  std::vector<double> grid_series;  //!< [gCO2e/kWh] hour k covers [k h, (k+1) h), repeating
  std::optional<double> embodied_kgco2e_per_node;  //!< [kgCO2e] per node
  std::optional<double> embodied_life_years;       //!< [years] > 0

  //! The pool-level settings of `pool`, or nullptr.
  [[nodiscard]] const EnergyInput* pool_input(const std::string& pool) const {
    for (const auto& [name, in] : pools)
      if (name == pool) return &in;
    return nullptr;
  }
};

}  // namespace gpuplan
