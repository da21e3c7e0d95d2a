#include "study/tco.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>

#include "models/economics/tco.h"

namespace gpuplan::study {
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

//! Element-wise mean of documents of one shape: numbers averaged (kept as they are when all equal),
//! arrays and objects member by member, anything else (strings, nulls) taken from the first.
json mean_document(const std::vector<json>& docs) {
  const json& first = docs.front();
  if (first.is_number()) {
    // NOTE: a figure every replication shares (months, a fixed fleet) keeps its exact value.
    if (std::all_of(docs.begin(), docs.end(), [&](const json& d) { return d == first; }))
      return first;
    double sum = 0;
    for (const json& d : docs) sum += d.is_number() ? d.get<double>() : 0.0;
    return sum / double(docs.size());
  }
  // NOTE: where the shapes differ no mean is meaningful, and the first document stands.
  if (first.is_array()) {
    json out = json::array();
    for (std::size_t i = 0; i < first.size(); ++i) {
      std::vector<json> parts;
      for (const json& d : docs) {
        if (!d.is_array() || d.size() != first.size()) return first;
        parts.push_back(d[i]);
      }
      out.push_back(mean_document(parts));
    }
    return out;
  }
  if (first.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : first.items()) {
      std::vector<json> parts;
      for (const json& d : docs) {
        if (!d.is_object() || !d.contains(key)) return first;
        parts.push_back(d[key]);
      }
      out[key] = mean_document(parts);
    }
    return out;
  }
  return first;
}

}  // namespace

json tco_projection(const Scenario& sc, const CompiledScenario& cs, const GpuHours& all,
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
  for (const Pool& pool : sc.pools)
    if (pool.pricing == Pricing::on_prem) scenario_onprem_nodes += pool.count;
  if (t.server_pool_idx) node = sc.pools[*t.server_pool_idx].econ.on_prem;
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
      fleet.n_nodes = option == TcoOption::on_prem
                          ? t.on_prem_nodes.value_or(std::max<uint32_t>(1, sized))
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

void summarize_tco(const Scenario& sc, const CompiledScenario& cs, const McStudy& st, Summary& s) {
  s.tco = nullptr;
  s.tco_stats.clear();
  if (!sc.tco) return;
  std::vector<json> docs;
  for (const std::size_t k : s.stats.in_statistics) {
    const ReplicaMetrics& m = st.replicas[k].metrics;
    std::vector<double> busy;
    for (const PoolMetrics& p : m.pools) busy.push_back(p.busy_gpu_s);
    docs.push_back(tco_projection(sc, cs, m.gpu_hours, busy));
  }
  if (docs.empty()) return;
  const bool spread = docs.size() > 1;
  json out = mean_document(docs);
  out["replications"] = docs.size();
  if (!out.contains("options")) {
    s.tco = out;
    return;
  }
  std::string cheapest;
  double cheapest_npv = 0;
  for (auto& [name, option] : out["options"].items()) {
    std::vector<std::vector<double>> cum;
    std::vector<double> npv, total;
    for (const json& d : docs) {
      const json& o = d["options"][name];
      cum.push_back(o["cumulative_usd"].get<std::vector<double>>());
      npv.push_back(o["npv_usd"].get<double>());
      total.push_back(o["total_usd"].get<double>());
    }
    // NOTE: one replication has no spread, so no band (as no CI).
    if (spread) {
      std::vector<std::span<const double>> rows(cum.begin(), cum.end());
      const Band band = percentile_band(rows, cum.front().size());
      option["cumulative_usd_band"] = {{"p10", band.p10}, {"p50", band.p50}, {"p90", band.p90}};
    }
    for (const auto& [key, values] : {std::pair{"npv_usd", &npv}, std::pair{"total_usd", &total}})
      s.tco_stats.emplace_back("tco.options." + name + "." + key,
                               statistic_of(summarize(*values), spread));
    if (cheapest.empty() || option["npv_usd"].get<double>() < cheapest_npv) {
      cheapest = name;
      cheapest_npv = option["npv_usd"].get<double>();
    }
  }
  out["cheapest_by_npv"] = cheapest;
  if (out.contains("break_even_month")) {
    for (auto& [key, month] : out["break_even_month"].items()) {
      // NOTE: "never" sorts last, so the median is a month only when most replications break even.
      std::vector<double> months;
      for (const json& d : docs) {
        const json& m = d["break_even_month"][key];
        months.push_back(m.is_number() ? m.get<double>() : std::numeric_limits<double>::infinity());
      }
      std::sort(months.begin(), months.end());
      const double median = months[(months.size() - 1) / 2];
      month = std::isinf(median) ? json(nullptr) : json(median);
    }
  }
  s.tco = out;
}

}  // namespace gpuplan::study
