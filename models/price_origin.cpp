#include "models/price_origin.h"

#include "models/catalog_age.h"

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

}  // namespace

bool priced_by_scenario(const Scenario& sc, const Pool& pool) {
  if (pool.pricing == Pricing::on_prem && pool.econ.on_prem) return true;
  if (pool.pricing == Pricing::spot && pool.econ.spot && !pool.econ.spot->price_series.empty())
    return true;
  return inline_instance(sc, pool);
}

bool price_stale(const Scenario& sc, const Pool& pool, std::chrono::year_month_day today) {
  const InstanceType& inst = sc.instance_of(pool);
  if (inline_instance(sc, pool)) return !inst.as_of.empty() && is_stale(inst.as_of, today);
  return !priced_by_scenario(sc, pool) && is_stale(inst.as_of, today);
}

}  // namespace gpuplan
