#pragma once
//! Energy and carbon of a study as typed figures (docs/energy.md, result.json "energy"): the means
//! over the replications in statistics, per pool and per job class, with the power model each pool
//! was computed from. study/energy.h fills it; reports/result_json.cpp writes it.
#include <cstddef>
#include <string>
#include <vector>

#include "models/perf/energy/power_model.h"

namespace gpuplan::study {

//! The energy figures of the whole study, one pool or one class: means over the replications.
struct EnergyMeans {
  double kwh = 0;             //!< [kWh] drawn by the facility (IT energy × PUE)
  double tco2e = 0;           //!< [tCO2e] location-based
  double power_cost_usd = 0;  //!< [USD] where the planner pays the power, else 0
  double mean_power_kw = 0;   //!< [kW] kwh over the statistics window
};

//! One pool's energy, with the power model that gave it.
struct PoolEnergy {
  std::string name;
  EnergyMeans figures;
  double idle_kwh = 0;        //!< [kWh] of idle GPUs
  double embodied_tco2e = 0;  //!< [tCO2e] the nodes' embodied carbon over the window
  energy::PoolPower power;    //!< node powers, PUE, prices and grid factor, with their sources
};

//! One job class's energy.
struct ClassEnergy {
  std::string name;
  EnergyMeans figures;
};

//! The energy section of a study.
struct EnergySummary {
  EnergyMeans total;
  double it_kwh = 0;                    //!< [kWh] drawn by the servers
  double embodied_tco2e = 0;            //!< [tCO2e] of all pools over the window
  double embodied_kgco2e_per_node = 0;  //!< [kgCO2e] per node over its life
  double embodied_life_years = 0;       //!< [years] the life it is spread over
  std::vector<PoolEnergy> pools;        //!< scenario order
  std::vector<ClassEnergy> classes;     //!< scenario order
  std::size_t grid_series_hours = 0;    //!< hours of the hourly grid series; 0 without one
  std::string grid_series_file;         //!< the file it was read from
  std::size_t replications = 0;         //!< replications the means are over
};

}  // namespace gpuplan::study
