#include "models/compile/compile_economics.h"

#include <algorithm>
#include <stdexcept>

#include "models/economics/off_peak.h"
#include "models/economics/on_prem.h"
#include "models/economics/spot.h"

namespace gpuplan {
namespace {

//! Points of the wave-share quantile table the core interpolates (p = i / 64).
constexpr uint32_t WAVE_QUANTILES = 65;

DistSpec compile_delay(const DelaySpec& d, CompiledScenario& out) {
  return compile_distribution(d.kind, d.a, d.b, d.values, d.weights, out);
}

double unit_seconds(economics::BillingGranularity g) {
  switch (g) {
    case economics::BillingGranularity::per_second:
      return 1.0;
    case economics::BillingGranularity::per_hour:
      return 3600.0;
    case economics::BillingGranularity::per_millisecond:
      return 1e-3;
  }
  return 1.0;
}

BillingUnit core_unit(economics::BillingGranularity g) {
  switch (g) {
    case economics::BillingGranularity::per_second:
      return BillingUnit::second;
    case economics::BillingGranularity::per_hour:
      return BillingUnit::hour;
    case economics::BillingGranularity::per_millisecond:
      return BillingUnit::millisecond;
  }
  return BillingUnit::second;
}

void compile_spot(const SpotConfig& sp, const Pool& pool, uint32_t p, PoolSupplySpec& e,
                  CompiledScenario& out) {
  e.spot = true;
  e.hazard_per_node_s = sp.hazard_per_node_hour / 3600.0;
  e.notice_s = sp.notice_s.value_or(economics::preemption_notice_s(pool.econ.spot_rules));
  e.return_delay = compile_delay(sp.return_delay, out);
  if (sp.wave_rate_per_hour > 0) {
    economics::ReclaimWaveModel w;
    w.wave_rate_per_hour = sp.wave_rate_per_hour;
    w.fraction_alpha = sp.wave_alpha;
    w.fraction_beta = sp.wave_beta;
    const auto q = economics::wave_fraction_quantiles(w, WAVE_QUANTILES);
    if (!q) throw std::logic_error("compile: wave quantiles of a validated Beta failed");
    e.wave_rate_per_s = sp.wave_rate_per_hour / 3600.0;
    e.wave_mean_fraction = sp.wave_alpha / (sp.wave_alpha + sp.wave_beta);
    e.wave_q_idx = static_cast<uint32_t>(out.wave_quantiles.size());
    e.wave_q_n = WAVE_QUANTILES;
    out.wave_quantiles.insert(out.wave_quantiles.end(), q->begin(), q->end());
  }
  if (!sp.price_series.empty()) {
    e.price_step_idx = static_cast<uint32_t>(out.price_steps.size());
    e.price_step_n = static_cast<uint32_t>(sp.price_series.size());
    for (const economics::PricePoint& pt : sp.price_series)
      out.price_steps.push_back(PriceStep{pt.t_s, pt.usd_per_hour / 3600.0, p});
  }
}

// Replaces pool p's price series (its spot series or its constant list price) by the same series
// with the off-peak discount applied, stepping at every schedule boundary up to the horizon.
void compile_off_peak(const economics::OffPeakSchedule& s, const PoolEconomics& pe,
                      double horizon_s, uint32_t p, CompiledScenario& out) {
  PoolSupplySpec& e = out.pool_supply[p];
  const std::vector<economics::PricePoint> none;
  const auto series = economics::off_peak_series(s, pe.spot ? pe.spot->price_series : none,
                                                 out.pools[p].price_per_node_s * 3600.0, horizon_s);
  if (!series) throw std::logic_error("compile: a validated spot price series is not increasing");
  // NOTE: the pool's own series, if any, is the last one pushed; the merged series replaces it.
  if (e.price_step_n > 0) out.price_steps.resize(e.price_step_idx);
  e.price_step_idx = static_cast<uint32_t>(out.price_steps.size());
  e.price_step_n = static_cast<uint32_t>(series->size());
  for (const economics::PricePoint& pt : *series)
    out.price_steps.push_back(PriceStep{pt.t_s, pt.usd_per_hour / 3600.0, p});
}

}  // namespace

void compile_economics(const Scenario& sc, CompiledScenario& out) {
  bool any_spot = false, any_dynamic = false;
  uint64_t spot_pools = 0, on_demand_pools = 0;
  out.pool_supply.assign(sc.pools.size(), PoolSupplySpec{});
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const PoolEconomics& pe = pool.econ;
    PoolSupplySpec& e = out.pool_supply[p];
    if (pool.pricing == Pricing::on_demand) on_demand_pools |= 1ull << p;
    e.billing_unit = core_unit(pe.granularity);
    e.billing_unit_s = unit_seconds(pe.granularity);
    e.billing_minimum_s = pe.billing_minimum_s;
    if (pe.on_prem) {
      // Fixed cost per node (capex, colo, network, staff, idle power) plus energy per busy GPU.
      economics::OnPremNode idle = *pe.on_prem;
      idle.utilization = 0;
      const auto fixed = economics::on_prem_cost_per_node_hour(idle);
      if (!fixed) throw std::logic_error("compile: a validated on-prem template failed");
      out.pools[p].price_per_node_s = fixed->total_usd / 3600.0;
      const economics::OnPremNode& n = *pe.on_prem;
      e.price_per_busy_gpu_s = (n.max_power_kw - n.idle_power_kw) / n.gpus_per_node * n.pue *
                               n.electricity_usd_per_kwh / 3600.0;
    }
    if (pe.spot) {
      compile_spot(*pe.spot, pool, static_cast<uint32_t>(p), e, out);
      spot_pools |= 1ull << p;
      any_spot = true;
      any_dynamic = true;
    }
    if (pe.off_peak)
      compile_off_peak(*pe.off_peak, pe, sc.horizon_s, static_cast<uint32_t>(p), out);
    if (!pool.purchases.empty()) {
      // The bought nodes are the pool's last slots, in purchase order.
      e.purchase_idx = static_cast<uint32_t>(out.purchases.size());
      e.purchase_n = static_cast<uint32_t>(pool.purchases.size());
      uint32_t first = out.pools[p].first_node + pool.initial_count();
      for (const PoolPurchase& b : pool.purchases) {
        out.purchases.push_back(NodePurchase{b.at_s, static_cast<uint32_t>(p), first, b.add});
        first += b.add;
      }
    }
    if (pe.elastic) {
      const ElasticConfig& el = *pe.elastic;
      e.elastic = true;
      e.min_nodes = el.min_nodes;
      e.initial_nodes = el.initial_nodes;
      e.scale_out_queued_gpus = el.scale_out_queued_gpus;
      e.idle_timeout_s = el.idle_timeout_s;
      e.provisioning_delay = compile_delay(el.provisioning_delay, out);
      any_dynamic = true;
    }
  }

  bool any_fallback = false;
  out.class_runs.assign(sc.workload.size(), ClassRunSpec{});
  for (size_t c = 0; c < sc.workload.size(); ++c) {
    const ClassEconomics& ce = sc.workload[c].econ;
    ClassRunSpec& e = out.class_runs[c];
    ClassSpec& cls = out.classes[c];
    e.checkpoints = ce.checkpoints;
    e.auto_interval = ce.auto_interval;
    e.interval_s = ce.interval_s;
    e.checkpoint_s = ce.checkpoint_s;
    e.restart_s = ce.restart_s;
    // Spot pools serve spot-tolerant classes and classes that name them in "pools".
    if (!ce.spot_tolerant && sc.workload[c].pool_indices.empty()) cls.pool_mask &= ~spot_pools;
    e.first_mask = cls.pool_mask & ~on_demand_pools;
    if (ce.has_fallback && (cls.pool_mask & spot_pools) != 0) {
      e.spot_first = true;
      e.fallback_after_s = ce.fallback_after_s.value_or(NEVER);
      any_fallback = any_fallback || ce.fallback_after_s.has_value();
    }
    cls.node_gpus_max = 0;
    for (size_t p = 0; p < out.pools.size(); ++p)
      if ((cls.pool_mask >> p) & 1)
        cls.node_gpus_max = std::max(cls.node_gpus_max, out.pools[p].gpus_per_node);
  }

  // Calendar room (ModelView::extra_events): per node one interruption clock, one return or ready
  // and one idle check; per pool one wave and one price step; per job slot one fallback timer
  // and one stale finish a preemption leaves behind; one per staged purchase.
  ModelView& v = out.scalars;
  if (any_dynamic || !out.price_steps.empty() || any_fallback) {
    v.extra_events = 3 * v.n_nodes + 2 * static_cast<uint32_t>(sc.pools.size());
    if (any_spot) v.extra_events += v.max_active_jobs;
    if (any_fallback) v.extra_events += v.max_active_jobs;
  }
  v.extra_events += static_cast<uint32_t>(out.purchases.size());  // one event per purchase
}

}  // namespace gpuplan
