#pragma once
//! A finished replica's headline numbers (result contract, ARCHITECTURE.md §5), extracted on the
//! host.
#include <vector>

#include "sim/core/state.h"

namespace gpuplan {

//! Mean and percentiles of a duration [s]; zero when no job completed.
struct DurationStats {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

//! GPU-hour accounting over the statistics window (docs/outputs.md, `gpu_hours`).
struct GpuHours {
  double provisioned = 0;  //!< [GPU-h] billed GPUs
  double busy = 0;         //!< [GPU-h] held by running jobs
  double lost = 0;         //!< [GPU-h] compute thrown away by preemptions
  double checkpoint = 0;   //!< [GPU-h] writing checkpoints
  double restart = 0;      //!< [GPU-h] reloading after preemptions
  double useful = 0;       //!< [GPU-h] busy − lost − checkpoint − restart: work that was kept
};

//! Counts and durations of one job class over the statistics window.
struct ClassMetrics {
  uint64_t submitted = 0, completed = 0, unfinished = 0;
  DurationStats wait_s, jct_s;
  double cost_usd = 0;                 //!< its GPU-seconds at its pools' per-GPU rates
  uint64_t preemptions = 0;            //!< its runs ended by a reclaim or by the scheduler
  uint64_t scheduler_preemptions = 0;  //!< of those, ended by the queue policy or a priority
  uint64_t restarts = 0;               //!< restarts summed over its completed jobs
  GpuHours gpu_hours;             //!< busy and lost, checkpoint, restart, useful (provisioned = 0)
  double requeued_gpu_hours = 0;  //!< [GPU-h] its interrupted jobs waited to run again
  //! useful ÷ (busy + requeued) GPU-hours: the share of its jobs' wall time since their first
  //! start that was kept work (Llama 3's "effective training time"); 0 when it never ran.
  double effective_training_time = 0;
  //! [s] mean completion time over all its counted jobs, those unfinished at the end of the run
  //! counted at their age then: a lower bound, equal to jct_s.mean when none is unfinished
  double jct_mean_lower_bound_s = 0;
};

//! Counts, durations, GPU-hours and chargeback of one team over the statistics window
//! (docs/teams.md).
struct TeamMetrics {
  uint64_t submitted = 0, completed = 0, unfinished = 0;
  DurationStats wait_s, jct_s;    //!< over its classes' completed jobs
  double gpu_hours_used = 0;      //!< [GPU-h] held by its running jobs
  double gpu_hours_borrowed = 0;  //!< [GPU-h] held above its nominal quota
  double mean_gpus = 0;           //!< GPUs held, time-averaged over the window
  double quota_use = 0;           //!< mean_gpus ÷ its nominal quota (all flavors); 0 without one
  uint64_t reclaim_preemptions = 0;  //!< its runs ended by a peer reclaiming its quota
  double cost_share = 0;             //!< its share of all teams' used GPU-hours (chargeback key)
  double cost_usd = 0;  //!< cost_share × the cluster's billed cost (idle GPUs included)
};

//! Per-pool figures over the statistics window.
struct PoolMetrics {
  double gpu_utilization = 0;  //!< busy / provisioned GPU-seconds
  double cost_usd = 0;
  double mean_nodes = 0;     //!< nodes provisioned (billed), time-averaged
  double busy_gpu_s = 0;     //!< [GPU·s] held by running jobs
  uint64_t preemptions = 0;  //!< job runs ended by a spot reclaim
  //! [GPU·s] compute jobs used (sim/core/compute_used.h); 0 without shared pools
  double compute_gpu_s = 0;
  double compute_used = 0;  //!< compute_gpu_s / provisioned GPU-seconds
};

//! Spot preemption totals over the statistics window.
struct PreemptionMetrics {
  uint64_t preemptions = 0;      //!< job runs ended by a reclaim
  uint64_t reclaimed_nodes = 0;  //!< nodes taken by the spot market
  uint64_t waves = 0;            //!< reclaim waves that took at least one node
  uint64_t restarts = 0;         //!< restarts summed over completed jobs
};

//! Network figures: fragmentation and the communication slowdown of multi-node gangs.
struct NetworkMetrics {
  double stranded_gpus = 0;       //!< free GPUs on partly used nodes, time-averaged
  double mean_comm_slowdown = 1;  //!< run time / ideal run time over completed multi-node jobs
  uint64_t multi_node_completed = 0;
  uint64_t rate_changes = 0;  //!< finish times moved by link sharing
};

//! Hardware failure totals over the statistics window (docs/failures.md).
struct FailureMetrics {
  uint64_t failures = 0;         //!< failures that struck a serving node or a switch above one
  uint64_t interruptions = 0;    //!< job runs ended by a failure
  uint64_t spare_swaps = 0;      //!< failed nodes replaced by a hot spare at once
  double lost_gpu_hours = 0;     //!< [GPU-h] compute thrown away by failure interruptions
  double down_gpu_hours = 0;     //!< [GPU-h] of failed nodes no spare replaced
  double spare_utilization = 0;  //!< spares standing in, time-averaged, ÷ spares (0: none)
  double effective_training_time = 0;  //!< useful ÷ (busy + requeued) GPU-hours, all classes
};

//! Planned maintenance totals over the statistics window (docs/failures.md).
struct MaintenanceMetrics {
  uint64_t node_windows = 0;   //!< nodes taken out of service for maintenance
  uint64_t interruptions = 0;  //!< job runs ended by a window start
  double lost_gpu_hours = 0;   //!< [GPU-h] compute thrown away by those interruptions
  double node_hours = 0;       //!< [node-h] nodes in maintenance
  double gpu_hours = 0;        //!< [GPU-h] GPUs of the nodes in maintenance
};

//! Everything result.json reports for one replica.
struct ReplicaMetrics {
  uint64_t jobs_submitted = 0, jobs_completed = 0, jobs_unfinished = 0;
  DurationStats wait_s, jct_s;
  double jct_mean_lower_bound_s = 0;  //!< [s] as ClassMetrics', over all classes
  double gpu_utilization = 0;         //!< busy GPU-s / provisioned GPU-s over [warmup, horizon)
  double mean_queued_jobs = 0;        //!< time-average queue length over the window
  double mean_jobs_in_system = 0;
  double cost_usd = 0;
  SaturationCause saturation = SaturationCause::none;  //!< none: the replica kept up
  double saturated_at_s = 0;
  uint64_t events = 0;
  GpuHours gpu_hours;
  PreemptionMetrics preemption;
  NetworkMetrics network;
  FailureMetrics failures;
  std::vector<uint64_t> failures_by_cause;  //!< failures per cause, in scenario order
  MaintenanceMetrics maintenance;           //!< zero without maintenance windows
  //! Fractional (milli-GPU) jobs in the window that found no GPU with room when first tried
  uint64_t jobs_waited_for_room = 0;
  std::vector<PoolMetrics> pools;
  std::vector<ClassMetrics> classes;
  std::vector<TeamMetrics> teams;  //!< empty without teams

  //! The replica stopped early because the cluster could not keep up.
  [[nodiscard]] bool saturated() const { return saturation != SaturationCause::none; }
};

//! Extracts metrics: means exact, percentiles from the per-class quantile sketches
//! (sim/core/sketch.h: within 0.5 % relative + 1 ms of the exact type-7 percentile).
ReplicaMetrics extract_metrics(const ModelView& m, const ReplicaState& s);

//! Time-averaged load of every uplink group (sim/core/network_types.h) of a finished replica over
//! its statistics window (which a saturated replica ends where it stopped): nodes of running gangs
//! whose traffic crosses it, and the share of the window it was congested. Empty without a
//! topology.
void uplink_window_means(const ModelView& m, const ReplicaState& s,
                         std::vector<double>& crossing_nodes, std::vector<double>& congested_share);

//! Failure totals of a finished replica whose classes `r` already holds (effective training time
//! is computed for every model; the rest is zero without failures).
FailureMetrics failure_metrics(const ModelView& m, const ReplicaState& s, const ReplicaMetrics& r);

//! Team metrics of a finished replica whose classes `r` already holds (empty without teams).
std::vector<TeamMetrics> team_metrics(const ModelView& m, const ReplicaState& s,
                                      const ReplicaMetrics& r);

//! GPU-hours of class `c` of a finished replica, or of every class and pool when c == NONE.
GpuHours gpu_hours(const ModelView& m, const ReplicaState& s, uint32_t c);

//! Name of a saturation cause for outputs ("none", "queue_overflow", "event_overflow",
//! "bad_event_time").
const char* saturation_name(SaturationCause c);

}  // namespace gpuplan
