#include "study/tco_energy.h"

#include <algorithm>
#include <tuple>

#include "models/economics/billing.h"
#include "models/perf/energy/energy_data.h"
#include "models/compile/pool_power.h"

namespace gpuplan::study {
namespace {

using economics::HOURS_PER_MONTH;
}  // namespace

std::vector<double> series(const Eigen::VectorXd& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

GpuHourEnergy& GpuHourEnergy::operator+=(const GpuHourEnergy& o) {
  busy_kwh += o.busy_kwh;
  idle_kwh += o.idle_kwh;
  busy_tco2e += o.busy_tco2e;
  idle_tco2e += o.idle_tco2e;
  embodied_tco2e += o.embodied_tco2e;
  return *this;
}

GpuHourEnergy& GpuHourEnergy::operator*=(double k) {
  busy_kwh *= k;
  idle_kwh *= k;
  busy_tco2e *= k;
  idle_tco2e *= k;
  embodied_tco2e *= k;
  return *this;
}

GpuHourEnergy gpu_hour_energy(const energy::PoolPower& pool, double kg_per_node,
                              double life_years) {
  GpuHourEnergy h;
  h.busy_kwh = pool.busy_slot_w * pool.pue / 1000.0;
  h.idle_kwh = pool.idle_slot_w * pool.pue / 1000.0;
  h.busy_tco2e = h.busy_kwh * pool.g_co2e_per_kwh / 1e6;
  h.idle_tco2e = h.idle_kwh * pool.g_co2e_per_kwh / 1e6;
  h.embodied_tco2e =
      energy::embodied_tco2e(3600.0, kg_per_node, life_years) / double(pool.gpus_per_node);
  return h;
}

TcoPower tco_power(const Scenario& sc, const std::vector<double>& pool_busy_gpu_s) {
  const TcoConfig& t = *sc.tco;
  TcoPower out;
  std::tie(out.embodied_kg_per_node, out.embodied_life_years) = energy::embodied_per_node(sc);
  out.embodied_source = sc.energy.embodied_kgco2e_per_node
                            ? "the scenario's energy.embodied_kgco2e_per_node"
                            : energy::builtin_energy_data().defaults.embodied_source;
  const auto hour_of = [&](const energy::PoolPower& p) {
    return gpu_hour_energy(p, out.embodied_kg_per_node, out.embodied_life_years);
  };
  const std::vector<energy::PoolPower> powers = energy::resolve_pool_powers(sc);
  if (t.server_pool_idx) {
    out.on_prem = powers[*t.server_pool_idx];
    out.fleet = {out.on_prem.node_idle_w() / 1000.0, out.on_prem.node_busy_w() / 1000.0,
                 out.on_prem.pue, out.on_prem.usd_per_kwh};
    out.on_prem_hour = hour_of(out.on_prem);
  }
  if (t.cloud) {
    const TcoCloudInstance& cloud = *t.cloud;
    out.cloud_hour = hour_of(energy::instance_power(cloud.type, cloud.gpu ? cloud.gpu->tdp_w : 0.0,
                                                    sc.energy.site, false, nullptr));
    out.cloud_source = "tco.cloud: " + cloud.type.id + " in its region";
    return out;
  }
  // NOTE: weighted like the cloud prices (study/tco.cpp), so a GPU-hour's power and its price
  // come from the same pools.
  double by_busy = 0, by_gpus = 0;
  GpuHourEnergy busy_mix, gpus_mix;
  std::string list;
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    if (sc.pools[p].pricing == Pricing::on_prem) continue;
    const double gpus = double(sc.pools[p].count) * powers[p].gpus_per_node;
    GpuHourEnergy a = hour_of(powers[p]), b = a;
    a *= pool_busy_gpu_s[p];
    b *= gpus;
    busy_mix += a;
    gpus_mix += b;
    by_busy += pool_busy_gpu_s[p];
    by_gpus += gpus;
    list += (list.empty() ? "" : ", ") + sc.pools[p].name;
  }
  if (by_busy > 0) {
    busy_mix *= 1.0 / by_busy;
    out.cloud_hour = busy_mix;
  } else if (by_gpus > 0) {
    gpus_mix *= 1.0 / by_gpus;
    out.cloud_hour = gpus_mix;
  } else {
    // NOTE: no cloud pool and no tco.cloud: the loader then refuses any option with cloud
    // GPU-hours, so this figure is never used; the servers' own stands in.
    out.cloud_hour = out.on_prem_hour;
  }
  out.cloud_source = list.empty() ? "the on-prem servers' power (no cloud pool)"
                                  : "the scenario's cloud pools: " + list;
  return out;
}

MonthlyEnergy cloud_energy(const GpuHourEnergy& hour, const economics::CloudMix& mix,
                           const Eigen::VectorXd& demand_gpu_hours) {
  const Eigen::ArrayXd demand = demand_gpu_hours.array();
  const double reserved = mix.reserved_gpus * HOURS_PER_MONTH;
  const Eigen::ArrayXd on_reserved = demand.min(reserved);
  const Eigen::ArrayXd above = demand - on_reserved;
  const Eigen::ArrayXd busy =
      on_reserved + above * (mix.spot_share * (1.0 + mix.spot_overhead) + (1.0 - mix.spot_share));
  const Eigen::ArrayXd idle = reserved - on_reserved;
  MonthlyEnergy e;
  e.kwh = (busy * hour.busy_kwh + idle * hour.idle_kwh).matrix();
  e.tco2e = (busy * hour.busy_tco2e + idle * hour.idle_tco2e).matrix();
  e.embodied_tco2e = ((busy + idle) * hour.embodied_tco2e).matrix();
  e.power_usd = Eigen::VectorXd::Zero(demand.size());
  return e;
}

MonthlyEnergy fleet_energy(const TcoPower& power, const economics::OnPremFleet& fleet,
                           const economics::OnPremMonthly& cost) {
  MonthlyEnergy e;
  e.kwh = cost.kwh;
  e.tco2e = cost.kwh * power.on_prem.g_co2e_per_kwh / 1e6;
  e.embodied_tco2e = fleet.nodes * double(fleet.node.gpus_per_node) * HOURS_PER_MONTH *
                     power.on_prem_hour.embodied_tco2e;
  e.power_usd = cost.energy_usd;
  return e;
}

MonthlyEnergy operator+(const MonthlyEnergy& a, const MonthlyEnergy& b) {
  return {a.kwh + b.kwh, a.tco2e + b.tco2e, a.embodied_tco2e + b.embodied_tco2e,
          a.power_usd + b.power_usd};
}

TcoEnergy tco_energy(const MonthlyEnergy& e, const Eigen::VectorXd& monthly_usd) {
  TcoEnergy out;
  const Eigen::Index n = e.kwh.size();
  for (Eigen::Index m0 = 0; m0 < n; m0 += 12) {
    const Eigen::Index k = std::min<Eigen::Index>(12, n - m0);
    out.per_year.push_back({uint32_t(m0 / 12 + 1), monthly_usd.segment(m0, k).sum(),
                            e.kwh.segment(m0, k).sum(), e.tco2e.segment(m0, k).sum(),
                            e.embodied_tco2e.segment(m0, k).sum()});
  }
  out.kwh = e.kwh.sum();
  out.tco2e = e.tco2e.sum();
  out.embodied_tco2e = e.embodied_tco2e.sum();
  out.power_cost_usd = e.power_usd.sum();
  out.monthly_kwh = series(e.kwh);
  out.monthly_tco2e = series(e.tco2e);
  return out;
}

TcoEnergyAssumptions energy_assumptions(const TcoPower& power, bool has_on_prem) {
  const auto hour = [](const GpuHourEnergy& h) {
    return TcoGpuHourAssumptions{h.busy_kwh, h.idle_kwh, h.busy_tco2e * 1000.0,
                                 h.embodied_tco2e * 1000.0};
  };
  TcoEnergyAssumptions out;
  out.cloud = hour(power.cloud_hour);
  out.cloud_source = power.cloud_source;
  out.embodied_kgco2e_per_node = power.embodied_kg_per_node;
  out.embodied_life_years = power.embodied_life_years;
  out.embodied_source = power.embodied_source;
  if (has_on_prem) {
    const energy::PoolPower& p = power.on_prem;
    out.on_prem = TcoEnergyAssumptions::OnPrem{
        hour(power.on_prem_hour), power.fleet.idle_kw, power.fleet.busy_kw, p.pue, p.usd_per_kwh,
        p.g_co2e_per_kwh,         p.grid_source};
  }
  return out;
}

}  // namespace gpuplan::study
