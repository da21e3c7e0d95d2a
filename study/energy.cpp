#include "study/energy.h"

#include <algorithm>
#include <map>
#include <span>

#include "models/compile/pool_power.h"

namespace gpuplan::study {
namespace {

using energy::EnergyFigures;
using energy::PoolPower;

//! The figures of one replication.
struct ReplicaEnergy {
  std::vector<EnergyFigures> pools, pool_idle, classes;
  std::vector<double> pool_embodied;  //!< [tCO2e]
  EnergyFigures total;
  double embodied = 0;  //!< [tCO2e]
};

//! The grid factor of a pool that follows the hourly series: the series weighted by the pool's
//! mean power in each time bin of the statistics window (the bins are cluster-wide means, so
//! with several pools this is the cluster's time profile).
double series_factor(const Scenario& sc, const CompiledScenario& cs, const McSummary& st,
                     const PoolPower& pp) {
  const ModelView v = cs.view();
  double weight = 0, sum = 0;
  for (uint32_t b = 0; b < v.n_bins && b < st.busy_gpus.size(); ++b) {
    const double t0 = std::max(sc.warmup_s, b * v.bin_width);
    const double t1 = std::min(sc.horizon_s, (b + 1) * v.bin_width);
    if (t1 <= t0) continue;
    const double busy = st.busy_gpus[b];
    const double idle = std::max(0.0, st.provisioned_gpus[b] - busy);
    const double w = (busy * pp.busy_slot_w + idle * pp.idle_slot_w) * (t1 - t0);
    weight += w;
    sum += w * energy::series_mean(sc.energy.grid_series, t0, t1);
  }
  return weight > 0 ? sum / weight : pp.g_co2e_per_kwh;
}

ReplicaEnergy replica_energy(const Scenario& sc, const CompiledScenario& cs,
                             const std::vector<PoolPower>& powers, const ReplicaMetrics& m,
                             std::pair<double, double> embodied) {
  const double window = sc.horizon_s - sc.warmup_s;
  ReplicaEnergy r;
  std::vector<double> busy(powers.size());
  for (std::size_t p = 0; p < powers.size(); ++p) {
    const double node_s = m.pools[p].mean_nodes * window;
    const double provisioned = node_s * cs.pools[p].gpus_per_node;
    busy[p] = m.pools[p].busy_gpu_s;
    r.pools.push_back(energy::pool_energy(powers[p], busy[p], provisioned));
    r.pool_idle.push_back(energy::idle_energy(powers[p], busy[p], provisioned));
    r.pool_embodied.push_back(energy::embodied_tco2e(node_s, embodied.first, embodied.second));
    r.total += r.pools.back();
    r.embodied += r.pool_embodied.back();
  }
  for (std::size_t c = 0; c < sc.workload.size(); ++c) {
    // NOTE: the engine keeps a class's busy GPU-seconds, not per pool; a class is charged the
    // busy power of the pools it may use, weighted by their busy GPU-seconds (exact with one).
    EnergyFigures per_busy_s;
    double weight = 0;
    for (std::size_t p = 0; p < powers.size(); ++p) {
      if (!sc.workload[c].may_use(p) || busy[p] <= 0) continue;
      per_busy_s += energy::busy_energy(powers[p], busy[p]);
      weight += busy[p];
    }
    const double class_busy_s = m.classes[c].gpu_hours.busy * 3600.0;
    EnergyFigures f;
    if (weight > 0) {
      const double k = class_busy_s / weight;
      f = {per_busy_s.it_kwh * k, per_busy_s.kwh * k, per_busy_s.tco2e * k,
           per_busy_s.power_usd * k};
    }
    r.classes.push_back(f);
  }
  return r;
}

//! Facility watts per busy GPU and per idle provisioned GPU of one replication: each pool's slot
//! power times PUE, weighted by the pool's busy (idle) GPU-seconds, so a power series built from
//! the cluster-wide bins integrates to the replication's energy (exactly with one pool).
std::pair<double, double> facility_w_per_gpu(const Scenario& sc, const CompiledScenario& cs,
                                             const std::vector<PoolPower>& powers,
                                             const ReplicaMetrics& m) {
  const double window = sc.horizon_s - sc.warmup_s;
  double busy_w = 0, busy = 0, idle_w = 0, idle = 0, prov_busy_w = 0, prov_idle_w = 0, prov = 0;
  for (std::size_t p = 0; p < powers.size(); ++p) {
    const double provisioned = m.pools[p].mean_nodes * window * cs.pools[p].gpus_per_node;
    const double b = m.pools[p].busy_gpu_s;
    const double i = std::max(0.0, provisioned - b);
    const double wb = powers[p].busy_slot_w * powers[p].pue;
    const double wi = powers[p].idle_slot_w * powers[p].pue;
    busy_w += b * wb;
    busy += b;
    idle_w += i * wi;
    idle += i;
    prov_busy_w += provisioned * wb;
    prov_idle_w += provisioned * wi;
    prov += provisioned;
  }
  // NOTE: with no busy (idle) GPU-seconds in the window the weights fall back to the provisioned
  // GPUs, so warmup bins, which may differ from the window, still get the pools' power.
  const double fb = prov > 0 ? prov_busy_w / prov : 0.0;
  const double fi = prov > 0 ? prov_idle_w / prov : 0.0;
  return {busy > 0 ? busy_w / busy : fb, idle > 0 ? idle_w / idle : fi};
}

//! Fills `s.power_kw` and `s.power_band` from each replication's busy and provisioned GPUs per
//! time bin.
void power_series(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                  const std::vector<PoolPower>& powers, Summary& s) {
  const std::size_t n_bins = cs.view().n_bins;
  std::vector<std::vector<double>> rows;
  for (const std::size_t k : s.stats.in_statistics) {
    const ReplicaOutcome& o = st.replicas[k];
    const auto [w_busy, w_idle] = facility_w_per_gpu(sc, cs, powers, o.metrics);
    std::vector<double> kw(n_bins, 0.0);
    for (std::size_t b = 0; b < n_bins && b < o.busy_gpus.size() && b < o.provisioned_gpus.size();
         ++b)
      kw[b] = (o.busy_gpus[b] * w_busy +
               std::max(0.0, o.provisioned_gpus[b] - o.busy_gpus[b]) * w_idle) /
              1000.0;
    rows.push_back(std::move(kw));
  }
  s.power_kw.assign(n_bins, 0.0);
  for (const auto& r : rows)
    for (std::size_t b = 0; b < n_bins; ++b) s.power_kw[b] += r[b] / double(rows.size());
  const std::vector<std::span<const double>> spans(rows.begin(), rows.end());
  s.power_band = percentile_band(spans, n_bins);
}

//! Collects one value per replication under a metric path, in first-seen order.
struct Collector {
  std::vector<std::pair<std::string, std::vector<double>>> series;
  std::size_t at = 0;
  void put(const std::string& path, double x) {
    if (at == series.size()) series.emplace_back(path, std::vector<double>{});
    series[at++].second.push_back(x);
  }
  void put_figures(const std::string& prefix, const EnergyFigures& f) {
    put(prefix + "kwh", f.kwh);
    put(prefix + "tco2e", f.tco2e);
    put(prefix + "power_cost_usd", f.power_usd);
  }
};

}  // namespace

void summarize_energy(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                      Summary& s) {
  s.energy.reset();
  s.energy_stats.clear();
  s.power_kw.clear();
  s.power_band = {};
  if (s.stats.in_statistics.empty() || sc.pools.empty()) return;
  std::vector<PoolPower> powers = energy::resolve_pool_powers(sc);
  power_series(sc, cs, st, powers, s);
  for (PoolPower& pp : powers)
    if (pp.uses_grid_series) pp.g_co2e_per_kwh = series_factor(sc, cs, s.stats, pp);
  const auto embodied = energy::embodied_per_node(sc);
  Collector col;
  for (const std::size_t k : s.stats.in_statistics) {
    const ReplicaEnergy r = replica_energy(sc, cs, powers, st.replicas[k].metrics, embodied);
    col.at = 0;
    col.put_figures("energy.", r.total);
    col.put("energy.it_kwh", r.total.it_kwh);
    col.put("energy.embodied_tco2e", r.embodied);
    for (std::size_t p = 0; p < sc.pools.size(); ++p) {
      const std::string q = "energy.per_pool." + sc.pools[p].name + ".";
      col.put_figures(q, r.pools[p]);
      col.put(q + "idle_kwh", r.pool_idle[p].kwh);
      col.put(q + "embodied_tco2e", r.pool_embodied[p]);
    }
    for (std::size_t c = 0; c < sc.workload.size(); ++c)
      col.put_figures("energy.per_class." + sc.workload[c].name + ".", r.classes[c]);
  }
  const bool spread = s.stats.in_statistics.size() > 1;
  std::map<std::string, double> mean;
  for (const auto& [path, values] : col.series) {
    const Statistic stat = statistic_of(summarize(values), spread);
    mean[path] = stat.mean;
    s.energy_stats.emplace_back(path, stat);
  }
  const double window_h = (sc.horizon_s - sc.warmup_s) / 3600.0;
  const auto figures = [&](const std::string& prefix) {
    return EnergyMeans{mean[prefix + "kwh"], mean[prefix + "tco2e"],
                       mean[prefix + "power_cost_usd"],
                       window_h > 0 ? mean[prefix + "kwh"] / window_h : 0.0};
  };
  EnergySummary out;
  out.total = figures("energy.");
  out.it_kwh = mean["energy.it_kwh"];
  out.embodied_tco2e = mean["energy.embodied_tco2e"];
  out.embodied_kgco2e_per_node = embodied.first;
  out.embodied_life_years = embodied.second;
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const std::string q = "energy.per_pool." + sc.pools[p].name + ".";
    out.pools.push_back(PoolEnergy{sc.pools[p].name, figures(q), mean[q + "idle_kwh"],
                                   mean[q + "embodied_tco2e"], powers[p]});
  }
  for (const JobClass& jc : sc.workload)
    out.classes.push_back(ClassEnergy{jc.name, figures("energy.per_class." + jc.name + ".")});
  if (!sc.energy.grid_series.empty()) {
    out.grid_series_file = sc.energy.grid_series_file;
    out.grid_series_hours = sc.energy.grid_series.size();
  }
  out.replications = s.stats.in_statistics.size();
  s.energy = std::move(out);
}

}  // namespace gpuplan::study
