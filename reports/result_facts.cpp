#include "reports/result_facts.h"

#include <algorithm>
#include <cmath>

#include "models/input/names.h"
#include "models/scenario/demand_profile.h"
#include "reports/summary_means.h"

namespace gpuplan::reports {
namespace {

using study::Summary;

std::optional<double> finite(double v) {
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

std::optional<double> finite(const std::optional<double>& v) {
  return v ? finite(*v) : std::nullopt;
}

DurationFacts duration_facts(const Means& mean, const std::string& prefix) {
  return {finite(mean(prefix + ".mean")), finite(mean(prefix + ".p50")),
          finite(mean(prefix + ".p90")), finite(mean(prefix + ".p99"))};
}

//! Half-width of the 95% confidence interval of `path`, when the study has one.
std::optional<double> ci_half_width(const Summary& s, const std::string& path) {
  const auto stat = summary_statistic(s, path);
  if (!stat || !stat->spread) return std::nullopt;
  const auto lo = finite(stat->spread->ci95_low), hi = finite(stat->spread->ci95_high);
  if (!lo || !hi) return std::nullopt;
  return (*hi - *lo) / 2;
}

std::vector<PoolFacts> pool_facts(const Scenario& sc, const CompiledScenario& cs,
                                  const Summary& s) {
  const Means mean{s};
  std::vector<PoolFacts> out;
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const std::string k = "per_pool." + pool.name + ".";
    PoolFacts f{pool.name,
                std::string(enum_name(pool.pricing)),
                double(pool.count),
                double(pool.count) * cs.pools[p].gpus_per_node,
                finite(mean(k + "gpu_utilization")),
                finite(mean("cost_usd.per_pool." + pool.name)),
                finite(mean(k + "mean_nodes")),
                std::nullopt};
    if (pool.econ.elastic) f.elastic_min_nodes = double(pool.econ.elastic->min_nodes);
    out.push_back(std::move(f));
  }
  return out;
}

FailureFacts failure_facts(const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  FailureFacts f;
  f.failures = mean.count_value("failures.failures");
  f.expected_failures = finite(expected_failures(sc, cs));
  for (const std::string& cause : cs.cause_names)
    if (const double n = mean.count_value("failures.by_cause." + cause); n > 0)
      f.by_cause.emplace_back(cause, n);
  std::sort(f.by_cause.begin(), f.by_cause.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  f.interruptions = mean.count_value("failures.interruptions");
  f.lost_gpu_hours = finite(mean("failures.lost_gpu_hours"));
  f.down_gpu_hours = finite(mean("failures.down_gpu_hours"));
  f.spares = spare_nodes(sc);
  f.spare_swaps = mean.count_value("failures.spare_swaps");
  f.spare_utilization = finite(mean("failures.spare_utilization"));
  f.effective_training_time = finite(mean("failures.effective_training_time"));
  return f;
}

std::vector<SharedPoolFacts> shared_pool_facts(const Scenario& sc, const Summary& s) {
  const Means mean{s};
  std::vector<SharedPoolFacts> out;
  for (const Pool& pool : sc.pools) {
    const std::string k = "per_pool." + pool.name + ".";
    out.push_back({pool.name, share_kind_name(pool.sharing.kind),
                   finite(mean(k + "gpu_utilization")), finite(mean(k + "compute_used"))});
  }
  return out;
}

std::optional<TcoFacts> tco_facts(const study::TcoProjection& t) {
  if (!t.projected() || t.options.empty()) return std::nullopt;
  TcoFacts f;
  for (const study::TcoOptionResult& o : t.options) {
    TcoOptionFacts row;
    row.name = std::string(enum_name(o.option));
    row.serves_demand = o.serves_demand;
    if (o.has_costs()) {
      row.npv_usd = finite(o.npv_usd);
      row.unserved_gpu_hours = finite(o.unserved_gpu_hours);
    }
    row.stops_keeping_up_month = finite(o.stops_keeping_up_month);
    row.runs_out_month = finite(o.runs_out_month);
    if (o.simulation && o.simulation->simulated) {
      row.simulated_stops_keeping_up_month = finite(o.simulation->stops_keeping_up_month);
      row.simulated_runs_out_month = finite(o.simulation->runs_out_month);
    }
    f.options.push_back(std::move(row));
  }
  // NOTE: by name, the order of result.json's tco.options and of the report's table.
  std::sort(f.options.begin(), f.options.end(),
            [](const TcoOptionFacts& a, const TcoOptionFacts& b) { return a.name < b.name; });
  if (t.cheapest_by_npv) {
    f.cheapest_by_npv = std::string(enum_name(*t.cheapest_by_npv));
    for (const study::TcoBreakEven& b : t.break_even)
      if (b.option == *t.cheapest_by_npv) f.cheapest_break_even_month = finite(b.month);
  }
  f.cheapest_note = t.cheapest_note;
  f.months = double(t.months);
  f.caveat = t.caveat;
  return f;
}

}  // namespace

const char* share_kind_name(ShareKind k) {
  switch (k) {
    case ShareKind::whole:
      return "whole";
    case ShareKind::mig:
      return "mig";
    case ShareKind::time_sliced:
      return "time_sliced";
    case ShareKind::fractional:
      return "fractional";
  }
  return "whole";
}

ProvisionedGpus provisioned_gpus(const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  ProvisionedGpus g;
  for (std::size_t p = 0; p < cs.pools.size(); ++p) {
    g.mean += mean("per_pool." + cs.pool_names[p] + ".mean_nodes") * cs.pools[p].gpus_per_node;
    g.max += double(cs.pools[p].n_nodes) * cs.pools[p].gpus_per_node;
  }
  return g;
}

Saturation saturation(const CompiledScenario& cs, const Summary& s) {
  const bool outgrown = cs.cannot_keep_up();
  Saturation out{outgrown ? 1.0 : s.mean("metrics.saturated"), s.stats.saturation_cause};
  if (out.cause == "none" && outgrown)
    out.cause = overloaded(cs.offered_load) ? "offered_load" : "demand_outgrows_capacity";
  return out;
}

double expected_failures(const Scenario& sc, const CompiledScenario& cs) {
  double serving_gpus = 0;
  for (std::size_t p = 0; p < sc.pools.size(); ++p)
    serving_gpus += double(sc.pools[p].count - sc.pools[p].spares) * cs.pools[p].gpus_per_node;
  const double window_h = (sc.horizon_s - sc.warmup_s) / 3600.0;
  return sc.failures ? sc.failures->rate_per_gpu_s() * 3600.0 * serving_gpus * window_h : 0.0;
}

double spare_nodes(const Scenario& sc) {
  double spares = 0;
  for (const Pool& pool : sc.pools) spares += pool.spares;
  return spares;
}

std::optional<study::Statistic> summary_statistic(const Summary& s, const std::string& path) {
  if (s.stats.index_of(path) < s.stats.paths.size()) return s.stat(path);
  for (const auto* named : {&s.tco_stats, &s.energy_stats})
    for (const auto& [name, stat] : *named)
      if (name == path) return stat;
  return std::nullopt;
}

ResultFacts result_facts(const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  ResultFacts f;
  f.replications = std::max<int64_t>(1, s.info.replications);
  f.window_s = finite(sc.horizon_s - sc.warmup_s);
  f.util = finite(mean("metrics.gpu_utilization"));
  f.offered = finite(cs.offered_load);
  f.peak_offered = finite(cs.peak_offered_load);
  f.offered_pool_gpus = finite(cs.load_set_gpus);
  f.peak_pool_gpus = finite(cs.peak_set_gpus);
  if (cs.reaches_capacity_s) f.reaches_month = finite(*cs.reaches_capacity_s / PROFILE_MONTH_S);
  f.smallest_job_gpus = finite(cs.smallest_job_gpus);
  f.cost_total = finite(mean("cost_usd.total"));
  f.cost_per_gpu_hour = finite(mean("cost_usd.per_gpu_hour"));
  f.jobs_submitted = finite(mean.count_value("metrics.jobs_submitted"));
  f.jobs_unfinished = finite(mean.count_value("metrics.jobs_unfinished"));
  f.wait = duration_facts(mean, "metrics.wait_s");
  f.jct = duration_facts(mean, "metrics.jct_s");
  const Saturation sat = saturation(cs, s);
  f.saturated_share =
      f.replications == 1 ? (sat.share > 0.5 ? 1.0 : 0.0) : std::clamp(sat.share, 0.0, 1.0);
  f.saturation_cause = sat.cause;
  f.queue = std::string(enum_name(sc.scheduler.queue));
  f.pools = pool_facts(sc, cs, s);
  double gpus = 0;
  for (const PoolFacts& p : f.pools) gpus += *p.gpus;
  // NOTE: without pools, the most GPUs any time bin provisioned.
  if (f.pools.empty())
    for (const double v : s.stats.provisioned_gpus) gpus = std::max(gpus, v);
  if (gpus > 0) f.gpus = gpus;
  f.gpus_mean = finite(provisioned_gpus(cs, s).mean);
  f.wait_mean_ci = ci_half_width(s, "metrics.wait_s.mean");
  f.util_ci = ci_half_width(s, "metrics.gpu_utilization");
  f.cost_total_ci = ci_half_width(s, "cost_usd.total");
  if (s.tco) f.tco = tco_facts(*s.tco);
  if (sc.failures) f.failures = failure_facts(sc, cs, s);
  if (cs.scalars.share.n_shared_pools > 0) f.shared_pools = shared_pool_facts(sc, s);
  f.warnings = s.warnings;
  return f;
}

}  // namespace gpuplan::reports
