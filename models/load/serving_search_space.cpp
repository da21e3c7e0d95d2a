#include "models/load/serving_search_space.h"

#include <string>

#include "models/catalog/catalog.h"
#include "models/input/names.h"

namespace gpuplan {
namespace {

using json = nlohmann::json;
using fields::num;

//! A non-empty list of whole numbers in [lo, hi] at `ptr`, without repeats.
std::optional<std::vector<uint32_t>> whole_numbers(const json& v, const std::string& ptr,
                                                   uint32_t lo, uint32_t hi, FieldReader& f,
                                                   Diagnostics& d) {
  if (!v.is_array() || v.empty() || v.size() > MAX_SEARCH_CONFIGURATIONS) {
    f.wrong_type(v, ptr, "a list of 1 to 256 whole numbers");
    return std::nullopt;
  }
  std::vector<uint32_t> out;
  for (size_t k = 0; k < v.size(); ++k) {
    const auto n = f.integer(v[k], ptr + "/" + std::to_string(k), lo, hi);
    if (!n) return std::nullopt;
    for (uint32_t m : out)
      if (m == *n) {
        d.error(ptr + "/" + std::to_string(k), DiagCode::infeasible,
                num(double(*n)) + " is listed twice; list each value once");
        return std::nullopt;
      }
    out.push_back(uint32_t(*n));
  }
  return out;
}

}  // namespace

std::optional<ServingSearchSpace> load_search_space(const json& x, const json& root, FieldReader& f,
                                                    Diagnostics& d, const SearchDefaults& own) {
  const size_t errors = d.size();
  ServingSearchSpace s;
  if (!f.get(root, "slo"))
    d.error("/search", DiagCode::missing_key,
            "a search looks for the cheapest configuration meeting the SLOs: give \"slo\", e.g. "
            "{\"ttft\": \"500ms\", \"tpot\": \"50ms\"}");
  if (own.instance.empty())
    d.error("/search", DiagCode::missing_key,
            "a search ranks configurations by their cost: give the \"instance\" (and "
            "\"pricing\") that prices the scenario's GPUs");
  if (f.get(root, "autoscaling"))
    d.error("/autoscaling", DiagCode::infeasible,
            "a search sizes fixed clusters; searching autoscaled ones is not modelled yet: drop "
            "autoscaling or search");
  if (f.get(root, "disaggregated"))
    d.error("/disaggregated", DiagCode::infeasible,
            "a search sizes colocated replicas; searching disaggregated pools is not modelled "
            "yet: drop disaggregated or search");
  if (d.size() > errors) return std::nullopt;

  const Pricing pricing = own.pricing;
  if (const json* y = f.get(x, "instances")) {
    if (!y->is_array() || y->empty() || y->size() > 64) {
      f.wrong_type(*y, "/search/instances", "a list of 1 to 64 instance types");
      return std::nullopt;
    }
    for (size_t k = 0; k < y->size(); ++k) {
      const std::string ptr = "/search/instances/" + std::to_string(k);
      const auto id = f.string((*y)[k], ptr);
      if (!id) return std::nullopt;
      const InstanceType* it = builtin_catalog().find_instance(*id);
      if (!it) {
        std::vector<std::string> known;
        for (const InstanceType& t : builtin_catalog().instances)
          if (price_of(t.price_per_hour, pricing)) known.push_back(t.id);
        d.unknown_name(ptr, "instance type", *id, known);
        return std::nullopt;
      }
      if (!price_of(it->price_per_hour, pricing)) {
        d.error(ptr, DiagCode::infeasible,
                *id + " has no " + std::string(enum_name(pricing)) +
                    " price in the catalog; drop it or search another pricing (gpuplan catalog "
                    "--gpu " +
                    it->gpu + ")");
        return std::nullopt;
      }
      for (const std::string& seen : s.instances)
        if (seen == it->id) {
          d.error(ptr, DiagCode::infeasible, *id + " is listed twice; list each value once");
          return std::nullopt;
        }
      s.instances.push_back(it->id);
    }
  } else {
    s.instances = {own.instance};
  }
  const auto list = [&](const char* key, uint32_t lo, uint32_t hi, uint32_t own,
                        std::vector<uint32_t>& into) {
    if (const json* y = f.get(x, key)) {
      if (auto v = whole_numbers(*y, std::string("/search/") + key, lo, hi, f, d)) into = *v;
    } else {
      into = {own};
    }
  };
  list("tp", 1, 16, own.tp, s.tp);
  list("max_num_batched_tokens", 1, 1u << 20, own.max_num_batched_tokens, s.max_num_batched_tokens);
  list("max_num_seqs", 1, 4096, own.max_num_seqs, s.max_num_seqs);
  if (const json* y = f.get(x, "attainment"))
    if (auto a = f.number(*y, "/search/attainment", 0.5, 1)) s.attainment = *a;
  if (const json* y = f.get(x, "max_replicas"))
    if (auto n = f.integer(*y, "/search/max_replicas", 1, 1024)) s.max_replicas = uint32_t(*n);
  if (const json* y = f.get(x, "exhaustive"))
    if (auto b = f.boolean(*y, "/search/exhaustive")) s.exhaustive = *b;
  if (d.size() > errors) return std::nullopt;
  if (s.size() > MAX_SEARCH_CONFIGURATIONS) {
    d.error("/search", DiagCode::limit_exceeded,
            num(double(s.instances.size())) + " instance types x " + num(double(s.tp.size())) +
                " tp x " + num(double(s.max_num_batched_tokens.size())) + " budgets x " +
                num(double(s.max_num_seqs.size())) + " sequence caps is " + num(double(s.size())) +
                " configurations, more than the " + num(double(MAX_SEARCH_CONFIGURATIONS)) +
                " a search tries; shorten a list");
    return std::nullopt;
  }
  return s;
}

}  // namespace gpuplan
