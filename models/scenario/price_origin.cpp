#include "models/scenario/price_origin.h"

#include "models/catalog/catalog_age.h"

namespace gpuplan {
namespace {

// Whether `pool`'s instance type is one of the scenario's inline "instances".
bool inline_instance(const Scenario& sc, const Pool& pool) {
  if (!sc.source.is_object() || !sc.source.contains("instances")) return false;
  const nlohmann::json& arr = sc.source["instances"];
  if (!arr.is_array()) return false;
  for (const nlohmann::json& o : arr)
    if (o.is_object() && o.value("id", std::string()) == pool.instance) return true;
  return false;
}

// Whether the pool carries its own costs: an on-prem server template or a spot price series.
bool own_costs(const Pool& pool) {
  if (pool.pricing == Pricing::on_prem && pool.econ.on_prem) return true;
  return pool.pricing == Pricing::spot && pool.econ.spot && !pool.econ.spot->price_series.empty();
}

}  // namespace

bool priced_by_scenario(const Scenario& sc, const Pool& pool) {
  return own_costs(pool) || inline_instance(sc, pool);
}

bool price_stale(const Scenario& sc, const Pool& pool, std::chrono::year_month_day today) {
  if (own_costs(pool)) return false;
  const InstanceType& inst = sc.instance_of(pool);
  // NOTE: an inline type is judged by its own as_of (none: never stale); a scenario echo writes
  // catalog types inline with their catalog as_of, so they age the same way.
  if (inline_instance(sc, pool))
    return !inst.as_of.empty() && is_stale(inst.as_of, today, sc.stale_after_months);
  return is_stale(inst.as_of, today, sc.stale_after_months);
}

}  // namespace gpuplan
