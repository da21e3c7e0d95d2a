#include "sim/mc_batch.h"

namespace gpuplan {

ReplicaOutcome outcome_of(const ModelView& m, const ReplicaState& s) {
  ReplicaOutcome o;
  o.metrics = extract_metrics(m, s);
  o.busy_gpus.resize(m.n_bins);
  o.queued_jobs.resize(m.n_bins);
  o.spend_usd.resize(m.n_bins);
  o.provisioned_gpus.resize(m.n_bins);
  for (uint32_t b = 0; b < m.n_bins; ++b) {
    // NOTE: the last bin ends at the horizon, so it may be narrower than bin_width.
    const double width = (b + 1 == m.n_bins) ? m.horizon - b * m.bin_width : m.bin_width;
    o.busy_gpus[b] = s.bin_busy_gpu_s[b] / width;
    o.queued_jobs[b] = s.bin_queued_job_s[b] / width;
    o.spend_usd[b] = s.bin_spend_usd[b];
    o.provisioned_gpus[b] = s.bin_provisioned_gpu_s[b] / width;
  }
  o.team_gpus.resize(std::size_t(m.teams.n_teams) * m.n_bins);
  for (uint32_t k = 0; k < m.teams.n_teams; ++k) {
    for (uint32_t b = 0; b < m.n_bins; ++b) {
      const double width = (b + 1 == m.n_bins) ? m.horizon - b * m.bin_width : m.bin_width;
      o.team_gpus[k * m.n_bins + b] = s.teams.bin_gpu_s[k * m.n_bins + b] / width;
    }
  }
  o.wait_hist.assign(s.wait_hist.begin(), s.wait_hist.end());
  o.jct_hist.assign(s.jct_hist.begin(), s.jct_hist.end());
  uplink_window_means(m, s, o.uplink_crossing_nodes, o.uplink_congested_share);
  return o;
}

}  // namespace gpuplan
