#pragma once
//! Each pool's resolved power model (docs/energy.md): the scenario's `energy` settings (pool over
//! scenario-wide) over the pool's own on-prem server template, over the built-in defaults of
//! models/catalog/energy.json.
#include <vector>

#include "models/perf/energy/power_model.h"
#include "models/scenario/scenario.h"

namespace gpuplan::energy {

//! The mean of an hourly grid series over [t0_s, t1_s) [gCO2e/kWh], the series repeating after
//! its last hour; the first value when t1_s <= t0_s; 0 for an empty series.
[[nodiscard]] double series_mean(const std::vector<double>& hourly, double t0_s, double t1_s);

//! The power, site and grid figures of one node of `inst` (GPU TDP `tdp_w` [W]) under the
//! settings `in`, defaults from models/catalog/energy.json: an on-prem node with a server template
//! `tmpl` and no power settings of its own takes the template's powers, PUE and price; the grid
//! factor is `in`'s, else the region's (`in.region`, else the instance's), else the default.
[[nodiscard]] PoolPower instance_power(const InstanceType& inst, double tdp_w,
                                       const EnergyInput& in, bool on_prem,
                                       const economics::OnPremNode* tmpl);

//! The PoolPower of every pool of `sc`, in pool order. A pool with the scenario's hourly grid
//! series gets the series' mean over the statistics window as its factor (study/energy.cpp
//! weights it by the simulated power per time bin instead).
[[nodiscard]] std::vector<PoolPower> resolve_pool_powers(const Scenario& sc);

//! Embodied carbon per node [kgCO2e] and the life it is spread over [years] for `sc`.
[[nodiscard]] std::pair<double, double> embodied_per_node(const Scenario& sc);

}  // namespace gpuplan::energy
