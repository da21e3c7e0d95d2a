#include "study/tco.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "models/economics/run_out.h"
#include "models/economics/tco.h"
#include "models/compile/offered_load.h"
#include "models/scenario/demand_profile.h"
#include "study/number_text.h"
#include "study/tco_energy.h"

namespace gpuplan::study {
namespace {

using economics::SECONDS_PER_HOUR;
using nlohmann::json;

//! Monthly, cumulative, total and NPV of one option's cost series, marked as serving the demand
//! or not (with its unserved GPU-hours and the first month it falls short).
json option_json(const Eigen::VectorXd& monthly, double rate, const Eigen::VectorXd& unserved,
                 const Eigen::VectorXd& demand) {
  const auto sum = economics::summarize_costs(monthly, rate);
  if (!sum) return json{{"error", "the cost series is not finite"}, {"serves_demand", false}};
  const std::optional<uint32_t> short_month = economics::first_unserved_month(unserved, demand);
  // NOTE: in the first short month the option serves all it can, so what it serves is its capacity.
  const json runs_out = short_month
                            ? json(economics::run_out_month(
                                  std::vector<double>(demand.data(), demand.data() + demand.size()),
                                  *short_month, demand[*short_month] - unserved[*short_month]))
                            : json(nullptr);
  return {{"monthly_usd", json_series(monthly)},
          {"cumulative_usd", json_series(sum->cumulative_usd)},
          {"total_usd", sum->total_usd},
          {"npv_usd", sum->npv_usd},
          {"serves_demand", !short_month.has_value()},
          {"unserved_gpu_hours", short_month ? unserved.sum() : 0.0},
          {"stops_keeping_up_month", short_month ? json(*short_month) : json(nullptr)},
          {"runs_out_month", runs_out}};
}

//! A node count: an integer when whole (a replication's fleet), else the number (a mean).
json count_json(double n) {
  return n == std::floor(n) && std::abs(n) < 1e15 ? json(static_cast<int64_t>(n)) : json(n);
}

//! The months in which an installed-node series rises, and by how much: the purchase schedule
//! (the `owned` servers installed in month 0 were bought before it).
json purchases_json(const std::vector<double>& nodes, double owned) {
  json out = json::array();
  double held = nodes.empty() ? 0 : std::min(owned, nodes.front());
  for (std::size_t m = 0; m < nodes.size(); ++m) {
    if (nodes[m] > held) out.push_back({{"month", m}, {"nodes", count_json(nodes[m] - held)}});
    held = std::max(held, nodes[m]);
  }
  return out;
}

//! The fleet keys of an on-prem or hybrid option: its largest fleet, the installed nodes per
//! month and the purchases.
void add_fleet(json& o, const Eigen::VectorXd& nodes, double owned) {
  const std::vector<double> v(nodes.data(), nodes.data() + nodes.size());
  json by_month = json::array();
  for (const double n : v) by_month.push_back(count_json(n));
  o["nodes"] = count_json(nodes.size() > 0 ? nodes.maxCoeff() : 0.0);
  o["nodes_by_month"] = by_month;
  o["purchases"] = purchases_json(v, owned);
}

//! A mean of per-GPU-hour prices weighted by busy GPU-seconds, or by GPUs when nothing ran.
struct WeightedPrice {
  double by_busy = 0, busy = 0, by_gpus = 0, gpus = 0;
  void add(double usd_per_gpu_hour, double busy_gpu_s, double n_gpus) {
    by_busy += usd_per_gpu_hour * busy_gpu_s;
    busy += busy_gpu_s;
    by_gpus += usd_per_gpu_hour * n_gpus;
    gpus += n_gpus;
  }
  [[nodiscard]] std::optional<double> mean() const {
    if (busy > 0) return by_busy / busy;
    if (gpus > 0) return by_gpus / gpus;
    return std::nullopt;
  }
};

//! The cloud purchase mix and where its prices come from: tco.cloud, else the scenario's cloud
//! pools (on-demand and spot prices weighted by the pools' busy GPU-seconds, the spot share the
//! busy share on spot among non-reserved cloud pools); reserved pools give the reserved GPUs.
//! Spot takes at most `spot_tolerant_share` of the work: a class that cannot be preempted runs
//! on-demand in every option (when an on-demand price is known).
economics::CloudMix cloud_mix(const Scenario& sc, const CompiledScenario& cs, const GpuHours& all,
                              const std::vector<double>& pool_busy_gpu_s,
                              double spot_tolerant_share, std::string& source) {
  const TcoConfig& t = *sc.tco;
  economics::CloudMix mix;
  WeightedPrice on_demand, spot;
  double fallback_on_demand = 0, spot_busy = 0, spot_gpus = 0, cloud_busy = 0, cloud_gpus = 0;
  std::vector<std::string> names;
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    if (pool.pricing == Pricing::on_prem) continue;
    const double gpn = cs.pools[p].gpus_per_node;
    const double gpus = pool.count * gpn;
    if (fallback_on_demand == 0 && pool.econ.on_demand_per_node_hour > 0)
      fallback_on_demand = pool.econ.on_demand_per_node_hour / gpn;
    if (pool.econ.reserved) {
      mix.reserved_gpus += pool.count * cs.pools[p].gpus_per_node;
      mix.reserved_per_gpu = {pool.econ.reserved->term_years, pool.econ.reserved->upfront_usd / gpn,
                              pool.econ.reserved->hourly_usd / gpn};
      continue;
    }
    names.push_back(pool.name);
    cloud_busy += pool_busy_gpu_s[p];
    cloud_gpus += gpus;
    if (pool.econ.spot) {
      spot_busy += pool_busy_gpu_s[p];
      spot_gpus += gpus;
      spot.add(pool.price_per_node_hour / gpn, pool_busy_gpu_s[p], gpus);
    } else {
      on_demand.add(pool.price_per_node_hour / gpn, pool_busy_gpu_s[p], gpus);
    }
  }
  mix.spot_overhead = all.useful > 0 ? (all.lost + all.checkpoint + all.restart) / all.useful : 0;
  if (t.cloud) {
    const bool on_spot = t.cloud->pricing == Pricing::spot;
    (on_spot ? mix.spot_usd_per_gpu_hour : mix.on_demand_usd_per_gpu_hour) =
        t.cloud->usd_per_gpu_hour;
    mix.spot_share = on_spot ? 1.0 : 0.0;
    if (on_spot)
      mix.on_demand_usd_per_gpu_hour =
          t.cloud->type.price_per_hour.on_demand.value_or(0) / t.cloud->type.gpus_per_node;
    source = "tco.cloud: " + t.cloud->type.id + " at its " +
             std::string(enum_name(t.cloud->pricing)) + " price";
  } else {
    mix.on_demand_usd_per_gpu_hour = on_demand.mean().value_or(fallback_on_demand);
    mix.spot_usd_per_gpu_hour = spot.mean().value_or(0);
    mix.spot_share = cloud_busy > 0   ? spot_busy / cloud_busy
                     : cloud_gpus > 0 ? spot_gpus / cloud_gpus
                                      : 0;
    std::string list;
    for (const std::string& n : names) list += (list.empty() ? "" : ", ") + n;
    source = names.empty() ? "the on-demand price of the reserved pools' instance"
                           : "the scenario's cloud pools: " + list;
  }
  // NOTE: without an on-demand price the rest would cost $0, so spot keeps it (the loader has
  // checked that some price covers every option's GPU-hours).
  if (mix.spot_share > spot_tolerant_share && mix.on_demand_usd_per_gpu_hour > 0) {
    mix.spot_share = spot_tolerant_share;
    source += "; spot limited to the spot-tolerant classes' share of the work";
  }
  return mix;
}

//! The option with the lowest NPV among those that serve the demand; null when none does.
json cheapest_of(const json& options) {
  std::string best;
  double best_npv = 0;
  for (const auto& [name, o] : options.items()) {
    if (!o.value("serves_demand", false) || !o.contains("npv_usd")) continue;
    if (best.empty() || o["npv_usd"].get<double>() < best_npv) {
      best = name;
      best_npv = o["npv_usd"].get<double>();
    }
  }
  return best.empty() ? json(nullptr) : json(best);
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

//! What every option is priced from: the projected demand, the cloud mix, the power model.
struct Options {
  const Scenario& sc;
  const CompiledScenario& cs;
  const Eigen::VectorXd& demand;  //!< [GPU-h per month] offered, grown
  economics::CostBasis basis;
  const economics::CloudMix& mix;
  const TcoPower& power;

  [[nodiscard]] const TcoConfig& tco() const { return *sc.tco; }
  [[nodiscard]] uint32_t months() const { return uint32_t(demand.size()); }
  //! The on-prem server template; null when the scenario has none.
  [[nodiscard]] const economics::OnPremNode* node() const {
    const auto& k = tco().server_pool_idx;
    return k && sc.pools[*k].econ.on_prem ? &*sc.pools[*k].econ.on_prem : nullptr;
  }
  //! An on-prem fleet of the template with `nodes` installed per month, the owned ones sunk.
  [[nodiscard]] economics::OnPremFleet fleet(const Eigen::VectorXd& nodes) const {
    economics::OnPremFleet f;
    f.node = *node();
    f.power = power.fleet;
    f.nodes = nodes;
    f.owned_nodes = tco().owned_nodes;
    return f;
  }
  //! The owned servers alone, every month (none without a template).
  [[nodiscard]] Eigen::VectorXd owned() const {
    return economics::fixed_fleet_nodes(node() ? tco().owned_nodes : 0, months());
  }
};

//! The GPU-hours served in total and the cost per served GPU-hour beside an option's costs.
void add_served(json& o, const Eigen::VectorXd& demand, const Eigen::VectorXd& unserved) {
  if (!o.contains("total_usd")) return;
  const double served = demand.sum() - unserved.sum();
  o["served_gpu_hours"] = served;
  o["usd_per_served_gpu_hour"] = served > 0 ? json(o["total_usd"].get<double>() / served) : json();
}

json cloud_option(const Options& x) {
  const auto c = economics::cloud_monthly_cost(x.mix, x.demand, x.basis);
  if (!c) return {};
  const Eigen::VectorXd none = Eigen::VectorXd::Zero(x.months());
  json o = option_json(c->total_usd, x.tco().discount_rate, none, x.demand);
  o["description"] =
      "all cloud: the scenario's reserved GPUs, the rest spot and on-demand as needed";
  o["cost_by_purchase_usd"] = {{"reserved", c->reserved_usd.sum()},
                               {"spot", c->spot_usd.sum()},
                               {"on_demand", c->on_demand_usd.sum()}};
  o["energy"] = energy_json(cloud_energy(x.power.cloud_hour, x.mix, x.demand), c->total_usd);
  add_served(o, x.demand, none);
  return o;
}

//! An on-prem fleet alone: what it cannot serve is unserved.
json fleet_option(const Options& x, const Eigen::VectorXd& nodes, const char* sizing,
                  const std::string& description) {
  const economics::OnPremFleet fleet = x.fleet(nodes);
  const auto c = economics::on_prem_monthly_cost(fleet, x.demand, x.basis);
  if (!c) return {};
  json o = option_json(c->total_usd, x.tco().discount_rate, c->unserved_gpu_hours, x.demand);
  o["sizing"] = sizing;
  o["description"] = description;
  add_fleet(o, fleet.nodes, fleet.owned_nodes);
  o["energy"] = energy_json(fleet_energy(x.power, fleet, *c), c->total_usd);
  add_served(o, x.demand, c->unserved_gpu_hours);
  return o;
}

//! The owned servers (or `base` nodes) first, then `cloud` up to `cap_gpu_hours` a month
//! (unbounded when nullopt); the rest is unserved.
json fleet_and_cloud_option(const Options& x, const Eigen::VectorXd& base,
                            const economics::CloudMix& cloud, std::optional<double> cap_gpu_hours,
                            const char* sizing, const std::string& description) {
  const bool on_prem = x.node() != nullptr;
  std::optional<economics::OnPremMonthly> local;
  economics::OnPremFleet fleet;
  if (on_prem) {
    fleet = x.fleet(base);
    local = economics::on_prem_monthly_cost(fleet, x.demand, x.basis);
  }
  if (on_prem && !local) return {};
  const Eigen::VectorXd above = local ? local->unserved_gpu_hours : x.demand;
  Eigen::VectorXd burst = above;
  if (cap_gpu_hours) burst = above.array().min(*cap_gpu_hours).matrix();
  const auto c = economics::cloud_monthly_cost(cloud, burst, x.basis);
  if (!c) return {};
  const Eigen::VectorXd unserved = above - burst;
  const Eigen::VectorXd total =
      (local ? local->total_usd : Eigen::VectorXd::Zero(x.months())) + c->total_usd;
  json o = option_json(total, x.tco().discount_rate, unserved, x.demand);
  o["sizing"] = sizing;
  o["description"] = description;
  if (on_prem) add_fleet(o, fleet.nodes, fleet.owned_nodes);
  o["burst_gpu_hours"] = burst.sum();
  o["burst_usd"] = c->total_usd.sum();
  o["cost_by_purchase_usd"] = {{"on_prem", local ? local->total_usd.sum() : 0.0},
                               {"reserved", c->reserved_usd.sum()},
                               {"spot", c->spot_usd.sum()},
                               {"on_demand", c->on_demand_usd.sum()}};
  const MonthlyEnergy cloud_part = cloud_energy(x.power.cloud_hour, cloud, burst);
  o["energy"] =
      energy_json(local ? fleet_energy(x.power, fleet, *local) + cloud_part : cloud_part, total);
  o["energy"]["burst_kwh"] = cloud_part.kwh.sum();
  add_served(o, x.demand, unserved);
  return o;
}

std::string owned_text(const Options& x) {
  const uint32_t n = x.node() ? x.tco().owned_nodes : 0;
  return n == 0 ? "no servers owned"
                : grouped_number(n, 0) + " owned servers (sunk: running costs only)";
}

//! The reserve options: the owned servers, then `nodes` of the reserved instance committed for
//! every hour of each term (renewed at its end); demand above both is unserved.
json reserve_option(const Options& x, double term_years) {
  const TcoReservation& r = *x.tco().reserve;
  const Pricing term = term_years == 1 ? Pricing::reserved_1y : Pricing::reserved_3y;
  const double gpn = r.type.gpus_per_node;
  economics::CloudMix reserved;
  reserved.reserved_gpus = uint32_t(r.nodes * gpn);
  reserved.reserved_per_gpu = {term_years, 0.0,
                               price_of(r.type.price_per_hour, term).value_or(0) / gpn};
  const double cap = reserved.reserved_gpus * economics::HOURS_PER_MONTH;
  json o = fleet_and_cloud_option(x, x.owned(), reserved, cap, "fixed",
                                  owned_text(x) + " and " + grouped_number(r.nodes, 0) + " " +
                                      r.type.id + " reserved for " + grouped_number(term_years, 0) +
                                      (term_years == 1 ? " year, renewed" : " years") +
                                      ", billed every hour of the term; nothing beyond");
  o["reserved_nodes"] = r.nodes;
  o["reserved_instance"] = r.type.id;
  return o;
}

//! The burst option: the owned servers, then the elastic cloud pools up to their maximum nodes
//! (spot for the spot-tolerant work, on-demand for the rest); demand above both is unserved.
json burst_option(const Options& x) {
  double cap_gpus = 0;
  for (size_t p = 0; p < x.sc.pools.size(); ++p) {
    const Pool& pool = x.sc.pools[p];
    if (pool.pricing != Pricing::on_prem && !pool.econ.reserved && pool.econ.elastic)
      cap_gpus += double(pool.econ.elastic->max_nodes) * x.cs.pools[p].gpus_per_node;
  }
  economics::CloudMix burst = x.mix;
  burst.reserved_gpus = 0;
  // NOTE: spot GPU-hours include the work lost to reclaims, so fewer useful hours fit the cap.
  const double cap =
      cap_gpus * economics::HOURS_PER_MONTH / (1.0 + burst.spot_share * burst.spot_overhead);
  json o = fleet_and_cloud_option(
      x, x.owned(), burst, cap, "fixed",
      owned_text(x) + ", then burst to the elastic cloud pools up to their maximum (" +
          grouped_number(cap_gpus, 0) + " GPUs), spot for the spot-tolerant work");
  o["burst_cap_gpus"] = cap_gpus;
  return o;
}

//! One compared option's projection; {"error": ...} when its inputs are invalid.
json option_projection(const Options& x, TcoOption option) {
  const TcoConfig& t = x.tco();
  json o;
  const bool on_prem = x.node() != nullptr;
  const auto staged = [&](double floor) {
    return economics::staged_fleet_nodes(x.demand, x.node()->gpus_per_node, 1.0, t.fill_target,
                                         floor);
  };
  const std::string fill = grouped_number(100 * t.fill_target, 0) + " %";
  switch (option) {
    case TcoOption::cloud:
      o = cloud_option(x);
      break;
    case TcoOption::on_prem:
      if (!on_prem) break;
      if (t.on_prem_nodes) {
        o = fleet_option(
            x, economics::fixed_fleet_nodes(*t.on_prem_nodes, x.months()), "fixed",
            grouped_number(*t.on_prem_nodes, 0) + " servers from month 0, nothing after");
      } else if (const auto nodes = staged(0)) {
        o = fleet_option(x, *nodes, "staged",
                         "servers bought in the month the demand first fills " + fill + " of them");
      }
      break;
    case TcoOption::hybrid: {
      if (!on_prem) break;
      Eigen::VectorXd base = Eigen::VectorXd::Zero(x.months());
      for (const Pool& pool : x.sc.pools)
        if (pool.pricing == Pricing::on_prem)
          for (uint32_t m = 0; m < x.months(); ++m)
            base[m] += pool.nodes_at(m * economics::HOURS_PER_MONTH * SECONDS_PER_HOUR);
      // NOTE: "scheduled" when the scenario's own purchases grow the base over the months.
      const bool flat = t.hybrid_nodes || base.minCoeff() == base.maxCoeff();
      if (t.hybrid_nodes) base = economics::fixed_fleet_nodes(*t.hybrid_nodes, x.months());
      economics::CloudMix burst = x.mix;
      burst.reserved_gpus = 0;
      o = fleet_and_cloud_option(x, base, burst, std::nullopt, flat ? "fixed" : "scheduled",
                                 "the scenario's on-prem servers as purchased, the rest burst to "
                                 "the cloud without limit");
      break;
    }
    case TcoOption::keep:
      if (on_prem) o = fleet_option(x, x.owned(), "fixed", owned_text(x) + ", nothing bought");
      break;
    case TcoOption::buy:
      if (on_prem && t.buy_nodes)
        o = fleet_option(x, economics::fixed_fleet_nodes(t.owned_nodes + *t.buy_nodes, x.months()),
                         "fixed",
                         owned_text(x) + " and " + grouped_number(*t.buy_nodes, 0) +
                             " bought in month 0, nothing after");
      break;
    case TcoOption::staged:
      if (on_prem)
        if (const auto nodes = staged(t.owned_nodes))
          o = fleet_option(x, *nodes, "staged",
                           owned_text(x) +
                               ", then servers bought in the month the demand first "
                               "fills " +
                               fill + " of the fleet");
      break;
    case TcoOption::reserve_1y:
    case TcoOption::reserve_3y:
      if (t.reserve) o = reserve_option(x, option == TcoOption::reserve_1y ? 1.0 : 3.0);
      break;
    case TcoOption::burst:
      o = burst_option(x);
      break;
  }
  if (o.is_null()) return {{"error", "the option's inputs are invalid"}, {"serves_demand", false}};
  return o;
}

}  // namespace

void choose_cheapest(json& out) {
  out["cheapest_by_npv"] = nullptr;
  out.erase("cheapest_note");
  if (!(out.value("initial_demand_gpu_hours_per_month", 0.0) > 0)) {
    out["cheapest_note"] = "the workload offers no GPU-hours, so there is no demand to project";
    return;
  }
  out["cheapest_by_npv"] = cheapest_of(out["options"]);
  if (out["cheapest_by_npv"].is_null())
    out["cheapest_note"] = "no compared option serves the projected demand";
}

json tco_projection(const Scenario& sc, const CompiledScenario& cs, const GpuHours& all,
                    const std::vector<double>& pool_busy_gpu_s) {
  const TcoConfig& t = *sc.tco;
  const double window_h = (sc.horizon_s - sc.warmup_s) / SECONDS_PER_HOUR;
  const uint32_t months = t.years * 12;
  // Demand is what arrives, not what the simulated fleet served: the workload's offered GPU-hours
  // in the run's first month (rates under their profiles x mean GPUs x mean duration), the same
  // for every option. NOTE: month 0's, so growth inside the run is not counted twice.
  const double month0_work =
      offered_work_rate(sc, 0, economics::HOURS_PER_MONTH * SECONDS_PER_HOUR);
  const double served = window_h > 0 ? all.useful * economics::HOURS_PER_MONTH / window_h : 0;
  const double d0 = month0_work * economics::HOURS_PER_MONTH;
  const auto demand = economics::monthly_demand_gpu_hours({d0, t.demand_growth_per_month, months});
  const economics::CostBasis basis =
      t.accrual ? economics::CostBasis::accrual : economics::CostBasis::cash;
  json out = {
      {"months", months},
      {"basis", t.accrual ? "accrual" : "cash"},
      {"discount_rate", t.discount_rate},
      {"demand_growth_per_month", t.demand_growth_per_month},
      {"initial_demand_gpu_hours_per_month", d0},
      {"demand_source",
       "offered GPU-hours of the workload in the run's first month (730 h): arrival rates under "
       "their profiles x mean GPUs x mean duration, the same for every option"},
      {"served_gpu_hours_per_month", served}};
  if (!demand) return out;
  out["demand_gpu_hours_per_month"] = json_series(*demand);

  std::string source;
  const double month_s = economics::HOURS_PER_MONTH * SECONDS_PER_HOUR;
  const double tolerant_share =
      month0_work > 0 ? offered_spot_tolerant_work_rate(sc, 0, month_s) / month0_work : 1.0;
  const economics::CloudMix mix = cloud_mix(sc, cs, all, pool_busy_gpu_s, tolerant_share, source);
  out["cloud_assumptions"] = {{"on_demand_usd_per_gpu_hour", mix.on_demand_usd_per_gpu_hour},
                              {"spot_usd_per_gpu_hour", mix.spot_usd_per_gpu_hour},
                              {"spot_share", mix.spot_share},
                              {"spot_overhead", mix.spot_overhead},
                              {"reserved_gpus", mix.reserved_gpus},
                              {"spot_tolerant_share", tolerant_share},
                              {"price_source", source}};

  const TcoPower power = tco_power(sc, pool_busy_gpu_s);
  out["energy_assumptions"] = energy_assumptions_json(power, t.server_pool_idx.has_value());
  if (t.owned_nodes > 0) out["owned_nodes"] = t.owned_nodes;
  if (std::any_of(t.compare.begin(), t.compare.end(),
                  [](TcoOption o) { return o == TcoOption::on_prem || o == TcoOption::staged; }))
    out["fill_target"] = t.fill_target;
  const Options ctx{sc, cs, *demand, basis, mix, power};
  json options = json::object();
  for (const TcoOption option : t.compare)
    options[std::string(enum_name(option))] = option_projection(ctx, option);
  out["options"] = options;
  std::optional<Eigen::VectorXd> cloud_cum;
  if (options.contains("cloud") && options["cloud"].contains("cumulative_usd")) {
    const auto cum = options["cloud"]["cumulative_usd"].get<std::vector<double>>();
    cloud_cum = Eigen::Map<const Eigen::VectorXd>(cum.data(), Eigen::Index(cum.size()));
  }
  json breakeven = json::object();
  for (const auto& [name, o] : options.items()) {
    // NOTE: an option that leaves demand unserved is cheap because it does less; no break-even.
    if (name == "cloud" || !o.value("serves_demand", false) || !cloud_cum) continue;
    const auto& cum = o["cumulative_usd"].get<std::vector<double>>();
    const auto m = economics::break_even_month(
        Eigen::Map<const Eigen::VectorXd>(cum.data(), cum.size()), *cloud_cum);
    breakeven[std::string(name) + "_vs_cloud"] = m ? json(*m) : json(nullptr);
  }
  out["break_even_month"] = breakeven;
  choose_cheapest(out);
  return out;
}

void summarize_tco(const Scenario& sc, const CompiledScenario& cs, const McStudy& st, Summary& s) {
  s.tco = nullptr;
  s.tco_stats.clear();
  s.tco_values.clear();
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
  for (auto& [name, option] : out["options"].items()) {
    // An option serves the demand only if it does in every replication; it stops keeping up in
    // the earliest month any replication saw it fall short.
    bool serves = true;
    std::optional<double> short_month, runs_out;
    std::vector<std::vector<double>> cum;
    std::vector<double> npv, total, kwh, tco2e;
    for (const json& d : docs) {
      const json& o = d["options"][name];
      serves = serves && o.value("serves_demand", false);
      if (const json& m = o.value("stops_keeping_up_month", json()); m.is_number())
        short_month = std::min(short_month.value_or(m.get<double>()), m.get<double>());
      if (const json& m = o.value("runs_out_month", json()); m.is_number())
        runs_out = std::min(runs_out.value_or(m.get<double>()), m.get<double>());
      if (!o.contains("npv_usd")) continue;
      cum.push_back(o["cumulative_usd"].get<std::vector<double>>());
      npv.push_back(o["npv_usd"].get<double>());
      total.push_back(o["total_usd"].get<double>());
      if (o.contains("energy")) {
        kwh.push_back(o["energy"]["kwh"].get<double>());
        tco2e.push_back(o["energy"]["tco2e"].get<double>());
      }
    }
    option["serves_demand"] = serves;
    option["stops_keeping_up_month"] = short_month ? count_json(*short_month) : json(nullptr);
    option["runs_out_month"] = runs_out ? json(*runs_out) : json(nullptr);
    if (option.contains("nodes_by_month"))
      option["purchases"] =
          purchases_json(option["nodes_by_month"].get<std::vector<double>>(), sc.tco->owned_nodes);
    if (npv.size() != docs.size()) continue;
    // NOTE: one replication has no spread, so no band (as no CI).
    if (spread) {
      std::vector<std::span<const double>> rows(cum.begin(), cum.end());
      const Band band = percentile_band(rows, cum.front().size());
      option["cumulative_usd_band"] = {{"p10", band.p10}, {"p50", band.p50}, {"p90", band.p90}};
    }
    for (const auto& [key, values] :
         {std::pair{"npv_usd", &npv}, std::pair{"total_usd", &total}, std::pair{"energy.kwh", &kwh},
          std::pair{"energy.tco2e", &tco2e}})
      if (values->size() == docs.size())
        s.tco_stats.emplace_back("tco.options." + name + "." + key,
                                 statistic_of(summarize(*values), spread));
    s.tco_values.emplace_back("tco.options." + name + ".npv_usd", npv);
    s.tco_values.emplace_back("tco.options." + name + ".total_usd", total);
  }
  choose_cheapest(out);
  // NOTE: the projection's demand is the offered one, but the cloud mix and the hybrid base come
  // from the simulated fleet; a fleet that cannot keep up says so beside every figure.
  if (cs.cannot_keep_up() || s.stats.n_saturated > 0)
    out["caveat"] =
        "The simulated fleet cannot keep up with the demand (" +
        (cs.reaches_capacity_s && !overloaded(cs.offered_load)
             ? "it reaches capacity in month " +
                   grouped_number(*cs.reaches_capacity_s / PROFILE_MONTH_S, 1)
             : "offered " + grouped_number(100 * cs.offered_load, 0) + "% of its capacity") +
        "): its spot, on-demand and burst shares are those of a saturated run. The demand "
        "projected is the offered one; compare options on a fleet that keeps up.";
  if (out.contains("break_even_month")) {
    for (auto& [key, month] : out["break_even_month"].items()) {
      // NOTE: "never" sorts last, so the median is a month only when most replications break even.
      std::vector<double> months;
      for (const json& d : docs) {
        const json& m = d["break_even_month"].value(key, json());
        months.push_back(m.is_number() ? m.get<double>() : std::numeric_limits<double>::infinity());
      }
      std::sort(months.begin(), months.end());
      const double median = months[(months.size() - 1) / 2];
      month = std::isinf(median) ? json(nullptr) : json(median);
    }
    // NOTE: as in one projection, an option that leaves demand unserved has no break-even.
    for (const auto& [name, o] : out["options"].items())
      if (!o.value("serves_demand", false))
        out["break_even_month"].erase(std::string(name) + "_vs_cloud");
  }
  s.tco = out;
}

}  // namespace gpuplan::study
