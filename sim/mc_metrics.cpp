#include "sim/mc_metrics.h"

namespace gpuplan {
namespace {

const char* const DURATION_KEYS[] = {"mean", "p50", "p90", "p99"};

void push_duration(std::vector<double>& row, const DurationStats& d) {
  row.insert(row.end(), {d.mean, d.p50, d.p90, d.p99});
}

}  // namespace

std::vector<std::string> metric_paths(const std::vector<std::string>& pool_names,
                                      const std::vector<std::string>& class_names) {
  std::vector<std::string> p = {"metrics.jobs_submitted", "metrics.jobs_completed",
                                "metrics.jobs_unfinished"};
  for (const char* k : DURATION_KEYS) p.push_back(std::string("metrics.wait_s.") + k);
  for (const char* k : DURATION_KEYS) p.push_back(std::string("metrics.jct_s.") + k);
  p.insert(p.end(),
           {"metrics.gpu_utilization", "metrics.mean_queued_jobs", "metrics.mean_jobs_in_system",
            "metrics.events", "metrics.saturated", "cost_usd.total", "cost_usd.per_gpu_hour"});
  for (const auto& n : pool_names) p.push_back("cost_usd.per_pool." + n);
  for (const auto& n : pool_names) p.push_back("per_pool." + n + ".gpu_utilization");
  for (const auto& n : class_names) {
    const std::string c = "per_class." + n + ".";
    p.insert(p.end(), {c + "jobs_submitted", c + "jobs_completed", c + "jobs_unfinished"});
    for (const char* k : DURATION_KEYS) p.push_back(c + "wait_s." + k);
    for (const char* k : DURATION_KEYS) p.push_back(c + "jct_s." + k);
  }
  return p;
}

std::vector<double> metric_row(const ModelView& m, const ReplicaMetrics& r) {
  double provisioned_gpu_h = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p)
    provisioned_gpu_h +=
        double(m.pools[p].n_nodes) * m.pools[p].gpus_per_node * (m.horizon - m.warmup) / 3600.0;
  std::vector<double> row = {double(r.jobs_submitted), double(r.jobs_completed),
                             double(r.jobs_unfinished)};
  push_duration(row, r.wait_s);
  push_duration(row, r.jct_s);
  row.insert(row.end(), {r.gpu_utilization, r.mean_queued_jobs, r.mean_jobs_in_system,
                         double(r.events), r.saturated ? 1.0 : 0.0, r.cost_usd,
                         provisioned_gpu_h > 0 ? r.cost_usd / provisioned_gpu_h : 0});
  for (const PoolMetrics& p : r.pools) row.push_back(p.cost_usd);
  for (const PoolMetrics& p : r.pools) row.push_back(p.gpu_utilization);
  for (const ClassMetrics& c : r.classes) {
    row.insert(row.end(), {double(c.submitted), double(c.completed), double(c.unfinished)});
    push_duration(row, c.wait_s);
    push_duration(row, c.jct_s);
  }
  return row;
}

}  // namespace gpuplan
