#include "models/load.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>

#include "models/jsonc.h"
#include "models/network_plan.h"
#include "models/trace.h"

namespace gpuplan {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr double INF = std::numeric_limits<double>::infinity();
//! Pools a class may use are a 64-bit mask in the compiled core (ClassSpec::pool_mask).
constexpr size_t MAX_POOLS = 64;

const std::vector<std::string> TOP_KEYS = {
    "$schema", "name",     "description", "seed",   "horizon", "warmup",   "instances",
    "pools",   "workload", "scheduler",   "limits", "tco",     "topology", "recommend"};
const std::vector<std::string> PRICINGS = {"on_demand", "reserved_1y", "reserved_3y", "spot",
                                           "on_prem"};
const std::vector<std::string> FABRICS = {"nvlink2", "nvlink3", "nvlink4", "nvlink5", "pcie"};

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t") - b + 1);
}

// Reads a leading non-negative finite number of `s` and returns it with the rest of `s`.
std::optional<std::pair<double, std::string_view>> leading_number(std::string_view s) {
  s = trim(s);
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || !std::isfinite(v) || v < 0) return std::nullopt;
  return std::pair{v, trim(s.substr(static_cast<size_t>(end - s.data())))};
}

// Seconds in one `unit` (ms s m h d w y, or the word: "30 days", "2 hours"), or nullopt.
std::optional<double> unit_seconds(std::string_view unit) {
  static constexpr std::pair<std::string_view, double> UNITS[] = {{"ms", 1e-3},
                                                                  {"millisecond", 1e-3},
                                                                  {"milliseconds", 1e-3},
                                                                  {"s", 1},
                                                                  {"sec", 1},
                                                                  {"secs", 1},
                                                                  {"second", 1},
                                                                  {"seconds", 1},
                                                                  {"m", 60},
                                                                  {"min", 60},
                                                                  {"mins", 60},
                                                                  {"minute", 60},
                                                                  {"minutes", 60},
                                                                  {"h", 3600},
                                                                  {"hr", 3600},
                                                                  {"hrs", 3600},
                                                                  {"hour", 3600},
                                                                  {"hours", 3600},
                                                                  {"d", 86400},
                                                                  {"day", 86400},
                                                                  {"days", 86400},
                                                                  {"w", 604800},
                                                                  {"week", 604800},
                                                                  {"weeks", 604800},
                                                                  {"y", 365 * 86400.0},
                                                                  {"year", 365 * 86400.0},
                                                                  {"years", 365 * 86400.0}};
  for (const auto& [name, seconds] : UNITS)
    if (unit == name) return seconds;
  return std::nullopt;
}

// Numbers in messages: integers without a decimal point, others in shortest round-trip form.
std::string num(double x) {
  if (x == std::floor(x) && std::abs(x) < 1e15) return std::to_string(static_cast<int64_t>(x));
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, x);
  return std::string(buf, res.ptr);
}

// A JSON value as a message shows it: strings quoted, containers by kind, long text cut.
std::string describe(const json& v) {
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

bool is_comment_key(const std::string& k) {
  return k == "$schema" || k.starts_with("_") || k.starts_with("x-");
}

std::string child(const std::string& ptr, std::string_view key) {
  return ptr + '/' + pointer_token(key);
}

std::string child(const std::string& ptr, size_t idx) {
  return ptr + '/' + std::to_string(idx);
}

std::string list_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

//! What the loader knows about a pool, for class references and the feasibility check.
struct PoolInfo {
  std::string name;
  uint64_t gpus = 0;  //!< count × gpus_per_node
  uint32_t gpus_per_node = 0;
  uint32_t count = 0;
  bool known = false;  //!< instance and count valid, so the capacity is trustworthy
};

// Validates one parsed scenario document and builds the typed Scenario, recording every error.
class Loader {
 public:
  Loader(Diagnostics& d, std::string base_dir, const LoadOptions& opts)
      : d_(d), base_dir_(std::move(base_dir)), opts_(opts) {}

  Scenario load(const json& root, const std::string& default_name) {
    Scenario sc;
    if (!root.is_object()) {
      d_.error("", DiagCode::wrong_type, "a scenario is a JSON object, got " + describe(root));
      return sc;
    }
    check_keys(root, "", TOP_KEYS);
    sc.name = default_name;
    if (const json* v = get(root, "name")) {
      if (auto s = string(*v, "/name")) {
        if (s->empty() || s->find_first_of("/\\") != std::string::npos) {
          d_.error("/name", DiagCode::out_of_range,
                   "name " + in_quotes(*s) +
                       " names the output folder, so it must be non-empty "
                       "and contain no '/' or '\\'");
        } else {
          sc.name = *s;
        }
      }
    }
    if (const json* v = get(root, "description"))
      sc.description = string(*v, "/description").value_or("");
    if (const json* v = get(root, "seed")) {
      if (auto s = integer(*v, "/seed", 0, std::numeric_limits<uint64_t>::max())) sc.seed = *s;
    }
    std::optional<double> horizon;
    if (const json* v = need(root, "", "horizon", "the simulated time, e.g. \"30d\"")) {
      horizon = duration(*v, "/horizon", true);
      if (horizon) sc.horizon_s = *horizon;
    }
    if (const json* v = get(root, "warmup")) {
      if (auto w = duration(*v, "/warmup", false)) {
        if (horizon && *w >= *horizon) {
          d_.error("/warmup", DiagCode::out_of_range,
                   "warmup (" + num(*w) + " s) must be shorter than the horizon (" + num(*horizon) +
                       " s), or no job would be counted");
        } else {
          sc.warmup_s = *w;
        }
      }
    }
    catalog_ = builtin_catalog();
    if (const json* v = get(root, "instances")) load_instances(*v, sc);
    if (const json* v = need(root, "", "pools", "at least one pool of nodes")) load_pools(*v, sc);
    if (const json* v = need(root, "", "workload", "at least one job class")) {
      load_workload(*v, sc);
    }
    if (const json* v = get(root, "scheduler")) load_scheduler(*v, sc);
    check_spot_eligibility(sc);
    if (const json* v = get(root, "tco")) load_tco(*v, sc);
    if (const json* v = get(root, "limits")) load_limits(*v, sc);
    if (const json* v = get(root, "topology")) load_topology(*v, sc);
    if (const json* v = get(root, "recommend")) load_recommend(*v, sc);
    return sc;
  }

 private:
  // ---- generic readers: each records a diagnostic and returns nullopt on a bad value ----

  void wrong_type(const json& v, const std::string& ptr, std::string_view expected) {
    d_.error(ptr, DiagCode::wrong_type,
             "expected " + std::string(expected) + ", got " + describe(v));
  }

  void check_keys(const json& obj, const std::string& ptr,
                  const std::vector<std::string>& allowed) {
    for (const auto& [k, v] : obj.items()) {
      if (!is_comment_key(k) && std::find(allowed.begin(), allowed.end(), k) == allowed.end()) {
        d_.unknown_key(child(ptr, k), k, allowed);
      }
    }
  }

  static const json* get(const json& obj, const char* key) {
    const auto it = obj.find(key);
    return it == obj.end() ? nullptr : &*it;
  }

  const json* need(const json& obj, const std::string& ptr, const char* key,
                   std::string_view hint) {
    const json* v = get(obj, key);
    if (v == nullptr) {
      d_.error(child(ptr, key), DiagCode::missing_key,
               "missing required key " + in_quotes(key) + " (" + std::string(hint) + ")");
    }
    return v;
  }

  bool object(const json& v, const std::string& ptr, std::string_view what = "an object") {
    if (v.is_object()) return true;
    wrong_type(v, ptr, what);
    return false;
  }

  std::optional<std::string> string(const json& v, const std::string& ptr) {
    if (v.is_string()) return v.get<std::string>();
    wrong_type(v, ptr, "a string");
    return std::nullopt;
  }

  std::optional<std::string> name(const json& v, const std::string& ptr) {
    auto s = string(v, ptr);
    if (s && s->empty()) {
      d_.error(ptr, DiagCode::out_of_range, "a name must not be empty");
      return std::nullopt;
    }
    return s;
  }

  std::optional<bool> boolean(const json& v, const std::string& ptr) {
    if (v.is_boolean()) return v.get<bool>();
    wrong_type(v, ptr, "true or false");
    return std::nullopt;
  }

  std::optional<double> number(const json& v, const std::string& ptr, double lo, double hi) {
    if (!v.is_number()) {
      wrong_type(v, ptr, "a number");
      return std::nullopt;
    }
    const double x = v.get<double>();
    if (!(x >= lo && x <= hi)) {
      d_.out_of_range(ptr, x, lo, hi);
      return std::nullopt;
    }
    return x;
  }

  std::optional<uint64_t> integer(const json& v, const std::string& ptr, uint64_t lo, uint64_t hi) {
    const bool whole_float = v.is_number_float() && std::isfinite(v.get<double>()) &&
                             v.get<double>() == std::floor(v.get<double>());
    if (!v.is_number_integer() && !whole_float) {
      wrong_type(v, ptr, "a whole number");
      return std::nullopt;
    }
    const bool negative =
        v.is_number_float() ? v.get<double>() < 0 : !v.is_number_unsigned() && v.get<int64_t>() < 0;
    const bool too_big = v.is_number_float() && v.get<double>() >= 18446744073709551615.0;
    const uint64_t x = negative || too_big   ? 0
                       : v.is_number_float() ? static_cast<uint64_t>(v.get<double>())
                                             : v.get<uint64_t>();
    if (negative || too_big || x < lo || x > hi) {
      d_.out_of_range(ptr, v.get<double>(), static_cast<double>(lo),
                      hi == std::numeric_limits<uint64_t>::max() ? INF : static_cast<double>(hi));
      return std::nullopt;
    }
    return x;
  }

  // A duration [s]: a number of seconds or "<number><unit>"; `positive` also rejects 0.
  std::optional<double> duration(const json& v, const std::string& ptr, bool positive) {
    std::optional<double> s;
    if (v.is_number()) {
      s = v.get<double>();
      if (*s < 0) {
        d_.error(ptr, DiagCode::out_of_range, "a duration cannot be negative, got " + describe(v));
        return std::nullopt;
      }
    } else if (v.is_string()) {
      s = parse_duration(v.get<std::string>());
      if (!s) {
        const bool neg = trim(v.get<std::string>()).starts_with("-");
        d_.error(ptr, neg ? DiagCode::out_of_range : DiagCode::bad_unit,
                 neg ? "a duration cannot be negative, got " + describe(v)
                     : "cannot read duration " + describe(v) +
                           "; write seconds as a number or \"<number><unit>\" with unit ms, s, "
                           "m, h, d, w or y, or the word (e.g. \"36h\", \"30 days\")");
        return std::nullopt;
      }
    } else {
      wrong_type(v, ptr, "a duration (seconds, or a string like \"36h\")");
      return std::nullopt;
    }
    if (positive && *s == 0) {
      d_.error(ptr, DiagCode::out_of_range, "duration must be greater than 0, got " + describe(v));
      return std::nullopt;
    }
    return s;
  }

  // A rate [1/s] > 0: a number per second or "<number>/<unit>".
  std::optional<double> rate(const json& v, const std::string& ptr) {
    std::optional<double> r;
    if (v.is_number()) {
      r = v.get<double>();
    } else if (v.is_string()) {
      r = parse_rate(v.get<std::string>());
      if (!r) {
        d_.error(ptr, DiagCode::bad_unit,
                 "cannot read rate " + describe(v) +
                     "; write a number per second or \"<number>/<unit>\" with unit ms, s, m, h, "
                     "d, w or y (e.g. \"12/h\")");
        return std::nullopt;
      }
    } else {
      wrong_type(v, ptr, "a rate (per second, or a string like \"12/h\")");
      return std::nullopt;
    }
    if (!(*r > 0) || !std::isfinite(*r)) {
      d_.error(ptr, DiagCode::out_of_range, "a rate must be greater than 0, got " + describe(v));
      return std::nullopt;
    }
    return r;
  }

  // One of `names` (exact); anything else is unknown_name with a suggestion.
  std::optional<size_t> choice(const json& v, const std::string& ptr, std::string_view what,
                               const std::vector<std::string>& names) {
    auto s = string(v, ptr);
    if (!s) return std::nullopt;
    const auto it = std::find(names.begin(), names.end(), *s);
    if (it == names.end()) {
      d_.unknown_name(ptr, what, *s, names);
      return std::nullopt;
    }
    return static_cast<size_t>(it - names.begin());
  }

  // A catalog GPU id (case-insensitive), returned in the catalog's spelling.
  std::optional<std::string> gpu_id(const json& v, const std::string& ptr) {
    auto s = string(v, ptr);
    if (!s) return std::nullopt;
    if (const GpuSpec* g = catalog_.find_gpu(*s)) return g->id;
    std::vector<std::string> ids;
    for (const auto& g : catalog_.gpus) ids.push_back(g.id);
    d_.unknown_name(ptr, "GPU model", *s, ids);
    return std::nullopt;
  }

  // ---- sections ----

  void load_instances(const json& arr, Scenario& sc) {
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
      if (const json* v = req("price_per_hour", "USD per node-hour, e.g. {\"on_demand\": 2.0}")) {
        load_prices(*v, p + "/price_per_hour", it.price_per_hour);
      }
      it.provider = "custom";
      if (const json* v = get(o, "provider")) {
        if (auto s = string(*v, p + "/provider")) it.provider = *s;
      }
      it.intra_node_fabric = "pcie";
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

  void load_prices(const json& o, const std::string& p, InstancePrices& prices) {
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

  static std::optional<double> price_of(const InstancePrices& prices, size_t k) {
    const std::optional<double> slots[] = {prices.on_demand, prices.reserved_1y, prices.reserved_3y,
                                           prices.spot, prices.on_prem};
    return slots[k];
  }

  void load_pools(const json& arr, Scenario& sc) {
    if (!arr.is_array()) return wrong_type(arr, "/pools", "an array of pools");
    if (arr.empty()) {
      d_.error("/pools", DiagCode::missing_key, "needs at least one pool of nodes");
      return;
    }
    if (arr.size() > MAX_POOLS) {
      d_.error("/pools", DiagCode::out_of_range,
               "has " + std::to_string(arr.size()) + " pools; at most " +
                   std::to_string(MAX_POOLS) + " are supported");
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
                 {"name", "instance", "count", "pricing", "billing", "upfront", "on_prem", "spot",
                  "elastic"});
      Pool pool;
      if (const json* v = need(o, p, "name", "names the pool in results, e.g. \"main\"")) {
        if (auto s = name(*v, p + "/name")) {
          for (size_t j = 0; j < pool_infos_.size(); ++j) {
            if (pool_infos_[j].name == *s) {
              d_.error(p + "/name", DiagCode::out_of_range,
                       "duplicate pool name " + in_quotes(*s) + " (also /pools/" +
                           std::to_string(j) + "); pool names must be unique");
            }
          }
          pool.name = *s;
        }
      }
      const InstanceType* inst = nullptr;
      if (const json* v = need(o, p, "instance", "an instance type id, e.g. \"p5.48xlarge\"")) {
        if (auto s = string(*v, p + "/instance")) {
          inst = catalog_.find_instance(*s);
          if (inst == nullptr) d_.unknown_name(p + "/instance", "instance type", *s, instance_ids);
        }
      }
      std::optional<uint64_t> count;
      // NOTE: an elastic pool's "count" is optional: the nodes it starts with (default its min).
      if (const json* v = o.contains("elastic")
                              ? get(o, "count")
                              : need(o, p, "count", "nodes in the pool, e.g. 16")) {
        count = integer(*v, p + "/count", 1, 1000000);
      }
      size_t pricing = 0;
      bool pricing_ok = true;
      if (const json* v = get(o, "pricing")) {
        auto k = choice(*v, p + "/pricing", "pricing", PRICINGS);
        pricing_ok = k.has_value();
        if (k) pricing = *k;
      }
      pool.pricing = PRICINGS[pricing];
      const bool inst_ok =
          inst != nullptr && std::find(broken_.begin(), broken_.end(), inst->id) == broken_.end();
      if (inst != nullptr) {
        pool.instance = inst->id;
        if (auto price = price_of(inst->price_per_hour, pricing)) {
          pool.price_per_node_hour = *price;
        } else if (pricing_ok && inst_ok && !priced_by_keys(o, PRICINGS[pricing])) {
          std::vector<std::string> has;
          for (size_t k = 0; k < PRICINGS.size(); ++k)
            if (price_of(inst->price_per_hour, k)) has.push_back(PRICINGS[k]);
          d_.error(p + "/pricing", DiagCode::unknown_name,
                   "instance type " + in_quotes(inst->id) + " has no " + PRICINGS[pricing] +
                       " price; it has " + (has.empty() ? "none" : list_names(has)),
                   has);
        }
      }
      if (pricing_ok) load_pool_economics(o, p, PRICINGS[pricing], inst, count, pool);
      if (count) pool.count = static_cast<uint32_t>(*count);
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

  void load_workload(const json& arr, Scenario& sc) {
    if (!arr.is_array()) return wrong_type(arr, "/workload", "an array of job classes");
    if (arr.empty()) {
      d_.error("/workload", DiagCode::missing_key, "needs at least one job class");
      return;
    }
    std::map<std::string, size_t> seen;
    for (size_t i = 0; i < arr.size(); ++i) {
      const std::string p = child("/workload", i);
      const json& o = arr[i];
      if (!object(o, p)) continue;
      check_keys(
          o, p,
          {"name", "description", "arrival", "gpus", "duration", "trace", "pools", "reference_gpu",
           "checkpoint", "spot_tolerant", "spot_fallback", "training", "comm_fraction"});
      JobClass jc;
      jc.pointer = p;
      if (const json* v = need(o, p, "name", "names the class in results, e.g. \"training\"")) {
        if (auto s = name(*v, p + "/name")) {
          if (auto [at, fresh] = seen.try_emplace(*s, i); !fresh) {
            d_.error(p + "/name", DiagCode::out_of_range,
                     "duplicate job class name " + in_quotes(*s) + " (also /workload/" +
                         std::to_string(at->second) + "); class names must be unique");
          }
          jc.name = *s;
        }
      }
      if (const json* v = get(o, "description"))
        jc.description = string(*v, p + "/description").value_or("");
      load_class_economics(o, p, jc);
      bool pools_ok = true;
      if (const json* v = get(o, "pools")) pools_ok = load_class_pools(*v, p + "/pools", jc);
      if (const json* v = get(o, "reference_gpu")) {
        if (auto g = gpu_id(*v, p + "/reference_gpu")) jc.reference_gpu = *g;
      }
      load_class_network(o, p, jc);
      if (const json* t = get(o, "trace")) {
        for (const char* key : {"arrival", "gpus", "duration"}) {
          if (o.contains(key)) {
            d_.error(child(p, key), DiagCode::unknown_key,
                     in_quotes(key) +
                         " cannot be used with \"trace\": a class either replays a "
                         "trace or draws arrivals, sizes and durations");
          }
        }
        load_trace(*t, p + "/trace", jc, pools_ok);
      } else {
        load_synthetic(o, p, jc, pools_ok);
      }
      sc.workload.push_back(std::move(jc));
    }
  }

  bool load_class_pools(const json& v, const std::string& p, JobClass& jc) {
    if (!v.is_array()) {
      wrong_type(v, p, "an array of pool names");
      return false;
    }
    if (v.empty()) {
      d_.error(p, DiagCode::out_of_range,
               "names no pool; list at least one, or leave \"pools\" out to allow every pool");
      return false;
    }
    std::vector<std::string> names;
    for (const auto& info : pool_infos_)
      if (!info.name.empty()) names.push_back(info.name);
    bool ok = true;
    for (size_t k = 0; k < v.size(); ++k) {
      auto s = string(v[k], child(p, k));
      if (s && std::find(names.begin(), names.end(), *s) == names.end()) {
        d_.unknown_name(child(p, k), "pool", *s, names);
        s.reset();
      }
      if (s) {
        jc.pools.push_back(*s);
      } else {
        ok = false;
      }
    }
    return ok;
  }

  void load_synthetic(const json& o, const std::string& p, JobClass& jc, bool pools_ok) {
    if (const json* v = need(o, p, "arrival", "e.g. {\"poisson\": {\"rate\": \"12/h\"}}")) {
      load_arrival(*v, p + "/arrival", jc);
    }
    if (const json* v = need(o, p, "gpus", "GPUs per job, e.g. 8 or {\"choice\": {...}}")) {
      if (load_gpus(*v, p + "/gpus", jc.gpus) && pools_ok)
        check_fits(jc, jc.gpus.max(), p + "/gpus");
    }
    if (jc.training && jc.training->tokens) {
      check_trained_class(o, p, jc);
    } else if (const json* v = need(o, p, "duration", "run time per job, e.g. \"2h\"")) {
      load_distribution(*v, p + "/duration", jc.duration);
    }
  }

  void load_arrival(const json& v, const std::string& p, JobClass& jc) {
    if (!object(v, p, "an arrival process, e.g. {\"poisson\": {\"rate\": \"12/h\"}}")) return;
    check_keys(v, p, {"poisson"});
    const json* poisson = need(v, p, "poisson", "e.g. {\"rate\": \"12/h\"}");
    if (poisson == nullptr || !object(*poisson, p + "/poisson")) return;
    check_keys(*poisson, p + "/poisson", {"rate"});
    if (const json* r = need(*poisson, p + "/poisson", "rate", "jobs per time, e.g. \"12/h\"")) {
      if (auto x = rate(*r, p + "/poisson/rate")) jc.rate_per_s = *x;
    }
  }

  bool load_gpus(const json& v, const std::string& p, GpuChoice& out) {
    if (v.is_number()) {
      auto n = integer(v, p, 1, 1u << 20);
      if (n) out = GpuChoice{{static_cast<uint32_t>(*n)}, {1.0}};
      return n.has_value();
    }
    if (!v.is_object()) {
      wrong_type(v, p, "a GPU count or {\"choice\": {\"1\": 0.7, \"8\": 0.3}}");
      return false;
    }
    check_keys(v, p, {"choice"});
    const json* c = need(v, p, "choice", "GPU count -> probability, e.g. {\"1\": 0.7, \"8\": 0.3}");
    const std::string cp = p + "/choice";
    if (c == nullptr || !object(*c, cp)) return false;
    if (c->empty()) {
      d_.error(cp, DiagCode::out_of_range, "lists no GPU counts; give at least one");
      return false;
    }
    bool ok = true;
    std::vector<std::pair<uint32_t, double>> entries;
    double sum = 0;
    for (const auto& [key, prob] : c->items()) {
      const std::string kp = child(cp, key);
      uint32_t n = 0;
      const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), n);
      if (ec != std::errc() || end != key.data() + key.size() || n == 0 || n > (1u << 20)) {
        d_.error(kp, DiagCode::out_of_range,
                 "GPU count " + in_quotes(key) + " must be a positive whole number, e.g. \"8\"");
        ok = false;
        continue;
      }
      if (std::any_of(entries.begin(), entries.end(), [&](auto& e) { return e.first == n; })) {
        d_.error(kp, DiagCode::out_of_range, "GPU count " + std::to_string(n) + " is listed twice");
        ok = false;
        continue;
      }
      if (!prob.is_number()) {
        wrong_type(prob, kp, "a probability (a number in (0, 1])");
        ok = false;
        continue;
      }
      const double x = prob.get<double>();
      if (!(x > 0 && x <= 1)) {
        d_.error(kp, DiagCode::out_of_range,
                 "probability must be greater than 0 and at most 1, got " + num(x));
        ok = false;
        continue;
      }
      sum += x;
      entries.emplace_back(n, x);
    }
    if (!ok) return false;
    if (std::abs(sum - 1) > 1e-6) {
      d_.error(cp, DiagCode::out_of_range,
               "probabilities sum to " + num(sum) + "; they must sum to 1");
      return false;
    }
    std::sort(entries.begin(), entries.end());
    out = GpuChoice{};
    for (const auto& [n, x] : entries) {
      out.values.push_back(n);
      out.probs.push_back(x);
    }
    return true;
  }

  // Reads {"key": D} members of a distribution; false when any is missing or bad.
  bool durations(const json& o, const std::string& p, std::initializer_list<const char*> keys,
                 std::initializer_list<double*> out, bool positive) {
    if (!object(o, p)) return false;
    std::vector<std::string> allowed(keys.begin(), keys.end());
    check_keys(o, p, allowed);
    bool ok = true;
    auto slot = out.begin();
    for (const char* key : keys) {
      std::optional<double> d;
      if (const json* v = need(o, p, key, "a duration, e.g. \"30m\"")) {
        d = duration(*v, child(p, key), positive);
      }
      if (d) **slot = *d;
      ok = ok && d.has_value();
      ++slot;
    }
    return ok;
  }

  bool load_distribution(const json& v, const std::string& p, Distribution& dist) {
    if (v.is_number() || v.is_string()) {
      auto d = duration(v, p, true);
      if (d) dist = Distribution{DistKind::fixed, *d, 0, {}, {}, 0, 0};
      return d.has_value();
    }
    static const std::vector<std::string> KINDS = {"fixed",     "exponential", "uniform",
                                                   "lognormal", "loguniform",  "empirical"};
    if (!v.is_object() || v.size() != 1) {
      wrong_type(v, p, "a duration or an object with one distribution (" + list_names(KINDS) + ")");
      return false;
    }
    const std::string& kind = v.begin().key();
    const json& body = v.begin().value();
    const std::string bp = child(p, kind);
    dist = Distribution{};
    if (kind == "fixed") {
      auto d = duration(body, bp, true);
      if (d) dist = Distribution{DistKind::fixed, *d, 0, {}, {}, 0, 0};
      return d.has_value();
    }
    if (kind == "exponential") {
      dist.kind = DistKind::exponential;
      return durations(body, bp, {"mean"}, {&dist.a}, true);
    }
    if (kind == "uniform" || kind == "loguniform") {
      const bool log = kind == "loguniform";
      dist.kind = log ? DistKind::loguniform : DistKind::uniform;
      if (!durations(body, bp, {"low", "high"}, {&dist.a, &dist.b}, log)) return false;
      if (!(dist.b > dist.a)) {
        d_.error(bp + "/high", DiagCode::out_of_range,
                 "high (" + num(dist.b) + " s) must be greater than low (" + num(dist.a) + " s)");
        return false;
      }
      return true;
    }
    if (kind == "lognormal") {
      double median = 0, p90 = 0;
      if (!durations(body, bp, {"median", "p90"}, {&median, &p90}, true)) return false;
      if (!(p90 > median)) {
        d_.error(
            bp + "/p90", DiagCode::out_of_range,
            "p90 (" + num(p90) + " s) must be greater than the median (" + num(median) + " s)");
        return false;
      }
      // z of the 90th percentile of the standard normal: p90 = median * exp(1.2815515655446004 s).
      dist.kind = DistKind::lognormal;
      dist.median_s = median;
      dist.p90_s = p90;
      dist.a = std::log(median);
      dist.b = (std::log(p90) - std::log(median)) / 1.2815515655446004;
      return true;
    }
    if (kind == "empirical") return load_empirical(body, bp, dist);
    d_.unknown_name(bp, "distribution", kind, KINDS);
    return false;
  }

  bool load_empirical(const json& o, const std::string& p, Distribution& dist) {
    if (!object(o, p)) return false;
    check_keys(o, p, {"values", "weights"});
    const json* values = need(o, p, "values", "an array of durations");
    if (values == nullptr) return false;
    if (!values->is_array() || values->empty()) {
      wrong_type(*values, p + "/values", "a non-empty array of durations");
      return false;
    }
    bool ok = true;
    std::vector<std::pair<double, double>> vw;
    for (size_t k = 0; k < values->size(); ++k) {
      auto d = duration((*values)[k], child(p + "/values", k), true);
      ok = ok && d.has_value();
      vw.emplace_back(d.value_or(0), 1.0);
    }
    if (const json* w = get(o, "weights")) {
      if (!w->is_array() || w->size() != values->size()) {
        wrong_type(*w, p + "/weights",
                   "an array of " + std::to_string(values->size()) + " weights, one per value");
        return false;
      }
      double sum = 0;
      for (size_t k = 0; k < w->size(); ++k) {
        auto x = number((*w)[k], child(p + "/weights", k), 0, INF);
        ok = ok && x.has_value();
        vw[k].second = x.value_or(0);
        sum += x.value_or(0);
      }
      if (ok && !(sum > 0)) {
        d_.error(p + "/weights", DiagCode::out_of_range, "weights sum to 0; give some weight > 0");
        return false;
      }
    }
    if (!ok) return false;
    std::stable_sort(vw.begin(), vw.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    dist.kind = DistKind::empirical;
    for (const auto& [v, w] : vw) {
      dist.values.push_back(v);
      dist.weights.push_back(w);
    }
    return true;
  }

  void load_trace(const json& v, const std::string& p, JobClass& jc, bool pools_ok) {
    TraceFormat fmt;
    bool ok = true;
    std::string path_ptr = p;
    if (v.is_string()) {
      fmt.path = v.get<std::string>();
    } else if (v.is_object()) {
      check_keys(v, p,
                 {"path", "columns", "time_format", "time_unit", "rebase", "offset", "limit"});
      path_ptr = p + "/path";
      if (const json* x = need(v, p, "path", "the CSV file, relative to the scenario file")) {
        auto s = string(*x, p + "/path");
        ok = s.has_value();
        if (s) fmt.path = *s;
      } else {
        ok = false;
      }
      if (const json* c = get(v, "columns")) {
        if (object(*c, p + "/columns")) {
          check_keys(*c, p + "/columns", {"submit", "gpus", "duration"});
          for (auto [key, field] :
               {std::pair{"submit", &fmt.submit_column}, std::pair{"gpus", &fmt.gpus_column},
                std::pair{"duration", &fmt.duration_column}}) {
            if (const json* x = get(*c, key)) {
              auto s = name(*x, child(p + "/columns", key));
              ok = ok && s.has_value();
              if (s) *field = *s;
            }
          }
        } else {
          ok = false;
        }
      }
      if (const json* x = get(v, "time_format")) {
        static const std::vector<std::string> FORMATS = {"seconds", "datetime"};
        auto k = choice(*x, p + "/time_format", "time format", FORMATS);
        ok = ok && k.has_value();
        if (k) fmt.time_format = FORMATS[*k];
      }
      if (const json* x = get(v, "time_unit")) {
        auto d = duration(*x, p + "/time_unit", true);
        ok = ok && d.has_value();
        if (d) fmt.time_scale = *d;
      }
      if (const json* x = get(v, "rebase")) {
        auto b = boolean(*x, p + "/rebase");
        ok = ok && b.has_value();
        if (b) fmt.rebase = *b;
      }
      if (const json* x = get(v, "offset")) {
        auto d = duration(*x, p + "/offset", false);
        ok = ok && d.has_value();
        if (d) fmt.offset_s = *d;
      }
      if (const json* x = get(v, "limit")) {
        auto n = integer(*x, p + "/limit", 1, std::numeric_limits<uint64_t>::max());
        ok = ok && n.has_value();
        if (n) fmt.limit = *n;
      }
    } else {
      wrong_type(v, p, "a CSV path or {\"path\": ..., \"columns\": {...}}");
      return;
    }
    if (ok && fmt.path.empty()) {
      d_.error(path_ptr, DiagCode::out_of_range, "the trace path must not be empty");
      ok = false;
    }
    if (!ok) return;
    const fs::path path(fmt.path);
    if (path.is_relative() && !base_dir_.empty()) {
      fmt.path = (fs::path(base_dir_) / path).lexically_normal().string();
    }
    jc.trace = fmt;
    if (!opts_.read_traces) return;
    auto data = read_trace(fmt, p, d_);
    if (!data) return;
    jc.trace_rows = std::move(data->rows);
    jc.skipped_rows = data->skipped_rows;
    if (!pools_ok) return;
    const auto [cap, pool] = capacity(jc);
    if (pool == NONE) return;
    // Report the first offending row in file order, and how many there are.
    const TraceRow* first = nullptr;
    uint64_t n_bad = 0;
    for (const auto& r : jc.trace_rows) {
      if (r.gpus <= cap) continue;
      ++n_bad;
      if (first == nullptr || r.line < first->line) first = &r;
    }
    if (first != nullptr) {
      d_.add(Diagnostic{fmt.path,
                        static_cast<int>(first->line),
                        p,
                        DiagCode::infeasible,
                        "a job asks for " + std::to_string(first->gpus) + " GPUs, but " +
                            pool_text(cap, pool) + "; " + std::to_string(n_bad) +
                            " row(s) ask for more; add nodes, allow a larger pool, or set a "
                            "\"limit\"",
                        {}});
    }
  }

  // Largest GPU capacity among the pools `jc` may use and that pool's index; {0, NONE} when a
  // pool it may use is itself invalid (its capacity is unknown, so no verdict is possible).
  std::pair<uint64_t, size_t> capacity(const JobClass& jc) const {
    uint64_t best = 0;
    size_t best_idx = NONE;
    for (size_t k = 0; k < pool_infos_.size(); ++k) {
      const PoolInfo& info = pool_infos_[k];
      const bool allowed = jc.pools.empty() ||
                           std::find(jc.pools.begin(), jc.pools.end(), info.name) != jc.pools.end();
      if (!allowed) continue;
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

  std::string pool_text(uint64_t gpus, size_t idx) const {
    const PoolInfo& info = pool_infos_[idx];
    return "the largest pool this class may use, " + in_quotes(info.name) + ", has " +
           std::to_string(gpus) + " GPUs (" + std::to_string(info.count) + " nodes x " +
           std::to_string(info.gpus_per_node) + ")";
  }

  void check_fits(const JobClass& jc, uint32_t max_gpus, const std::string& p) {
    const auto [gpus, idx] = capacity(jc);
    if (idx == NONE || max_gpus <= gpus) return;
    d_.error(p, DiagCode::infeasible,
             "a job of this class may ask for " + std::to_string(max_gpus) + " GPUs, but " +
                 pool_text(gpus, idx) + "; add nodes, allow a larger pool, or lower the request");
  }

  // ---- economics: billing, reserved terms, on-prem, spot, elastic, checkpoints, TCO ----

  // True when the pool's own keys price it, so the instance type needs no such catalog price.
  static bool priced_by_keys(const json& o, const std::string& pricing) {
    if (pricing == "on_prem") return o.contains("on_prem");
    if (pricing != "spot") return false;
    const json* spot = get(o, "spot");
    return spot != nullptr && spot->is_object() &&
           (spot->contains("discount") || spot->contains("price_series"));
  }

  // A number in [lo, hi] under key `key` of `o`, if present.
  std::optional<double> opt_number(const json& o, const std::string& p, const char* key, double lo,
                                   double hi) {
    const json* v = get(o, key);
    return v ? number(*v, child(p, key), lo, hi) : std::nullopt;
  }

  // A delay distribution (any duration distribution) into `out`.
  bool delay(const json& v, const std::string& p, DelaySpec& out) {
    Distribution d;
    if (!load_distribution(v, p, d)) return false;
    out = DelaySpec{d.kind, d.a, d.b, d.values, d.weights, d.median_s, d.p90_s};
    return true;
  }

  // Reads a pool's economics keys; may set its price (spot discount or series, on-prem
  // template) and, for an elastic pool, its node count (the maximum).
  void load_pool_economics(const json& o, const std::string& p, const std::string& pricing,
                           const InstanceType* inst, std::optional<uint64_t>& count, Pool& pool) {
    PoolEconomics& e = pool.econ;
    if (inst != nullptr) {
      e.provider = inst->provider;
      e.on_demand_per_node_hour = inst->price_per_hour.on_demand.value_or(0);
    }
    if (const json* v = get(o, "billing")) load_billing(*v, p + "/billing", e);
    const bool reserved = pricing == "reserved_1y" || pricing == "reserved_3y";
    if (const json* v = get(o, "upfront")) {
      static const std::vector<std::string> UPFRONTS = {"none", "partial", "all"};
      if (!reserved) {
        d_.error(p + "/upfront", DiagCode::out_of_range,
                 "\"upfront\" applies to reserved pools; set \"pricing\" to \"reserved_1y\" or "
                 "\"reserved_3y\", or remove it");
      } else if (auto k = choice(*v, p + "/upfront", "upfront option", UPFRONTS)) {
        e.upfront = UPFRONTS[*k];
      }
    }
    if (reserved) {
      // NOTE: the catalog gives one effective reserved rate per node-hour; the upfront option
      // splits it into upfront and hourly parts with the same effective rate (cash timing in TCO).
      const double term_years = pricing == "reserved_1y" ? 1.0 : 3.0;
      const double eff = pool.price_per_node_hour;
      const double share = e.upfront == "all" ? 1.0 : e.upfront == "partial" ? 0.5 : 0.0;
      e.reserved = economics::ReservedOffer{
          term_years, eff * share * term_years * economics::HOURS_PER_YEAR, eff * (1.0 - share)};
    }
    if (const json* v = get(o, "on_prem")) {
      if (pricing != "on_prem") {
        d_.error(p + "/on_prem", DiagCode::out_of_range,
                 "an \"on_prem\" server template needs \"pricing\": \"on_prem\"");
      } else {
        load_on_prem(*v, p + "/on_prem", inst, pool);
      }
    }
    if (const json* v = get(o, "spot")) {
      if (pricing != "spot") {
        d_.error(p + "/spot", DiagCode::out_of_range,
                 "\"spot\" settings need \"pricing\": \"spot\"");
      } else {
        load_spot(*v, p + "/spot", pool);
      }
    } else if (pricing == "spot") {
      e.spot = SpotConfig{};
      e.spot->hazard_per_node_hour = 0;
    }
    if (const json* v = get(o, "elastic")) {
      if (pricing != "on_demand" && pricing != "spot") {
        d_.error(p + "/elastic", DiagCode::out_of_range,
                 "a " + pricing +
                     " pool is paid for whether used or not, so it cannot scale; elastic pools "
                     "use \"on_demand\" or \"spot\" pricing");
      } else {
        load_elastic(*v, p + "/elastic", count, pool);
      }
    }
  }

  void load_billing(const json& o, const std::string& p, PoolEconomics& e) {
    if (!object(o, p, "{\"granularity\": \"second\", \"minimum\": \"60s\"}")) return;
    check_keys(o, p, {"granularity", "minimum"});
    if (const json* v = get(o, "granularity")) {
      static const std::vector<std::string> UNITS = {"second", "hour", "millisecond"};
      if (auto k = choice(*v, p + "/granularity", "billing granularity", UNITS)) {
        e.granularity = *k == 0   ? economics::BillingGranularity::per_second
                        : *k == 1 ? economics::BillingGranularity::per_hour
                                  : economics::BillingGranularity::per_millisecond;
      }
    }
    if (const json* v = get(o, "minimum")) {
      if (auto d = duration(*v, p + "/minimum", false)) e.billing_minimum_s = *d;
    }
  }

  void load_on_prem(const json& o, const std::string& p, const InstanceType* inst, Pool& pool) {
    if (!object(o, p, "a server template, e.g. {\"server_capex\": 300000, \"max_power_kw\": 10.2}"))
      return;
    check_keys(o, p,
               {"server_capex", "life", "idle_power_kw", "max_power_kw", "pue", "usd_per_kwh",
                "colo_usd_per_kw_month", "network_capex_fraction", "staff_usd_per_node_year",
                "utilization"});
    economics::OnPremNode n;
    bool ok = true;
    if (const json* v = need(o, p, "server_capex", "purchase price of one server [USD]")) {
      auto x = number(*v, p + "/server_capex", 0, INF);
      ok = ok && x.has_value();
      n.server_capex_usd = x.value_or(0);
    } else {
      ok = false;
    }
    if (const json* v = need(o, p, "max_power_kw", "IT power of one server at full load [kW]")) {
      auto x = number(*v, p + "/max_power_kw", 0, 1000);
      ok = ok && x.has_value();
      n.max_power_kw = x.value_or(0);
    } else {
      ok = false;
    }
    if (const json* v = get(o, "life")) {
      auto d = duration(*v, p + "/life", true);
      ok = ok && d.has_value();
      if (d) {
        n.depreciation_years = *d / (365 * 86400.0);
        pool.econ.on_prem_life_s = *d;
      }
    }
    const struct {
      const char* key;
      double* field;
      double lo, hi;
    } fields[] = {{"idle_power_kw", &n.idle_power_kw, 0, 1000},
                  {"pue", &n.pue, 1, 5},
                  {"usd_per_kwh", &n.electricity_usd_per_kwh, 0, 10},
                  {"colo_usd_per_kw_month", &n.colo_usd_per_kw_month, 0, 10000},
                  {"network_capex_fraction", &n.network_capex_fraction, 0, 10},
                  {"staff_usd_per_node_year", &n.staff_usd_per_node_year, 0, INF},
                  {"utilization", &n.utilization, 0, 1}};
    for (const auto& f : fields) {
      if (!o.contains(f.key)) continue;
      auto x = opt_number(o, p, f.key, f.lo, f.hi);
      ok = ok && x.has_value();
      if (x) *f.field = *x;
    }
    if (ok && n.idle_power_kw > n.max_power_kw) {
      d_.error(p + "/idle_power_kw", DiagCode::out_of_range,
               "idle power (" + num(n.idle_power_kw) + " kW) exceeds max_power_kw (" +
                   num(n.max_power_kw) + " kW)");
      ok = false;
    }
    if (!ok || inst == nullptr) return;
    n.gpus_per_node = inst->gpus_per_node;
    pool.econ.on_prem = n;
    if (auto c = economics::on_prem_cost_per_node_hour(n)) pool.price_per_node_hour = c->total_usd;
  }

  void load_spot(const json& o, const std::string& p, Pool& pool) {
    if (!object(o, p, "spot settings, e.g. {\"interruptions_per_node_hour\": 0.3}")) return;
    check_keys(o, p,
               {"discount", "price_series", "interruptions_per_node_hour", "advisor_band", "waves",
                "notice", "return_delay"});
    SpotConfig sp;
    const double od = pool.econ.on_demand_per_node_hour;
    if (const json* v = get(o, "discount")) {
      if (auto x = number(*v, p + "/discount", 0, 1)) {
        if (od <= 0) {
          d_.error(p + "/discount", DiagCode::out_of_range,
                   "instance type " + in_quotes(pool.instance) +
                       " has no on-demand price to discount; give a \"price_series\" instead");
        } else {
          sp.discount = *x;
          pool.price_per_node_hour = od * (1 - *x);
        }
      }
    }
    if (const json* v = get(o, "price_series")) {
      const std::string sp_ptr = p + "/price_series";
      if (sp.discount) {
        d_.error(sp_ptr, DiagCode::out_of_range,
                 "give either \"discount\" or \"price_series\", not both");
      } else if (!v->is_array() || v->empty()) {
        wrong_type(*v, sp_ptr, "a non-empty array of {\"at\": \"0h\", \"usd_per_hour\": 9.5}");
      } else {
        for (size_t k = 0; k < v->size(); ++k) {
          const std::string ip = child(sp_ptr, k);
          const json& pt = (*v)[k];
          if (!object(pt, ip)) continue;
          check_keys(pt, ip, {"at", "usd_per_hour"});
          const json* at = need(pt, ip, "at", "when this price starts, e.g. \"12h\"");
          const json* usd = need(pt, ip, "usd_per_hour", "USD per node-hour");
          auto t = at ? duration(*at, ip + "/at", false) : std::nullopt;
          auto x = usd ? number(*usd, ip + "/usd_per_hour", 0, INF) : std::nullopt;
          if (!t || !x) continue;
          if (!sp.price_series.empty() && !(*t > sp.price_series.back().t_s)) {
            d_.error(ip + "/at", DiagCode::out_of_range,
                     "price points must be in increasing time order; " + num(*t) +
                         " s is not after " + num(sp.price_series.back().t_s) + " s");
            continue;
          }
          sp.price_series.push_back({*t, *x});
        }
        if (!sp.price_series.empty())
          pool.price_per_node_hour = sp.price_series.front().usd_per_hour;
      }
    }
    const json* rate_v = get(o, "interruptions_per_node_hour");
    const json* band_v = get(o, "advisor_band");
    if (rate_v && band_v) {
      d_.error(p + "/advisor_band", DiagCode::out_of_range,
               "give either \"interruptions_per_node_hour\" or \"advisor_band\", not both");
    } else if (rate_v) {
      if (auto x = number(*rate_v, p + "/interruptions_per_node_hour", 0, 3600))
        sp.hazard_per_node_hour = *x;
    } else if (band_v) {
      static const std::vector<std::string> BANDS = {"<5%", "5-10%", "10-15%", "15-20%", ">20%"};
      if (auto k = choice(*band_v, p + "/advisor_band", "Spot Advisor band", BANDS)) {
        sp.advisor_band = BANDS[*k];
        sp.hazard_per_node_hour = economics::advisor_band_hazard_per_node_hour(
            *economics::advisor_band_from_index(static_cast<uint32_t>(*k)));
      }
    }
    if (const json* v = get(o, "waves")) {
      const std::string wp = p + "/waves";
      if (object(*v, wp, "{\"rate\": \"6.95/h\", \"share\": {\"beta\": [2.68, 28.09]}}")) {
        check_keys(*v, wp, {"rate", "share"});
        if (const json* r = need(*v, wp, "rate", "waves per time, e.g. \"6.95/h\"")) {
          if (auto x = rate(*r, wp + "/rate")) {
            sp.wave_rate_per_s = *x;
            sp.wave_rate_per_hour = *x * 3600;
          }
        }
        if (const json* sh = get(*v, "share")) {
          const std::string shp = wp + "/share";
          if (object(*sh, shp, "{\"beta\": [alpha, beta]}")) {
            check_keys(*sh, shp, {"beta"});
            const json* b = need(*sh, shp, "beta", "[alpha, beta], e.g. [2.68, 28.09]");
            if (b && (!b->is_array() || b->size() != 2)) {
              wrong_type(*b, shp + "/beta", "[alpha, beta], two positive numbers");
            } else if (b) {
              auto a = number((*b)[0], shp + "/beta/0", 1e-6, 1e6);
              auto bb = number((*b)[1], shp + "/beta/1", 1e-6, 1e6);
              if (a && bb) {
                sp.wave_alpha = *a;
                sp.wave_beta = *bb;
              }
            }
          }
        }
      }
    }
    if (const json* v = get(o, "notice")) {
      if (auto d = duration(*v, p + "/notice", false)) sp.notice_s = *d;
    }
    if (const json* v = get(o, "return_delay")) delay(*v, p + "/return_delay", sp.return_delay);
    pool.econ.spot = std::move(sp);
  }

  void load_elastic(const json& o, const std::string& p, std::optional<uint64_t>& count,
                    Pool& pool) {
    if (!object(o, p, "{\"min\": 1, \"max\": 32, ...}")) return;
    check_keys(o, p, {"min", "max", "scale_out", "scale_in"});
    ElasticConfig el;
    const json* mn = need(o, p, "min", "nodes kept provisioned, e.g. 1");
    const json* mx = need(o, p, "max", "most nodes ever provisioned, e.g. 32");
    auto lo = mn ? integer(*mn, p + "/min", 0, 1000000) : std::nullopt;
    auto hi = mx ? integer(*mx, p + "/max", 1, 1000000) : std::nullopt;
    if (!lo || !hi) {
      count.reset();
      return;
    }
    if (*lo > *hi) {
      d_.error(p + "/min", DiagCode::out_of_range,
               "min (" + std::to_string(*lo) + ") exceeds max (" + std::to_string(*hi) + ")");
      count.reset();
      return;
    }
    el.min_nodes = static_cast<uint32_t>(*lo);
    el.max_nodes = static_cast<uint32_t>(*hi);
    el.initial_nodes = el.min_nodes;
    if (count) {
      if (*count < *lo || *count > *hi) {
        d_.error(p.substr(0, p.rfind('/')) + "/count", DiagCode::out_of_range,
                 "an elastic pool starts with \"count\" nodes, which must lie in [min, max] = [" +
                     std::to_string(*lo) + ", " + std::to_string(*hi) + "], got " +
                     std::to_string(*count));
      }
      el.initial_nodes = static_cast<uint32_t>(*count);
    }
    if (const json* v = get(o, "scale_out")) {
      const std::string sp = p + "/scale_out";
      if (object(*v, sp)) {
        check_keys(*v, sp, {"provisioning_delay", "when_queued_gpus_exceed"});
        if (const json* d = get(*v, "provisioning_delay"))
          delay(*d, sp + "/provisioning_delay", el.provisioning_delay);
        if (const json* n = get(*v, "when_queued_gpus_exceed")) {
          if (auto x = integer(*n, sp + "/when_queued_gpus_exceed", 0, 1u << 30))
            el.scale_out_queued_gpus = static_cast<uint32_t>(*x);
        }
      }
    }
    if (const json* v = get(o, "scale_in")) {
      const std::string sp = p + "/scale_in";
      if (object(*v, sp)) {
        check_keys(*v, sp, {"idle_timeout"});
        if (const json* d = get(*v, "idle_timeout")) {
          if (auto x = duration(*d, sp + "/idle_timeout", false)) el.idle_timeout_s = *x;
        }
      }
    }
    count = el.max_nodes;  // the pool's node slots: its maximum
    pool.econ.elastic = el;
  }

  // Reads a class's checkpoint and spot keys.
  void load_class_economics(const json& o, const std::string& p, JobClass& jc) {
    ClassEconomics& e = jc.econ;
    if (const json* v = get(o, "checkpoint")) {
      const std::string cp = p + "/checkpoint";
      if (object(*v, cp,
                 "{\"interval\": \"30m\" or \"auto\", \"cost\": \"2m\", \"restart\": \"5m\"}")) {
        check_keys(*v, cp, {"interval", "cost", "restart"});
        e.checkpoints = true;
        if (const json* iv = need(*v, cp, "interval", "compute between checkpoints, or \"auto\"")) {
          if (iv->is_string() && iv->get<std::string>() == "auto") {
            e.auto_interval = true;
          } else if (auto d = duration(*iv, cp + "/interval", true)) {
            e.interval_s = *d;
          }
        }
        if (const json* c = get(*v, "cost"))
          e.checkpoint_s = duration(*c, cp + "/cost", false).value_or(0);
        if (const json* r = get(*v, "restart"))
          e.restart_s = duration(*r, cp + "/restart", false).value_or(0);
        if (e.auto_interval && !(e.checkpoint_s > 0)) {
          d_.error(cp + "/cost", DiagCode::missing_key,
                   "\"interval\": \"auto\" (Young/Daly) needs the checkpoint write time "
                   "\"cost\" > 0, e.g. \"2m\"");
        }
      }
    }
    if (const json* v = get(o, "spot_tolerant"))
      e.spot_tolerant = boolean(*v, p + "/spot_tolerant").value_or(false);
    if (const json* v = get(o, "spot_fallback")) {
      const std::string fp = p + "/spot_fallback";
      if (!e.spot_tolerant) {
        d_.error(fp, DiagCode::out_of_range,
                 "\"spot_fallback\" applies to classes with \"spot_tolerant\": true");
      } else if (v->is_string() && v->get<std::string>() == "wait") {
        e.has_fallback = true;
      } else if (v->is_object()) {
        check_keys(*v, fp, {"after", "to"});
        if (const json* a = need(*v, fp, "after", "wait on spot this long, e.g. \"1h\"")) {
          if (auto d = duration(*a, fp + "/after", false)) {
            e.has_fallback = true;
            e.fallback_after_s = *d;
          }
        }
        if (const json* t = get(*v, "to")) {
          static const std::vector<std::string> TARGETS = {"on_demand"};
          choice(*t, fp + "/to", "fallback target", TARGETS);
        }
      } else {
        wrong_type(*v, fp, "\"wait\" or {\"after\": \"1h\", \"to\": \"on_demand\"}");
      }
    }
  }

  // A class that is not spot-tolerant and names no pools never runs on spot (naming a spot pool
  // in "pools" is consent), so it needs a non-spot pool.
  void check_spot_eligibility(const Scenario& sc) {
    for (const JobClass& jc : sc.workload) {
      if (jc.econ.spot_tolerant || !jc.pools.empty()) continue;
      bool any = false, spot_only = false;
      for (const Pool& pool : sc.pools) {
        if (pool.pricing == "spot")
          spot_only = true;
        else
          any = true;
      }
      if (spot_only && !any) {
        d_.error(jc.pointer, DiagCode::infeasible,
                 "class " + in_quotes(jc.name) +
                     " may only use spot pools but is not \"spot_tolerant\"; set "
                     "\"spot_tolerant\": true or allow a non-spot pool");
      }
    }
  }

  void load_tco(const json& o, Scenario& sc) {
    const std::string p = "/tco";
    if (!object(o, p, "a TCO projection, e.g. {\"years\": 3, \"demand_growth_per_month\": 0.02}"))
      return;
    check_keys(o, p,
               {"years", "demand_growth_per_month", "discount_rate", "compare", "basis",
                "on_prem_nodes", "hybrid_nodes", "server"});
    TcoConfig t;
    if (const json* v = get(o, "years")) {
      if (auto n = integer(*v, p + "/years", 1, 30)) t.years = static_cast<uint32_t>(*n);
    }
    if (auto x = opt_number(o, p, "demand_growth_per_month", -0.5, 1))
      t.demand_growth_per_month = *x;
    if (auto x = opt_number(o, p, "discount_rate", 0, 1)) t.discount_rate = *x;
    if (const json* v = get(o, "compare")) {
      static const std::vector<std::string> OPTIONS = {"cloud", "on_prem", "hybrid"};
      if (!v->is_array() || v->empty()) {
        wrong_type(*v, p + "/compare", "a non-empty array of \"cloud\", \"on_prem\", \"hybrid\"");
      } else {
        t.compare.clear();
        for (size_t k = 0; k < v->size(); ++k)
          if (auto c = choice((*v)[k], child(p + "/compare", k), "TCO option", OPTIONS))
            t.compare.push_back(OPTIONS[*c]);
      }
    }
    if (const json* v = get(o, "basis")) {
      static const std::vector<std::string> BASES = {"cash", "accrual"};
      if (auto k = choice(*v, p + "/basis", "cost basis", BASES)) t.accrual = *k == 1;
    }
    for (auto [key, field] : {std::pair{"on_prem_nodes", &t.on_prem_nodes},
                              std::pair{"hybrid_nodes", &t.hybrid_nodes}}) {
      if (const json* v = get(o, key)) {
        if (auto n = integer(*v, child(p, key), 0, 1000000)) *field = static_cast<uint32_t>(*n);
      }
    }
    std::vector<std::string> templates;
    for (const Pool& pool : sc.pools)
      if (pool.econ.on_prem) templates.push_back(pool.name);
    if (const json* v = get(o, "server")) {
      if (auto k = choice(*v, p + "/server", "pool with an on_prem server template", templates))
        t.server = templates[*k];
    } else if (!templates.empty()) {
      t.server = templates.front();
    }
    const bool needs_server =
        std::any_of(t.compare.begin(), t.compare.end(), [](auto& c) { return c != "cloud"; });
    if (needs_server && !t.server && !sc.pools.empty()) {
      d_.error(p + "/compare", DiagCode::missing_key,
               "comparing \"on_prem\" or \"hybrid\" needs a pool with \"pricing\": \"on_prem\" and "
               "an \"on_prem\" server template (capex, power) to price the servers");
    }
    sc.tco = t;
  }

  // The metric paths an SLO may name: those of sim/mc_metrics.h metric_paths() for this scenario.
  static std::vector<std::string> slo_metric_paths(const Scenario& sc) {
    static const char* const DURATION_KEYS[] = {"mean", "p50", "p90", "p99"};
    std::vector<std::string> p = {"metrics.jobs_completed",   "metrics.gpu_utilization",
                                  "metrics.mean_queued_jobs", "metrics.mean_jobs_in_system",
                                  "cost_usd.total",           "cost_usd.per_gpu_hour"};
    for (const char* k : DURATION_KEYS) {
      p.push_back(std::string("metrics.wait_s.") + k);
      p.push_back(std::string("metrics.jct_s.") + k);
    }
    for (const Pool& pool : sc.pools) p.push_back("per_pool." + pool.name + ".gpu_utilization");
    for (const JobClass& jc : sc.workload) {
      p.push_back("per_class." + jc.name + ".jobs_completed");
      for (const char* k : DURATION_KEYS) {
        p.push_back("per_class." + jc.name + ".wait_s." + k);
        p.push_back("per_class." + jc.name + ".jct_s." + k);
      }
    }
    return p;
  }

  void load_recommend(const json& o, Scenario& sc) {
    const std::string p = "/recommend";
    if (!object(o, p, "a recommendation request, e.g. {\"slos\": [...], \"candidates\": [...]}"))
      return;
    check_keys(o, p, {"slos", "probability", "candidates", "replications"});
    RecommendConfig r;
    const std::vector<std::string> metrics = slo_metric_paths(sc);
    if (const json* v = need(o, p, "slos",
                             "at least one SLO, e.g. {\"metric\": "
                             "\"metrics.wait_s.p90\", \"max\": \"2h\"}")) {
      if (!v->is_array() || v->empty()) {
        wrong_type(*v, p + "/slos", "a non-empty array of SLOs");
      } else {
        for (size_t i = 0; i < v->size(); ++i) load_slo((*v)[i], child(p + "/slos", i), metrics, r);
      }
    }
    if (auto x = opt_number(o, p, "probability", 1e-9, 1)) r.probability = *x;
    if (const json* v = get(o, "replications")) {
      if (auto n = integer(*v, p + "/replications", 1, 100000)) r.replications = uint32_t(*n);
    }
    if (const json* v = need(o, p, "candidates",
                             "pools to size, e.g. {\"pool\": \"main\", "
                             "\"instances\": [\"p4d.24xlarge\"]}")) {
      if (!v->is_array() || v->empty()) {
        wrong_type(*v, p + "/candidates", "a non-empty array of candidates");
      } else {
        for (size_t i = 0; i < v->size(); ++i)
          load_candidate((*v)[i], child(p + "/candidates", i), sc, r);
      }
    }
    sc.recommend = std::move(r);
  }

  void load_slo(const json& o, const std::string& p, const std::vector<std::string>& metrics,
                RecommendConfig& r) {
    if (!object(o, p, "an SLO, e.g. {\"metric\": \"metrics.wait_s.p90\", \"max\": \"2h\"}")) return;
    check_keys(o, p, {"metric", "min", "max"});
    RecommendSlo slo;
    const json* m = need(o, p, "metric", "a metric path, e.g. \"metrics.wait_s.p90\"");
    if (m == nullptr) return;
    auto k = choice(*m, p + "/metric", "metric", metrics);
    if (!k) return;
    slo.metric = metrics[*k];
    // NOTE: *_s.* metrics are durations, so their bounds read like every duration ("2h").
    const bool is_duration = slo.metric.find("_s.") != std::string::npos;
    for (auto [key, field] : {std::pair{"min", &slo.min}, std::pair{"max", &slo.max}}) {
      if (const json* v = get(o, key)) {
        *field =
            is_duration ? duration(*v, child(p, key), false) : number(*v, child(p, key), -INF, INF);
      }
    }
    if (!o.contains("min") && !o.contains("max")) {
      d_.error(p, DiagCode::missing_key,
               "an SLO needs \"min\" or \"max\" (e.g. \"max\": \"2h\" or \"min\": 0.7)");
      return;
    }
    if (slo.min && slo.max && *slo.min > *slo.max) {
      d_.error(p + "/min", DiagCode::out_of_range,
               "min (" + num(*slo.min) + ") is above max (" + num(*slo.max) +
                   "), so no configuration can meet this SLO; swap them");
      return;
    }
    r.slos.push_back(std::move(slo));
  }

  void load_candidate(const json& o, const std::string& p, const Scenario& sc, RecommendConfig& r) {
    if (!object(o, p, "a candidate, e.g. {\"pool\": \"main\", \"instances\": [...]}")) return;
    check_keys(o, p, {"pool", "instances", "pricing", "count"});
    RecommendCandidate c;
    std::vector<std::string> pools;
    for (const Pool& pool : sc.pools) pools.push_back(pool.name);
    const Pool* pool = nullptr;
    if (const json* v = need(o, p, "pool", "the pool to size, e.g. \"main\"")) {
      if (auto k = choice(*v, p + "/pool", "pool", pools)) {
        pool = &sc.pools[*k];
        c.pool = pool->name;
      }
    }
    std::vector<std::string> instance_ids;
    for (const auto& it : catalog_.instances) instance_ids.push_back(it.id);
    std::vector<const InstanceType*> insts;
    if (const json* v = need(o, p, "instances", "instance type ids, e.g. [\"p4d.24xlarge\"]")) {
      if (!v->is_array() || v->empty()) {
        wrong_type(*v, p + "/instances", "a non-empty array of instance type ids");
      } else {
        for (size_t i = 0; i < v->size(); ++i) {
          const std::string ip = child(p + "/instances", i);
          auto s = string((*v)[i], ip);
          if (!s) continue;
          const InstanceType* inst = catalog_.find_instance(*s);
          if (inst == nullptr) {
            d_.unknown_name(ip, "instance type", *s, instance_ids);
            continue;
          }
          insts.push_back(inst);
          c.instances.push_back(inst->id);
        }
      }
    }
    if (const json* v = get(o, "pricing")) {
      if (!v->is_array() || v->empty()) {
        wrong_type(*v, p + "/pricing", "a non-empty array of pricings, e.g. [\"on_demand\"]");
      } else {
        for (size_t i = 0; i < v->size(); ++i) {
          const std::string pp = child(p + "/pricing", i);
          auto k = choice((*v)[i], pp, "pricing", PRICINGS);
          if (!k) continue;
          for (const InstanceType* inst : insts) {
            if (!price_of(inst->price_per_hour, *k)) {
              d_.error(pp, DiagCode::unknown_name,
                       "instance type " + in_quotes(inst->id) + " has no " + PRICINGS[*k] +
                           " price; drop it from this candidate or price it inline");
            }
          }
          c.pricing.push_back(PRICINGS[*k]);
        }
      }
    } else if (pool != nullptr) {
      c.pricing.push_back(pool->pricing);
    }
    if (const json* v = get(o, "count")) {
      if (object(*v, p + "/count", "a node range, e.g. {\"min\": 1, \"max\": 64}")) {
        check_keys(*v, p + "/count", {"min", "max"});
        if (const json* x = get(*v, "min")) {
          if (auto n = integer(*x, p + "/count/min", 1, 1000000)) c.count_min = uint32_t(*n);
        }
        if (const json* x = get(*v, "max")) {
          if (auto n = integer(*x, p + "/count/max", 1, 1000000)) c.count_max = uint32_t(*n);
        }
        if (c.count_min > c.count_max) {
          d_.error(p + "/count/min", DiagCode::out_of_range,
                   "count.min (" + std::to_string(c.count_min) + ") is above count.max (" +
                       std::to_string(c.count_max) + "); make min <= max");
        }
      }
    }
    r.candidates.push_back(std::move(c));
  }

  void load_scheduler(const json& o, Scenario& sc) {
    if (!object(o, "/scheduler")) return;
    check_keys(o, "/scheduler", {"queue", "placement"});
    if (const json* v = get(o, "queue")) {
      static const std::vector<std::string> QUEUES = {"fifo", "backfill"};
      if (auto k = choice(*v, "/scheduler/queue", "queue policy", QUEUES)) {
        sc.scheduler.queue = *k == 0 ? QueuePolicy::fifo : QueuePolicy::backfill;
      }
    }
    if (const json* v = get(o, "placement")) {
      static const std::vector<std::string> PLACEMENTS = {"best_fit", "pack", "spread",
                                                          "topology_aware"};
      if (auto k = choice(*v, "/scheduler/placement", "placement", PLACEMENTS)) {
        sc.scheduler.placement = static_cast<Placement>(*k);
      }
    }
  }

  // ---- network: topology, training descriptions (models/network_plan.h) ----

  // A bandwidth [Gb/s] > 0: a number of Gb/s, or "<number><unit>" with unit Mbps, Gbps, Tbps
  // (also Mb/s, Gb/s, Tb/s).
  std::optional<double> bandwidth(const json& v, const std::string& ptr) {
    std::optional<double> gbps;
    if (v.is_number()) {
      gbps = v.get<double>();
    } else if (v.is_string()) {
      static constexpr std::pair<std::string_view, double> UNITS[] = {
          {"Mbps", 1e-3}, {"Mb/s", 1e-3}, {"Gbps", 1}, {"Gb/s", 1}, {"Tbps", 1e3}, {"Tb/s", 1e3}};
      if (auto q = leading_number(v.get<std::string>())) {
        for (const auto& [unit, scale] : UNITS)
          if (q->second == unit) gbps = q->first * scale;
      }
      if (!gbps) {
        d_.error(ptr, DiagCode::bad_unit,
                 "cannot read bandwidth " + describe(v) +
                     "; write Gb/s as a number or \"<number><unit>\" with unit Mbps, Gbps or "
                     "Tbps (e.g. \"400Gbps\")");
        return std::nullopt;
      }
    } else {
      wrong_type(v, ptr, "a bandwidth (Gb/s, or a string like \"400Gbps\")");
      return std::nullopt;
    }
    if (!(*gbps > 0) || !std::isfinite(*gbps)) {
      d_.error(ptr, DiagCode::out_of_range,
               "a bandwidth must be greater than 0, got " + describe(v));
      return std::nullopt;
    }
    return gbps;
  }

  // A count > 0 with an optional suffix K, M, B (or G), T (e.g. "70B" parameters, "2T" tokens).
  std::optional<double> count_si(const json& v, const std::string& ptr) {
    std::optional<double> x;
    if (v.is_number()) {
      x = v.get<double>();
    } else if (v.is_string()) {
      static constexpr std::pair<std::string_view, double> SUFFIX[] = {
          {"", 1}, {"K", 1e3}, {"M", 1e6}, {"B", 1e9}, {"G", 1e9}, {"T", 1e12}};
      if (auto q = leading_number(v.get<std::string>())) {
        for (const auto& [suffix, scale] : SUFFIX)
          if (q->second == suffix) x = q->first * scale;
      }
      if (!x) {
        d_.error(ptr, DiagCode::bad_unit,
                 "cannot read count " + describe(v) +
                     "; write a number, optionally with K, M, B or T (e.g. \"70B\")");
        return std::nullopt;
      }
    } else {
      wrong_type(v, ptr, "a count (a number, or a string like \"70B\")");
      return std::nullopt;
    }
    if (!(*x > 0) || !std::isfinite(*x)) {
      d_.error(ptr, DiagCode::out_of_range, "a count must be greater than 0, got " + describe(v));
      return std::nullopt;
    }
    return x;
  }

  // A ratio >= 1: a number, or "<down>:<up>" (e.g. "3:1").
  std::optional<double> ratio(const json& v, const std::string& ptr) {
    std::optional<double> r;
    if (v.is_number()) {
      r = v.get<double>();
    } else if (v.is_string()) {
      const std::string text = v.get<std::string>();
      const size_t colon = text.find(':');
      auto a = leading_number(std::string_view(text).substr(0, colon));
      auto b = colon == std::string::npos
                   ? std::nullopt
                   : leading_number(std::string_view(text).substr(colon + 1));
      if (a && a->second.empty() && b && b->second.empty() && b->first > 0) r = a->first / b->first;
      if (!r) {
        d_.error(ptr, DiagCode::bad_unit,
                 "cannot read ratio " + describe(v) + "; write \"<down>:<up>\" (e.g. \"3:1\")");
        return std::nullopt;
      }
    } else {
      wrong_type(v, ptr, "a ratio such as \"3:1\"");
      return std::nullopt;
    }
    if (!(*r >= 1) || !std::isfinite(*r)) {
      d_.error(
          ptr, DiagCode::out_of_range,
          "oversubscription is downlink over uplink bandwidth, at least 1:1, got " + describe(v));
      return std::nullopt;
    }
    return r;
  }

  void load_topology(const json& o, Scenario& sc) {
    const std::string p = "/topology";
    if (!object(o, p, "a topology, e.g. {\"kind\": \"leaf_spine\", \"nodes_per_leaf\": 16}"))
      return;
    static const std::vector<std::string> KINDS = {
        "single_switch",  "two_level_tree",   "leaf_spine", "fat_tree",
        "rail_optimized", "tree_ring_hybrid", "custom"};
    const json* k = need(o, p, "kind", "one of " + list_names(KINDS));
    if (k == nullptr) return;
    const auto idx = choice(*k, p + "/kind", "topology kind", KINDS);
    if (!idx) return;
    TopologyConfig& t = sc.topology;
    t.kind = static_cast<TopologyKind>(*idx + 1);
    t.kind_name = KINDS[*idx];
    std::vector<std::string> keys = {"kind", "link", "latency", "comm_fraction"};
    switch (t.kind) {
      case TopologyKind::two_level_tree:
        keys.insert(keys.end(), {"nodes_per_leaf", "uplink", "oversubscription"});
        break;
      case TopologyKind::leaf_spine:
        keys.insert(keys.end(), {"nodes_per_leaf", "spines", "uplink", "oversubscription"});
        break;
      case TopologyKind::fat_tree:
        keys.push_back("k");
        break;
      case TopologyKind::rail_optimized:
        keys.insert(keys.end(), {"su", "nodes_per_su", "spines", "uplink"});
        break;
      case TopologyKind::tree_ring_hybrid:
        keys.insert(keys.end(), {"groups_per_switch", "workers_per_group", "uplink"});
        break;
      case TopologyKind::custom:
        keys.insert(keys.end(), {"vertices", "links"});
        break;
      case TopologyKind::none:
      case TopologyKind::single_switch:
        break;
    }
    check_keys(o, p, keys);
    bool ok = true;
    const auto whole = [&](const char* key, uint32_t& field, uint64_t lo) {
      if (const json* v = get(o, key)) {
        auto n = integer(*v, child(p, key), lo, 1u << 20);
        ok = ok && n.has_value();
        if (n) field = static_cast<uint32_t>(*n);
      }
    };
    whole("nodes_per_leaf", t.nodes_per_leaf, 1);
    whole("spines", t.spines, 1);
    whole("k", t.k, 2);
    whole("su", t.su, 1);
    whole("nodes_per_su", t.nodes_per_su, 1);
    whole("groups_per_switch", t.groups_per_switch, 1);
    whole("workers_per_group", t.workers_per_group, 2);
    if (t.k % 2 != 0) {
      d_.error(p + "/k", DiagCode::out_of_range,
               "a k-ary fat-tree needs an even k, got " + num(t.k));
      ok = false;
    }
    if (const json* v = get(o, "link")) {
      t.link_gbps = bandwidth(*v, p + "/link");
      ok = ok && t.link_gbps.has_value();
    }
    if (const json* v = get(o, "uplink")) {
      t.uplink_gbps = bandwidth(*v, p + "/uplink");
      ok = ok && t.uplink_gbps.has_value();
    }
    if (const json* v = get(o, "latency")) {
      t.latency_s = duration(*v, p + "/latency", false);
      ok = ok && t.latency_s.has_value();
    }
    if (const json* v = get(o, "oversubscription")) {
      auto r = ratio(*v, p + "/oversubscription");
      ok = ok && r.has_value();
      if (r) t.oversubscription = *r;
      if (o.contains("uplink")) {
        d_.error(p + "/oversubscription", DiagCode::out_of_range,
                 "give either \"uplink\" (bandwidth of one leaf-spine link) or "
                 "\"oversubscription\" (which sets it), not both");
        ok = false;
      }
    }
    if (const json* v = get(o, "comm_fraction")) {
      auto f = number(*v, p + "/comm_fraction", 0, 0.99);
      ok = ok && f.has_value();
      if (f) t.comm_fraction = *f;
    }
    if (t.kind == TopologyKind::custom) ok = load_custom_topology(o, p, t) && ok;
    if (!ok) return;
    // Build it now, so a cluster the topology cannot hold is an input error with its pointer.
    uint32_t n_nodes = 0;
    for (const PoolInfo& info : pool_infos_) {
      if (!info.known) return;
      if (t.kind == TopologyKind::rail_optimized &&
          info.gpus_per_node != pool_infos_[0].gpus_per_node) {
        d_.error(p + "/kind", DiagCode::infeasible,
                 "a rail-optimized topology has one rail per GPU of a node, so every pool needs "
                 "the same GPUs per node; pool " +
                     in_quotes(info.name) + " differs");
        return;
      }
      n_nodes += info.count;
    }
    if (pool_infos_.empty() || sc.pools.empty()) return;
    const InstanceType* first = catalog_.find_instance(sc.pools[0].instance);
    if (first == nullptr) return;
    try {
      uint32_t hosts_per_node = 1;
      const auto built =
          build_topology(t, n_nodes, first->gpus_per_node, node_link_gbps(*first), hosts_per_node);
      if (topologies::make_tables(built).top_level >= topologies::make_tables(built).n_levels)
        d_.error(p, DiagCode::infeasible,
                 "the topology is not connected; link every host to the rest of the network");
    } catch (const std::invalid_argument& e) {
      d_.error(p, DiagCode::infeasible, e.what());
    }
  }

  bool load_custom_topology(const json& o, const std::string& p, TopologyConfig& t) {
    static const std::vector<std::string> VKINDS = {"host", "switch", "node_switch", "controller"};
    bool ok = true;
    const json* vs = need(o, p, "vertices", "[{\"name\": \"h0\", \"kind\": \"host\"}, ...]");
    const json* ls =
        need(o, p, "links", "[{\"a\": \"h0\", \"b\": \"leaf0\", \"bandwidth\": \"400Gbps\"}, ...]");
    if (vs == nullptr || ls == nullptr) return false;
    if (!vs->is_array() || !ls->is_array()) {
      wrong_type(vs->is_array() ? *ls : *vs, p + (vs->is_array() ? "/links" : "/vertices"),
                 "an array");
      return false;
    }
    for (size_t i = 0; i < vs->size(); ++i) {
      const std::string vp = child(p + "/vertices", i);
      const json& v = (*vs)[i];
      if (!object(v, vp)) {
        ok = false;
        continue;
      }
      check_keys(v, vp, {"name", "kind", "level"});
      CustomVertexSpec cv;
      if (const json* x = need(v, vp, "name", "a unique vertex name")) {
        auto n = name(*x, vp + "/name");
        ok = ok && n.has_value();
        if (n) cv.name = *n;
      }
      if (const json* x = get(v, "kind")) {
        auto kk = choice(*x, vp + "/kind", "vertex kind", VKINDS);
        ok = ok && kk.has_value();
        if (kk) cv.kind = VKINDS[*kk];
      }
      if (const json* x = get(v, "level")) {
        auto n = integer(*x, vp + "/level", 0, 16);
        ok = ok && n.has_value();
        if (n) cv.level = static_cast<uint32_t>(*n);
      }
      t.vertices.push_back(cv);
    }
    for (size_t i = 0; i < ls->size(); ++i) {
      const std::string lp = child(p + "/links", i);
      const json& l = (*ls)[i];
      if (!object(l, lp)) {
        ok = false;
        continue;
      }
      check_keys(l, lp, {"a", "b", "bandwidth", "latency"});
      CustomLinkSpec cl;
      for (auto [key, field] : {std::pair{"a", &cl.a}, std::pair{"b", &cl.b}}) {
        if (const json* x = need(l, lp, key, "a vertex name")) {
          auto n = name(*x, child(lp, key));
          ok = ok && n.has_value();
          if (n) *field = *n;
        }
      }
      if (const json* x = need(l, lp, "bandwidth", "e.g. \"400Gbps\"")) {
        auto b = bandwidth(*x, lp + "/bandwidth");
        ok = ok && b.has_value();
        if (b) cl.bandwidth_gbps = *b;
      }
      if (const json* x = get(l, "latency")) {
        auto d = duration(*x, lp + "/latency", false);
        ok = ok && d.has_value();
        if (d) cl.latency_s = *d;
      }
      t.links.push_back(cl);
    }
    return ok;
  }

  void load_class_network(const json& o, const std::string& p, JobClass& jc) {
    if (const json* v = get(o, "comm_fraction")) {
      if (auto f = number(*v, p + "/comm_fraction", 0, 0.99)) jc.comm_fraction = *f;
    }
    const json* v = get(o, "training");
    if (v == nullptr) return;
    const std::string tp = p + "/training";
    if (!object(*v, tp,
                "a training description, e.g. {\"params\": \"70B\", \"step_time\": \"8s\"}"))
      return;
    check_keys(*v, tp,
               {"params", "tokens", "step_time", "batch_tokens", "precision", "mfu",
                "data_parallel", "overlap"});
    if (o.contains("comm_fraction"))
      d_.error(p + "/comm_fraction", DiagCode::out_of_range,
               "\"comm_fraction\" is for classes without \"training\"; the training description "
               "sets the communication share");
    TrainingSpec t;
    bool ok = true;
    if (const json* x = need(*v, tp, "params", "model parameters, e.g. \"70B\"")) {
      auto n = count_si(*x, tp + "/params");
      ok = ok && n.has_value();
      if (n) t.params = *n;
    } else {
      ok = false;
    }
    if (const json* x = get(*v, "tokens"); x != nullptr && !x->is_null()) {
      t.tokens = count_si(*x, tp + "/tokens");
      ok = ok && t.tokens.has_value();
    }
    if (const json* x = get(*v, "step_time")) {
      t.step_time_s = duration(*x, tp + "/step_time", true);
      ok = ok && t.step_time_s.has_value();
    }
    if (const json* x = get(*v, "batch_tokens")) {
      auto n = count_si(*x, tp + "/batch_tokens");
      ok = ok && n.has_value();
      if (n) t.batch_tokens = *n;
    }
    if (const json* x = get(*v, "precision")) {
      static const std::vector<std::string> PRECISIONS = {"fp32", "tf32", "bf16", "fp16", "fp8"};
      auto k = choice(*x, tp + "/precision", "precision", PRECISIONS);
      ok = ok && k.has_value();
      if (k) t.precision = PRECISIONS[*k];
    }
    if (const json* x = get(*v, "mfu")) {
      auto f = number(*x, tp + "/mfu", 1e-3, 1);
      ok = ok && f.has_value();
      if (f) t.mfu = *f;
    }
    if (const json* x = get(*v, "data_parallel")) {
      auto b = boolean(*x, tp + "/data_parallel");
      ok = ok && b.has_value();
      if (b) t.data_parallel = *b;
    }
    if (const json* x = get(*v, "overlap")) {
      auto f = number(*x, tp + "/overlap", 0, 1);
      ok = ok && f.has_value();
      if (f) t.overlap = *f;
    }
    if (ok) jc.training = t;
  }

  // A class whose training sets tokens: its duration comes from the speed model, so it has no
  // "duration" and exactly one GPU count.
  void check_trained_class(const json& o, const std::string& p, const JobClass& jc) {
    if (o.contains("duration"))
      d_.error(p + "/duration", DiagCode::out_of_range,
               "\"duration\" cannot be used with \"training.tokens\": the speed model computes "
               "the duration; drop one of them");
    if (jc.gpus.values.size() > 1)
      d_.error(p + "/gpus", DiagCode::out_of_range,
               "a class with \"training.tokens\" trains one model on a fixed number of GPUs; "
               "give \"gpus\" as one number");
  }

  void load_limits(const json& o, Scenario& sc) {
    if (!object(o, "/limits")) return;
    check_keys(o, "/limits", {"max_active_jobs", "time_bins"});
    if (const json* v = get(o, "max_active_jobs")) {
      auto n = integer(*v, "/limits/max_active_jobs", 16, std::numeric_limits<uint32_t>::max());
      if (n) sc.limits.max_active_jobs = static_cast<uint32_t>(*n);
    }
    if (const json* v = get(o, "time_bins")) {
      if (auto n = integer(*v, "/limits/time_bins", 1, 100000)) {
        sc.limits.time_bins = static_cast<uint32_t>(*n);
      }
    }
  }

  Diagnostics& d_;
  std::string base_dir_;
  const LoadOptions& opts_;
  Catalog catalog_;                  // built-in plus inline instance types
  std::vector<std::string> broken_;  // inline instance ids with an invalid gpu or gpus_per_node
  std::vector<PoolInfo> pool_infos_;
};

// Applies one `--set a.b.0.c=VALUE`; records bad_override and returns false when it cannot.
void apply_override(json& root, const std::string& spec, Diagnostics& d) {
  const size_t eq = spec.find('=');
  auto fail = [&](const std::string& ptr, const std::string& why) {
    d.add(Diagnostic{"",
                     0,
                     ptr,
                     DiagCode::bad_override,
                     "cannot apply --set " + in_quotes(spec) + ": " + why,
                     {}});
  };
  if (eq == std::string::npos || eq == 0) {
    return fail("", "expected PATH=VALUE, e.g. pools.0.count=16");
  }
  std::vector<std::string> keys;
  std::string full_ptr;
  for (size_t b = 0; b <= eq;) {
    const size_t e = std::min(spec.find('.', b), eq);
    keys.push_back(spec.substr(b, e - b));
    full_ptr = child(full_ptr, keys.back());
    b = e + 1;
  }
  if (std::any_of(keys.begin(), keys.end(), [](const std::string& k) { return k.empty(); })) {
    return fail(full_ptr, "the path has an empty part; write keys and indices joined by '.'");
  }
  json value = json::parse(spec.substr(eq + 1), nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = spec.substr(eq + 1);

  json* node = &root;
  std::string ptr;
  for (size_t k = 0; k < keys.size(); ++k) {
    const std::string& key = keys[k];
    const bool last = k + 1 == keys.size();
    if (node->is_object()) {
      ptr = child(ptr, key);
      json& next = (*node)[key];  // creates a missing key as null
      if (last) {
        next = std::move(value);
      } else if (next.is_null()) {
        next = json::object();
      }
      node = &next;
    } else if (node->is_array()) {
      size_t idx = 0;
      const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), idx);
      if (ec != std::errc() || end != key.data() + key.size() || idx >= node->size()) {
        const std::string at = ptr.empty() ? "the root" : ptr;
        return fail(full_ptr,
                    at + " is an array of " + std::to_string(node->size()) + " entries, so " +
                        in_quotes(key) + " is not an index of it" +
                        (node->empty() ? "" : " (0.." + std::to_string(node->size() - 1) + ")"));
      }
      ptr = child(ptr, idx);
      if (last) {
        (*node)[idx] = std::move(value);
      }
      node = &(*node)[idx];
    } else {
      return fail(full_ptr, (ptr.empty() ? std::string("the root") : ptr) + " is " +
                                describe(*node) + ", so it has no " + in_quotes(key));
    }
  }
}

}  // namespace

const std::vector<std::string>& scenario_keys() {
  return TOP_KEYS;
}

std::optional<double> parse_duration(std::string_view text) {
  auto q = leading_number(text);
  if (!q) return std::nullopt;
  if (q->second.empty()) return q->first;
  auto unit = unit_seconds(q->second);
  if (!unit) return std::nullopt;
  return q->first * *unit;
}

std::optional<double> parse_rate(std::string_view text) {
  const size_t slash = text.find('/');
  auto q = leading_number(text.substr(0, slash));
  if (!q || !q->second.empty()) return std::nullopt;
  if (slash == std::string_view::npos) return q->first;
  // "12/h" per one unit, or "5/10m" per a duration.
  const std::string_view per = trim(text.substr(slash + 1));
  std::optional<double> seconds = unit_seconds(per);
  if (!seconds) seconds = parse_duration(per);
  if (!seconds || *seconds <= 0) return std::nullopt;
  return q->first / *seconds;
}

std::optional<Scenario> load_scenario(const std::string& path, const LoadOptions& opts,
                                      Diagnostics& diags) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!fs::is_regular_file(path, ec) || !in) {
    diags.add(Diagnostic{
        path,
        0,
        "",
        DiagCode::io_error,
        "cannot read the scenario file: " +
            std::string(fs::exists(path, ec) ? "it is not a readable file" : "no such file"),
        {}});
    return std::nullopt;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  return load_scenario_text(buf.str(), path, fs::path(path).parent_path().string(), opts, diags);
}

std::optional<Scenario> load_scenario_text(std::string_view text, const std::string& file,
                                           const std::string& base_dir, const LoadOptions& opts,
                                           Diagnostics& diags) {
  const size_t errors_before = diags.size() + diags.dropped();
  diags.set_file(file);
  auto doc = parse_jsonc(text, file, diags);
  if (!doc) return std::nullopt;
  // NOTE: the line table lives in `doc`; detach it from `diags` on every way out.
  struct Detach {
    Diagnostics& d;
    ~Detach() { d.set_lines(nullptr); }
  } detach{diags};
  diags.set_lines(&doc->lines);

  for (const auto& spec : opts.overrides) apply_override(doc->value, spec, diags);

  std::string default_name = fs::path(file).stem().string();
  if (default_name.empty()) default_name = "scenario";
  Scenario sc;
  try {
    sc = Loader(diags, base_dir, opts).load(doc->value, default_name);
  } catch (const std::exception& e) {
    // NOTE: every value is type-checked before use, so this is a safety net, not a path.
    diags.error("", DiagCode::wrong_type, std::string("unexpected value: ") + e.what());
  }
  if (diags.size() + diags.dropped() > errors_before) return std::nullopt;
  sc.file = file;
  sc.source = std::move(doc->value);
  return sc;
}

}  // namespace gpuplan
