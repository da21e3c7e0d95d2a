#pragma once
//! The TCO projection as typed data (docs/outputs.md, "tco"; docs/tco.md): what study/tco.cpp
//! projects per replication and means over them, what study/tco_simulation.cpp adds per option,
//! and what reports/tco_json.cpp writes as result.json's `tco`. Figures are in the units their
//! names say; a month is a 0-based index into the projection's months.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "sim/mc_stats.h"

namespace gpuplan::study {

//! One option's energy and carbon over the projection (study/tco_energy.h).
struct TcoEnergy {
  //! One 12-month year (the last may be shorter).
  struct Year {
    uint32_t year = 0;  //!< 1-based
    double usd = 0;     //!< [USD] the option's cost in the year
    double kwh = 0, tco2e = 0, embodied_tco2e = 0;
  };
  double kwh = 0;             //!< [kWh] facility energy, all months
  double tco2e = 0;           //!< [tCO2e] location-based, operational
  double embodied_tco2e = 0;  //!< [tCO2e] share of the nodes' embodied carbon
  double power_cost_usd = 0;  //!< [USD] electricity the planner pays (on-prem)
  std::vector<double> monthly_kwh, monthly_tco2e;
  std::vector<Year> per_year;
  std::optional<double> burst_kwh;  //!< [kWh] the cloud part of a fleet-and-cloud option
};

//! What an option's cost is made of [USD over the projection].
struct TcoCostByPurchase {
  std::optional<double> on_prem;  //!< fleet-and-cloud options only
  double reserved = 0, spot = 0, on_demand = 0;
};

//! An on-prem option's fleet: installed nodes per month and what is bought when.
struct TcoFleet {
  //! Nodes bought at the start of a month (the owned servers excluded).
  struct Purchase {
    uint32_t month = 0;
    double nodes = 0;
  };
  std::vector<double> nodes_by_month;
  std::vector<Purchase> purchases;
  //! The largest fleet over the months.
  [[nodiscard]] double nodes() const;
};

//! An option run in the engine over the projection's months (study/tco_simulation.h).
struct TcoSimulation {
  bool simulated = false;
  std::string why_not;  //!< when not simulated
  uint32_t months = 0, replications = 0;
  //! Medians over the replications; nullopt: most replications keep up.
  std::optional<double> stops_keeping_up_month, runs_out_month;
  std::optional<double> earliest_month;       //!< the earliest replication's
  std::vector<double> served_share_by_month;  //!< served / offered work, mean
};

//! One compared option's projection.
struct TcoOptionResult {
  TcoOption option = TcoOption::cloud;
  //! Set when the option's inputs are invalid or its costs not finite; then no figures.
  std::string error;
  bool serves_demand = false;
  std::vector<double> monthly_usd, cumulative_usd;
  double total_usd = 0, npv_usd = 0;
  double unserved_gpu_hours = 0;
  std::optional<double> stops_keeping_up_month;  //!< the first month it falls short
  std::optional<double> runs_out_month;          //!< where demand passes what it serves
  std::string sizing;                            //!< fixed, staged, scheduled; "" for cloud
  std::string description;
  std::optional<TcoFleet> fleet;
  std::optional<double> burst_gpu_hours, burst_usd;  //!< fleet-and-cloud options
  std::optional<double> burst_cap_gpus;              //!< the burst option's cap
  std::optional<uint32_t> reserved_nodes;            //!< the reserve options'
  std::string reserved_instance;
  std::optional<TcoCostByPurchase> cost_by_purchase;
  std::optional<TcoEnergy> energy;
  double served_gpu_hours = 0;
  std::optional<double> usd_per_served_gpu_hour;  //!< nullopt when nothing is served
  std::optional<Band> cumulative_usd_band;        //!< p10/p50/p90 across replications
  std::optional<TcoSimulation> simulation;

  [[nodiscard]] bool has_costs() const { return error.empty(); }
};

//! The cloud purchase mix the options are priced with.
struct TcoCloudAssumptions {
  double on_demand_usd_per_gpu_hour = 0, spot_usd_per_gpu_hour = 0;
  double spot_share = 0;     //!< share of the cloud's GPU-hours on spot
  double spot_overhead = 0;  //!< lost, checkpoint and restart GPU-hours per useful one on spot
  uint32_t reserved_gpus = 0;
  double spot_tolerant_share = 0;  //!< share of the offered work spot may run
  std::string price_source;
};

//! The power figures of one GPU-hour, in the units the output shows.
struct TcoGpuHourAssumptions {
  double busy_kwh = 0, idle_kwh = 0;
  double busy_kg_co2e = 0, embodied_kg_co2e = 0;
};

//! The power model the options' energy comes from.
struct TcoEnergyAssumptions {
  //! The server pool's node and grid.
  struct OnPrem {
    TcoGpuHourAssumptions hour;
    double node_idle_kw = 0, node_busy_kw = 0, pue = 0, usd_per_kwh = 0, g_co2e_per_kwh = 0;
    std::string grid_source;
  };
  TcoGpuHourAssumptions cloud;
  std::string cloud_source;
  double embodied_kgco2e_per_node = 0, embodied_life_years = 0;
  std::string embodied_source;
  std::optional<OnPrem> on_prem;  //!< with a server pool
};

//! A break-even month of an option against all-cloud.
struct TcoBreakEven {
  TcoOption option = TcoOption::cloud;
  std::optional<double> month;  //!< nullopt: never within the projection
};

//! The whole projection: one replication's, or the mean over the replications of a study.
struct TcoProjection {
  uint32_t months = 0;
  bool accrual = false;  //!< accrual basis (else cash)
  double discount_rate = 0, demand_growth_per_month = 0;
  double initial_demand_gpu_hours_per_month = 0;
  double served_gpu_hours_per_month = 0;  //!< what the simulated fleet served, per 730 h
  //! Offered GPU-hours per month, grown; empty when the demand could not be projected (then
  //! there are no options).
  std::vector<double> demand_gpu_hours_per_month;
  TcoCloudAssumptions cloud;
  TcoEnergyAssumptions energy;
  uint32_t owned_nodes = 0;
  std::optional<double> fill_target;     //!< with an on_prem or staged option
  std::vector<TcoOptionResult> options;  //!< in the order compared
  std::vector<TcoBreakEven> break_even;  //!< options that serve the demand, against cloud
  std::optional<TcoOption> cheapest_by_npv;
  std::string cheapest_note;  //!< why there is no cheapest, when there is none
  uint32_t replications = 0;  //!< 0 in one replication's projection
  std::string caveat;         //!< a saturated fleet's, else ""

  [[nodiscard]] bool projected() const { return !demand_gpu_hours_per_month.empty(); }
  [[nodiscard]] TcoOptionResult* find(TcoOption o);
  [[nodiscard]] const TcoOptionResult* find(TcoOption o) const;
};

}  // namespace gpuplan::study
