#include "sim/mc_summary.h"

#include <map>
#include <stdexcept>

#include "sim/mc_metrics.h"

namespace gpuplan {

std::size_t McSummary::index_of(const std::string& path) const {
  for (std::size_t i = 0; i < paths.size(); ++i)
    if (paths[i] == path) return i;
  return paths.size();
}

const MetricSummary& McSummary::at(const std::string& path) const {
  const std::size_t i = index_of(path);
  if (i == paths.size()) throw std::out_of_range("no Monte Carlo metric " + path);
  return stats[i];
}

McSummary summarize_study(const ModelView& m, const McStudy& st,
                          const std::vector<std::string>& pool_names,
                          const std::vector<std::string>& class_names,
                          const std::vector<std::string>& cause_names,
                          const std::vector<std::string>& team_names) {
  McSummary s;
  s.paths = metric_paths({pool_names, class_names, cause_names, team_names}, metric_features(m));
  s.n_replicas = static_cast<uint32_t>(st.replicas.size());
  std::map<SaturationCause, uint32_t> causes;
  for (const ReplicaOutcome& o : st.replicas) {
    s.rows.push_back(metric_row(m, o.metrics));
    if (o.metrics.saturated()) {
      s.n_saturated += 1;
      causes[o.metrics.saturation] += 1;
    }
  }
  uint32_t most = 0;
  for (const auto& [cause, count] : causes) {
    if (count > most) {
      most = count;
      s.saturation_cause = saturation_name(cause);
    }
  }
  s.in_statistics = replicas_in_statistics(st.replicas);
  s.statistics_over_all = s.n_saturated == s.n_replicas && s.n_replicas > 0;

  std::vector<double> column;
  for (std::size_t p = 0; p < s.paths.size(); ++p) {
    column.clear();
    if (p == HeadlineIndex::SATURATED) {
      for (const auto& row : s.rows) column.push_back(row[p]);
    } else {
      for (std::size_t k : s.in_statistics) column.push_back(s.rows[k][p]);
    }
    s.stats.push_back(summarize(column));
  }

  const std::size_t n_bins = m.n_bins;
  s.busy_gpus.assign(n_bins, 0);
  s.queued_jobs.assign(n_bins, 0);
  s.spend_usd.assign(n_bins, 0);
  s.provisioned_gpus.assign(n_bins, 0);
  std::vector<std::vector<double>> cumulative;
  std::vector<std::span<const double>> busy_rows, queued_rows, spend_rows;
  for (std::size_t k : s.in_statistics) {
    const ReplicaOutcome& o = st.replicas[k];
    std::vector<double> cum(n_bins);
    double run = 0;
    for (std::size_t b = 0; b < n_bins; ++b) {
      s.busy_gpus[b] += o.busy_gpus[b];
      s.queued_jobs[b] += o.queued_jobs[b];
      s.spend_usd[b] += o.spend_usd[b];
      s.provisioned_gpus[b] += o.provisioned_gpus[b];
      run += o.spend_usd[b];
      cum[b] = run;
    }
    cumulative.push_back(std::move(cum));
    busy_rows.emplace_back(o.busy_gpus);
    queued_rows.emplace_back(o.queued_jobs);
  }
  for (const auto& c : cumulative) spend_rows.emplace_back(c);
  const double used = double(s.in_statistics.size());
  for (std::size_t b = 0; b < n_bins && used > 0; ++b) {
    s.busy_gpus[b] /= used;
    s.queued_jobs[b] /= used;
    s.spend_usd[b] /= used;
    s.provisioned_gpus[b] /= used;
  }
  s.team_gpus.assign(m.teams.n_teams, std::vector<double>(n_bins, 0.0));
  for (std::size_t k : s.in_statistics) {
    const ReplicaOutcome& o = st.replicas[k];
    for (std::size_t t = 0; t < s.team_gpus.size(); ++t)
      for (std::size_t b = 0; b < n_bins && t * n_bins + b < o.team_gpus.size(); ++b)
        s.team_gpus[t][b] += o.team_gpus[t * n_bins + b] / used;
  }
  const std::size_t n_groups = m.net.n_groups;
  s.uplink_crossing_nodes.assign(n_groups, 0);
  s.uplink_congested_share.assign(n_groups, 0);
  for (std::size_t k : s.in_statistics) {
    const ReplicaOutcome& o = st.replicas[k];
    for (std::size_t g = 0; g < n_groups && g < o.uplink_crossing_nodes.size(); ++g) {
      s.uplink_crossing_nodes[g] += o.uplink_crossing_nodes[g] / used;
      s.uplink_congested_share[g] += o.uplink_congested_share[g] / used;
    }
  }
  s.busy_band = percentile_band(busy_rows, n_bins);
  s.queued_band = percentile_band(queued_rows, n_bins);
  s.cumulative_spend_band = percentile_band(spend_rows, n_bins);
  return s;
}

}  // namespace gpuplan
