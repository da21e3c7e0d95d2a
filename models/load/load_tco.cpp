// The "tco" section: projection settings, the instance that prices cloud GPU-hours, and the
// rule that every compared option has a price for all of its demand (docs/tco.md).
#include <algorithm>

#include "models/load/loader.h"

namespace gpuplan::loading {
namespace {

// A cloud instance to name in a suggestion: the first catalog type with an on-demand price and
// the GPU of the scenario's first pool (the one the projection's demand ran on), else p5.48xlarge.
std::string suggested_instance(const Scenario& sc, const Catalog& catalog) {
  const GpuSpec* gpu = sc.pools.empty() ? nullptr : sc.pools.front().gpu;
  for (const InstanceType& it : catalog.instances) {
    if (gpu != nullptr && it.gpu == gpu->id && it.provider != "on_prem" &&
        it.price_per_hour.on_demand.value_or(0) > 0)
      return it.id;
  }
  return "p5.48xlarge";
}

}  // namespace

void Loader::load_tco(const json& o, Scenario& sc) {
  const std::string p = "/tco";
  if (!object(o, p, "a TCO projection, e.g. {\"years\": 3, \"demand_growth_per_month\": 0.02}"))
    return;
  check_keys(o, p,
             {"years", "demand_growth_per_month", "discount_rate", "compare", "basis",
              "on_prem_nodes", "hybrid_nodes", "server", "cloud", "owned_nodes", "buy_nodes",
              "reserve_nodes", "fill_target"});
  TcoConfig t;
  if (const json* v = get(o, "years")) {
    if (auto n = integer(*v, p + "/years", 1, 30)) t.years = static_cast<uint32_t>(*n);
  }
  // NOTE: without its own growth the projection grows as the simulated demand does.
  const double simulated = sc.demand.profile.growth_per_month;
  if (simulated >= -0.5 && simulated <= 1) t.demand_growth_per_month = simulated;
  if (auto x = opt_number(o, p, "demand_growth_per_month", -0.5, 1)) t.demand_growth_per_month = *x;
  if (auto x = opt_number(o, p, "discount_rate", 0, 1)) t.discount_rate = *x;
  // Where each compared option was written, for errors about it: its array item, else "/tco".
  std::vector<std::string> option_ptrs(t.compare.size(), p);
  if (const json* v = get(o, "compare")) {
    if (!v->is_array() || v->empty()) {
      wrong_type(*v, p + "/compare",
                 "a non-empty array of \"cloud\", \"on_prem\", \"hybrid\", \"keep\", \"buy\", "
                 "\"staged\", \"reserve_1y\", \"reserve_3y\", \"burst\"");
    } else {
      t.compare.clear();
      option_ptrs.clear();
      for (size_t k = 0; k < v->size(); ++k) {
        if (auto c = enumerator<TcoOption>((*v)[k], child(p + "/compare", k))) {
          t.compare.push_back(*c);
          option_ptrs.push_back(child(p + "/compare", k));
        }
      }
    }
  }
  if (const json* v = get(o, "basis")) {
    if (auto b = enumerator<economics::CostBasis>(*v, p + "/basis"))
      t.accrual = *b == economics::CostBasis::accrual;
  }
  for (auto [key, field] :
       {std::pair{"on_prem_nodes", &t.on_prem_nodes}, std::pair{"hybrid_nodes", &t.hybrid_nodes},
        std::pair{"buy_nodes", &t.buy_nodes}}) {
    if (const json* v = get(o, key)) {
      if (auto n = integer(*v, child(p, key), 0, 1000000)) *field = static_cast<uint32_t>(*n);
    }
  }
  if (const json* v = get(o, "owned_nodes")) {
    if (auto n = integer(*v, p + "/owned_nodes", 0, 1000000)) t.owned_nodes = uint32_t(*n);
  }
  if (auto x = opt_number(o, p, "fill_target", 0, 1)) {
    if (*x > 0)
      t.fill_target = *x;
    else
      d_.error(p + "/fill_target", DiagCode::out_of_range,
               "fill_target is the share of the fleet staged purchases may fill, in (0, 1]: "
               "0 would buy servers without end; 0.8 leaves the headroom a queue of gangs needs");
  }
  if (const json* v = get(o, "cloud")) load_tco_cloud(*v, p + "/cloud", t);
  std::vector<std::string> templates;
  std::vector<uint32_t> template_pools;
  for (size_t k = 0; k < sc.pools.size(); ++k) {
    if (!sc.pools[k].econ.on_prem) continue;
    templates.push_back(sc.pools[k].name);
    template_pools.push_back(static_cast<uint32_t>(k));
  }
  if (const json* v = get(o, "server")) {
    if (auto k = choice(*v, p + "/server", "pool with an on_prem server template", templates))
      t.server_pool_idx = template_pools[*k];
  } else if (!templates.empty()) {
    t.server_pool_idx = template_pools.front();
  }
  // NOTE: the reserve and burst options hold only the owned servers on-prem, so they need the
  // server template only when some are owned.
  const bool needs_server =
      t.owned_nodes > 0 || std::any_of(t.compare.begin(), t.compare.end(), [](TcoOption c) {
        return c != TcoOption::cloud && c != TcoOption::reserve_1y && c != TcoOption::reserve_3y &&
               c != TcoOption::burst;
      });
  if (needs_server && !t.server_pool_idx && !sc.pools.empty()) {
    d_.error(
        t.owned_nodes > 0 && get(o, "compare") == nullptr ? p + "/owned_nodes" : p + "/compare",
        DiagCode::missing_key,
        "comparing on-prem fleets or owning servers needs a pool with \"pricing\": "
        "\"on_prem\" and an \"on_prem\" server template (capex, power) to price the servers");
  }
  check_tco_options(o, sc, t, option_ptrs);
  check_tco_prices(sc, t, option_ptrs);
  sc.tco = t;
}

void Loader::load_tco_cloud(const json& o, const std::string& p, TcoConfig& t) {
  if (!object(o, p, "{\"instance\": \"p5.48xlarge\", \"pricing\": \"on_demand\"}")) return;
  check_keys(o, p, {"instance", "pricing"});
  TcoCloudInstance c;
  if (const json* v = get(o, "pricing")) {
    const auto pricing = enumerator<Pricing>(*v, p + "/pricing");
    if (!pricing) return;
    if (*pricing != Pricing::on_demand && *pricing != Pricing::spot) {
      d_.error(p + "/pricing", DiagCode::out_of_range,
               "the projection buys cloud GPU-hours as they are needed, so \"pricing\" is "
               "\"on_demand\" or \"spot\"; reservations come from the scenario's reserved pools");
      return;
    }
    c.pricing = *pricing;
  }
  const json* v = need(o, p, "instance", "the instance type that prices cloud GPU-hours");
  if (v == nullptr) return;
  const auto id = string(*v, p + "/instance");
  if (!id) return;
  const InstanceType* inst = catalog_.find_instance(*id);
  if (inst == nullptr) {
    std::vector<std::string> ids;
    for (const InstanceType& it : catalog_.instances) ids.push_back(it.id);
    d_.unknown_name(p + "/instance", "instance type", *id, ids);
    return;
  }
  const std::optional<double> price = price_of(inst->price_per_hour, c.pricing);
  if (!price || !(*price > 0)) {
    d_.error(p + "/instance", DiagCode::infeasible,
             "instance type " + in_quotes(inst->id) + " has no " +
                 std::string(enum_name(c.pricing)) +
                 " price to price the cloud GPU-hours; name an instance that has one");
    return;
  }
  c.type = *inst;
  c.gpu = builtin_catalog().find_gpu(inst->gpu);
  c.usd_per_gpu_hour = *price / inst->gpus_per_node;
  t.cloud = c;
}

// The planner's options need what they are about: servers owned to keep, servers to buy, nodes
// and a price for the reservation's term, a pool that can burst.
void Loader::check_tco_options(const json& o, const Scenario& sc, TcoConfig& t,
                               const std::vector<std::string>& option_ptrs) {
  const std::string p = "/tco";
  const Pool* reserved_pool = nullptr;
  const Pool* first_cloud = nullptr;
  uint32_t reserved_nodes = 0;
  bool elastic = false;
  for (const Pool& pool : sc.pools) {
    if (pool.pricing == Pricing::on_prem) continue;
    if (first_cloud == nullptr) first_cloud = &pool;
    if (pool.econ.reserved) {
      if (reserved_pool == nullptr) reserved_pool = &pool;
      if (pool.instance == reserved_pool->instance) reserved_nodes += pool.count;
    } else if (pool.econ.elastic) {
      elastic = true;
    }
  }
  std::optional<uint32_t> reserve_nodes;
  if (const json* v = get(o, "reserve_nodes")) {
    if (auto n = integer(*v, p + "/reserve_nodes", 1, 1000000)) reserve_nodes = uint32_t(*n);
  }
  for (size_t k = 0; k < t.compare.size(); ++k) {
    const TcoOption option = t.compare[k];
    const std::string head = "tco.compare includes " + in_quotes(enum_name(option)) + " but ";
    switch (option) {
      case TcoOption::keep:
        if (t.owned_nodes == 0)
          d_.error(option_ptrs[k], DiagCode::missing_key,
                   head +
                       "no servers are owned: add \"owned_nodes\": N to tco, the on-prem "
                       "servers already bought (a sunk cost: only their running costs count)");
        break;
      case TcoOption::buy:
        if (!t.buy_nodes)
          d_.error(option_ptrs[k], DiagCode::missing_key,
                   head +
                       "it has nothing to buy: add \"buy_nodes\": N to tco, the servers "
                       "bought in month 0 beside the owned ones");
        break;
      case TcoOption::burst:
        if (!elastic)
          d_.error(option_ptrs[k], DiagCode::missing_key,
                   head +
                       "no cloud pool is elastic: add a spot or on-demand pool with "
                       "\"elastic\": {\"min\": 0, \"max\": N}; its max caps the burst");
        break;
      case TcoOption::reserve_1y:
      case TcoOption::reserve_3y: {
        const InstanceType* type =
            reserved_pool != nullptr ? &sc.instances[reserved_pool->instance_idx]
            : t.cloud                ? &t.cloud->type
            : first_cloud != nullptr ? &sc.instances[first_cloud->instance_idx]
                                     : nullptr;
        const uint32_t nodes = reserve_nodes.value_or(reserved_pool ? reserved_nodes : 0);
        const Pricing term =
            option == TcoOption::reserve_1y ? Pricing::reserved_1y : Pricing::reserved_3y;
        if (type == nullptr) {
          d_.error(option_ptrs[k], DiagCode::missing_key,
                   head +
                       "no cloud instance is named: add a reserved pool or \"cloud\": "
                       "{\"instance\": ...} to tco");
        } else if (nodes == 0) {
          d_.error(option_ptrs[k], DiagCode::missing_key,
                   head + "no reserved pool says how many nodes: add \"reserve_nodes\": N to tco");
        } else if (!(price_of(type->price_per_hour, term).value_or(0) > 0)) {
          d_.error(option_ptrs[k], DiagCode::infeasible,
                   head + "instance type " + in_quotes(type->id) + " has no " +
                       std::string(enum_name(term)) +
                       " price; compare the other term or name an instance that has one");
        } else if (!t.reserve || t.reserve->type.id == type->id) {
          t.reserve = TcoReservation{*type, nodes};
        }
        break;
      }
      case TcoOption::cloud:
      case TcoOption::on_prem:
      case TcoOption::hybrid:
      case TcoOption::staged:
        break;
    }
  }
}

// Every compared option must price all of its demand: the cloud option's GPU-hours above the
// reserved pools and the hybrid option's burst need an on-demand or spot price (tco.cloud, or
// the scenario's cloud pools: an on-demand price of any cloud pool's instance, or spot pools
// that take all of the non-reserved cloud work). Without one the option would cost $0.
void Loader::check_tco_prices(const Scenario& sc, const TcoConfig& t,
                              const std::vector<std::string>& option_ptrs) {
  if (t.cloud) return;
  bool any_cloud = false, non_reserved = false, non_spot = false, on_demand_price = false;
  std::string unpriced;  // a cloud pool's instance without an on-demand price
  for (const Pool& pool : sc.pools) {
    if (pool.pricing == Pricing::on_prem) continue;
    any_cloud = true;
    const bool reserved = pool.econ.reserved.has_value();
    non_reserved = non_reserved || !reserved;
    non_spot = non_spot || (!reserved && pool.pricing != Pricing::spot);
    if (pool.econ.on_demand_per_node_hour > 0)
      on_demand_price = true;
    else if (unpriced.empty())
      unpriced = pool.instance;
  }
  const bool spot_takes_all = non_reserved && !non_spot;
  if (any_cloud && (on_demand_price || spot_takes_all)) return;
  const std::string fix =
      "add an on-demand or spot cloud pool, or an instance under tco.cloud, "
      "e.g. \"cloud\": {\"instance\": " +
      in_quotes(suggested_instance(sc, catalog_)) + "}";
  for (size_t k = 0; k < t.compare.size(); ++k) {
    const TcoOption option = t.compare[k];
    // NOTE: only the cloud, hybrid and burst options buy GPU-hours as they are needed.
    if (option != TcoOption::cloud && option != TcoOption::hybrid && option != TcoOption::burst)
      continue;
    const std::string head = "tco.compare includes " + in_quotes(enum_name(option)) + " but ";
    std::string why;
    if (!any_cloud) {
      why = option == TcoOption::cloud ? "no pool has a cloud price"
                                       : "no pool prices its burst GPU-hours";
    } else {
      why = std::string(option == TcoOption::cloud ? "its GPU-hours above the reserved pools"
                                                   : "its burst GPU-hours") +
            " have no price: instance type " + in_quotes(unpriced) + " has no on-demand price";
    }
    d_.error(option_ptrs[k], DiagCode::missing_key, head + why + "; " + fix);
  }
}

}  // namespace gpuplan::loading
