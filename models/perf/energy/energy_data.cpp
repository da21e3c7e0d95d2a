#include "models/perf/energy/energy_data.h"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "models/input/embedded.h"
#include "models/input/closest_names.h"

namespace gpuplan::energy {
namespace {

EnergyData parse_builtin() {
  const nlohmann::json j = nlohmann::json::parse(embedded::catalog_energy());
  EnergyData e;
  const nlohmann::json& p = j.at("power");
  PowerDefaults& d = e.defaults;
  d.gpu_idle_fraction = p.at("gpu_idle_fraction");
  d.node_overhead_busy_w_per_gpu = p.at("node_overhead_busy_w_per_gpu");
  d.node_overhead_idle_fraction = p.at("node_overhead_idle_fraction");
  d.gpu_activity = p.at("gpu_activity");
  d.usd_per_kwh = p.at("usd_per_kwh");
  d.pue_cloud = p.at("pue_cloud");
  d.embodied_kgco2e_per_node = p.at("embodied_kgco2e_per_node");
  d.embodied_life_years = p.at("embodied_life_years");
  d.embodied_source = p.at("embodied_source");
  d.default_g_co2e_per_kwh = j.at("grid_default").at("g_co2e_per_kwh");
  d.default_grid_source = j.at("grid_default").at("source");
  for (const nlohmann::json& r : j.at("regions")) {
    GridRegion g;
    g.id = r.at("id");
    g.provider = r.at("provider");
    g.g_co2e_per_kwh = r.at("g_co2e_per_kwh");
    if (r.contains("pue")) g.pue = r.at("pue").get<double>();
    g.source = r.at("source");
    e.regions.push_back(std::move(g));
  }
  return e;
}

}  // namespace

const GridRegion* EnergyData::find_region(std::string_view id) const {
  for (const GridRegion& r : regions)
    if (iequals(r.id, id)) return &r;
  return nullptr;
}

std::vector<std::string> EnergyData::region_ids() const {
  std::vector<std::string> ids;
  for (const GridRegion& r : regions) ids.push_back(r.id);
  return ids;
}

const EnergyData& builtin_energy_data() {
  static const EnergyData data = parse_builtin();
  return data;
}

}  // namespace gpuplan::energy
