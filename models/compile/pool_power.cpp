#include "models/compile/pool_power.h"

#include <cmath>

#include "models/perf/energy/energy_data.h"

namespace gpuplan::energy {
namespace {

//! `pool` over `site`: each field the pool sets wins.
EnergyInput merged(const EnergyInput& site, const EnergyInput* pool) {
  if (pool == nullptr) return site;
  EnergyInput m = site;
  if (pool->pue) m.pue = pool->pue;
  if (pool->region) {
    m.region = pool->region;
    m.g_co2e_per_kwh.reset();  // a pool's own region beats a scenario-wide factor
  }
  if (pool->g_co2e_per_kwh) m.g_co2e_per_kwh = pool->g_co2e_per_kwh;
  if (pool->usd_per_kwh) m.usd_per_kwh = pool->usd_per_kwh;
  if (pool->gpu_activity) m.gpu_activity = pool->gpu_activity;
  if (pool->gpu_idle_fraction) m.gpu_idle_fraction = pool->gpu_idle_fraction;
  if (pool->node_overhead_w) m.node_overhead_w = pool->node_overhead_w;
  if (!pool->power_curve.empty()) m.power_curve = pool->power_curve;
  return m;
}

bool sets_power(const EnergyInput& in) {
  return in.gpu_idle_fraction || in.node_overhead_w || !in.power_curve.empty();
}

double tdp_of(const Scenario& sc, const Pool& pool) {
  if (pool.gpu != nullptr) return pool.gpu->tdp_w;
  const GpuSpec* g = builtin_catalog().find_gpu(sc.instance_of(pool).gpu);
  return g ? g->tdp_w : 0.0;
}

}  // namespace

double series_mean(const std::vector<double>& hourly, double t0_s, double t1_s) {
  if (hourly.empty()) return 0.0;
  const double n = double(hourly.size());
  const auto at = [&](double h) { return hourly[std::size_t(std::fmod(h, n))]; };
  if (t1_s <= t0_s) return at(std::floor(t0_s / 3600.0));
  // NOTE: exact overlap of [t0, t1) with each hour, so a bin that straddles hours is weighted.
  double sum = 0;
  for (double h = std::floor(t0_s / 3600.0); h * 3600.0 < t1_s; h += 1) {
    const double lo = std::max(t0_s, h * 3600.0), hi = std::min(t1_s, (h + 1) * 3600.0);
    sum += at(h) * (hi - lo);
  }
  return sum / (t1_s - t0_s);
}

PoolPower instance_power(const InstanceType& inst, double tdp_w, const EnergyInput& in,
                         bool on_prem, const economics::OnPremNode* tmpl) {
  const EnergyData& data = builtin_energy_data();
  const PowerDefaults& d = data.defaults;
  PoolPower pp;
  pp.gpus_per_node = inst.gpus_per_node > 0 ? inst.gpus_per_node : 1;
  const double gpn = pp.gpus_per_node;
  const double activity = in.gpu_activity.value_or(d.gpu_activity);
  pp.power_billed = on_prem;
  if (on_prem && tmpl && !sets_power(in)) {
    // NOTE: the on-prem cost model's own server powers, so billing and energy agree.
    pp.idle_slot_w = tmpl->idle_power_kw * 1000.0 / gpn;
    pp.busy_slot_w = (tmpl->idle_power_kw + activity * (tmpl->max_power_kw - tmpl->idle_power_kw)) *
                     1000.0 / gpn;
    pp.power_source = "the pool's on_prem server template (idle_power_kw, max_power_kw)";
  } else {
    const PowerCurve curve = in.power_curve.empty()
                                 ? linear_curve(in.gpu_idle_fraction.value_or(d.gpu_idle_fraction))
                                 : in.power_curve;
    const double overhead_busy = in.node_overhead_w.value_or(d.node_overhead_busy_w_per_gpu * gpn);
    const double overhead_idle = overhead_busy * d.node_overhead_idle_fraction;
    pp.idle_slot_w = gpu_power_w(curve, tdp_w, 0.0) + overhead_idle / gpn;
    pp.busy_slot_w = gpu_power_w(curve, tdp_w, activity) + overhead_busy / gpn;
    pp.power_source = in.power_curve.empty()
                          ? "GPU TDP on a linear idle-to-TDP curve plus node overhead"
                          : "the scenario's power_curve plus node overhead";
  }
  const std::string region = in.region.value_or(inst.region);
  const GridRegion* r = data.find_region(region);
  if (in.g_co2e_per_kwh) {
    pp.g_co2e_per_kwh = *in.g_co2e_per_kwh;
    pp.grid_source = "the scenario's g_co2e_per_kwh";
  } else if (r) {
    pp.region = r->id;
    pp.g_co2e_per_kwh = r->g_co2e_per_kwh;
    pp.grid_source = r->source;
  } else {
    pp.g_co2e_per_kwh = d.default_g_co2e_per_kwh;
    pp.grid_source = d.default_grid_source;
  }
  if (in.pue) {
    pp.pue = *in.pue;
  } else if (on_prem) {
    pp.pue = tmpl ? tmpl->pue : economics::OnPremNode{}.pue;
  } else {
    pp.pue = r && r->pue ? *r->pue : d.pue_cloud;
  }
  pp.usd_per_kwh = in.usd_per_kwh.value_or(tmpl ? tmpl->electricity_usd_per_kwh : d.usd_per_kwh);
  return pp;
}

std::vector<PoolPower> resolve_pool_powers(const Scenario& sc) {
  std::vector<PoolPower> out;
  for (const Pool& pool : sc.pools) {
    const EnergyInput* own = sc.energy.pool_input(pool.name);
    const EnergyInput in = merged(sc.energy.site, own);
    const auto& tmpl = pool.econ.on_prem;
    PoolPower pp = instance_power(sc.instance_of(pool), tdp_of(sc, pool), in,
                                  pool.pricing == Pricing::on_prem, tmpl ? &*tmpl : nullptr);
    const bool own_grid = own && (own->region || own->g_co2e_per_kwh);
    if (!in.g_co2e_per_kwh && !sc.energy.grid_series.empty() && !own_grid) {
      pp.uses_grid_series = true;
      pp.region.clear();
      pp.g_co2e_per_kwh = series_mean(sc.energy.grid_series, sc.warmup_s, sc.horizon_s);
      pp.grid_source = "the hourly series " + sc.energy.grid_series_file;
    }
    out.push_back(std::move(pp));
  }
  return out;
}

std::pair<double, double> embodied_per_node(const Scenario& sc) {
  const PowerDefaults& d = builtin_energy_data().defaults;
  return {sc.energy.embodied_kgco2e_per_node.value_or(d.embodied_kgco2e_per_node),
          sc.energy.embodied_life_years.value_or(d.embodied_life_years)};
}

}  // namespace gpuplan::energy
