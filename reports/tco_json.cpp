#include "reports/tco_json.h"

#include <cmath>
#include <cstdint>
#include <string>

#include "models/input/names.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;
using namespace gpuplan::study;

//! A node count or month: an integer when whole (a replication's fleet), else the number (a mean).
json count_json(double n) {
  return n == std::floor(n) && std::abs(n) < 1e15 ? json(static_cast<int64_t>(n)) : json(n);
}

json month_json(const std::optional<double>& m) {
  return m ? json(*m) : json(nullptr);
}

json energy_json(const TcoEnergy& e) {
  json years = json::array();
  for (const TcoEnergy::Year& y : e.per_year)
    years.push_back({{"year", y.year},
                     {"usd", y.usd},
                     {"kwh", y.kwh},
                     {"tco2e", y.tco2e},
                     {"embodied_tco2e", y.embodied_tco2e}});
  json out = {{"kwh", e.kwh},
              {"tco2e", e.tco2e},
              {"embodied_tco2e", e.embodied_tco2e},
              {"power_cost_usd", e.power_cost_usd},
              {"monthly_kwh", e.monthly_kwh},
              {"monthly_tco2e", e.monthly_tco2e},
              {"per_year", years}};
  if (e.burst_kwh) out["burst_kwh"] = *e.burst_kwh;
  return out;
}

json simulation_json(const TcoSimulation& s) {
  if (!s.simulated) return {{"simulated", false}, {"why_not", s.why_not}};
  return {{"simulated", true},
          {"months", s.months},
          {"replications", s.replications},
          {"stops_keeping_up_month", month_json(s.stops_keeping_up_month)},
          {"runs_out_month", month_json(s.runs_out_month)},
          {"earliest_month", month_json(s.earliest_month)},
          {"served_share_by_month", s.served_share_by_month},
          {"method",
           "the option's pools in the engine with the projection's growth; it stops keeping up "
           "in the first month from which every month serves less than 97 % of its offered "
           "work (the median over the replications; earliest_month the earliest); it runs out "
           "where the offered work rate passes what it serves once behind (runs_out_month, the "
           "median over the replications, months from 0)"}};
}

json option_json(const TcoOptionResult& o) {
  json out = {{"serves_demand", o.serves_demand},
              {"stops_keeping_up_month",
               o.stops_keeping_up_month ? count_json(*o.stops_keeping_up_month) : json(nullptr)},
              {"runs_out_month", month_json(o.runs_out_month)}};
  if (o.simulation) out["simulation"] = simulation_json(*o.simulation);
  if (!o.has_costs()) {
    out["error"] = o.error;
    return out;
  }
  out["monthly_usd"] = o.monthly_usd;
  out["cumulative_usd"] = o.cumulative_usd;
  out["total_usd"] = o.total_usd;
  out["npv_usd"] = o.npv_usd;
  out["unserved_gpu_hours"] = o.unserved_gpu_hours;
  out["description"] = o.description;
  if (!o.sizing.empty()) out["sizing"] = o.sizing;
  if (o.fleet) {
    json by_month = json::array(), purchases = json::array();
    for (const double n : o.fleet->nodes_by_month) by_month.push_back(count_json(n));
    for (const TcoFleet::Purchase& p : o.fleet->purchases)
      purchases.push_back({{"month", p.month}, {"nodes", count_json(p.nodes)}});
    out["nodes"] = count_json(o.fleet->nodes());
    out["nodes_by_month"] = by_month;
    out["purchases"] = purchases;
  }
  if (o.burst_gpu_hours) out["burst_gpu_hours"] = *o.burst_gpu_hours;
  if (o.burst_usd) out["burst_usd"] = *o.burst_usd;
  if (o.burst_cap_gpus) out["burst_cap_gpus"] = *o.burst_cap_gpus;
  if (o.reserved_nodes) {
    out["reserved_nodes"] = *o.reserved_nodes;
    out["reserved_instance"] = o.reserved_instance;
  }
  if (o.cost_by_purchase) {
    const TcoCostByPurchase& c = *o.cost_by_purchase;
    out["cost_by_purchase_usd"] = {
        {"reserved", c.reserved}, {"spot", c.spot}, {"on_demand", c.on_demand}};
    if (c.on_prem) out["cost_by_purchase_usd"]["on_prem"] = *c.on_prem;
  }
  if (o.energy) out["energy"] = energy_json(*o.energy);
  out["served_gpu_hours"] = o.served_gpu_hours;
  out["usd_per_served_gpu_hour"] =
      o.usd_per_served_gpu_hour ? json(*o.usd_per_served_gpu_hour) : json(nullptr);
  if (o.cumulative_usd_band)
    out["cumulative_usd_band"] = {{"p10", o.cumulative_usd_band->p10},
                                  {"p50", o.cumulative_usd_band->p50},
                                  {"p90", o.cumulative_usd_band->p90}};
  return out;
}

json hour_json(const TcoGpuHourAssumptions& h) {
  return {{"busy_kwh_per_gpu_hour", h.busy_kwh},
          {"idle_kwh_per_gpu_hour", h.idle_kwh},
          {"busy_kg_co2e_per_gpu_hour", h.busy_kg_co2e},
          {"embodied_kg_co2e_per_gpu_hour", h.embodied_kg_co2e}};
}

json energy_assumptions_json(const TcoEnergyAssumptions& a) {
  json out = {{"cloud", hour_json(a.cloud)},
              {"embodied_kgco2e_per_node", a.embodied_kgco2e_per_node},
              {"embodied_life_years", a.embodied_life_years},
              {"embodied_source", a.embodied_source},
              {"method",
               "the power model of result.json's energy section (docs/energy.md): on-prem nodes "
               "draw idle + (busy - idle) x utilization, times PUE; cloud GPU-hours at their "
               "pools' busy slot power; location-based grid factors; embodied carbon per "
               "node-hour of its life"}};
  out["cloud"]["source"] = a.cloud_source;
  if (a.on_prem) {
    const TcoEnergyAssumptions::OnPrem& p = *a.on_prem;
    out["on_prem"] = hour_json(p.hour);
    out["on_prem"]["node_idle_kw"] = p.node_idle_kw;
    out["on_prem"]["node_busy_kw"] = p.node_busy_kw;
    out["on_prem"]["pue"] = p.pue;
    out["on_prem"]["usd_per_kwh"] = p.usd_per_kwh;
    out["on_prem"]["g_co2e_per_kwh"] = p.g_co2e_per_kwh;
    out["on_prem"]["grid_source"] = p.grid_source;
  }
  return out;
}

}  // namespace

json tco_json(const TcoProjection& t) {
  json out = {
      {"months", t.months},
      {"basis", t.accrual ? "accrual" : "cash"},
      {"discount_rate", t.discount_rate},
      {"demand_growth_per_month", t.demand_growth_per_month},
      {"initial_demand_gpu_hours_per_month", t.initial_demand_gpu_hours_per_month},
      {"demand_source",
       "offered GPU-hours of the workload in the run's first month (730 h): arrival rates under "
       "their profiles x mean GPUs x mean duration, the same for every option"},
      {"served_gpu_hours_per_month", t.served_gpu_hours_per_month}};
  if (t.replications > 0) out["replications"] = t.replications;
  if (!t.caveat.empty()) out["caveat"] = t.caveat;
  if (!t.projected()) return out;
  out["demand_gpu_hours_per_month"] = t.demand_gpu_hours_per_month;
  const TcoCloudAssumptions& c = t.cloud;
  out["cloud_assumptions"] = {{"on_demand_usd_per_gpu_hour", c.on_demand_usd_per_gpu_hour},
                              {"spot_usd_per_gpu_hour", c.spot_usd_per_gpu_hour},
                              {"spot_share", c.spot_share},
                              {"spot_overhead", c.spot_overhead},
                              {"reserved_gpus", c.reserved_gpus},
                              {"spot_tolerant_share", c.spot_tolerant_share},
                              {"price_source", c.price_source}};
  out["energy_assumptions"] = energy_assumptions_json(t.energy);
  if (t.owned_nodes > 0) out["owned_nodes"] = t.owned_nodes;
  if (t.fill_target) out["fill_target"] = *t.fill_target;
  json options = json::object();
  for (const TcoOptionResult& o : t.options)
    options[std::string(enum_name(o.option))] = option_json(o);
  out["options"] = options;
  json break_even = json::object();
  for (const TcoBreakEven& b : t.break_even)
    break_even[std::string(enum_name(b.option)) + "_vs_cloud"] = month_json(b.month);
  out["break_even_month"] = break_even;
  out["cheapest_by_npv"] =
      t.cheapest_by_npv ? json(std::string(enum_name(*t.cheapest_by_npv))) : json(nullptr);
  if (!t.cheapest_note.empty()) out["cheapest_note"] = t.cheapest_note;
  return out;
}

}  // namespace gpuplan::reports
