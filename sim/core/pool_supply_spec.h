#pragma once
//! How each pool's nodes are supplied and paid for, as the core reads it (read-only): billing,
//! price series, spot reclaims, elastic provisioning. models/compile/compile_economics.cpp fills
//! it; a pool without such keys gets the defaults below, which reproduce the plain engine exactly
//! (per-second billing, no minimum, no spot, fixed size).
#include "sim/core/model.h"

namespace gpuplan {

//! Unit a node's provisioned interval is rounded up to when it is released.
enum class BillingUnit : uint8_t {
  second,       //!< whole seconds (AWS, GCP, Azure VMs)
  hour,         //!< whole hours (every started hour is charged)
  millisecond,  //!< whole milliseconds (serverless)
};

//! What one pool costs, how its spot nodes are reclaimed, and how it scales.
struct PoolSupplySpec {
  // Billing: provisioned node-seconds at price_per_node_s (PoolSpec), plus per-busy-GPU energy.
  BillingUnit billing_unit = BillingUnit::second;
  double billing_unit_s = 1.0;        //!< [s] length of one billing unit
  double billing_minimum_s = 0.0;     //!< [s] least billed time of any provisioned interval
  double price_per_busy_gpu_s = 0.0;  //!< [USD/s] extra per busy GPU (on-prem energy above idle)
  uint32_t price_step_idx = 0;  //!< first entry of this pool's series in ModelView::price_steps
  uint32_t price_step_n = 0;    //!< 0 = constant price
  uint32_t purchase_idx = 0;    //!< first entry of this pool's purchases in ModelView::purchases
  uint32_t purchase_n = 0;      //!< 0 = every node from t = 0 (sim/core/purchases.h)

  // Spot: independent per-node hazard plus correlated waves; capacity returns after a delay.
  bool spot = false;
  double hazard_per_node_s = 0.0;   //!< [1/s] Poisson interruption rate of each live node
  double wave_rate_per_s = 0.0;     //!< [1/s] Λ of reclaim waves
  double wave_mean_fraction = 0.0;  //!< [-] mean share of live nodes a wave takes
  uint32_t wave_q_idx = 0;          //!< first entry of the wave-share quantile table
  uint32_t wave_q_n = 0;            //!< entries at p = i / (n − 1); 0 = no waves
  double notice_s = 0.0;            //!< [s] warning before a reclaim (final checkpoint window)
  DistSpec return_delay;            //!< [s] until reclaimed capacity can be bought again

  // Elastic: nodes [first_node, first_node + initial_nodes) start provisioned.
  bool elastic = false;
  uint32_t min_nodes = 0;              //!< never scale in below this
  uint32_t initial_nodes = 0;          //!< provisioned at t = 0
  uint32_t scale_out_queued_gpus = 0;  //!< scale out when eligible queued GPUs exceed this
  double idle_timeout_s = 0.0;         //!< [s] release a node idle this long
  DistSpec provisioning_delay;         //!< [s] from request to usable (billed meanwhile)
};

//! One step of a pool's piecewise-constant price series.
struct PriceStep {
  SimTime t;                //!< [s] the price holds from here to the next step
  double price_per_node_s;  //!< [USD/s]
  uint32_t pool;
};

//! One staged purchase of a fixed pool: nodes [first_node, first_node + n_nodes) come online.
struct NodePurchase {
  SimTime t;  //!< [s] when the nodes are usable and billed; 0 < t < horizon
  uint32_t pool;
  uint32_t first_node;  //!< cluster index of the first node bought
  uint32_t n_nodes;
};

}  // namespace gpuplan
