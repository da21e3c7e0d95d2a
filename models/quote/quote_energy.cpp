#include "models/quote/quote_energy.h"

#include <algorithm>

#include "models/economics/billing.h"
#include "models/compile/pool_power.h"

namespace gpuplan::quote {
namespace {

//! The option's power figures with empty energy figures.
OptionEnergy power_of(const InstanceType& it, const GpuSpec& gpu) {
  const energy::PoolPower p = energy::instance_power(it, gpu.tdp_w, EnergyInput{}, false, nullptr);
  OptionEnergy e;
  e.node_busy_kw = p.node_busy_w() / 1000.0;
  e.node_idle_kw = p.node_idle_w() / 1000.0;
  e.pue = p.pue;
  e.g_co2e_per_kwh = p.g_co2e_per_kwh;
  e.grid_region = p.region;
  e.grid_source = p.grid_source;
  return e;
}

void set_energy(OptionEnergy& e, double it_kwh) {
  e.kwh = it_kwh * e.pue;
  e.tco2e = e.kwh * e.g_co2e_per_kwh / 1e6;
}

}  // namespace

OptionEnergy training_energy(const InstanceType& it, const GpuSpec& gpu, uint32_t nodes,
                             double seconds) {
  OptionEnergy e = power_of(it, gpu);
  set_energy(e, nodes * e.node_busy_kw * seconds / 3600.0);
  return e;
}

OptionEnergy inference_energy(const InstanceType& it, const GpuSpec& gpu, uint32_t nodes,
                              uint32_t serving_nodes, double utilization) {
  OptionEnergy e = power_of(it, gpu);
  const double u = std::clamp(utilization, 0.0, 1.0);
  const double serving = std::min(serving_nodes, nodes);
  const double serving_kw = e.node_idle_kw + u * (e.node_busy_kw - e.node_idle_kw);
  set_energy(
      e, (serving * serving_kw + (nodes - serving) * e.node_idle_kw) * economics::HOURS_PER_MONTH);
  return e;
}

}  // namespace gpuplan::quote
