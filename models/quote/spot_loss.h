#pragma once
//! What spot preemption costs a serving deployment (docs/quote.md, "Spot risk of a service").
//! A reclaimed node drops the requests in flight on it; they start again elsewhere and so miss
//! any latency target. The node is then away until its replacement is up, and while more nodes
//! are away than the deployment's headroom covers, the remaining replicas cannot carry the load
//! and every request in that time misses too. A p99 target lets 1 % of requests miss it; the
//! share these two cost is checked against that budget.
#include <cstdint>
#include <string>

#include "models/perf/inference/serving_sizing.h"

namespace gpuplan::quote {

//! The share of requests a p99 target lets miss it.
inline constexpr double P99_BUDGET = 0.01;

//! A month (730 h) of spot reclaims on a serving plan.
struct SpotLoss {
  double node_losses_per_month = 0;  //!< spot nodes × reclaims per node-hour × 730 h
  double in_flight_per_node = 0;     //!< requests a node holds: λ (slot + wait) / serving nodes
  double requests_interrupted_per_month = 0;
  double interrupted_share = 0;  //!< [0, 1] of the month's requests, dropped by reclaims
  //! Spot nodes that may be away at once before the rest run above 100 % busy.
  uint32_t nodes_lost_before_overload = 0;
  //! [0, 1] share of time more nodes than that are away (binomial over the spot nodes, each away
  //! a share λD / (1 + λD) of the time for reclaims λ and replacement time D).
  double overloaded_share = 0;
  double miss_share = 0;        //!< interrupted_share + overloaded_share, at most 1
  double p99_budget_share = 0;  //!< miss_share / P99_BUDGET (>= 1: the p99 cannot hold)
};

//! The loss of `spot_nodes` of `nodes` (of which `serving_nodes` hold the plan's replicas and
//! spares; the rest cover reclaimed spot nodes) at `reclaims_per_node_hour`, each replaced after
//! `replacement_s`; the load spreads evenly over the serving nodes.
[[nodiscard]] SpotLoss spot_loss(const inference::ServingPlan& plan, uint32_t serving_nodes,
                                 uint32_t nodes, uint32_t spot_nodes, double reclaims_per_node_hour,
                                 double replacement_s);

//! The risk label of a latency service on spot: "none" without spot nodes, "low" below a tenth of
//! the p99 budget, "medium" below half of it, "high" from half on (the target holds only while
//! little else misses).
[[nodiscard]] std::string latency_spot_risk(const SpotLoss& loss, uint32_t spot_nodes);

}  // namespace gpuplan::quote
