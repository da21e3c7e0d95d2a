#include "sim/mc_metrics.h"

#include <span>
#include <string_view>

namespace gpuplan {
namespace {

constexpr double HOUR_S = 3600.0;

//! x / n, or 0 when nothing to divide by (no job completed, no GPU-hour provisioned).
double per(double x, double n) {
  return n > 0 ? x / n : 0;
}

//! [USD] spend billed to no class (idle capacity): the total less the classes' shares. NOTE: the
//! shares are sums of the same spend split by busy GPUs, so a fully used cluster leaves float
//! residue (~1e-14 of the total) that is not idle spend: it and any negative residue read 0.
double idle_cost(const ReplicaMetrics& r) {
  double class_cost = 0;
  for (const ClassMetrics& c : r.classes) class_cost += c.cost_usd;
  const double idle = r.cost_usd - class_cost;
  return idle > 1e-12 * r.cost_usd ? idle : 0;
}

//! [share] compute jobs used over provisioned GPU-seconds, all pools.
double compute_used(const ReplicaMetrics& r) {
  double compute_gpu_s = 0;
  for (const PoolMetrics& p : r.pools) compute_gpu_s += p.compute_gpu_s;
  return per(compute_gpu_s, r.gpu_hours.provisioned * HOUR_S);
}

using U = MetricUnit;
using R = const ReplicaMetrics&;

// NOTE: the tables hold plain function pointers (captureless lambdas), so a row costs one
// indirect call per metric and the tables are constant data.

constexpr MetricDef REPLICA[] = {
    {"metrics.jobs_submitted", U::count, [](R r, uint32_t) { return double(r.jobs_submitted); }},
    {"metrics.jobs_completed", U::count, [](R r, uint32_t) { return double(r.jobs_completed); }},
    {"metrics.jobs_unfinished", U::count, [](R r, uint32_t) { return double(r.jobs_unfinished); }},
    {"metrics.wait_s.mean", U::seconds, [](R r, uint32_t) { return r.wait_s.mean; }},
    {"metrics.wait_s.p50", U::seconds, [](R r, uint32_t) { return r.wait_s.p50; }},
    {"metrics.wait_s.p90", U::seconds, [](R r, uint32_t) { return r.wait_s.p90; }},
    {"metrics.wait_s.p99", U::seconds, [](R r, uint32_t) { return r.wait_s.p99; }},
    {"metrics.jct_s.mean", U::seconds, [](R r, uint32_t) { return r.jct_s.mean; }},
    {"metrics.jct_s.p50", U::seconds, [](R r, uint32_t) { return r.jct_s.p50; }},
    {"metrics.jct_s.p90", U::seconds, [](R r, uint32_t) { return r.jct_s.p90; }},
    {"metrics.jct_s.p99", U::seconds, [](R r, uint32_t) { return r.jct_s.p99; }},
    {"metrics.gpu_utilization", U::share, [](R r, uint32_t) { return r.gpu_utilization; }},
    {"metrics.mean_queued_jobs", U::mean_count, [](R r, uint32_t) { return r.mean_queued_jobs; }},
    {"metrics.mean_jobs_in_system", U::mean_count,
     [](R r, uint32_t) { return r.mean_jobs_in_system; }},
    {"metrics.events", U::count, [](R r, uint32_t) { return double(r.events); }},
    {"metrics.saturated", U::flag, [](R r, uint32_t) { return r.saturated() ? 1.0 : 0.0; }},
    {"cost_usd.total", U::usd, [](R r, uint32_t) { return r.cost_usd; }},
    {"cost_usd.per_gpu_hour", U::usd_per_gpu_hour,
     [](R r, uint32_t) { return per(r.cost_usd, r.gpu_hours.provisioned); }},
    {"cost_usd.idle", U::usd, [](R r, uint32_t) { return idle_cost(r); }},
    {"cost_usd.per_job_mean", U::usd,
     [](R r, uint32_t) { return per(r.cost_usd, double(r.jobs_completed)); }},
    {"cost_usd.per_useful_gpu_hour", U::usd_per_gpu_hour,
     [](R r, uint32_t) { return per(r.cost_usd, r.gpu_hours.useful); }},
    {"gpu_hours.provisioned", U::gpu_hours, [](R r, uint32_t) { return r.gpu_hours.provisioned; }},
    {"gpu_hours.busy", U::gpu_hours, [](R r, uint32_t) { return r.gpu_hours.busy; }},
    {"gpu_hours.useful", U::gpu_hours, [](R r, uint32_t) { return r.gpu_hours.useful; }},
    {"gpu_hours.lost_to_preemption", U::gpu_hours, [](R r, uint32_t) { return r.gpu_hours.lost; }},
    {"gpu_hours.checkpoint_overhead", U::gpu_hours,
     [](R r, uint32_t) { return r.gpu_hours.checkpoint; }},
    {"gpu_hours.restart_overhead", U::gpu_hours, [](R r, uint32_t) { return r.gpu_hours.restart; }},
    {"preemption.preemptions", U::count,
     [](R r, uint32_t) { return double(r.preemption.preemptions); }},
    {"preemption.reclaimed_nodes", U::count,
     [](R r, uint32_t) { return double(r.preemption.reclaimed_nodes); }},
    {"preemption.waves", U::count, [](R r, uint32_t) { return double(r.preemption.waves); }},
    {"preemption.restarts_per_job", U::mean_count,
     [](R r, uint32_t) { return per(double(r.preemption.restarts), double(r.jobs_completed)); }},
    {"network.stranded_gpus", U::mean_count, [](R r, uint32_t) { return r.network.stranded_gpus; }},
    {"network.mean_comm_slowdown", U::share,
     [](R r, uint32_t) { return r.network.mean_comm_slowdown; }},
    {"network.rate_changes", U::count,
     [](R r, uint32_t) { return double(r.network.rate_changes); }},
};

constexpr MetricDef POOL_COST[] = {
    {"cost_usd.per_pool.*", U::usd, [](R r, uint32_t p) { return r.pools[p].cost_usd; }},
};

constexpr MetricDef POOL[] = {
    {"per_pool.*.gpu_utilization", U::share,
     [](R r, uint32_t p) { return r.pools[p].gpu_utilization; }},
    {"per_pool.*.mean_nodes", U::mean_count, [](R r, uint32_t p) { return r.pools[p].mean_nodes; }},
    {"per_pool.*.preemptions", U::count,
     [](R r, uint32_t p) { return double(r.pools[p].preemptions); }},
};

constexpr MetricDef CLASS[] = {
    {"per_class.*.jobs_submitted", U::count,
     [](R r, uint32_t c) { return double(r.classes[c].submitted); }},
    {"per_class.*.jobs_completed", U::count,
     [](R r, uint32_t c) { return double(r.classes[c].completed); }},
    {"per_class.*.jobs_unfinished", U::count,
     [](R r, uint32_t c) { return double(r.classes[c].unfinished); }},
    {"per_class.*.wait_s.mean", U::seconds,
     [](R r, uint32_t c) { return r.classes[c].wait_s.mean; }},
    {"per_class.*.wait_s.p50", U::seconds, [](R r, uint32_t c) { return r.classes[c].wait_s.p50; }},
    {"per_class.*.wait_s.p90", U::seconds, [](R r, uint32_t c) { return r.classes[c].wait_s.p90; }},
    {"per_class.*.wait_s.p99", U::seconds, [](R r, uint32_t c) { return r.classes[c].wait_s.p99; }},
    {"per_class.*.jct_s.mean", U::seconds, [](R r, uint32_t c) { return r.classes[c].jct_s.mean; }},
    {"per_class.*.jct_s.p50", U::seconds, [](R r, uint32_t c) { return r.classes[c].jct_s.p50; }},
    {"per_class.*.jct_s.p90", U::seconds, [](R r, uint32_t c) { return r.classes[c].jct_s.p90; }},
    {"per_class.*.jct_s.p99", U::seconds, [](R r, uint32_t c) { return r.classes[c].jct_s.p99; }},
    {"per_class.*.cost_usd", U::usd, [](R r, uint32_t c) { return r.classes[c].cost_usd; }},
    {"per_class.*.cost_per_job_usd", U::usd,
     [](R r, uint32_t c) { return per(r.classes[c].cost_usd, double(r.classes[c].completed)); }},
    {"per_class.*.useful_gpu_hours", U::gpu_hours,
     [](R r, uint32_t c) { return r.classes[c].gpu_hours.useful; }},
    {"per_class.*.preemptions", U::count,
     [](R r, uint32_t c) { return double(r.classes[c].preemptions); }},
    {"per_class.*.scheduler_preemptions", U::count,
     [](R r, uint32_t c) { return double(r.classes[c].scheduler_preemptions); }},
    {"per_class.*.restarts_per_job", U::mean_count,
     [](R r, uint32_t c) {
       return per(double(r.classes[c].restarts), double(r.classes[c].completed));
     }},
};

constexpr MetricDef FAILURES[] = {
    {"failures.failures", U::count, [](R r, uint32_t) { return double(r.failures.failures); }},
    {"failures.interruptions", U::count,
     [](R r, uint32_t) { return double(r.failures.interruptions); }},
    {"failures.lost_gpu_hours", U::gpu_hours,
     [](R r, uint32_t) { return r.failures.lost_gpu_hours; }},
    {"failures.down_gpu_hours", U::gpu_hours,
     [](R r, uint32_t) { return r.failures.down_gpu_hours; }},
    {"failures.spare_swaps", U::count,
     [](R r, uint32_t) { return double(r.failures.spare_swaps); }},
    {"failures.spare_utilization", U::share,
     [](R r, uint32_t) { return r.failures.spare_utilization; }},
    {"failures.effective_training_time", U::share,
     [](R r, uint32_t) { return r.failures.effective_training_time; }},
};

constexpr MetricDef CLASS_FAILURES[] = {
    {"per_class.*.effective_training_time", U::share,
     [](R r, uint32_t c) { return r.classes[c].effective_training_time; }},
};

constexpr MetricDef CAUSE[] = {
    {"failures.by_cause.*", U::count,
     [](R r, uint32_t k) { return double(r.failures_by_cause[k]); }},
};

constexpr MetricDef TEAM[] = {
    {"per_team.*.jobs_submitted", U::count,
     [](R r, uint32_t t) { return double(r.teams[t].submitted); }},
    {"per_team.*.jobs_completed", U::count,
     [](R r, uint32_t t) { return double(r.teams[t].completed); }},
    {"per_team.*.jobs_unfinished", U::count,
     [](R r, uint32_t t) { return double(r.teams[t].unfinished); }},
    {"per_team.*.wait_s.mean", U::seconds, [](R r, uint32_t t) { return r.teams[t].wait_s.mean; }},
    {"per_team.*.wait_s.p50", U::seconds, [](R r, uint32_t t) { return r.teams[t].wait_s.p50; }},
    {"per_team.*.wait_s.p90", U::seconds, [](R r, uint32_t t) { return r.teams[t].wait_s.p90; }},
    {"per_team.*.wait_s.p99", U::seconds, [](R r, uint32_t t) { return r.teams[t].wait_s.p99; }},
    {"per_team.*.jct_s.mean", U::seconds, [](R r, uint32_t t) { return r.teams[t].jct_s.mean; }},
    {"per_team.*.jct_s.p50", U::seconds, [](R r, uint32_t t) { return r.teams[t].jct_s.p50; }},
    {"per_team.*.jct_s.p90", U::seconds, [](R r, uint32_t t) { return r.teams[t].jct_s.p90; }},
    {"per_team.*.jct_s.p99", U::seconds, [](R r, uint32_t t) { return r.teams[t].jct_s.p99; }},
    {"per_team.*.gpu_hours_used", U::gpu_hours,
     [](R r, uint32_t t) { return r.teams[t].gpu_hours_used; }},
    {"per_team.*.gpu_hours_borrowed", U::gpu_hours,
     [](R r, uint32_t t) { return r.teams[t].gpu_hours_borrowed; }},
    {"per_team.*.mean_gpus", U::mean_count, [](R r, uint32_t t) { return r.teams[t].mean_gpus; }},
    {"per_team.*.quota_use", U::share, [](R r, uint32_t t) { return r.teams[t].quota_use; }},
    {"per_team.*.reclaim_preemptions", U::count,
     [](R r, uint32_t t) { return double(r.teams[t].reclaim_preemptions); }},
    {"per_team.*.cost_usd", U::usd, [](R r, uint32_t t) { return r.teams[t].cost_usd; }},
    {"per_team.*.cost_share", U::share, [](R r, uint32_t t) { return r.teams[t].cost_share; }},
};

constexpr MetricDef MAINTENANCE[] = {
    {"maintenance.node_windows", U::count,
     [](R r, uint32_t) { return double(r.maintenance.node_windows); }},
    {"maintenance.interruptions", U::count,
     [](R r, uint32_t) { return double(r.maintenance.interruptions); }},
    {"maintenance.lost_gpu_hours", U::gpu_hours,
     [](R r, uint32_t) { return r.maintenance.lost_gpu_hours; }},
    {"maintenance.node_hours", U::node_hours,
     [](R r, uint32_t) { return r.maintenance.node_hours; }},
    {"maintenance.gpu_hours", U::gpu_hours, [](R r, uint32_t) { return r.maintenance.gpu_hours; }},
};

constexpr MetricDef FRACTIONAL[] = {
    {"sharing.jobs_waited_for_room", U::count,
     [](R r, uint32_t) { return double(r.jobs_waited_for_room); }},
};

constexpr MetricDef SHARED[] = {
    {"metrics.compute_used", U::share, [](R r, uint32_t) { return compute_used(r); }},
};

constexpr MetricDef POOL_SHARED[] = {
    {"per_pool.*.compute_used", U::share, [](R r, uint32_t p) { return r.pools[p].compute_used; }},
};

constexpr MetricDef FOLLOWED[] = {
    {"metrics.jct_mean_lower_bound_s", U::seconds,
     [](R r, uint32_t) { return r.jct_mean_lower_bound_s; }},
};

constexpr MetricDef CLASS_FOLLOWED[] = {
    {"per_class.*.jct_mean_lower_bound_s", U::seconds,
     [](R r, uint32_t c) { return r.classes[c].jct_mean_lower_bound_s; }},
};

//! Metrics of one scope and feature, laid out entity by entity (every metric of pool 0, then of
//! pool 1, ...).
struct MetricGroup {
  MetricScope scope;
  MetricFeature feature;
  std::span<const MetricDef> defs;
};

// NOTE: the row order. Groups added later go at the end, so the indices of every earlier path
// (HeadlineIndex, the columns of replicas.csv) stay put; a feature's groups appear only in
// models with it, so the rows of models without it keep their columns.
constexpr MetricGroup GROUPS[] = {
    {MetricScope::replica, MetricFeature::always, REPLICA},
    {MetricScope::pool, MetricFeature::always, POOL_COST},
    {MetricScope::pool, MetricFeature::always, POOL},
    {MetricScope::job_class, MetricFeature::always, CLASS},
    {MetricScope::replica, MetricFeature::always, FAILURES},
    {MetricScope::job_class, MetricFeature::always, CLASS_FAILURES},
    {MetricScope::cause, MetricFeature::always, CAUSE},
    {MetricScope::team, MetricFeature::always, TEAM},
    {MetricScope::replica, MetricFeature::maintenance, MAINTENANCE},
    {MetricScope::replica, MetricFeature::fractional, FRACTIONAL},
    {MetricScope::replica, MetricFeature::shared, SHARED},
    {MetricScope::pool, MetricFeature::shared, POOL_SHARED},
    {MetricScope::replica, MetricFeature::followed, FOLLOWED},
    {MetricScope::job_class, MetricFeature::followed, CLASS_FOLLOWED},
};

// The headline indices are positions in the first group, which leads every row.
constexpr bool at(std::size_t i, std::string_view path) {
  return i < std::size(REPLICA) && REPLICA[i].path == path;
}
static_assert(at(HeadlineIndex::WAIT_MEAN, HEADLINE_PATHS[0]));
static_assert(at(HeadlineIndex::JCT_MEAN, HEADLINE_PATHS[1]));
static_assert(at(HeadlineIndex::GPU_UTILIZATION, HEADLINE_PATHS[2]));
static_assert(at(HeadlineIndex::SATURATED, "metrics.saturated"));
static_assert(at(HeadlineIndex::COST_TOTAL, HEADLINE_PATHS[3]));

bool has(const MetricFeatures& f, MetricFeature k) {
  switch (k) {
    case MetricFeature::always:
      return true;
    case MetricFeature::maintenance:
      return f.maintenance;
    case MetricFeature::fractional:
      return f.fractional;
    case MetricFeature::shared:
      return f.shared;
    case MetricFeature::followed:
      return f.followed;
  }
  return false;
}

//! Calls visit(def, scope, i) for every metric of a model with `features`, in row order, with
//! `n(scope)` entities in each scope but the replica's.
template <class Count, class Visit>
void for_each_metric(const MetricFeatures& features, Count n, Visit visit) {
  for (const MetricGroup& g : GROUPS) {
    if (!has(features, g.feature)) continue;
    const std::size_t n_entities = g.scope == MetricScope::replica ? 1 : n(g.scope);
    for (std::size_t i = 0; i < n_entities; ++i)
      for (const MetricDef& d : g.defs) visit(d, g.scope, uint32_t(i));
  }
}

}  // namespace

MetricFeatures metric_features(const ModelView& m) {
  return {m.maintenance.size > 0, m.share.n_frac_pools > 0, m.share.n_shared_pools > 0,
          follows_arrivals(m)};
}

std::vector<MetricColumn> metric_columns(const MetricNames& names, const MetricFeatures& features) {
  const auto names_of = [&](MetricScope s) -> const std::vector<std::string>& {
    switch (s) {
      case MetricScope::pool:
        return names.pools;
      case MetricScope::job_class:
        return names.classes;
      case MetricScope::team:
        return names.teams;
      case MetricScope::cause:
      case MetricScope::replica:
        break;
    }
    return names.causes;
  };
  std::vector<MetricColumn> columns;
  for_each_metric(
      features, [&](MetricScope s) { return names_of(s).size(); },
      [&](const MetricDef& d, MetricScope s, uint32_t i) {
        std::string p(d.path);
        // NOTE: the replica's paths have no `*`; every other scope's has one, for the name.
        if (s != MetricScope::replica) p.replace(p.find('*'), 1, names_of(s)[i]);
        columns.push_back({std::move(p), d.unit});
      });
  return columns;
}

std::vector<std::string> metric_paths(const MetricNames& names, const MetricFeatures& features) {
  std::vector<std::string> paths;
  for (MetricColumn& c : metric_columns(names, features)) paths.push_back(std::move(c.path));
  return paths;
}

std::vector<double> metric_row(const ModelView& m, const ReplicaMetrics& r) {
  return metric_row(metric_features(m), r);
}

std::vector<double> metric_row(const MetricFeatures& features, const ReplicaMetrics& r) {
  const auto count = [&](MetricScope s) -> std::size_t {
    switch (s) {
      case MetricScope::pool:
        return r.pools.size();
      case MetricScope::job_class:
        return r.classes.size();
      case MetricScope::team:
        return r.teams.size();
      case MetricScope::cause:
        return r.failures_by_cause.size();
      case MetricScope::replica:
        break;
    }
    return 1;
  };
  std::vector<double> row;
  for_each_metric(features, count, [&](const MetricDef& d, MetricScope, uint32_t i) {
    row.push_back(d.read(r, i));
  });
  return row;
}

}  // namespace gpuplan
