#include "models/load/loader.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::loading {

// A catalog GPU id (case-insensitive), returned in the catalog's spelling.
std::optional<std::string> Loader::gpu_id(const json& v, const std::string& ptr) {
  auto s = string(v, ptr);
  if (!s) return std::nullopt;
  if (const GpuSpec* g = catalog_.find_gpu(*s)) return g->id;
  std::vector<std::string> ids;
  for (const auto& g : catalog_.gpus) ids.push_back(g.id);
  d_.unknown_name(ptr, "GPU model", *s, ids);
  return std::nullopt;
}

void Loader::load_instances(const json& arr, Scenario& sc) {
  if (!arr.is_array()) return wrong_type(arr, "/instances", "an array of instance types");
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string p = child("/instances", i);
    const json& o = arr[i];
    if (!object(o, p)) continue;
    check_keys(o, p,
               {"id", "gpu", "gpus_per_node", "price_per_hour", "provider", "intra_node_fabric",
                "nics", "nic_gbps", "region", "source", "as_of", "notes"});
    InstanceType it;
    bool ok = true;
    auto req = [&](const char* key, std::string_view hint) { return need(o, p, key, hint); };
    if (const json* v = req("id", "the instance type's name, e.g. \"lab.g8\"")) {
      if (auto s = name(*v, p + "/id")) {
        if (auto [at, fresh] = seen.try_emplace(*s, i); !fresh) {
          d_.error(p + "/id", DiagCode::out_of_range,
                   "duplicate instance id " + in_quotes(*s) + " (also /instances/" +
                       std::to_string(at->second) + "); ids must be unique");
        }
        it.id = *s;
      }
    }
    // NOTE: an id the catalog has may give only prices: the row keeps its hardware (this is how
    // a price the catalog lacks, e.g. Alibaba Cloud's, is supplied).
    const InstanceType* known = it.id.empty() ? nullptr : catalog_.find_instance(it.id);
    const bool price_only = known != nullptr && !o.contains("gpu") && !o.contains("gpus_per_node");
    if (price_only) {
      const std::string id = it.id;
      it = *known;
      it.id = id;
      it.price_per_hour = {};
      it.derived.clear();
      it.source = "price given in the scenario";
      it.as_of.clear();
      it.confidence = "scenario";
      it.notes.clear();
    } else {
      if (const json* v = req("gpu", "a GPU model such as \"H100-SXM\"")) {
        auto g = gpu_id(*v, p + "/gpu");
        ok = ok && g.has_value();
        if (g) it.gpu = *g;
      }
      if (const json* v = req("gpus_per_node", "GPUs in one node, e.g. 8")) {
        auto n = integer(*v, p + "/gpus_per_node", 1, 1024);
        ok = ok && n.has_value();
        if (n) it.gpus_per_node = static_cast<uint32_t>(*n);
      }
      it.provider = "custom";
      it.intra_node_fabric = "pcie";
    }
    if (const json* v = req("price_per_hour", "USD per node-hour, e.g. {\"on_demand\": 2.0}")) {
      load_prices(*v, p + "/price_per_hour", it.price_per_hour);
    }
    if (const json* v = get(o, "provider")) {
      if (auto s = string(*v, p + "/provider")) it.provider = *s;
    }
    if (const json* v = get(o, "intra_node_fabric")) {
      if (auto k = choice(*v, p + "/intra_node_fabric", "intra-node fabric", FABRICS)) {
        it.intra_node_fabric = FABRICS[*k];
      }
    }
    if (const json* v = get(o, "nics")) {
      if (auto n = integer(*v, p + "/nics", 0, 1024)) it.nics = static_cast<uint32_t>(*n);
    }
    if (const json* v = get(o, "nic_gbps")) {
      if (auto x = number(*v, p + "/nic_gbps", 0, INF)) it.nic_gbps = *x;
    }
    for (auto [key, field] : {std::pair{"region", &it.region}, std::pair{"source", &it.source},
                              std::pair{"as_of", &it.as_of}, std::pair{"notes", &it.notes}}) {
      if (const json* v = get(o, key)) {
        if (auto s = string(*v, child(p, key))) *field = *s;
      }
    }
    if (it.id.empty()) continue;
    if (!ok) broken_.push_back(it.id);
    catalog_.upsert(it);
    sc.instances.push_back(std::move(it));
  }
}

void Loader::load_prices(const json& o, const std::string& p, InstancePrices& prices) {
  if (!object(o, p, "an object of prices in USD per node-hour")) return;
  check_keys(o, p, PRICINGS);
  std::optional<double>* slots[] = {&prices.on_demand, &prices.reserved_1y, &prices.reserved_3y,
                                    &prices.spot, &prices.on_prem};
  for (size_t k = 0; k < PRICINGS.size(); ++k) {
    if (const json* v = get(o, PRICINGS[k].c_str())) {
      *slots[k] = number(*v, child(p, PRICINGS[k]), 0, INF);
    }
  }
  if (std::none_of(std::begin(slots), std::end(slots), [](auto* s) { return s->has_value(); }) &&
      std::none_of(PRICINGS.begin(), PRICINGS.end(),
                   [&](const std::string& k) { return o.contains(k); })) {
    d_.error(p, DiagCode::missing_key,
             "an instance type needs at least one price: " + list_names(PRICINGS));
  }
}

// The index of `inst` in sc.instances, appending a copy of a catalog type on first use.
uint32_t Loader::resolve_instance(const InstanceType& inst, Scenario& sc) {
  for (size_t k = 0; k < sc.instances.size(); ++k)
    if (sc.instances[k].id == inst.id) return static_cast<uint32_t>(k);
  sc.instances.push_back(inst);
  return static_cast<uint32_t>(sc.instances.size() - 1);
}

void Loader::load_pools(const json& arr, Scenario& sc) {
  if (!arr.is_array()) return wrong_type(arr, "/pools", "an array of pools");
  if (arr.empty()) {
    d_.error("/pools", DiagCode::missing_key, "needs at least one pool of nodes");
    return;
  }
  if (arr.size() > MAX_POOLS) {
    d_.error("/pools", DiagCode::out_of_range,
             "has " + std::to_string(arr.size()) + " pools; at most " + std::to_string(MAX_POOLS) +
                 " are supported");
  }
  std::vector<std::string> instance_ids;
  for (const auto& it : catalog_.instances) instance_ids.push_back(it.id);
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string p = child("/pools", i);
    const json& o = arr[i];
    PoolInfo info;
    if (!object(o, p)) {
      pool_infos_.push_back(info);
      continue;
    }
    check_keys(o, p,
               {"name", "instance", "count", "purchases", "pricing", "billing", "upfront",
                "on_prem", "spot", "elastic", "spares", "off_peak", "maintenance", "mig",
                "time_slicing", "fractional"});
    const auto pin = std::find_if(opts_.pool_pins.begin(), opts_.pool_pins.end(),
                                  [&](const PoolPin& x) { return x.pool_idx == i; });
    const PoolPin* pinned = pin == opts_.pool_pins.end() ? nullptr : &*pin;
    Pool pool;
    if (const json* v = need(o, p, "name", "names the pool in results, e.g. \"main\"")) {
      if (auto s = name(*v, p + "/name")) {
        for (size_t j = 0; j < pool_infos_.size(); ++j) {
          if (pool_infos_[j].name == *s) {
            d_.error(p + "/name", DiagCode::out_of_range,
                     "duplicate pool name " + in_quotes(*s) + " (also /pools/" + std::to_string(j) +
                         "); pool names must be unique");
          }
        }
        pool.name = *s;
      }
    }
    std::optional<std::string> instance_id;
    if (pinned) {
      instance_id = pinned->instance;
    } else if (const json* v =
                   need(o, p, "instance", "an instance type id, e.g. \"p5.48xlarge\"")) {
      instance_id = string(*v, p + "/instance");
    }
    const InstanceType* inst = nullptr;
    if (instance_id) {
      inst = catalog_.find_instance(*instance_id);
      if (inst == nullptr)
        d_.unknown_name(p + "/instance", "instance type", *instance_id, instance_ids);
    }
    std::optional<uint64_t> count;
    // NOTE: an elastic pool's "count" is optional: the nodes it starts with (default its min).
    const json pinned_count = pinned ? json(pinned->count) : json();
    if (const json* v = pinned ? &pinned_count
                        : o.contains("elastic")
                            ? get(o, "count")
                            : need(o, p, "count", "nodes in the pool, e.g. 16")) {
      count = integer(*v, p + "/count", opts_.empty_pools ? 0 : 1, 1000000);
    }
    if (const json* v = get(o, "purchases")) {
      load_purchases(*v, p + "/purchases", sc.horizon_s, o.contains("elastic"), count, pool);
    }
    size_t pricing = pinned ? static_cast<size_t>(pinned->pricing) : 0;
    bool pricing_ok = true;
    if (const json* v = pinned ? nullptr : get(o, "pricing")) {
      auto k = choice(*v, p + "/pricing", "pricing", PRICINGS);
      pricing_ok = k.has_value();
      if (k) pricing = *k;
    }
    pool.pricing = static_cast<Pricing>(pricing);
    const bool inst_ok =
        inst != nullptr && std::find(broken_.begin(), broken_.end(), inst->id) == broken_.end();
    if (inst != nullptr) {
      pool.instance = inst->id;
      pool.instance_idx = resolve_instance(*inst, sc);
      pool.gpu = builtin_catalog().find_gpu(inst->gpu);
      if (!inst->gpu_fraction.empty()) {
        d_.error(p + "/instance", DiagCode::infeasible,
                 "instance type " + in_quotes(inst->id) + " holds " + inst->gpu_fraction +
                     " of one " + inst->gpu +
                     " (a fractional vGPU, listed for price comparison); a pool needs whole "
                     "GPUs: pick a whole-GPU type, and share its GPUs with the pool's "
                     "\"fractional\" key if jobs need less than one");
      } else if (auto price = price_of(inst->price_per_hour, pool.pricing)) {
        pool.price_per_node_hour = *price;
      } else if (!inst->priced() && inst_ok && !priced_by_keys(o, pool.pricing)) {
        d_.error(p + "/instance", DiagCode::missing_key,
                 "instance type " + in_quotes(inst->id) + " (" + inst->provider +
                     ") has no price in the catalog (no dated public price exists); supply the "
                     "price you are quoted: add {\"id\": " +
                     in_quotes(inst->id) + ", \"price_per_hour\": {\"" + PRICINGS[pricing] +
                     "\": USD per node-hour}} to the scenario's \"instances\", or a catalog "
                     "overlay to \"catalog.overlays\" (see gpuplan catalog import)");
      } else if (pricing_ok && inst_ok && !priced_by_keys(o, pool.pricing)) {
        std::vector<std::string> has;
        for (size_t k = 0; k < PRICINGS.size(); ++k)
          if (price_of(inst->price_per_hour, static_cast<Pricing>(k))) has.push_back(PRICINGS[k]);
        d_.error(p + "/pricing", DiagCode::unknown_name,
                 "instance type " + in_quotes(inst->id) + " has no " + PRICINGS[pricing] +
                     " price; it has " + (has.empty() ? "none" : list_names(has)),
                 has);
      }
    }
    if (pricing_ok) load_pool_economics(o, p, pool.pricing, inst, count, pool);
    if (const json* v = get(o, "off_peak"); v != nullptr && pricing_ok)
      load_off_peak(*v, p + "/off_peak", sc.horizon_s, pool);
    if (count) pool.count = static_cast<uint32_t>(*count);
    if (const json* v = get(o, "spares")) load_spares(*v, p + "/spares", o, count, pool);
    if (const json* v = get(o, "maintenance"))
      load_maintenance(*v, p + "/maintenance", o, count, sc.horizon_s, pool);
    load_pool_sharing(o, p, pool);  // load_sharing.cpp
    info.name = pool.name;
    info.known = inst_ok && count.has_value();
    if (info.known) {
      info.gpus_per_node = inst->gpus_per_node;
      info.count = pool.count;
      info.gpus = uint64_t{pool.count} * inst->gpus_per_node;
    }
    pool_infos_.push_back(info);
    sc.pools.push_back(std::move(pool));
  }
}

// Largest GPU capacity among the pools `jc` may use and that pool's index; {0, NONE} when a
// pool it may use is itself invalid (its capacity is unknown, so no verdict is possible).
std::pair<uint64_t, size_t> Loader::capacity(const JobClass& jc) const {
  uint64_t best = 0;
  size_t best_idx = NONE;
  for (size_t k = 0; k < pool_infos_.size(); ++k) {
    const PoolInfo& info = pool_infos_[k];
    if (!jc.may_use(k)) continue;
    if (!info.known) return {0, NONE};
    // NOTE: a job fits in one node (gpus <= gpus_per_node) or takes whole nodes of one pool,
    // so either way the bound is the pool's total GPUs.
    if (info.gpus > best) {
      best = info.gpus;
      best_idx = k;
    }
  }
  return {best, best_idx};
}

std::string Loader::pool_text(uint64_t gpus, size_t idx) const {
  const PoolInfo& info = pool_infos_[idx];
  return "the largest pool this class may use, " + in_quotes(info.name) + ", has " +
         std::to_string(gpus) + " GPUs (" + std::to_string(info.count) + " nodes x " +
         std::to_string(info.gpus_per_node) + ")";
}

void Loader::check_fits(const JobClass& jc, uint32_t max_gpus, const std::string& p) {
  const auto [gpus, idx] = capacity(jc);
  if (idx == NONE || max_gpus <= gpus) return;
  d_.error(p, DiagCode::infeasible,
           "a job of this class may ask for " + std::to_string(max_gpus) + " GPUs, but " +
               pool_text(gpus, idx) + "; add nodes, allow a larger pool, or lower the request");
}

}  // namespace gpuplan::loading
