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
//! Why an option has no figures when its prices or fleet cannot be costed.
constexpr const char* INVALID = "the option's inputs are invalid";

//! An option whose figures cannot be given, and why.
TcoOptionResult invalid_option(std::string why) {
  TcoOptionResult o;
  o.error = std::move(why);
  return o;
}

//! Monthly, cumulative, total and NPV of one option's cost series, marked as serving the demand
//! or not (with its unserved GPU-hours and the first month it falls short).
TcoOptionResult option_costs(const Eigen::VectorXd& monthly, double rate,
                             const Eigen::VectorXd& unserved, const Eigen::VectorXd& demand) {
  const auto sum = economics::summarize_costs(monthly, rate);
  if (!sum) return invalid_option("the cost series is not finite");
  const std::optional<uint32_t> short_month = economics::first_unserved_month(unserved, demand);
  TcoOptionResult o;
  o.monthly_usd = series(monthly);
  o.cumulative_usd = series(sum->cumulative_usd);
  o.total_usd = sum->total_usd;
  o.npv_usd = sum->npv_usd;
  o.serves_demand = !short_month.has_value();
  o.unserved_gpu_hours = short_month ? unserved.sum() : 0.0;
  if (short_month) {
    o.stops_keeping_up_month = *short_month;
    // NOTE: in the first short month the option serves all it can, so what it serves is its
    // capacity.
    o.runs_out_month = economics::run_out_month(series(demand), *short_month,
                                                demand[*short_month] - unserved[*short_month]);
  }
  return o;
}

//! The months in which an installed-node series rises, and by how much: the purchase schedule
//! (the `owned` servers installed in month 0 were bought before it).
std::vector<TcoFleet::Purchase> purchases_of(const std::vector<double>& nodes, double owned) {
  std::vector<TcoFleet::Purchase> out;
  double held = nodes.empty() ? 0 : std::min(owned, nodes.front());
  for (std::size_t m = 0; m < nodes.size(); ++m) {
    if (nodes[m] > held) out.push_back({uint32_t(m), nodes[m] - held});
    held = std::max(held, nodes[m]);
  }
  return out;
}

//! An on-prem or hybrid option's fleet: the installed nodes per month and the purchases.
TcoFleet fleet_of(const Eigen::VectorXd& nodes, double owned) {
  TcoFleet f;
  f.nodes_by_month = series(nodes);
  f.purchases = purchases_of(f.nodes_by_month, owned);
  return f;
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
void add_served(TcoOptionResult& o, const Eigen::VectorXd& demand,
                const Eigen::VectorXd& unserved) {
  if (!o.has_costs()) return;
  o.served_gpu_hours = demand.sum() - unserved.sum();
  if (o.served_gpu_hours > 0) o.usd_per_served_gpu_hour = o.total_usd / o.served_gpu_hours;
}

TcoOptionResult cloud_option(const Options& x) {
  const auto c = economics::cloud_monthly_cost(x.mix, x.demand, x.basis);
  if (!c) return invalid_option(INVALID);
  const Eigen::VectorXd none = Eigen::VectorXd::Zero(x.months());
  TcoOptionResult o = option_costs(c->total_usd, x.tco().discount_rate, none, x.demand);
  if (!o.has_costs()) return o;
  o.description = "all cloud: the scenario's reserved GPUs, the rest spot and on-demand as needed";
  o.cost_by_purchase = TcoCostByPurchase{std::nullopt, c->reserved_usd.sum(), c->spot_usd.sum(),
                                         c->on_demand_usd.sum()};
  o.energy = tco_energy(cloud_energy(x.power.cloud_hour, x.mix, x.demand), c->total_usd);
  add_served(o, x.demand, none);
  return o;
}

//! An on-prem fleet alone: what it cannot serve is unserved.
TcoOptionResult fleet_option(const Options& x, const Eigen::VectorXd& nodes, const char* sizing,
                             const std::string& description) {
  const economics::OnPremFleet fleet = x.fleet(nodes);
  const auto c = economics::on_prem_monthly_cost(fleet, x.demand, x.basis);
  if (!c) return invalid_option(INVALID);
  TcoOptionResult o =
      option_costs(c->total_usd, x.tco().discount_rate, c->unserved_gpu_hours, x.demand);
  if (!o.has_costs()) return o;
  o.sizing = sizing;
  o.description = description;
  o.fleet = fleet_of(fleet.nodes, fleet.owned_nodes);
  o.energy = tco_energy(fleet_energy(x.power, fleet, *c), c->total_usd);
  add_served(o, x.demand, c->unserved_gpu_hours);
  return o;
}

//! The owned servers (or `base` nodes) first, then `cloud` up to `cap_gpu_hours` a month
//! (unbounded when nullopt); the rest is unserved.
TcoOptionResult fleet_and_cloud_option(const Options& x, const Eigen::VectorXd& base,
                                       const economics::CloudMix& cloud,
                                       std::optional<double> cap_gpu_hours, const char* sizing,
                                       const std::string& description) {
  const bool on_prem = x.node() != nullptr;
  std::optional<economics::OnPremMonthly> local;
  economics::OnPremFleet fleet;
  if (on_prem) {
    fleet = x.fleet(base);
    local = economics::on_prem_monthly_cost(fleet, x.demand, x.basis);
  }
  if (on_prem && !local) return invalid_option(INVALID);
  const Eigen::VectorXd above = local ? local->unserved_gpu_hours : x.demand;
  Eigen::VectorXd burst = above;
  if (cap_gpu_hours) burst = above.array().min(*cap_gpu_hours).matrix();
  const auto c = economics::cloud_monthly_cost(cloud, burst, x.basis);
  if (!c) return invalid_option(INVALID);
  const Eigen::VectorXd unserved = above - burst;
  const Eigen::VectorXd total =
      (local ? local->total_usd : Eigen::VectorXd::Zero(x.months())) + c->total_usd;
  TcoOptionResult o = option_costs(total, x.tco().discount_rate, unserved, x.demand);
  if (!o.has_costs()) return o;
  o.sizing = sizing;
  o.description = description;
  if (on_prem) o.fleet = fleet_of(fleet.nodes, fleet.owned_nodes);
  o.burst_gpu_hours = burst.sum();
  o.burst_usd = c->total_usd.sum();
  o.cost_by_purchase =
      TcoCostByPurchase{local ? local->total_usd.sum() : 0.0, c->reserved_usd.sum(),
                        c->spot_usd.sum(), c->on_demand_usd.sum()};
  const MonthlyEnergy cloud_part = cloud_energy(x.power.cloud_hour, cloud, burst);
  o.energy =
      tco_energy(local ? fleet_energy(x.power, fleet, *local) + cloud_part : cloud_part, total);
  o.energy->burst_kwh = cloud_part.kwh.sum();
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
TcoOptionResult reserve_option(const Options& x, double term_years) {
  const TcoReservation& r = *x.tco().reserve;
  const Pricing term = term_years == 1 ? Pricing::reserved_1y : Pricing::reserved_3y;
  const double gpn = r.type.gpus_per_node;
  economics::CloudMix reserved;
  reserved.reserved_gpus = uint32_t(r.nodes * gpn);
  reserved.reserved_per_gpu = {term_years, 0.0,
                               price_of(r.type.price_per_hour, term).value_or(0) / gpn};
  const double cap = reserved.reserved_gpus * economics::HOURS_PER_MONTH;
  TcoOptionResult o = fleet_and_cloud_option(
      x, x.owned(), reserved, cap, "fixed",
      owned_text(x) + " and " + grouped_number(r.nodes, 0) + " " + r.type.id + " reserved for " +
          grouped_number(term_years, 0) + (term_years == 1 ? " year, renewed" : " years") +
          ", billed every hour of the term; nothing beyond");
  if (o.has_costs()) {
    o.reserved_nodes = r.nodes;
    o.reserved_instance = r.type.id;
  }
  return o;
}

//! The burst option: the owned servers, then the elastic cloud pools up to their maximum nodes
//! (spot for the spot-tolerant work, on-demand for the rest); demand above both is unserved.
TcoOptionResult burst_option(const Options& x) {
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
  TcoOptionResult o = fleet_and_cloud_option(
      x, x.owned(), burst, cap, "fixed",
      owned_text(x) + ", then burst to the elastic cloud pools up to their maximum (" +
          grouped_number(cap_gpus, 0) + " GPUs), spot for the spot-tolerant work");
  if (o.has_costs()) o.burst_cap_gpus = cap_gpus;
  return o;
}

//! One compared option's projection; an error when its inputs are invalid.
TcoOptionResult option_projection(const Options& x, TcoOption option) {
  const TcoConfig& t = x.tco();
  std::optional<TcoOptionResult> o;
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
  TcoOptionResult out = o ? std::move(*o) : invalid_option(INVALID);
  out.option = option;
  return out;
}

//! Mean of one figure over the replications: exact when they all agree (months, a fixed fleet),
//! else their sum over their count.
double mean_of(const std::vector<double>& v) {
  if (std::all_of(v.begin(), v.end(), [&](double x) { return x == v.front(); })) return v.front();
  double sum = 0;
  for (const double x : v) sum += x;
  return sum / double(v.size());
}

//! The mean over `all` of the figure `get` picks from each.
template <class T, class Get>
double mean_by(const std::vector<const T*>& all, Get get) {
  std::vector<double> v;
  v.reserve(all.size());
  for (const T* x : all) v.push_back(get(*x));
  return mean_of(v);
}

//! The element-wise mean over `all` of the series `get` picks; the first one's when the lengths
//! differ (no mean is meaningful then).
template <class T, class Get>
std::vector<double> mean_series(const std::vector<const T*>& all, Get get) {
  const std::vector<double>& first = get(*all.front());
  for (const T* x : all)
    if (get(*x).size() != first.size()) return first;
  std::vector<double> out(first.size());
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = mean_by(all, [&](const T& x) { return get(x)[i]; });
  return out;
}

//! The mean energy of one option over the replications.
TcoEnergy mean_energy(const std::vector<const TcoEnergy*>& all) {
  TcoEnergy e = *all.front();
  e.kwh = mean_by(all, [](const TcoEnergy& x) { return x.kwh; });
  e.tco2e = mean_by(all, [](const TcoEnergy& x) { return x.tco2e; });
  e.embodied_tco2e = mean_by(all, [](const TcoEnergy& x) { return x.embodied_tco2e; });
  e.power_cost_usd = mean_by(all, [](const TcoEnergy& x) { return x.power_cost_usd; });
  e.monthly_kwh = mean_series(
      all, [](const TcoEnergy& x) -> auto& { return x.monthly_kwh; });
  e.monthly_tco2e = mean_series(
      all, [](const TcoEnergy& x) -> auto& { return x.monthly_tco2e; });
  for (std::size_t y = 0; y < e.per_year.size(); ++y) {
    const auto year = [&](const TcoEnergy& x) -> const TcoEnergy::Year& { return x.per_year[y]; };
    e.per_year[y].usd = mean_by(all, [&](const TcoEnergy& x) { return year(x).usd; });
    e.per_year[y].kwh = mean_by(all, [&](const TcoEnergy& x) { return year(x).kwh; });
    e.per_year[y].tco2e = mean_by(all, [&](const TcoEnergy& x) { return year(x).tco2e; });
    e.per_year[y].embodied_tco2e =
        mean_by(all, [&](const TcoEnergy& x) { return year(x).embodied_tco2e; });
  }
  if (e.burst_kwh) e.burst_kwh = mean_by(all, [](const TcoEnergy& x) { return *x.burst_kwh; });
  return e;
}

//! The mean of an optional figure over the replications; absent when the first has none.
template <class T, class Get>
std::optional<double> mean_optional(const std::vector<const T*>& all, Get get) {
  if (!get(*all.front())) return std::nullopt;
  return mean_by(all, [&](const T& x) { return get(x).value_or(0.0); });
}

//! One option's figures as means over the replications (the first's when some have none); its
//! serving and months are set by the caller.
TcoOptionResult mean_option(const std::vector<const TcoOptionResult*>& all) {
  TcoOptionResult o = *all.front();
  for (const TcoOptionResult* x : all)
    if (!x->has_costs() || x->fleet.has_value() != o.fleet.has_value() ||
        x->energy.has_value() != o.energy.has_value())
      return o;
  using R = TcoOptionResult;
  o.monthly_usd = mean_series(
      all, [](const R& x) -> auto& { return x.monthly_usd; });
  o.cumulative_usd = mean_series(
      all, [](const R& x) -> auto& { return x.cumulative_usd; });
  o.total_usd = mean_by(all, [](const R& x) { return x.total_usd; });
  o.npv_usd = mean_by(all, [](const R& x) { return x.npv_usd; });
  o.unserved_gpu_hours = mean_by(all, [](const R& x) { return x.unserved_gpu_hours; });
  o.served_gpu_hours = mean_by(all, [](const R& x) { return x.served_gpu_hours; });
  o.usd_per_served_gpu_hour =
      mean_optional(all, [](const R& x) { return x.usd_per_served_gpu_hour; });
  o.burst_gpu_hours = mean_optional(all, [](const R& x) { return x.burst_gpu_hours; });
  o.burst_usd = mean_optional(all, [](const R& x) { return x.burst_usd; });
  o.burst_cap_gpus = mean_optional(all, [](const R& x) { return x.burst_cap_gpus; });
  if (o.fleet)
    o.fleet->nodes_by_month = mean_series(
        all, [](const R& x) -> auto& { return x.fleet->nodes_by_month; });
  if (o.cost_by_purchase) {
    TcoCostByPurchase& c = *o.cost_by_purchase;
    c.on_prem = mean_optional(all, [](const R& x) { return x.cost_by_purchase->on_prem; });
    c.reserved = mean_by(all, [](const R& x) { return x.cost_by_purchase->reserved; });
    c.spot = mean_by(all, [](const R& x) { return x.cost_by_purchase->spot; });
    c.on_demand = mean_by(all, [](const R& x) { return x.cost_by_purchase->on_demand; });
  }
  if (o.energy) {
    std::vector<const TcoEnergy*> energies;
    for (const R* x : all) energies.push_back(&*x->energy);
    o.energy = mean_energy(energies);
  }
  return o;
}

//! The mean power assumptions over the replications (sources from the first).
TcoEnergyAssumptions mean_assumptions(const std::vector<const TcoProjection*>& all) {
  using P = TcoProjection;
  TcoEnergyAssumptions a = all.front()->energy;
  const auto hour = [&](TcoGpuHourAssumptions& h, auto pick) {
    h.busy_kwh = mean_by(all, [&](const P& x) { return pick(x).busy_kwh; });
    h.idle_kwh = mean_by(all, [&](const P& x) { return pick(x).idle_kwh; });
    h.busy_kg_co2e = mean_by(all, [&](const P& x) { return pick(x).busy_kg_co2e; });
    h.embodied_kg_co2e = mean_by(all, [&](const P& x) { return pick(x).embodied_kg_co2e; });
  };
  hour(a.cloud, [](const P& x) -> const TcoGpuHourAssumptions& { return x.energy.cloud; });
  a.embodied_kgco2e_per_node =
      mean_by(all, [](const P& x) { return x.energy.embodied_kgco2e_per_node; });
  a.embodied_life_years = mean_by(all, [](const P& x) { return x.energy.embodied_life_years; });
  if (a.on_prem) {
    for (const P* x : all)
      if (!x->energy.on_prem) return a;
    hour(a.on_prem->hour,
         [](const P& x) -> const TcoGpuHourAssumptions& { return x.energy.on_prem->hour; });
    TcoEnergyAssumptions::OnPrem& o = *a.on_prem;
    o.node_idle_kw = mean_by(all, [](const P& x) { return x.energy.on_prem->node_idle_kw; });
    o.node_busy_kw = mean_by(all, [](const P& x) { return x.energy.on_prem->node_busy_kw; });
    o.pue = mean_by(all, [](const P& x) { return x.energy.on_prem->pue; });
    o.usd_per_kwh = mean_by(all, [](const P& x) { return x.energy.on_prem->usd_per_kwh; });
    o.g_co2e_per_kwh = mean_by(all, [](const P& x) { return x.energy.on_prem->g_co2e_per_kwh; });
  }
  return a;
}

//! The mean cloud mix over the replications (the price source from the first).
TcoCloudAssumptions mean_cloud(const std::vector<const TcoProjection*>& all) {
  using P = TcoProjection;
  TcoCloudAssumptions c = all.front()->cloud;
  c.on_demand_usd_per_gpu_hour =
      mean_by(all, [](const P& x) { return x.cloud.on_demand_usd_per_gpu_hour; });
  c.spot_usd_per_gpu_hour = mean_by(all, [](const P& x) { return x.cloud.spot_usd_per_gpu_hour; });
  c.spot_share = mean_by(all, [](const P& x) { return x.cloud.spot_share; });
  c.spot_overhead = mean_by(all, [](const P& x) { return x.cloud.spot_overhead; });
  c.spot_tolerant_share = mean_by(all, [](const P& x) { return x.cloud.spot_tolerant_share; });
  return c;
}

}  // namespace

double TcoFleet::nodes() const {
  return nodes_by_month.empty() ? 0.0
                                : *std::max_element(nodes_by_month.begin(), nodes_by_month.end());
}

TcoOptionResult* TcoProjection::find(TcoOption o) {
  for (TcoOptionResult& r : options)
    if (r.option == o) return &r;
  return nullptr;
}

const TcoOptionResult* TcoProjection::find(TcoOption o) const {
  for (const TcoOptionResult& r : options)
    if (r.option == o) return &r;
  return nullptr;
}

void choose_cheapest(TcoProjection& p) {
  p.cheapest_by_npv.reset();
  p.cheapest_note.clear();
  if (!(p.initial_demand_gpu_hours_per_month > 0)) {
    p.cheapest_note = "the workload offers no GPU-hours, so there is no demand to project";
    return;
  }
  // NOTE: equal NPVs go to the option first by name, so the answer does not depend on the order
  // the scenario compares them in.
  const TcoOptionResult* best = nullptr;
  for (const TcoOptionResult& o : p.options) {
    if (!o.serves_demand || !o.has_costs()) continue;
    if (best == nullptr || o.npv_usd < best->npv_usd ||
        (o.npv_usd == best->npv_usd && enum_name(o.option) < enum_name(best->option)))
      best = &o;
  }
  if (best != nullptr)
    p.cheapest_by_npv = best->option;
  else
    p.cheapest_note = "no compared option serves the projected demand";
}

TcoProjection tco_projection(const Scenario& sc, const CompiledScenario& cs, const GpuHours& all,
                             const std::vector<double>& pool_busy_gpu_s) {
  const TcoConfig& t = *sc.tco;
  const double window_h = (sc.horizon_s - sc.warmup_s) / SECONDS_PER_HOUR;
  const uint32_t months = t.years * 12;
  // Demand is what arrives, not what the simulated fleet served: the workload's offered GPU-hours
  // in the run's first month (rates under their profiles x mean GPUs x mean duration), the same
  // for every option. NOTE: month 0's, so growth inside the run is not counted twice.
  const double month0_work =
      offered_work_rate(sc, 0, economics::HOURS_PER_MONTH * SECONDS_PER_HOUR);
  const double d0 = month0_work * economics::HOURS_PER_MONTH;
  const auto demand = economics::monthly_demand_gpu_hours({d0, t.demand_growth_per_month, months});
  TcoProjection out;
  out.months = months;
  out.accrual = t.accrual;
  out.discount_rate = t.discount_rate;
  out.demand_growth_per_month = t.demand_growth_per_month;
  out.initial_demand_gpu_hours_per_month = d0;
  out.served_gpu_hours_per_month =
      window_h > 0 ? all.useful * economics::HOURS_PER_MONTH / window_h : 0;
  if (!demand) return out;
  out.demand_gpu_hours_per_month = series(*demand);

  std::string source;
  const double month_s = economics::HOURS_PER_MONTH * SECONDS_PER_HOUR;
  const double tolerant_share =
      month0_work > 0 ? offered_spot_tolerant_work_rate(sc, 0, month_s) / month0_work : 1.0;
  const economics::CloudMix mix = cloud_mix(sc, cs, all, pool_busy_gpu_s, tolerant_share, source);
  out.cloud = {mix.on_demand_usd_per_gpu_hour,
               mix.spot_usd_per_gpu_hour,
               mix.spot_share,
               mix.spot_overhead,
               mix.reserved_gpus,
               tolerant_share,
               source};

  const TcoPower power = tco_power(sc, pool_busy_gpu_s);
  out.energy = energy_assumptions(power, t.server_pool_idx.has_value());
  out.owned_nodes = t.owned_nodes;
  if (std::any_of(t.compare.begin(), t.compare.end(),
                  [](TcoOption o) { return o == TcoOption::on_prem || o == TcoOption::staged; }))
    out.fill_target = t.fill_target;
  const economics::CostBasis basis =
      t.accrual ? economics::CostBasis::accrual : economics::CostBasis::cash;
  const Options ctx{sc, cs, *demand, basis, mix, power};
  for (const TcoOption option : t.compare) out.options.push_back(option_projection(ctx, option));
  const TcoOptionResult* cloud = out.find(TcoOption::cloud);
  if (cloud != nullptr && cloud->has_costs()) {
    const Eigen::Map<const Eigen::VectorXd> cloud_cum(cloud->cumulative_usd.data(),
                                                      Eigen::Index(cloud->cumulative_usd.size()));
    for (const TcoOptionResult& o : out.options) {
      // NOTE: an option that leaves demand unserved is cheap because it does less; no break-even.
      if (o.option == TcoOption::cloud || !o.serves_demand) continue;
      const auto m = economics::break_even_month(
          Eigen::Map<const Eigen::VectorXd>(o.cumulative_usd.data(),
                                            Eigen::Index(o.cumulative_usd.size())),
          cloud_cum);
      out.break_even.push_back({o.option, m ? std::optional<double>(*m) : std::nullopt});
    }
  }
  choose_cheapest(out);
  return out;
}

void summarize_tco(const Scenario& sc, const CompiledScenario& cs, const McStudy& st, Summary& s) {
  s.tco.reset();
  s.tco_stats.clear();
  s.tco_values.clear();
  if (!sc.tco) return;
  std::vector<TcoProjection> runs;
  for (const std::size_t k : s.stats.in_statistics) {
    const ReplicaMetrics& m = st.replicas[k].metrics;
    std::vector<double> busy;
    for (const PoolMetrics& p : m.pools) busy.push_back(p.busy_gpu_s);
    runs.push_back(tco_projection(sc, cs, m.gpu_hours, busy));
  }
  if (runs.empty()) return;
  const bool spread = runs.size() > 1;
  std::vector<const TcoProjection*> all;
  for (const TcoProjection& r : runs) all.push_back(&r);
  TcoProjection out = runs.front();
  out.replications = uint32_t(runs.size());
  out.served_gpu_hours_per_month =
      mean_by(all, [](const TcoProjection& x) { return x.served_gpu_hours_per_month; });
  if (!out.projected()) {
    s.tco = std::move(out);
    return;
  }
  out.cloud = mean_cloud(all);
  out.energy = mean_assumptions(all);
  for (std::size_t i = 0; i < out.options.size(); ++i) {
    std::vector<const TcoOptionResult*> each;
    for (const TcoProjection& r : runs) each.push_back(&r.options[i]);
    TcoOptionResult& option = out.options[i];
    option = mean_option(each);
    // An option serves the demand only if it does in every replication; it stops keeping up in
    // the earliest month any replication saw it fall short.
    const std::string name(enum_name(option.option));
    option.serves_demand = true;
    option.stops_keeping_up_month.reset();
    option.runs_out_month.reset();
    std::vector<std::vector<double>> cum;
    std::vector<double> npv, total, kwh, tco2e;
    for (const TcoOptionResult* o : each) {
      option.serves_demand = option.serves_demand && o->serves_demand;
      if (o->stops_keeping_up_month)
        option.stops_keeping_up_month =
            std::min(option.stops_keeping_up_month.value_or(*o->stops_keeping_up_month),
                     *o->stops_keeping_up_month);
      if (o->runs_out_month)
        option.runs_out_month =
            std::min(option.runs_out_month.value_or(*o->runs_out_month), *o->runs_out_month);
      if (!o->has_costs()) continue;
      cum.push_back(o->cumulative_usd);
      npv.push_back(o->npv_usd);
      total.push_back(o->total_usd);
      if (o->energy) {
        kwh.push_back(o->energy->kwh);
        tco2e.push_back(o->energy->tco2e);
      }
    }
    if (option.fleet)
      option.fleet->purchases = purchases_of(option.fleet->nodes_by_month, sc.tco->owned_nodes);
    if (npv.size() != runs.size()) continue;
    // NOTE: one replication has no spread, so no band (as no CI).
    if (spread) {
      std::vector<std::span<const double>> rows(cum.begin(), cum.end());
      option.cumulative_usd_band = percentile_band(rows, cum.front().size());
    }
    for (const auto& [key, values] :
         {std::pair{"npv_usd", &npv}, std::pair{"total_usd", &total}, std::pair{"energy.kwh", &kwh},
          std::pair{"energy.tco2e", &tco2e}})
      if (values->size() == runs.size())
        s.tco_stats.emplace_back("tco.options." + name + "." + key,
                                 statistic_of(summarize(*values), spread));
    s.tco_values.emplace_back("tco.options." + name + ".npv_usd", npv);
    s.tco_values.emplace_back("tco.options." + name + ".total_usd", total);
  }
  // NOTE: "never" sorts last, so the median is a month only when most replications break even.
  for (TcoBreakEven& b : out.break_even) {
    std::vector<double> months;
    for (const TcoProjection& r : runs) {
      double m = std::numeric_limits<double>::infinity();
      for (const TcoBreakEven& e : r.break_even)
        if (e.option == b.option && e.month) m = *e.month;
      months.push_back(m);
    }
    std::sort(months.begin(), months.end());
    const double median = months[(months.size() - 1) / 2];
    b.month = std::isinf(median) ? std::nullopt : std::optional<double>(median);
  }
  // NOTE: as in one projection, an option that leaves demand unserved has no break-even.
  std::erase_if(out.break_even, [&](const TcoBreakEven& b) {
    const TcoOptionResult* o = out.find(b.option);
    return o == nullptr || !o->serves_demand;
  });
  choose_cheapest(out);
  // NOTE: the projection's demand is the offered one, but the cloud mix and the hybrid base come
  // from the simulated fleet; a fleet that cannot keep up says so beside every figure.
  if (cs.cannot_keep_up() || s.stats.n_saturated > 0)
    out.caveat =
        "The simulated fleet cannot keep up with the demand (" +
        (cs.reaches_capacity_s && !overloaded(cs.offered_load)
             ? "it reaches capacity in month " +
                   grouped_number(*cs.reaches_capacity_s / PROFILE_MONTH_S, 1)
             : "offered " + grouped_number(100 * cs.offered_load, 0) + "% of its capacity") +
        "): its spot, on-demand and burst shares are those of a saturated run. The demand "
        "projected is the offered one; compare options on a fleet that keeps up.";
  s.tco = std::move(out);
}

}  // namespace gpuplan::study
