// The `failures` section and each pool's `spares` (docs/failures.md).
#include <cmath>

#include "models/load/loader.h"

namespace gpuplan::loading {

namespace {

const char* const RATE_HINT =
    "a failure rate per GPU: a number per GPU-second or \"<number>/<unit>\" per GPU, e.g. "
    "\"7e-6/h\"";

//! The number of a rate written per hour ("7e-6/h"), exactly as written, so that an echo that
//! writes rates per hour reloads to the very same doubles; nullopt for any other form.
std::optional<double> per_hour_as_written(const json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string& text = v.get_ref<const std::string&>();
  const auto slash = text.find('/');
  if (slash == std::string::npos || fields::trim(std::string_view(text).substr(slash + 1)) != "h")
    return std::nullopt;
  const auto lead = fields::leading_number(std::string_view(text).substr(0, slash));
  if (!lead || !lead->second.empty()) return std::nullopt;
  return lead->first;
}

}  // namespace

// A rate per GPU [1/(GPU·s)] >= 0 and finite (0 switches a cause off).
std::optional<double> Loader::failure_rate(const json& v, const std::string& p) {
  std::optional<double> r;
  if (v.is_number()) {
    r = v.get<double>();
  } else if (v.is_string()) {
    const std::string text = v.get<std::string>();
    r = parse_rate(text);
    if (!r && text.find_first_not_of(" \t") != std::string::npos &&
        text[text.find_first_not_of(" \t")] == '-') {
      d_.error(p, DiagCode::out_of_range,
               "a failure rate must be finite and at least 0, got " + describe(v));
      return std::nullopt;
    }
    if (!r) {
      d_.error(p, DiagCode::bad_unit, "cannot read failure rate " + describe(v) + "; " + RATE_HINT);
      return std::nullopt;
    }
  } else {
    wrong_type(v, p, RATE_HINT);
    return std::nullopt;
  }
  if (!std::isfinite(*r) || *r < 0) {
    d_.error(p, DiagCode::out_of_range,
             "a failure rate must be finite and at least 0, got " + describe(v));
    return std::nullopt;
  }
  return r;
}

void Loader::load_spares(const json& v, const std::string& p, const json& pool_obj,
                         std::optional<uint64_t> count, Pool& pool) {
  const auto n = integer(v, p, 0, 1000000);
  if (!n) return;
  if (pool_obj.contains("elastic") || pool_obj.contains("purchases")) {
    d_.error(p, DiagCode::out_of_range,
             "hot spares are the last nodes of a fixed pool; an elastic pool or one with staged "
             "purchases cannot hold them back, so remove \"spares\" or those keys");
    return;
  }
  if (count && *n >= *count) {
    d_.error(p, DiagCode::out_of_range,
             "spares (" + std::to_string(*n) + ") must be fewer than the pool's count (" +
                 std::to_string(*count) +
                 "): spares are held back from the pool's nodes, so at least one must serve");
    return;
  }
  pool.spares = static_cast<uint32_t>(*n);
}

void Loader::load_failures(const json* v, Scenario& sc) {
  const std::string p = "/failures";
  if (v == nullptr) {
    // NOTE: spares only ever replace failed nodes; without failures they would idle unseen.
    for (size_t i = 0; i < sc.pools.size(); ++i) {
      if (sc.pools[i].spares == 0) continue;
      d_.error(child("/pools", i) + "/spares", DiagCode::out_of_range,
               "hot spares replace failed nodes, but the scenario has no \"failures\" section; "
               "add one (e.g. {\"rates\": \"llama3\"}) or remove \"spares\"");
    }
    return;
  }
  if (!object(*v, p, "{\"rates\": \"llama3\", \"repair\": {\"exponential\": {\"mean\": \"4h\"}}}"))
    return;
  check_keys(*v, p, {"rates", "scale", "repair"});
  FailureConfig f;
  f.repair = DelaySpec{DistKind::exponential, DEFAULT_REPAIR_MEAN_S, 0, {}, {}};
  const json* rates = get(*v, "rates");
  const std::string rp = p + "/rates";
  if (rates == nullptr || rates->is_string()) {
    if (rates == nullptr || choice(*rates, rp, "failure table", {"llama3"})) {
      f.table = "llama3";
      f.causes = llama3_failure_table();
    }
  } else if (rates->is_object() && !rates->empty()) {
    for (const auto& [name, val] : rates->items()) {
      const std::string cp = child(rp, name);
      FailureCauseConfig c;
      c.name = name;
      const json* r = &val;
      if (val.is_object()) {
        check_keys(val, cp, {"rate", "scope"});
        r = need(val, cp, "rate", RATE_HINT);
        if (const json* s = get(val, "scope")) {
          if (auto k = enumerator<FailureScope>(*s, cp + "/scope")) c.scope = *k;
        }
        if (r == nullptr) continue;
      }
      if (auto x = failure_rate(*r, val.is_object() ? cp + "/rate" : cp)) {
        c.rate_per_gpu_hour = per_hour_as_written(*r).value_or(*x * 3600.0);
        f.causes.push_back(c);
      }
    }
  } else {
    wrong_type(*rates, rp,
               "\"llama3\" or an object of causes, e.g. {\"faulty_gpu\": \"7e-6/h\", "
               "\"switch\": {\"rate\": \"2e-6/h\", \"scope\": \"switch\"}}");
  }
  if (const json* s = get(*v, "scale")) {
    if (auto x = number(*s, p + "/scale", 0, 1e6)) f.scale = *x;
  }
  if (const json* r = get(*v, "repair")) delay(*r, p + "/repair", f.repair);
  sc.failures = std::move(f);
}

}  // namespace gpuplan::loading
