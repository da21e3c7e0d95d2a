#pragma once
//! Scenario parts for pricing, spot preemption, checkpointing, elastic pools and TCO, as the
//! planner wrote them (units resolved to s, 1/s, USD). Loaded by models/load/load.cpp, compiled by
//! models/compile/compile_economics.cpp, projected by reports/tco_json.cpp.
#include <optional>
#include <string>
#include <vector>

#include "models/economics/billing.h"
#include "models/economics/off_peak.h"
#include "models/economics/on_prem.h"
#include "models/economics/spot.h"
#include "models/catalog/catalog.h"
#include "models/input/plan_enums.h"
#include "sim/core/types.h"

namespace gpuplan {

//! A delay distribution (the fields of models/scenario/scenario.h's Distribution, which includes
//! this file).
struct DelaySpec {
  DistKind kind = DistKind::fixed;
  double a = 0;  //!< see Distribution
  double b = 0;
  std::vector<double> values;
  std::vector<double> weights;
  double median_s = 0;  //!< lognormal as written (see Distribution)
  double p90_s = 0;
};

//! Spot market behaviour of a pool (`"spot": {...}`).
struct SpotConfig {
  std::optional<double> discount;  //!< [0, 1] off on-demand; else the catalog spot price
  std::vector<economics::PricePoint> price_series;  //!< [s, USD per node-hour]; empty = constant
  double hazard_per_node_hour = 0;                  //!< [1/h] independent interruptions per node
  std::optional<economics::SpotAdvisorBand> advisor_band;  //!< the AWS band the hazard came from
  double wave_rate_per_hour = 0;                           //!< [1/h] Λ; 0 = no waves
  double wave_rate_per_s = 0;                              //!< [1/s] Λ as written (for the echo)
  double wave_alpha = 2.68;        //!< Beta shape α of the wave share (Bamboo p3 fit)
  double wave_beta = 28.09;        //!< Beta shape β
  std::optional<double> notice_s;  //!< [s] override of the provider's notice
  DelaySpec return_delay{DistKind::exponential, 2199.0, 0, {}, {}, 0, 0};  //!< [s] Bamboo p3 MLE
};

//! Elastic scaling of a pool (`"elastic": {...}`).
struct ElasticConfig {
  uint32_t min_nodes = 0;
  uint32_t max_nodes = 0;
  uint32_t initial_nodes = 0;          //!< provisioned at t = 0 (the pool's "count", default min)
  uint32_t scale_out_queued_gpus = 0;  //!< scale out when eligible queued GPUs exceed this
  DelaySpec provisioning_delay{DistKind::fixed, 300.0, 0, {}, {}, 0, 0};  //!< [s]
  double idle_timeout_s = 900;                                            //!< [s]
};

//! Per-pool economics; every field has the plain engine's behaviour as its default.
struct PoolEconomics {
  economics::BillingGranularity granularity = economics::BillingGranularity::per_second;
  double billing_minimum_s = 0;                      //!< [s]
  Upfront upfront = Upfront::none;                   //!< reserved pools only
  std::optional<economics::ReservedOffer> reserved;  //!< per node, for reserved pools
  std::optional<economics::OnPremNode> on_prem;      //!< server template for on_prem pools
  std::optional<double> on_prem_life_s;              //!< [s] the template's "life" as written
  std::optional<SpotConfig> spot;
  std::optional<ElasticConfig> elastic;
  std::optional<economics::OffPeakSchedule> off_peak;  //!< discounted hours (docs/off-peak.md)
  //! Whose spot notice applies: the instance's provider; providers other than GCP and Azure
  //! are taken as AWS-like (120 s).
  economics::SpotProvider spot_rules = economics::SpotProvider::aws;
  double on_demand_per_node_hour = 0;  //!< [USD/h] of the instance, 0 if it has none
};

//! Checkpointing and spot tolerance of a job class.
struct ClassEconomics {
  bool checkpoints = false;
  bool auto_interval = false;
  double interval_s = 0;    //!< [s] when !auto_interval
  double checkpoint_s = 0;  //!< [s]
  double restart_s = 0;     //!< [s]
  bool spot_tolerant = false;
  bool has_fallback = false;               //!< "spot_fallback" given
  std::optional<double> fallback_after_s;  //!< nullopt with has_fallback = "wait"
};

//! The instance that prices the projection's cloud GPU-hours (`"tco": {"cloud": {...}}`): the
//! cloud option's demand above the scenario's reserved pools and the hybrid option's burst.
struct TcoCloudInstance {
  //! The instance type, resolved at load from the scenario's catalog (inline and overlay
  //! definitions included).
  InstanceType type;
  const GpuSpec* gpu = nullptr;          //!< its GPU in the built-in catalog; null when unknown
  Pricing pricing = Pricing::on_demand;  //!< on_demand or spot
  double usd_per_gpu_hour = 0;           //!< [USD/GPU-h] its price under `pricing` per GPU
};

//! What the reserve options commit to: nodes of one instance type for the whole of each term,
//! resolved at load (the scenario's reserved pools, else tco.cloud, else its first cloud pool).
struct TcoReservation {
  InstanceType type;
  uint32_t nodes = 0;
};

//! The `"tco"` section: multi-year projection from the simulated window's demand. The loader
//! refuses a compared option whose demand has no price (docs/tco.md), so no option is priced
//! at $0 for want of a price.
struct TcoConfig {
  uint32_t years = 3;
  double demand_growth_per_month = 0;
  double discount_rate = 0.08;
  std::vector<TcoOption> compare = {TcoOption::cloud, TcoOption::on_prem, TcoOption::hybrid};
  bool accrual =
      false;  //!< false: cash basis (purchases when paid); true: spread (economics/tco.h)
  //! A fixed on-prem fleet from month 0; default staged: bought month by month as demand needs.
  std::optional<uint32_t> on_prem_nodes;
  std::optional<uint32_t> hybrid_nodes;   //!< base fleet; default the scenario's on-prem pools
  std::optional<TcoCloudInstance> cloud;  //!< default: the scenario's cloud pools price it
  std::optional<uint32_t>
      server_pool_idx;  //!< index of the pool whose on_prem template prices the fleet
  //! On-prem servers already bought: a sunk cost in every on-prem fleet (running costs only).
  uint32_t owned_nodes = 0;
  //! (0, 1]: staged purchases keep each month's demand within this share of the fleet.
  double fill_target = 0.8;
  std::optional<uint32_t> buy_nodes;      //!< the "buy" option's servers bought in month 0
  std::optional<TcoReservation> reserve;  //!< set when a reserve option is compared
};

}  // namespace gpuplan
