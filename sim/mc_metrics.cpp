#include "sim/mc_metrics.h"

namespace gpuplan {
namespace {

constexpr double HOUR_S = 3600.0;
const char* const DURATION_KEYS[] = {"mean", "p50", "p90", "p99"};
const char* const GPU_HOUR_KEYS[] = {
    "provisioned",     "busy", "useful", "lost_to_preemption", "checkpoint_overhead",
    "restart_overhead"};

//! x / n, or 0 when nothing to divide by (no job completed, no GPU-hour provisioned).
double per(double x, double n) {
  return n > 0 ? x / n : 0;
}

//! [USD] spend billed to no class (idle capacity): the total less the classes' shares. NOTE: the
//! shares are sums of the same spend split by busy GPUs, so a fully used cluster leaves float
//! residue (~1e-14 of the total) that is not idle spend: it and any negative residue read 0.
double idle_cost(double total, double class_cost) {
  const double idle = total - class_cost;
  return idle > 1e-12 * total ? idle : 0;
}

void push_duration(std::vector<double>& row, const DurationStats& d) {
  row.insert(row.end(), {d.mean, d.p50, d.p90, d.p99});
}

}  // namespace

std::vector<std::string> metric_paths(const std::vector<std::string>& pool_names,
                                      const std::vector<std::string>& class_names,
                                      const std::vector<std::string>& cause_names,
                                      const std::vector<std::string>& team_names, bool maintenance,
                                      bool fractional, bool shared, bool followed) {
  std::vector<std::string> p = {"metrics.jobs_submitted", "metrics.jobs_completed",
                                "metrics.jobs_unfinished"};
  for (const char* k : DURATION_KEYS) p.push_back(std::string("metrics.wait_s.") + k);
  for (const char* k : DURATION_KEYS) p.push_back(std::string("metrics.jct_s.") + k);
  p.insert(p.end(),
           {"metrics.gpu_utilization", "metrics.mean_queued_jobs", "metrics.mean_jobs_in_system",
            "metrics.events", "metrics.saturated", "cost_usd.total", "cost_usd.per_gpu_hour",
            "cost_usd.idle", "cost_usd.per_job_mean", "cost_usd.per_useful_gpu_hour"});
  for (const char* k : GPU_HOUR_KEYS) p.push_back(std::string("gpu_hours.") + k);
  p.insert(p.end(), {"preemption.preemptions", "preemption.reclaimed_nodes", "preemption.waves",
                     "preemption.restarts_per_job", "network.stranded_gpus",
                     "network.mean_comm_slowdown", "network.rate_changes"});
  for (const auto& n : pool_names) p.push_back("cost_usd.per_pool." + n);
  for (const auto& n : pool_names) {
    const std::string q = "per_pool." + n + ".";
    p.insert(p.end(), {q + "gpu_utilization", q + "mean_nodes", q + "preemptions"});
  }
  for (const auto& n : class_names) {
    const std::string c = "per_class." + n + ".";
    p.insert(p.end(), {c + "jobs_submitted", c + "jobs_completed", c + "jobs_unfinished"});
    for (const char* k : DURATION_KEYS) p.push_back(c + "wait_s." + k);
    for (const char* k : DURATION_KEYS) p.push_back(c + "jct_s." + k);
    p.insert(p.end(), {c + "cost_usd", c + "cost_per_job_usd", c + "useful_gpu_hours",
                       c + "preemptions", c + "scheduler_preemptions", c + "restarts_per_job"});
  }
  // NOTE: appended last, so the indices of every earlier path (HeadlineIndex) stay put.
  p.insert(p.end(), {"failures.failures", "failures.interruptions", "failures.lost_gpu_hours",
                     "failures.down_gpu_hours", "failures.spare_swaps",
                     "failures.spare_utilization", "failures.effective_training_time"});
  for (const auto& n : class_names) p.push_back("per_class." + n + ".effective_training_time");
  for (const auto& n : cause_names) p.push_back("failures.by_cause." + n);
  for (const auto& n : team_names) {
    const std::string t = "per_team." + n + ".";
    p.insert(p.end(), {t + "jobs_submitted", t + "jobs_completed", t + "jobs_unfinished"});
    for (const char* k : DURATION_KEYS) p.push_back(t + "wait_s." + k);
    for (const char* k : DURATION_KEYS) p.push_back(t + "jct_s." + k);
    p.insert(p.end(),
             {t + "gpu_hours_used", t + "gpu_hours_borrowed", t + "mean_gpus", t + "quota_use",
              t + "reclaim_preemptions", t + "cost_usd", t + "cost_share"});
  }
  // NOTE: only with windows, so the rows of scenarios without maintenance keep their columns.
  if (maintenance)
    for (const char* k : MAINTENANCE_KEYS) p.push_back(std::string("maintenance.") + k);
  if (fractional) p.push_back("sharing.jobs_waited_for_room");
  if (shared) {
    p.push_back("metrics.compute_used");
    for (const auto& n : pool_names) p.push_back("per_pool." + n + ".compute_used");
  }
  if (followed) {
    p.push_back("metrics.jct_mean_lower_bound_s");
    for (const auto& n : class_names) p.push_back("per_class." + n + ".jct_mean_lower_bound_s");
  }
  return p;
}

std::vector<double> metric_row(const ModelView& m, const ReplicaMetrics& r) {
  const GpuHours& h = r.gpu_hours;
  double class_cost = 0;
  for (const ClassMetrics& c : r.classes) class_cost += c.cost_usd;
  std::vector<double> row = {double(r.jobs_submitted), double(r.jobs_completed),
                             double(r.jobs_unfinished)};
  push_duration(row, r.wait_s);
  push_duration(row, r.jct_s);
  row.insert(row.end(), {r.gpu_utilization, r.mean_queued_jobs, r.mean_jobs_in_system,
                         double(r.events), r.saturated() ? 1.0 : 0.0, r.cost_usd,
                         per(r.cost_usd, h.provisioned), idle_cost(r.cost_usd, class_cost),
                         per(r.cost_usd, double(r.jobs_completed)), per(r.cost_usd, h.useful)});
  row.insert(row.end(), {h.provisioned, h.busy, h.useful, h.lost, h.checkpoint, h.restart});
  const PreemptionMetrics& pr = r.preemption;
  row.insert(row.end(),
             {double(pr.preemptions), double(pr.reclaimed_nodes), double(pr.waves),
              per(double(pr.restarts), double(r.jobs_completed)), r.network.stranded_gpus,
              r.network.mean_comm_slowdown, double(r.network.rate_changes)});
  for (const PoolMetrics& p : r.pools) row.push_back(p.cost_usd);
  for (const PoolMetrics& p : r.pools)
    row.insert(row.end(), {p.gpu_utilization, p.mean_nodes, double(p.preemptions)});
  for (const ClassMetrics& c : r.classes) {
    row.insert(row.end(), {double(c.submitted), double(c.completed), double(c.unfinished)});
    push_duration(row, c.wait_s);
    push_duration(row, c.jct_s);
    row.insert(row.end(), {c.cost_usd, per(c.cost_usd, double(c.completed)), c.gpu_hours.useful,
                           double(c.preemptions), double(c.scheduler_preemptions),
                           per(double(c.restarts), double(c.completed))});
  }
  const FailureMetrics& f = r.failures;
  row.insert(row.end(),
             {double(f.failures), double(f.interruptions), f.lost_gpu_hours, f.down_gpu_hours,
              double(f.spare_swaps), f.spare_utilization, f.effective_training_time});
  for (const ClassMetrics& c : r.classes) row.push_back(c.effective_training_time);
  for (uint64_t n : r.failures_by_cause) row.push_back(double(n));
  for (const TeamMetrics& t : r.teams) {
    row.insert(row.end(), {double(t.submitted), double(t.completed), double(t.unfinished)});
    push_duration(row, t.wait_s);
    push_duration(row, t.jct_s);
    row.insert(row.end(), {t.gpu_hours_used, t.gpu_hours_borrowed, t.mean_gpus, t.quota_use,
                           double(t.reclaim_preemptions), t.cost_usd, t.cost_share});
  }
  if (m.maintenance.size > 0) {
    const MaintenanceMetrics& mt = r.maintenance;
    row.insert(row.end(), {double(mt.node_windows), double(mt.interruptions), mt.lost_gpu_hours,
                           mt.node_hours, mt.gpu_hours});
  }
  if (m.share.n_frac_pools > 0) row.push_back(double(r.jobs_waited_for_room));
  if (m.share.n_shared_pools > 0) {
    double compute_gpu_s = 0;
    for (const PoolMetrics& p : r.pools) compute_gpu_s += p.compute_gpu_s;
    row.push_back(per(compute_gpu_s, h.provisioned * HOUR_S));
    for (const PoolMetrics& p : r.pools) row.push_back(p.compute_used);
  }
  if (follows_arrivals(m)) {
    row.push_back(r.jct_mean_lower_bound_s);
    for (const ClassMetrics& c : r.classes) row.push_back(c.jct_mean_lower_bound_s);
  }
  return row;
}

}  // namespace gpuplan
