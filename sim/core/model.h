#pragma once
//! The compiled scenario as the core reads it: flat, read-only arrays and scalars, no names.
//! Only models/compile/compile.cpp fills these; the core never sees strings, JSON or catalogs.
#include "sim/core/network_types.h"
#include "sim/core/scheduler_spec.h"
#include "sim/core/shared_types.h"
#include "sim/core/team_view.h"
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! A random distribution's parameters; `empirical` reads `table_n` values/cumulative weights.
struct DistSpec {
  DistKind kind = DistKind::fixed;
  double a = 0;  //!< see DistKind
  double b = 0;  //!< see DistKind
  uint32_t table_idx = 0;
  uint32_t table_n = 0;
};

//! One row of a replayed trace.
struct TraceJob {
  SimTime submit;   //!< [s] since scenario start
  double duration;  //!< [s] on the class's reference GPU
  uint32_t gpus;
};

//! A job class: how its jobs arrive, how big and how long they are, where they may run.
struct ClassSpec {
  bool from_trace = false;
  double rate = 0;             //!< [1/s] Poisson arrival rate (when !from_trace)
  DistSpec duration;           //!< [s] on the reference GPU with ideal placement
  uint32_t gpus_idx = 0;       //!< first entry of the GPU-count choice table
  uint32_t gpus_n = 0;         //!< entries in that table (values in gpu_values, cum. p in gpu_cum)
  uint32_t trace_idx = 0;      //!< first row in ModelView::trace
  uint32_t trace_n = 0;        //!< rows of this class's trace
  uint64_t pool_mask = ~0ull;  //!< pools this class may use (bit i = pool i)
  uint32_t node_gpus_max = 0;  //!< largest node among those pools: bigger jobs take whole nodes
  uint32_t profile_idx = 0;    //!< first segment in ModelView::arrival_segments
  uint32_t profile_n = 0;      //!< its segments; 0 = constant `rate` (sim/core/arrival_profile.h)
  int32_t priority = 0;        //!< higher runs first and may preempt lower (SchedulerSpec)
  //! Capacity-weighted mean speed (1 / slowdown) over the GPUs of its pools: a GPU-second at
  //! this speed is one normalized GPU-second under max_min_fairness_perf (sim/core/type_aware.h).
  double mean_speed = 1;
};

//! A pool of identical nodes: nodes [first_node, first_node + n_nodes) of the cluster.
struct PoolSpec {
  uint32_t first_node;
  uint32_t n_nodes;
  uint32_t gpus_per_node;
  double price_per_node_s;  //!< [USD/s] while provisioned
  //! The mean speed of the work that may run on the pool (classes' speeds relative to their
  //! reference GPUs, weighted by their expected busy GPUs): what max_min_fairness_perf compares
  //! a class's speed with (sim/core/type_aware.h).
  double mean_work_speed = 1;
  //! The rate at which the pool gets through that work: the classes' harmonic mean speed there,
  //! by the same weights. max_min_fairness_perf fills pools fastest first while no job waits,
  //! as Gavel's rounds hand out V100s, then P100s, then K80s (sim/core/type_aware.h).
  double fill_speed = 1;
};

// How pools are supplied and paid for, and how class runs behave (sim/core/pool_supply_spec.h,
// sim/core/class_run_spec.h).
struct PoolSupplySpec;
struct ClassRunSpec;
struct PriceStep;
struct ArrivalSegment;
struct NodePurchase;
struct FailureSpec;
struct FailureCause;
struct MaintenanceWindow;

//! Everything the core needs to simulate one replica. Plain views; copyable to device.
struct ModelView {
  uint64_t seed = 0;
  SimTime horizon = 0;  //!< [s] simulation ends here
  SimTime warmup = 0;   //!< [s] jobs submitted before this are not counted
  //! Counted jobs (statistics): submitted in [warmup, count_until) and, by submission index over
  //! all classes (0-based), in [count_first_job, count_end_job); by default [warmup, horizon).
  //! A window closing before the horizon is followed: its jobs are timed to completion.
  SimTime count_until = NEVER;
  uint64_t count_first_job = 0;
  uint64_t count_end_job = ~0ull;
  QueuePolicy queue = QueuePolicy::fifo;
  Placement placement = Placement::best_fit;
  SchedulerSpec sched;  //!< ranking parameters of the queue policy (sim/core/scheduler_spec.h)

  span<const PoolSpec> pools;
  span<const ClassSpec> classes;
  //! [n_nodes] pool index of each node (one byte: at most 64 pools, and an elastic pool of max
  //! 10^6 nodes then costs 1 MB, not 4)
  span<const uint8_t> node_pool;
  span<const double> dist_values;   //!< empirical distribution values
  span<const double> dist_cum;      //!< matching cumulative probabilities (last = 1)
  span<const uint32_t> gpu_values;  //!< GPU-count choices
  span<const double> gpu_cum;       //!< matching cumulative probabilities (last = 1)
  span<const TraceJob> trace;       //!< trace rows of all trace classes, by class, in file order
  span<const double> slowdown;      //!< [n_classes * n_pools] duration multiplier (>= 1 slower)
  span<const PoolSupplySpec> pool_supply;  //!< [n_pools] billing, spot, elastic
  span<const ClassRunSpec> class_runs;     //!< [n_classes] checkpointing, spot tolerance
  span<const double> wave_quantiles;       //!< reclaim-wave share quantile tables of all pools
  span<const PriceStep> price_steps;  //!< spot price series of all pools, by pool, in time order
  span<const ArrivalSegment> arrival_segments;  //!< time-varying rates of all classes, by class
  span<const NodePurchase> purchases;  //!< staged purchases of all pools, by pool, in time order
  //! Hardware failures (sim/core/failure_spec.h): one element, or empty when nothing fails.
  span<const FailureSpec> failures;
  span<const FailureCause> failure_causes;  //!< every cause, in scenario order
  span<const uint32_t> pool_spares;         //!< [n_pools] hot spares: each pool's last nodes
  NetworkView net;                          //!< topology tables (sim/core/network.h)
  TeamView teams;    //!< team quotas and cohorts (sim/core/team_quota.h); empty without teams
  SharedView share;  //!< MIG and time-sliced pools (sim/core/shared_gpus.h); empty without them
  //! Planned maintenance window batches (sim/core/maintenance_spec.h); empty without maintenance.
  span<const MaintenanceWindow> maintenance;
  //! FEATURE_* bits: the hooks this model needs (sim/core/features.h), set once by compile.
  uint32_t features = 0;
  //! Pools some class may use: the union of the classes' pool masks (a team's pools only narrow
  //! its classes' own), so autoscaling passes over a pool no job can ask for in O(1).
  uint64_t class_pools = ~0ull;

  uint32_t n_nodes = 0;
  uint32_t max_gpus_per_node = 0;
  uint32_t max_nodes_per_job = 1;  //!< nodes the largest job can span
  uint32_t max_active_jobs = 0;    //!< queued + running; more means the replica is saturated
  uint32_t extra_events = 0;       //!< calendar room beyond arrivals and finishes: spot, elastic,
                                   //!< price, purchase and fallback events
  uint32_t n_bins = 0;             //!< time bins over [0, horizon)
  double bin_width = 0;            //!< [s]
};

//! True when the counted jobs are an arrival window followed to completion (count_until before
//! the horizon, or a range of submission indices) rather than every job submitted after warmup.
[[nodiscard]] GPUPLAN_HD inline bool follows_arrivals(const ModelView& m) {
  return m.count_until < m.horizon || m.count_first_job > 0 || m.count_end_job != ~0ull;
}

}  // namespace gpuplan
