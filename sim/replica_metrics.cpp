#include "sim/replica_metrics.h"

#include <algorithm>

#include "sim/core/sketch.h"

namespace gpuplan {
namespace {

DurationStats from_sketch(const uint32_t* h, double sum, uint64_t n) {
  DurationStats d;
  if (n == 0) return d;
  d.mean = sum / double(n);
  d.p50 = sketch_quantile(h, 0.50);
  d.p90 = sketch_quantile(h, 0.90);
  d.p99 = sketch_quantile(h, 0.99);
  return d;
}

constexpr double HOUR_S = 3600.0;

}  // namespace

FailureMetrics failure_metrics(const ModelView& m, const ReplicaState& s, const ReplicaMetrics& r) {
  FailureMetrics f;
  double useful = 0, wall = 0;
  for (const ClassMetrics& c : r.classes) {
    useful += c.gpu_hours.useful;
    wall += c.gpu_hours.busy + c.requeued_gpu_hours;
  }
  f.effective_training_time = wall > 0 ? useful / wall : 0;
  if (m.failures.size == 0) return f;
  const FailureTotals& t = s.failures.totals;
  f.failures = t.failures;
  f.interruptions = t.interruptions;
  f.spare_swaps = t.spare_swaps;
  f.lost_gpu_hours = t.lost_gpu_s / HOUR_S;
  double spares = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) spares += m.pool_spares[p];
  f.down_gpu_hours = t.down_gpu_s / HOUR_S;
  const double end = s.now < m.horizon ? s.now : m.horizon;
  const double window = end - m.warmup;
  f.spare_utilization = spares > 0 && window > 0 ? t.spares_used_node_s / (spares * window) : 0;
  return f;
}

std::vector<TeamMetrics> team_metrics(const ModelView& m, const ReplicaState& s,
                                      const ReplicaMetrics& r) {
  std::vector<TeamMetrics> teams(m.teams.n_teams);
  const double window = (s.now < m.horizon ? s.now : m.horizon) - m.warmup;
  double used_all = 0;
  for (uint32_t k = 0; k < m.teams.n_teams; ++k) {
    TeamMetrics& tm = teams[k];
    std::vector<uint32_t> wait(SKETCH_BINS, 0), jct(SKETCH_BINS, 0);
    double sum_wait = 0, sum_jct = 0;
    for (uint32_t c = 0; c < m.classes.size; ++c) {
      if (m.teams.class_team[c] != k) continue;
      tm.submitted += r.classes[c].submitted;
      tm.completed += r.classes[c].completed;
      tm.unfinished += r.classes[c].unfinished;
      sketch_merge(wait.data(), &s.wait_hist[c * SKETCH_BINS]);
      sketch_merge(jct.data(), &s.jct_hist[c * SKETCH_BINS]);
      sum_wait += s.classes[c].sum_wait;
      sum_jct += s.classes[c].sum_jct;
    }
    tm.wait_s = from_sketch(wait.data(), sum_wait, tm.completed);
    tm.jct_s = from_sketch(jct.data(), sum_jct, tm.completed);
    const TeamTotals& tt = s.teams.totals[k];
    tm.gpu_hours_used = tt.used_gpu_s / HOUR_S;
    tm.gpu_hours_borrowed = tt.borrowed_gpu_s / HOUR_S;
    tm.mean_gpus = window > 0 ? tt.used_gpu_s / window : 0;
    double nominal = 0;
    for (uint32_t f = 0; f < m.teams.n_flavors; ++f)
      nominal += m.teams.quotas[k * m.teams.n_flavors + f].nominal;
    tm.quota_use = nominal > 0 ? tm.mean_gpus / nominal : 0;
    tm.reclaim_preemptions = tt.reclaim_preemptions;
    used_all += tm.gpu_hours_used;
  }
  for (TeamMetrics& tm : teams) {
    tm.cost_share = used_all > 0 ? tm.gpu_hours_used / used_all : 0;
    tm.cost_usd = tm.cost_share * r.cost_usd;
  }
  return teams;
}

GpuHours gpu_hours(const ModelView& m, const ReplicaState& s, uint32_t c) {
  GpuHours h;
  for (uint32_t k = 0; k < m.classes.size; ++k) {
    if (c != NONE && k != c) continue;
    const ClassRunTotals& t = s.runs.classes[k];
    h.busy += s.billing.classes[k].busy_gpu_s / HOUR_S;
    h.lost += t.lost_gpu_s / HOUR_S;
    h.checkpoint += t.checkpoint_gpu_s / HOUR_S;
    h.restart += t.restart_gpu_s / HOUR_S;
  }
  if (c == NONE)
    for (uint32_t p = 0; p < m.pools.size; ++p)
      h.provisioned += s.billing.pools[p].provisioned_gpu_s / HOUR_S;
  h.useful = std::max(0.0, h.busy - h.lost - h.checkpoint - h.restart);
  return h;
}

void uplink_window_means(const ModelView& m, const ReplicaState& s,
                         std::vector<double>& crossing_nodes,
                         std::vector<double>& congested_share) {
  const double end = s.now < m.horizon ? s.now : m.horizon;
  const double window = end - m.warmup;
  crossing_nodes.assign(m.net.n_groups, 0.0);
  congested_share.assign(m.net.n_groups, 0.0);
  if (!(window > 0)) return;
  for (uint32_t g = 0; g < m.net.n_groups; ++g) {
    crossing_nodes[g] = s.net.uplink_node_s[g] / window;
    congested_share[g] = s.net.uplink_congested_s[g] / window;
  }
}

const char* saturation_name(SaturationCause c) {
  switch (c) {
    case SaturationCause::none:
      return "none";
    case SaturationCause::queue_overflow:
      return "queue_overflow";
    case SaturationCause::event_overflow:
      return "event_overflow";
    case SaturationCause::bad_event_time:
      return "bad_event_time";
  }
  return "none";
}

ReplicaMetrics extract_metrics(const ModelView& m, const ReplicaState& s) {
  ReplicaMetrics r;
  const ReplicaTotals& t = s.totals;
  const double window = m.horizon - m.warmup;
  r.gpu_utilization = t.provisioned_gpu_s > 0 ? t.busy_gpu_s / t.provisioned_gpu_s : 0;
  r.mean_queued_jobs = window > 0 ? t.queued_job_s / window : 0;
  r.mean_jobs_in_system = window > 0 ? t.in_system_job_s / window : 0;
  r.cost_usd = t.cost_usd;
  r.saturation = t.saturation;
  r.saturated_at_s = r.saturated() ? t.saturated_at : 0;
  r.events = t.events;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    // NOTE: billed GPU-seconds, so an elastic pool's utilization counts the nodes it had.
    const PoolBillingTotals& b = s.billing.pools[p];
    const PoolCapacityTotals& e = s.capacity.pools[p];
    PoolMetrics pm;
    pm.gpu_utilization = b.provisioned_gpu_s > 0 ? s.pool_busy_gpu_s[p] / b.provisioned_gpu_s : 0;
    pm.cost_usd = s.pool_cost_usd[p];
    pm.mean_nodes = window > 0 ? b.provisioned_node_s / window : 0;
    pm.busy_gpu_s = s.pool_busy_gpu_s[p];
    if (m.share.n_shared_pools > 0) {
      pm.compute_gpu_s = s.share.pool_compute_gpu_s[p];
      pm.compute_used = b.provisioned_gpu_s > 0 ? pm.compute_gpu_s / b.provisioned_gpu_s : 0;
    }
    pm.preemptions = e.preemptions;
    r.pools.push_back(pm);
    r.preemption.preemptions += e.preemptions;
    r.preemption.reclaimed_nodes += e.reclaimed_nodes;
    r.preemption.waves += e.waves;
  }
  r.gpu_hours = gpu_hours(m, s, NONE);
  r.network.stranded_gpus = window > 0 ? s.net.stranded_gpu_s / window : 0;
  r.network.multi_node_completed = s.net.multi_node_completed;
  r.network.mean_comm_slowdown = s.net.multi_node_completed > 0
                                     ? s.net.comm_slowdown_sum / double(s.net.multi_node_completed)
                                     : 1.0;
  r.network.rate_changes = s.net.rate_changes;
  r.jobs_waited_for_room = s.share.jobs_waited_for_room;

  // NOTE: means are exact (sums); quantiles come from the per-class sketches, merged for the total.
  std::vector<uint32_t> wait_all(SKETCH_BINS, 0), jct_all(SKETCH_BINS, 0);
  double sum_wait = 0, sum_jct = 0, sum_age_unfinished = 0;
  for (uint32_t c = 0; c < m.classes.size; ++c) {
    const ClassTotals& ct = s.classes[c];
    ClassMetrics cm;
    cm.submitted = ct.submitted;
    cm.completed = ct.completed;
    cm.unfinished = ct.submitted - ct.completed;
    cm.cost_usd = s.billing.classes[c].cost_usd;
    cm.preemptions = s.runs.classes[c].preemptions;
    cm.scheduler_preemptions = s.runs.classes[c].scheduler_preemptions;
    cm.restarts = s.runs.classes[c].restarts_of_completed;
    cm.gpu_hours = gpu_hours(m, s, c);
    cm.requeued_gpu_hours = s.runs.classes[c].requeued_gpu_s / HOUR_S;
    const double wall = cm.gpu_hours.busy + cm.requeued_gpu_hours;
    cm.effective_training_time = wall > 0 ? cm.gpu_hours.useful / wall : 0;
    r.preemption.restarts += cm.restarts;
    const uint32_t* wh = &s.wait_hist[c * SKETCH_BINS];
    const uint32_t* jh = &s.jct_hist[c * SKETCH_BINS];
    cm.wait_s = from_sketch(wh, ct.sum_wait, ct.completed);
    cm.jct_s = from_sketch(jh, ct.sum_jct, ct.completed);
    cm.jct_mean_lower_bound_s =
        ct.submitted > 0 ? (ct.sum_jct + ct.sum_age_unfinished) / double(ct.submitted) : 0;
    sketch_merge(wait_all.data(), wh);
    sketch_merge(jct_all.data(), jh);
    sum_wait += ct.sum_wait;
    sum_jct += ct.sum_jct;
    sum_age_unfinished += ct.sum_age_unfinished;
    r.jobs_submitted += cm.submitted;
    r.jobs_completed += cm.completed;
    r.jobs_unfinished += cm.unfinished;
    r.classes.push_back(cm);
  }
  r.wait_s = from_sketch(wait_all.data(), sum_wait, r.jobs_completed);
  r.jct_s = from_sketch(jct_all.data(), sum_jct, r.jobs_completed);
  r.jct_mean_lower_bound_s =
      r.jobs_submitted > 0 ? (sum_jct + sum_age_unfinished) / double(r.jobs_submitted) : 0;
  r.failures = failure_metrics(m, s, r);
  r.teams = team_metrics(m, s, r);
  r.failures_by_cause.assign(s.failures.by_cause.data,
                             s.failures.by_cause.data + s.failures.by_cause.size);
  if (m.maintenance.size > 0) {
    const MaintenanceTotals& t = s.maintenance.totals;
    r.maintenance.node_windows = t.node_windows;
    r.maintenance.interruptions = t.interruptions;
    r.maintenance.lost_gpu_hours = t.lost_gpu_s / HOUR_S;
    r.maintenance.node_hours = t.node_s / HOUR_S;
    r.maintenance.gpu_hours = t.gpu_s / HOUR_S;
  }
  return r;
}

}  // namespace gpuplan
