#include "models/quote/spot_loss.h"

#include <algorithm>
#include <cmath>

#include "models/economics/billing.h"

namespace gpuplan::quote {
namespace {

//! P(K > k) for K ~ Binomial(n, p), summed in log space so large n does not underflow.
double binomial_tail(uint32_t n, double p, uint32_t k) {
  if (k >= n || p <= 0) return 0;
  if (p >= 1) return 1;
  double cdf = 0;
  for (uint32_t i = 0; i <= k; ++i)
    cdf += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) +
                    i * std::log(p) + (n - i) * std::log1p(-p));
  return std::clamp(1 - cdf, 0.0, 1.0);
}

}  // namespace

SpotLoss spot_loss(const inference::ServingPlan& plan, uint32_t serving_nodes, uint32_t nodes,
                   uint32_t spot_nodes, double reclaims_per_node_hour, double replacement_s) {
  SpotLoss l;
  if (serving_nodes == 0 || plan.requests_per_s <= 0 || spot_nodes == 0) return l;
  l.node_losses_per_month = spot_nodes * reclaims_per_node_hour * economics::HOURS_PER_MONTH;
  // Little's law: requests in service and waiting, spread over the nodes that hold replicas.
  l.in_flight_per_node =
      plan.requests_per_s * (plan.slot_s + plan.wait_mean_s) / double(serving_nodes);
  l.requests_interrupted_per_month = l.node_losses_per_month * l.in_flight_per_node;
  const double requests =
      plan.requests_per_s * economics::HOURS_PER_MONTH * economics::SECONDS_PER_HOUR;
  l.interrupted_share = std::min(1.0, l.requests_interrupted_per_month / requests);
  // The plan keeps its serving nodes `utilization` busy; with k nodes away the rest carry it
  // while utilization × serving_nodes < nodes − k.
  const double carried = plan.utilization * serving_nodes;
  const double spare = std::max(0.0, std::ceil(double(nodes) - carried) - 1);
  l.nodes_lost_before_overload = uint32_t(std::min<double>(spare, spot_nodes));
  const double away = reclaims_per_node_hour * replacement_s / economics::SECONDS_PER_HOUR;
  l.overloaded_share = binomial_tail(spot_nodes, away / (1 + away), l.nodes_lost_before_overload);
  l.miss_share = std::min(1.0, l.interrupted_share + l.overloaded_share);
  l.p99_budget_share = l.miss_share / P99_BUDGET;
  return l;
}

std::string latency_spot_risk(const SpotLoss& loss, uint32_t spot_nodes) {
  if (spot_nodes == 0) return "none";
  if (loss.p99_budget_share < 0.1) return "low";
  if (loss.p99_budget_share < 0.5) return "medium";
  return "high";
}

}  // namespace gpuplan::quote
