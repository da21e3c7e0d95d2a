#pragma once
//! On-prem cost per node-hour and per GPU-hour from capex, depreciation, power, PUE,
//! electricity, colocation, network share and staff (Epoch AI hardware and energy data, CBRE
//! colocation rates).
#include <cstdint>
#include <optional>

namespace gpuplan::economics {

//! One on-prem server and the site it lives in. Site defaults follow public figures (PUE 1.3,
//! $0.08/kWh (EIA), $190/kW-month colocation (CBRE), 5-year life (Epoch AI), network +15% of
//! capex); the server fields default to zero and must be filled from the hardware being priced.
struct OnPremNode {
  double server_capex_usd = 0.0;          //!< [USD] purchase price of one server
  double depreciation_years = 5.0;        //!< [years] straight-line life, 8,760 h per year
  double idle_power_kw = 0.0;             //!< [kW] IT draw at 0% utilization
  double max_power_kw = 0.0;              //!< [kW] IT draw at 100% utilization (also provisioned)
  double utilization = 0.75;              //!< [0, 1] average load (Epoch: ≈75% while training)
  double pue = 1.3;                       //!< [-] facility power / IT power, ≥ 1
  double electricity_usd_per_kwh = 0.08;  //!< [USD/kWh]
  double colo_usd_per_kw_month = 190.0;   //!< [USD per provisioned kW-month]; 0 for an owned site
  double network_capex_fraction = 0.15;   //!< [-] network capex as a share of server capex
  double staff_usd_per_node_year = 0.0;   //!< [USD per node-year] staff, support contracts, spares
  uint32_t gpus_per_node = 8;
};

//! Cost lines of one node-hour or one GPU-hour [USD]; total_usd is their sum.
struct OnPremHourlyCost {
  double capex_usd = 0.0;    //!< server depreciation
  double energy_usd = 0.0;   //!< electricity at the average draw, times PUE
  double colo_usd = 0.0;     //!< colocation on provisioned (maximum) IT kW
  double network_usd = 0.0;  //!< network capex share, depreciated like the server
  double staff_usd = 0.0;    //!< staff and support
  double total_usd = 0.0;
};

//! IT power draw [kW] = idle + (max − idle) × utilization; nullopt when utilization is outside
//! [0, 1], a power is negative or not finite, or idle exceeds max.
[[nodiscard]] std::optional<double> power_draw_kw(const OnPremNode& node, double utilization);

//! Cost of one node-hour [USD] at the node's average utilization; nullopt when a field is
//! negative or not finite, the life is not positive, PUE < 1, gpus_per_node is 0, or the power
//! fields are inconsistent (see power_draw_kw).
[[nodiscard]] std::optional<OnPremHourlyCost> on_prem_cost_per_node_hour(const OnPremNode& node);

//! Cost of one GPU-hour [USD]: the node-hour cost divided by gpus_per_node; nullopt as for
//! on_prem_cost_per_node_hour.
[[nodiscard]] std::optional<OnPremHourlyCost> on_prem_cost_per_gpu_hour(const OnPremNode& node);

}  // namespace gpuplan::economics
