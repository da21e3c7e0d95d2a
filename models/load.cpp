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
#include "models/trace.h"

namespace gpuplan {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr double INF = std::numeric_limits<double>::infinity();
//! Pools a class may use are a 64-bit mask in the compiled core (ClassSpec::pool_mask).
constexpr size_t MAX_POOLS = 64;

const std::vector<std::string> TOP_KEYS = {"$schema",  "name",      "description", "seed",
                                           "horizon",  "warmup",    "instances",   "pools",
                                           "workload", "scheduler", "limits"};
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

// Seconds in one `unit` (ms s m h d w y), or nullopt.
std::optional<double> unit_seconds(std::string_view unit) {
  static constexpr std::pair<std::string_view, double> UNITS[] = {
      {"ms", 1e-3}, {"s", 1},      {"m", 60},           {"h", 3600},
      {"d", 86400}, {"w", 604800}, {"y", 365 * 86400.0}};
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

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
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
                   "name " + quote(*s) +
                       " names the output folder, so it must be non-empty "
                       "and contain no '/' or '\\'");
        } else {
          sc.name = *s;
        }
      }
    }
    if (const json* v = get(root, "description")) string(*v, "/description");
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
    if (const json* v = get(root, "limits")) load_limits(*v, sc);
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
               "missing required key " + quote(key) + " (" + std::string(hint) + ")");
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
                           "m, h, d, w or y (e.g. \"36h\")");
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
                     "duplicate instance id " + quote(*s) + " (also /instances/" +
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
      check_keys(o, p, {"name", "instance", "count", "pricing"});
      Pool pool;
      if (const json* v = need(o, p, "name", "names the pool in results, e.g. \"main\"")) {
        if (auto s = name(*v, p + "/name")) {
          for (size_t j = 0; j < pool_infos_.size(); ++j) {
            if (pool_infos_[j].name == *s) {
              d_.error(p + "/name", DiagCode::out_of_range,
                       "duplicate pool name " + quote(*s) + " (also /pools/" + std::to_string(j) +
                           "); pool names must be unique");
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
      if (const json* v = need(o, p, "count", "nodes in the pool, e.g. 16")) {
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
        } else if (pricing_ok && inst_ok) {
          std::vector<std::string> has;
          for (size_t k = 0; k < PRICINGS.size(); ++k)
            if (price_of(inst->price_per_hour, k)) has.push_back(PRICINGS[k]);
          d_.error(p + "/pricing", DiagCode::unknown_name,
                   "instance type " + quote(inst->id) + " has no " + PRICINGS[pricing] +
                       " price; it has " + (has.empty() ? "none" : list_names(has)),
                   has);
        }
      }
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
      check_keys(o, p,
                 {"name", "description", "arrival", "gpus", "duration", "trace", "pools",
                  "reference_gpu"});
      JobClass jc;
      jc.pointer = p;
      if (const json* v = need(o, p, "name", "names the class in results, e.g. \"training\"")) {
        if (auto s = name(*v, p + "/name")) {
          if (auto [at, fresh] = seen.try_emplace(*s, i); !fresh) {
            d_.error(p + "/name", DiagCode::out_of_range,
                     "duplicate job class name " + quote(*s) + " (also /workload/" +
                         std::to_string(at->second) + "); class names must be unique");
          }
          jc.name = *s;
        }
      }
      if (const json* v = get(o, "description")) string(*v, p + "/description");
      bool pools_ok = true;
      if (const json* v = get(o, "pools")) pools_ok = load_class_pools(*v, p + "/pools", jc);
      if (const json* v = get(o, "reference_gpu")) {
        if (auto g = gpu_id(*v, p + "/reference_gpu")) jc.reference_gpu = *g;
      }
      if (const json* t = get(o, "trace")) {
        for (const char* key : {"arrival", "gpus", "duration"}) {
          if (o.contains(key)) {
            d_.error(child(p, key), DiagCode::unknown_key,
                     quote(key) +
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
    if (const json* v = need(o, p, "duration", "run time per job, e.g. \"2h\"")) {
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
                 "GPU count " + quote(key) + " must be a positive whole number, e.g. \"8\"");
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
      if (d) dist = Distribution{DistKind::fixed, *d, 0, {}, {}};
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
      if (d) dist = Distribution{DistKind::fixed, *d, 0, {}, {}};
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
    return "the largest pool this class may use, " + quote(info.name) + ", has " +
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
      static const std::vector<std::string> PLACEMENTS = {"best_fit"};
      if (choice(*v, "/scheduler/placement", "placement", PLACEMENTS)) {
        sc.scheduler.placement = Placement::best_fit;
      }
    }
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
    d.add(Diagnostic{
        "", 0, ptr, DiagCode::bad_override, "cannot apply --set " + quote(spec) + ": " + why, {}});
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
                        quote(key) + " is not an index of it" +
                        (node->empty() ? "" : " (0.." + std::to_string(node->size() - 1) + ")"));
      }
      ptr = child(ptr, idx);
      if (last) {
        (*node)[idx] = std::move(value);
      }
      node = &(*node)[idx];
    } else {
      return fail(full_ptr, (ptr.empty() ? std::string("the root") : ptr) + " is " +
                                describe(*node) + ", so it has no " + quote(key));
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
