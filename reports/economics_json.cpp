#include "reports/economics_json.h"

#include <algorithm>
#include <cmath>

#include "models/economics/tco.h"
#include "models/names.h"

namespace gpuplan {
namespace {

using nlohmann::json;
constexpr double HOUR_S = 3600.0;

json series(const Eigen::VectorXd& v) {
  return json(std::vector<double>(v.data(), v.data() + v.size()));
}

json option_json(const Eigen::VectorXd& monthly, double rate) {
  const auto sum = economics::summarize_costs(monthly, rate);
  if (!sum) return json{{"error", "the cost series is not finite"}};
  return {{"monthly_usd", series(monthly)},
          {"cumulative_usd", series(sum->cumulative_usd)},
          {"total_usd", sum->total_usd},
          {"npv_usd", sum->npv_usd}};
}

}  // namespace

void add_economics_json(json& r, const Scenario& sc, const CompiledScenario& cs,
                        const ReplicaMetrics& m, const ReplicaState& s) {
  const ModelView v = cs.view();
  const GpuHours all = gpu_hours(v, s, NONE);
  const double window_s = sc.horizon_s - sc.warmup_s;

  // Cost per class (its GPU-seconds at its pools' per-GPU rates), idle, per job, per useful GPU-h.
  json per_class_cost = json::object();
  double class_sum = 0, rounding = 0;
  for (size_t c = 0; c < sc.workload.size(); ++c) {
    per_class_cost[sc.workload[c].name] = s.econ.classes[c].cost_usd;
    class_sum += s.econ.classes[c].cost_usd;
  }
  for (size_t p = 0; p < sc.pools.size(); ++p) rounding += s.econ.pools[p].rounding_usd;
  json& cost = r["cost_usd"];
  cost["per_class"] = per_class_cost;
  cost["idle"] = m.cost_usd - class_sum;
  cost["billing_rounding"] = rounding;
  cost["per_job_mean"] = m.jobs_completed > 0 ? m.cost_usd / double(m.jobs_completed) : 0.0;
  cost["per_useful_gpu_hour"] = all.useful > 0 ? m.cost_usd / all.useful : 0.0;
  cost["per_gpu_hour"] = all.provisioned > 0 ? m.cost_usd / all.provisioned : 0.0;

  r["gpu_hours"] = {{"provisioned", all.provisioned},
                    {"busy", all.busy},
                    {"useful", all.useful},
                    {"lost_to_preemption", all.lost},
                    {"checkpoint_overhead", all.checkpoint},
                    {"restart_overhead", all.restart}};

  // Preemption statistics, per pool and per class.
  uint64_t preemptions = 0, reclaimed = 0, waves = 0, restarts = 0;
  json pre_pools = json::array(), pre_classes = json::array();
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    const PoolEconTotals& t = s.econ.pools[p];
    preemptions += t.preemptions;
    reclaimed += t.reclaimed_nodes;
    waves += t.waves;
    pre_pools.push_back({{"name", sc.pools[p].name},
                         {"preemptions", t.preemptions},
                         {"reclaimed_nodes", t.reclaimed_nodes},
                         {"waves", t.waves}});
  }
  for (size_t c = 0; c < sc.workload.size(); ++c) {
    const ClassEconTotals& t = s.econ.classes[c];
    const GpuHours h = gpu_hours(v, s, static_cast<uint32_t>(c));
    restarts += t.restarts_of_completed;
    const uint64_t done = m.classes[c].completed;
    pre_classes.push_back(
        {{"name", sc.workload[c].name},
         {"preemptions", t.preemptions},
         {"lost_gpu_hours", h.lost},
         {"checkpoint_overhead_gpu_hours", h.checkpoint},
         {"restart_overhead_gpu_hours", h.restart},
         {"restarts_per_job", done > 0 ? double(t.restarts_of_completed) / double(done) : 0.0}});
  }
  r["preemption"] = {{"preemptions", preemptions},
                     {"reclaimed_nodes", reclaimed},
                     {"waves", waves},
                     {"lost_gpu_hours", all.lost},
                     {"checkpoint_overhead_gpu_hours", all.checkpoint},
                     {"restart_overhead_gpu_hours", all.restart},
                     {"restarts_per_job",
                      m.jobs_completed > 0 ? double(restarts) / double(m.jobs_completed) : 0.0},
                     {"per_pool", pre_pools},
                     {"per_class", pre_classes}};

  // Per-pool details: billing rule, provisioning, utilization over provisioned GPU-seconds.
  for (size_t p = 0; p < sc.pools.size() && p < r["per_pool"].size(); ++p) {
    json& jp = r["per_pool"][p];
    const PoolEconomics& pe = sc.pools[p].econ;
    const PoolEconTotals& t = s.econ.pools[p];
    jp["provisioned_gpu_hours"] = t.provisioned_gpu_s / HOUR_S;
    jp["mean_nodes"] = window_s > 0 ? t.provisioned_node_s / window_s : 0.0;
    jp["peak_nodes"] = t.peak_nodes;
    jp["gpu_utilization"] =
        t.provisioned_gpu_s > 0 ? s.pool_busy_gpu_s[p] / t.provisioned_gpu_s : 0.0;
    jp["billing"] = {{"granularity", std::string(enum_name(pe.granularity))},
                     {"minimum_s", pe.billing_minimum_s},
                     {"rounding_usd", t.rounding_usd}};
    if (pe.reserved) {
      jp["reserved"] = {{"upfront", std::string(enum_name(pe.upfront))},
                        {"term_years", pe.reserved->term_years},
                        {"upfront_usd_per_node", pe.reserved->upfront_usd},
                        {"hourly_usd_per_node", pe.reserved->hourly_usd},
                        {"effective_usd_per_node_hour",
                         economics::reserved_effective_hourly_usd(*pe.reserved).value_or(0)}};
    }
    if (pe.on_prem) {
      const auto per_gpu = economics::on_prem_cost_per_gpu_hour(*pe.on_prem);
      jp["on_prem"] = {
          {"pue", pe.on_prem->pue},
          {"usd_per_gpu_hour_at_template_utilization", per_gpu ? per_gpu->total_usd : 0.0},
          {"template_utilization", pe.on_prem->utilization}};
    }
    if (pe.spot) {
      const PoolEconSpec& e = cs.pool_econ[p];
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
    if (pe.elastic) {
      jp["elastic"] = {{"min_nodes", pe.elastic->min_nodes},
                       {"max_nodes", pe.elastic->max_nodes},
                       {"initial_nodes", pe.elastic->initial_nodes}};
    }
  }

  // Per-class cost, GPU-hours and restarts.
  for (size_t c = 0; c < sc.workload.size() && c < r["per_class"].size(); ++c) {
    json& jc = r["per_class"][c];
    const GpuHours h = gpu_hours(v, s, static_cast<uint32_t>(c));
    const uint64_t done = m.classes[c].completed;
    jc["cost_usd"] = s.econ.classes[c].cost_usd;
    jc["cost_per_job_usd"] = done > 0 ? s.econ.classes[c].cost_usd / double(done) : 0.0;
    jc["gpu_hours"] = h.busy;
    jc["useful_gpu_hours"] = h.useful;
    jc["preemptions"] = s.econ.classes[c].preemptions;
    jc["restarts_per_job"] =
        done > 0 ? double(s.econ.classes[c].restarts_of_completed) / double(done) : 0.0;
  }

  if (sc.tco) {
    std::vector<double> busy;
    for (const PoolMetrics& p : m.pools) busy.push_back(p.busy_gpu_s);
    r["tco"] = tco_json(sc, cs, all, busy);
  }
}

json tco_json(const Scenario& sc, const CompiledScenario& cs, const GpuHours& all,
              const std::vector<double>& pool_busy_gpu_s) {
  const TcoConfig& t = *sc.tco;
  const double window_h = (sc.horizon_s - sc.warmup_s) / HOUR_S;
  const uint32_t months = t.years * 12;
  const double d0 = window_h > 0 ? all.useful * economics::HOURS_PER_MONTH / window_h : 0;
  const auto demand = economics::monthly_demand_gpu_hours({d0, t.demand_growth_per_month, months});
  const economics::CostBasis basis =
      t.accrual ? economics::CostBasis::accrual : economics::CostBasis::cash;
  json out = {
      {"months", months},
      {"basis", t.accrual ? "accrual" : "cash"},
      {"discount_rate", t.discount_rate},
      {"demand_growth_per_month", t.demand_growth_per_month},
      {"initial_demand_gpu_hours_per_month", d0},
      {"demand_source", "useful GPU-hours of the simulated window, scaled to 730 h per month"}};
  if (!demand) return out;
  out["demand_gpu_hours_per_month"] = series(*demand);

  // Cloud mix from the scenario's cloud pools: on-demand and spot prices per GPU-hour, reserved
  // GPUs, and the spot share and overhead measured in the run.
  economics::CloudMix mix;
  double spot_busy = 0, cloud_busy = 0;
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const double gpn = cs.pools[p].gpus_per_node;
    if (pool.pricing == Pricing::on_prem) continue;
    if (mix.on_demand_usd_per_gpu_hour == 0 && pool.econ.on_demand_per_node_hour > 0)
      mix.on_demand_usd_per_gpu_hour = pool.econ.on_demand_per_node_hour / gpn;
    if (pool.econ.reserved) {
      mix.reserved_gpus += pool.count * cs.pools[p].gpus_per_node;
      mix.reserved_per_gpu = {pool.econ.reserved->term_years, pool.econ.reserved->upfront_usd / gpn,
                              pool.econ.reserved->hourly_usd / gpn};
      continue;
    }
    cloud_busy += pool_busy_gpu_s[p];
    if (pool.econ.spot) {
      spot_busy += pool_busy_gpu_s[p];
      mix.spot_usd_per_gpu_hour = pool.price_per_node_hour / gpn;
    }
  }
  mix.spot_share = cloud_busy > 0 ? spot_busy / cloud_busy : 0;
  mix.spot_overhead = all.useful > 0 ? (all.lost + all.checkpoint + all.restart) / all.useful : 0;
  out["cloud_assumptions"] = {{"on_demand_usd_per_gpu_hour", mix.on_demand_usd_per_gpu_hour},
                              {"spot_usd_per_gpu_hour", mix.spot_usd_per_gpu_hour},
                              {"spot_share", mix.spot_share},
                              {"spot_overhead", mix.spot_overhead},
                              {"reserved_gpus", mix.reserved_gpus}};

  // On-prem fleet from the server template; hybrid base = the scenario's on-prem nodes.
  std::optional<economics::OnPremNode> node;
  uint32_t scenario_onprem_nodes = 0;
  for (const Pool& pool : sc.pools) {
    if (pool.pricing == Pricing::on_prem) scenario_onprem_nodes += pool.count;
    if (t.server && pool.name == *t.server) node = pool.econ.on_prem;
  }
  json options = json::object();
  std::optional<Eigen::VectorXd> cloud_cum;
  for (const TcoOption option : t.compare) {
    const std::string name(enum_name(option));
    if (option == TcoOption::cloud) {
      const auto c = economics::cloud_monthly_cost(mix, *demand, basis);
      if (!c) continue;
      options["cloud"] = option_json(c->total_usd, t.discount_rate);
      cloud_cum = economics::summarize_costs(c->total_usd, t.discount_rate)->cumulative_usd;
    } else if (node) {
      economics::OnPremFleet fleet;
      fleet.node = *node;
      const double gpn = node->gpus_per_node;
      const double peak = demand->maxCoeff();
      const uint32_t sized =
          static_cast<uint32_t>(std::ceil(peak / (gpn * economics::HOURS_PER_MONTH) - 1e-9));
      fleet.n_nodes = option == TcoOption::on_prem ? t.on_prem_nodes.value_or(std::max<uint32_t>(1, sized))
                                        : t.hybrid_nodes.value_or(scenario_onprem_nodes);
      json o;
      Eigen::VectorXd total;
      if (option == TcoOption::on_prem) {
        const auto c = economics::on_prem_monthly_cost(fleet, *demand, basis);
        if (!c) continue;
        total = c->total_usd;
        o = option_json(total, t.discount_rate);
        o["unserved_gpu_hours"] = c->unserved_gpu_hours.sum();
      } else {
        economics::CloudMix burst = mix;
        burst.reserved_gpus = 0;
        const auto c = economics::hybrid_monthly_cost(fleet, burst, *demand, basis);
        if (!c) continue;
        total = c->total_usd;
        o = option_json(total, t.discount_rate);
        o["burst_gpu_hours"] = c->on_prem.unserved_gpu_hours.sum();
      }
      o["nodes"] = fleet.n_nodes;
      options[name] = o;
    }
  }
  out["options"] = options;
  json breakeven = json::object();
  for (const char* name : {"on_prem", "hybrid"}) {
    if (!options.contains(name) || !cloud_cum) continue;
    const auto& cum = options[name]["cumulative_usd"].get<std::vector<double>>();
    const auto m = economics::break_even_month(
        Eigen::Map<const Eigen::VectorXd>(cum.data(), cum.size()), *cloud_cum);
    breakeven[std::string(name) + "_vs_cloud"] = m ? json(*m) : json(nullptr);
  }
  out["break_even_month"] = breakeven;
  std::string best;
  double best_npv = 0;
  for (const auto& [name, o] : options.items()) {
    if (!o.contains("npv_usd")) continue;
    if (best.empty() || o["npv_usd"].get<double>() < best_npv) {
      best = name;
      best_npv = o["npv_usd"].get<double>();
    }
  }
  out["cheapest_by_npv"] = best;
  return out;
}

}  // namespace gpuplan
