#pragma once
//! Energy and carbon of a quote option (docs/quote.md, "Energy and carbon"): the power model of
//! scenarios (models/compile/pool_power.h, with the built-in defaults) applied to the option's
//! cluster, at the grid factor and PUE of the instance's region.
#include <cstdint>
#include <string>

#include "models/catalog/catalog.h"

namespace gpuplan::quote {

//! Energy, carbon and the figures they rest on.
struct OptionEnergy {
  double kwh = 0;             //!< [kWh] facility energy (training: the run; inference: a month)
  double tco2e = 0;           //!< [tCO2e] kwh × grid factor, location-based
  double node_busy_kw = 0;    //!< [kW] IT power of one node with every GPU busy
  double node_idle_kw = 0;    //!< [kW] IT power of one idle node
  double pue = 1;             //!< [-] the region's published PUE, else the cloud default
  double g_co2e_per_kwh = 0;  //!< [gCO2e/kWh] the region's grid factor, else the default
  std::string grid_region;    //!< the region the factor belongs to ("" = the default factor)
  std::string grid_source;    //!< where the factor comes from (internal view only)
};

//! A training run: `nodes` nodes of `it` busy for `seconds` [s] (the P50 time to finish, so time
//! lost to preemption and restarts counts at busy power: an upper bound).
[[nodiscard]] OptionEnergy training_energy(const InstanceType& it, const GpuSpec& gpu,
                                           uint32_t nodes, double seconds);

//! One month (730 h) of serving: `serving_nodes` nodes at `utilization` (busy GPUs ÷ GPUs, the
//! M/M/c ρ) and the rest of `nodes` (spare spot nodes) idle.
[[nodiscard]] OptionEnergy inference_energy(const InstanceType& it, const GpuSpec& gpu,
                                            uint32_t nodes, uint32_t serving_nodes,
                                            double utilization);

}  // namespace gpuplan::quote
