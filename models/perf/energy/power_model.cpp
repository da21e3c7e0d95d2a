#include "models/perf/energy/power_model.h"

#include "models/economics/billing.h"

namespace gpuplan::energy {

PowerCurve linear_curve(double idle_fraction) {
  return {{0.0, idle_fraction}, {1.0, 1.0}};
}

double gpu_power_w(const PowerCurve& curve, double tdp_w, double activity) {
  if (curve.empty()) return tdp_w;
  if (activity <= curve.front().first) return curve.front().second * tdp_w;
  for (std::size_t k = 1; k < curve.size(); ++k) {
    const auto& [x1, y1] = curve[k];
    if (activity > x1) continue;
    const auto& [x0, y0] = curve[k - 1];
    const double f = x1 > x0 ? (activity - x0) / (x1 - x0) : 1.0;
    return (y0 + f * (y1 - y0)) * tdp_w;
  }
  return curve.back().second * tdp_w;
}

EnergyFigures& EnergyFigures::operator+=(const EnergyFigures& o) {
  it_kwh += o.it_kwh;
  kwh += o.kwh;
  tco2e += o.tco2e;
  power_usd += o.power_usd;
  return *this;
}

EnergyFigures figures_of(const PoolPower& pool, double it_j, double g_co2e_per_kwh) {
  EnergyFigures f;
  f.it_kwh = it_j / J_PER_KWH;
  f.kwh = f.it_kwh * pool.pue;
  f.tco2e = f.kwh * g_co2e_per_kwh / 1e6;
  f.power_usd = pool.power_billed ? f.kwh * pool.usd_per_kwh : 0.0;
  return f;
}

EnergyFigures pool_energy(const PoolPower& pool, double busy_gpu_s, double provisioned_gpu_s) {
  EnergyFigures f = busy_energy(pool, busy_gpu_s);
  f += idle_energy(pool, busy_gpu_s, provisioned_gpu_s);
  return f;
}

EnergyFigures idle_energy(const PoolPower& pool, double busy_gpu_s, double provisioned_gpu_s) {
  // NOTE: billed GPU-seconds can fall a hair below busy ones by rounding; idle is never negative.
  const double idle_gpu_s = provisioned_gpu_s > busy_gpu_s ? provisioned_gpu_s - busy_gpu_s : 0.0;
  return figures_of(pool, idle_gpu_s * pool.idle_slot_w, pool.g_co2e_per_kwh);
}

EnergyFigures busy_energy(const PoolPower& pool, double busy_gpu_s) {
  return figures_of(pool, busy_gpu_s * pool.busy_slot_w, pool.g_co2e_per_kwh);
}

double embodied_tco2e(double node_s, double kg_per_node, double life_years) {
  if (life_years <= 0) return 0.0;
  return node_s / (life_years * economics::HOURS_PER_YEAR * economics::SECONDS_PER_HOUR) *
         kg_per_node / 1000.0;
}

}  // namespace gpuplan::energy
