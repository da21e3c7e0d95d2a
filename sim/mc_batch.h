#pragma once
//! What a Monte Carlo backend hands back for each replica of a batch (host types only).
#include <vector>

#include "sim/replica_metrics.h"

namespace gpuplan {

//! One finished replica as Monte Carlo keeps it: its metrics, its time bins and, until they are
//! pooled into the study, its wait and JCT quantile sketches.
struct ReplicaOutcome {
  ReplicaMetrics metrics;
  std::vector<double> busy_gpus;              //!< [n_bins] busy GPUs averaged over each bin
  std::vector<double> queued_jobs;            //!< [n_bins] queue length averaged over each bin
  std::vector<double> spend_usd;              //!< [n_bins] spend within each bin [USD]
  std::vector<double> provisioned_gpus;       //!< [n_bins] GPUs provisioned, averaged over each bin
  std::vector<uint32_t> wait_hist;            //!< [n_classes * SKETCH_BINS]; emptied once pooled
  std::vector<uint32_t> jct_hist;             //!< [n_classes * SKETCH_BINS]; emptied once pooled
  std::vector<double> uplink_crossing_nodes;  //!< [n_groups] uplink_window_means()
  std::vector<double> uplink_congested_share;  //!< [n_groups] uplink_window_means()
  std::vector<double> team_gpus;  //!< [n_teams * n_bins] GPUs each team held, averaged per bin
};

//! Reads a finished replica's state into an outcome (host; the same code for every backend).
[[nodiscard]] ReplicaOutcome outcome_of(const ModelView& m, const ReplicaState& s);

}  // namespace gpuplan
