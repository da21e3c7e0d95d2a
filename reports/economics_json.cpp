#include "reports/economics_json.h"

#include "models/economics/tco.h"
#include "models/input/names.h"
#include "models/scenario/pool_commitment.h"

namespace gpuplan {
namespace {

using economics::SECONDS_PER_HOUR;
using nlohmann::json;

}  // namespace

void add_pool_economics(json& per_pool, const Scenario& sc, const CompiledScenario& cs) {
  for (size_t p = 0; p < sc.pools.size() && p < per_pool.size(); ++p) {
    json& jp = per_pool[p];
    const PoolEconomics& pe = sc.pools[p].econ;
    jp["billing"] = {{"granularity", std::string(enum_name(pe.granularity))},
                     {"minimum_s", pe.billing_minimum_s}};
    if (pe.reserved) {
      jp["reserved"] = {{"upfront", std::string(enum_name(pe.upfront))},
                        {"term_years", pe.reserved->term_years},
                        {"upfront_usd_per_node", pe.reserved->upfront_usd},
                        {"hourly_usd_per_node", pe.reserved->hourly_usd},
                        {"effective_usd_per_node_hour",
                         economics::reserved_effective_hourly_usd(*pe.reserved).value_or(0)}};
      // The whole commitment beside the share this window carries (in cost_usd).
      if (const auto c = pool_commitment(sc.pools[p], sc.warmup_s, sc.horizon_s)) {
        jp["reserved"]["commitment_usd"] = c->total_usd;
        jp["reserved"]["in_window_usd"] = c->in_window_usd;
        jp["reserved"]["window_share"] = c->total_usd > 0 ? c->in_window_usd / c->total_usd : 0.0;
      }
    }
    if (pe.on_prem) {
      const auto per_gpu = economics::on_prem_cost_per_gpu_hour(*pe.on_prem);
      jp["on_prem"] = {
          {"pue", pe.on_prem->pue},
          {"usd_per_gpu_hour_at_template_utilization", per_gpu ? per_gpu->total_usd : 0.0},
          {"template_utilization", pe.on_prem->utilization}};
    }
    if (pe.spot) {
      const PoolSupplySpec& e = cs.pool_supply[p];
      jp["spot"] = {
          {"interruptions_per_node_hour", pe.spot->hazard_per_node_hour},
          {"advisor_band",
           pe.spot->advisor_band ? std::string(enum_name(*pe.spot->advisor_band)) : ""},
          {"waves_per_hour", pe.spot->wave_rate_per_hour},
          {"notice_s", e.notice_s},
          {"discount_vs_on_demand", economics::discount_vs_on_demand(
                                        sc.pools[p].price_per_node_hour, pe.on_demand_per_node_hour)
                                        .value_or(0)}};
    }
    if (!sc.pools[p].purchases.empty()) {
      // "nodes" is the size after every purchase; the schedule says when each batch came online.
      json purchases = json::array();
      for (const PoolPurchase& b : sc.pools[p].purchases)
        purchases.push_back({{"at_s", b.at_s}, {"add", b.add}});
      jp["initial_nodes"] = sc.pools[p].initial_count();
      jp["purchases"] = purchases;
    }
    if (pe.elastic) {
      jp["elastic"] = {{"min_nodes", pe.elastic->min_nodes},
                       {"max_nodes", pe.elastic->max_nodes},
                       {"initial_nodes", pe.elastic->initial_nodes}};
    }
  }
}

void add_replica_economics(json& r, const Scenario& sc, const CompiledScenario& cs,
                           const SingleRun& run) {
  const ModelView v = cs.view();
  const ReplicaState& s = run.state();
  double rounding = 0;
  for (size_t p = 0; p < sc.pools.size(); ++p) rounding += s.billing.pools[p].rounding_usd;
  r["cost_usd"]["billing_rounding"] = rounding;

  json pre_pools = json::array(), pre_classes = json::array();
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    const PoolCapacityTotals& t = s.capacity.pools[p];
    const PoolBillingTotals& b = s.billing.pools[p];
    pre_pools.push_back({{"name", sc.pools[p].name},
                         {"preemptions", t.preemptions},
                         {"reclaimed_nodes", t.reclaimed_nodes},
                         {"waves", t.waves}});
    if (p >= r["per_pool"].size()) continue;
    json& jp = r["per_pool"][p];
    jp["provisioned_gpu_hours"] = b.provisioned_gpu_s / SECONDS_PER_HOUR;
    jp["peak_nodes"] = t.peak_nodes;
    jp["billing"]["rounding_usd"] = b.rounding_usd;
  }
  for (size_t c = 0; c < sc.workload.size(); ++c) {
    const ClassRunTotals& t = s.runs.classes[c];
    const GpuHours h = gpu_hours(v, s, static_cast<uint32_t>(c));
    const uint64_t done = run.metrics.classes[c].completed;
    pre_classes.push_back(
        {{"name", sc.workload[c].name},
         {"preemptions", t.preemptions},
         {"lost_gpu_hours", h.lost},
         {"checkpoint_overhead_gpu_hours", h.checkpoint},
         {"restart_overhead_gpu_hours", h.restart},
         {"restarts_per_job", done > 0 ? double(t.restarts_of_completed) / double(done) : 0.0}});
    if (c < r["per_class"].size()) r["per_class"][c]["gpu_hours"] = h.busy;
  }
  r["preemption"]["per_pool"] = pre_pools;
  r["preemption"]["per_class"] = pre_classes;
}

}  // namespace gpuplan
