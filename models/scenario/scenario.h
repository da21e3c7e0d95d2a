#pragma once
//! The scenario as the planner wrote it, typed and validated (units resolved to SI: s, 1/s, USD).
//! Produced by load_scenario() (models/load/load.h); consumed by compile()
//! (models/compile/compile.h).
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/scenario/demand_profile.h"
#include "models/scenario/failure_table.h"
#include "models/scenario/maintenance_config.h"
#include "models/input/engine_names.h"
#include "models/scenario/scenario_economics.h"
#include "sim/core/team_spec.h"
#include "models/scenario/scenario_energy.h"
#include "models/scenario/scenario_sharing.h"
#include "sim/core/types.h"

namespace gpuplan {

//! A random duration [s]; `values`/`weights` only for empirical.
struct Distribution {
  DistKind kind = DistKind::fixed;
  double a = 0;  //!< fixed value, exponential mean, uniform/loguniform low, lognormal mu (of ln s)
  double b = 0;  //!< uniform/loguniform high, lognormal sigma (of ln s)
  std::vector<double> values;   //!< empirical values [s]
  std::vector<double> weights;  //!< empirical weights (normalised by compile)
  double median_s = 0;          //!< lognormal median [s] as written (a = ln median_s)
  double p90_s = 0;             //!< lognormal 90th percentile [s] as written
  //! Analytic mean [s] (used for offered-load estimates).
  [[nodiscard]] double mean() const;
};

//! Discrete choice of GPU count per job.
struct GpuChoice {
  std::vector<uint32_t> values;  //!< GPU counts, ascending
  std::vector<double> probs;     //!< probabilities summing to 1
  [[nodiscard]] double mean() const;
  [[nodiscard]] uint32_t max() const;
};

//! How to read a CSV trace.
struct TraceFormat {
  std::string
      path;  //!< where the file was found (models/input/data_files.h: scenario folder, data path)
  std::string sha256;  //!< SHA-256 the file must have (lowercase hex); "" = not checked
  std::string submit_column = "submit_time";
  std::string gpus_column = "num_gpus";
  std::string duration_column = "duration";
  TimeFormat time_format = TimeFormat::seconds;  //!< datetime: "YYYY-MM-DD HH:MM:SS"
  double time_scale = 1.0;        //!< multiply numeric times and durations to get [s]
  bool rebase = true;             //!< shift submit times so the first row is at 0
  double offset_s = 0;            //!< added to every submit time after rebasing
  std::optional<uint64_t> limit;  //!< use only the first N rows
};

//! One row of a trace after parsing.
struct TraceRow {
  double submit_s;
  double duration_s;
  uint32_t gpus;
  uint32_t line = 0;  //!< 1-based line of the row in the CSV file (for messages)
};

//! A training description of a job class (models/perf/speed.h): sets the communication share of
//! each step, and with `tokens` the duration of every job.
struct TrainingSpec {
  double params = 0;             //!< N, model parameters
  std::optional<double> tokens;  //!< D, tokens per job: duration = speed model (gpus fixed)
  std::optional<double>
      step_time_s;            //!< [s] one optimizer step on the reference GPU, ideal placement
  double batch_tokens = 4e6;  //!< global batch per step (when step_time is absent)
  Precision precision = Precision::bf16;  //!< as written (fp16 trains at the bf16 rate)
  double mfu = 0.4;                       //!< model FLOPs utilisation (0, 1]
  bool data_parallel = true;  //!< all GPUs data-parallel; false: tensor-parallel in a node
  double overlap = 0;         //!< share of the gradient all-reduce hidden behind compute
};

//! A job class: arrivals + sizes + durations, or a replayed trace.
struct JobClass {
  std::string name;
  std::string description;  //!< free text as written ("" = none)
  std::string pointer;      //!< JSON pointer of this class in the scenario (for messages)
  double rate_per_s = 0;    //!< Poisson arrival rate (when no trace)
  RateProfile profile;      //!< its own time-varying rate (arrival.profile; empty = constant)
  GpuChoice gpus;           //!< GPUs per job (when no trace)
  Distribution duration;    //!< [s] (when no trace)
  std::optional<TraceFormat> trace;
  std::vector<TraceRow> trace_rows;  //!< filled by the loader when `trace` is set
  uint64_t skipped_rows = 0;         //!< trace rows dropped for 0 GPUs or a duration <= 0
  //! GPU the durations refer to (nullptr = the pool's own), in the built-in catalog.
  const GpuSpec* reference_gpu = nullptr;
  std::vector<uint32_t> pool_indices;  //!< indices into Scenario::pools it may use (empty = all)
  //! Relative speed (throughput) of the class on each GPU type it may use: `speed`, or the
  //! isolated throughput of `gavel_job_type` in the throughputs file (models/perf/throughputs.h);
  //! empty = the peak-FLOPS ratio to reference_gpu (models/compile/network_plan.h, gpu_slowdown).
  std::vector<std::pair<const GpuSpec*, double>> gpu_speeds;
  std::string gavel_job_type;  //!< `gavel_job_type` as written ("" = none)
  std::optional<TrainingSpec>
      training;  //!< communication-aware speed (models/compile/network_plan.h)
  std::optional<double>
      comm_fraction;      //!< share of a step spent in network all-reduce (no training)
  ClassEconomics econ;    //!< checkpointing and spot tolerance
  uint32_t priority = 0;  //!< higher is served first and may preempt lower (scheduler section)
  std::string team_name;  //!< `team` as written ("" = none)
  uint32_t team = 0;      //!< index into Scenario::teams (when it has teams)
  ClassSharing share;     //!< a MIG instance or a time-sliced GPU instead of whole GPUs

  //! Whether this class may run on pool `pool_idx` (every pool when it names none).
  [[nodiscard]] bool may_use(size_t pool_idx) const {
    return pool_indices.empty() ||
           std::find(pool_indices.begin(), pool_indices.end(), pool_idx) != pool_indices.end();
  }
};

//! An instance type defined inline in the scenario (overrides/extends the catalog).
using InlineInstance = InstanceType;

//! A staged purchase of a fixed pool (`"purchases": [{"at": "90d", "add": 8}]`): `add` more
//! nodes usable and billed (capex and depreciation of on-prem nodes) from `at_s` on.
struct PoolPurchase {
  double at_s = 0;   //!< [s] since the scenario start; 0 < at_s < horizon, increasing per pool
  uint32_t add = 0;  //!< nodes bought, >= 1
};

//! A pool of identical nodes of one instance type under one way of paying.
struct Pool {
  std::string name;
  std::string instance;  //!< instance type id (catalog or inline), as Scenario::instances spells it
  uint32_t instance_idx = 0;     //!< its type: index into Scenario::instances
  const GpuSpec* gpu = nullptr;  //!< its GPU in the built-in catalog (which lives forever)
  //! Node slots: the most nodes the pool ever has (after every purchase; elastic: its max).
  uint32_t count = 0;
  //! Staged purchases in time order; empty = all `count` nodes from t = 0 (fixed pools only).
  std::vector<PoolPurchase> purchases;
  Pricing pricing = Pricing::on_demand;
  double price_per_node_hour = 0;  //!< [USD/h] resolved by the loader from the instance type
  PoolEconomics econ;              //!< billing, reserved terms, on-prem, spot, elastic
  //! Hot spares among `count`: the pool's last nodes, held back to replace failed ones
  //! (docs/failures.md); 0 <= spares < count.
  uint32_t spares = 0;
  //! Planned maintenance windows of its nodes (docs/failures.md), in scenario order.
  std::vector<MaintenanceConfig> maintenance;
  PoolSharing sharing;  //!< MIG layout or time-slicing of its GPUs (whole GPUs by default)

  //! Nodes a fixed pool has from t = 0: `count` less every staged purchase.
  [[nodiscard]] uint32_t initial_count() const {
    uint32_t later = 0;
    for (const PoolPurchase& b : purchases) later += b.add;
    return count - later;
  }
  //! Nodes a fixed pool has at time t_s [s] (a purchase counts from its own instant on).
  [[nodiscard]] uint32_t nodes_at(double t_s) const {
    uint32_t n = initial_count();
    for (const PoolPurchase& b : purchases)
      if (b.at_s <= t_s) n += b.add;
    return n;
  }
  //! Time-average nodes [-] of a fixed pool over [t0_s, t1_s) (t1_s > t0_s), purchases included.
  [[nodiscard]] double mean_nodes(double t0_s, double t1_s) const {
    double node_s = double(initial_count()) * (t1_s - t0_s);
    for (const PoolPurchase& b : purchases)
      if (b.at_s < t1_s) node_s += double(b.add) * (t1_s - std::max(b.at_s, t0_s));
    return node_s / (t1_s - t0_s);
  }
};

//! One vertex or link of a custom topology, as written (hosts are cluster nodes in order).
struct CustomVertexSpec {
  std::string name;
  CustomVertexKind kind = CustomVertexKind::host;
  uint32_t level = 0;
};
struct CustomLinkSpec {
  std::string a, b;
  double bandwidth_gbps = 0;  //!< [Gb/s]
  double latency_s = 0.5e-6;  //!< [s]
};

//! The scenario's `topology`: which builder, with what parameters; cluster node i is host i
//! (rail_optimized: hosts i * gpus_per_node ... are node i's GPUs).
struct TopologyConfig {
  TopologyKind kind = TopologyKind::none;
  uint32_t nodes_per_leaf = 0;        //!< two_level_tree, leaf_spine (0 = all nodes on one leaf)
  uint32_t spines = 0;                //!< leaf_spine, rail_optimized (0 = builder default)
  uint32_t k = 0;                     //!< fat_tree
  uint32_t su = 0;                    //!< rail_optimized scalable units (0 = enough for the nodes)
  uint32_t nodes_per_su = 32;         //!< rail_optimized
  uint32_t groups_per_switch = 2;     //!< tree_ring_hybrid
  uint32_t workers_per_group = 32;    //!< tree_ring_hybrid
  std::optional<double> link_gbps;    //!< [Gb/s] host link (default: the node's NICs)
  std::optional<double> uplink_gbps;  //!< [Gb/s] leaf uplink / master link / ring link by kind
  std::optional<double> latency_s;    //!< [s] per-link latency
  double oversubscription = 1;        //!< leaf_spine downlink : uplink
  double comm_fraction = 0;           //!< default comm share of classes without training
  std::vector<CustomVertexSpec> vertices;
  std::vector<CustomLinkSpec> links;
};

//! One team's quota of one flavor (a GPU type of the cluster), Kueue's resource quota [GPUs].
struct TeamFlavorQuota {
  std::string flavor;  //!< GPU type id as the catalog spells it (e.g. "A100-80GB")
  uint32_t nominal = 0;
  std::optional<uint32_t> borrowing_limit;  //!< most GPUs above nominal (none = unlimited)
  std::optional<uint32_t> lending_limit;    //!< most of its nominal peers may borrow (none = all)
};

//! A team (Kueue's ClusterQueue): quotas per flavor and the cohort it lends to and borrows from.
struct Team {
  std::string name;
  std::string cohort;                  //!< "" = none: it neither borrows nor lends
  std::vector<TeamFlavorQuota> quota;  //!< flavors it names, in file order (others: nominal 0)
  double weight = 1;                   //!< `weight`: its share under fair_share, > 0
};

//! Scheduler options.
struct SchedulerConfig {
  QueuePolicy queue = QueuePolicy::fifo;  //!< `queue`, or its alias `policy` (which wins)
  Placement placement = Placement::best_fit;
  //! [GPU·s] 2D-LAS queue thresholds, increasing (`las.thresholds`, GPU-time durations).
  std::vector<double> las_thresholds_gpu_s = {3600.0};
  double las_promote_knob = 0;      //!< `las.promote_knob`: starvation guard, 0 = off
  double estimate_sigma = 0;        //!< `estimate_error`: sigma of the lognormal factor
  bool priority_preemption = true;  //!< `priority_preemption`: higher classes preempt lower
  double preemption_grace_s = 0;    //!< [s] `preemption_grace`: victims run this long, then stop
  ReclaimPolicy reclaim = ReclaimPolicy::any;  //!< `reclaim`: whom a team under quota preempts
  double round_s = 360;  //!< [s] `round`: max_min_fairness_perf's round (Gavel's default 6 min)
};

//! Engine capacities, output resolution, and the work a scenario may ask for (docs/reliability.md,
//! "Limits"): the loader refuses a scenario beyond them, naming the key that raises each.
struct Limits {
  uint32_t max_active_jobs = 1u << 16;  //!< queued + running jobs; beyond = saturated
  uint32_t time_bins = 240;             //!< bins of the time series
  double max_events = 1e9;              //!< expected events per replica (arrivals, finishes, spot)
  double max_duration_s = 1e15;         //!< [s] largest sample any duration distribution may give
  //! Switches + hosts + links a topology may have; 0 = derived from the cluster
  //! (max(MIN_TOPOLOGY_SIZE, TOPOLOGY_SIZE_PER_GPU x its GPUs)).
  double max_topology_size = 0;
  double max_memory_bytes = 4e9;  //!< [B] engine state of one replica (max_active_jobs implies it)
  double max_profile_segments = MAX_PROFILE_SEGMENTS;  //!< compiled rate segments, all classes
};

//! One service-level objective of a recommendation: `min <= metric <= max` in a replica.
struct RecommendSlo {
  std::string metric;         //!< metric path, e.g. "metrics.wait_s.p90" (sim/mc_metrics.h)
  std::optional<double> min;  //!< lower bound in the metric's unit ([s] for *_s.* paths)
  std::optional<double> max;  //!< upper bound in the metric's unit
};

//! One pool to size in a recommendation: every instance x pricing, from count.min to count.max
//! (0 = the pool left out: "add nothing").
struct RecommendPool {
  uint32_t pool_idx = 0;            //!< index into Scenario::pools of the pool to size
  std::vector<uint32_t> instances;  //!< indices into Scenario::instances (default: the pool's own)
  std::vector<Pricing> pricing;     //!< pricings to try (default: the pool's own)
  uint32_t count_min = 1;           //!< fewest nodes to try
  uint32_t count_max = 64;          //!< most nodes to try
};

//! A candidate: the pool whose count is bisected, and the pools sized with it in the same
//! configuration (`with`, e.g. an on-prem pool beside a cloud pool; every count of each is tried).
struct RecommendCandidate : RecommendPool {
  std::vector<RecommendPool> with;
};

//! Most configurations one candidate may expand to (instances x pricings x `with` counts).
inline constexpr double MAX_RECOMMEND_OPTIONS = 4096;

//! The scenario's `recommend` section (docs/recommend.md).
struct RecommendConfig {
  std::vector<RecommendSlo> slos;
  double probability = 0.9;  //!< share of replicas that must meet every SLO, (0, 1]
  std::vector<RecommendCandidate> candidates;
  uint32_t replications = 32;  //!< replicas per probe
  //! [USD per 730 h] most a configuration may cost, its window's cost scaled to a month; none
  //! when absent. Configurations above it are reported as over budget and never recommended.
  std::optional<double> max_usd_per_month;
  //! Where the SLOs must hold; every_month by default when the demand grows.
  SloPeriod slos_hold = SloPeriod::over_window;
  //! The answer may be a purchase schedule (every_month only): each month the fewest nodes,
  //! never fewer than the month before. Default: true with every_month.
  bool purchases = false;
};

//! `statistics`: which jobs the wait and completion-time statistics count (docs/outputs.md).
//! Default: every job submitted in [warmup, horizon) that finishes by the horizon. A window of
//! arrivals that closes before the horizon is followed: its jobs are timed until each finishes,
//! as scheduling papers measure them, so that jobs starving under overload are not dropped.
struct StatisticsConfig {
  double arrivals_until_s = 0;  //!< [s] counted submissions end here; 0 = the horizon
  uint64_t first_job = 0;       //!< counted submission indices [first_job, end_job) over all
  uint64_t end_job = 0;         //!< classes, 0-based; end_job 0 = no index bound
};

//! A whole validated scenario.
struct Scenario {
  std::string name;
  std::string description;  //!< free text as written ("" = none)
  std::string file;         //!< path it was loaded from ("" for in-memory)
  uint64_t seed = 42;
  double horizon_s = 0;
  double warmup_s = 0;
  StatisticsConfig statistics;  //!< which jobs count in the wait and completion-time figures
  //! Every instance type the scenario refers to, resolved by the loader: the inline ones as
  //! written, then the catalog types that pools and recommend candidates name (in that order).
  std::vector<InstanceType> instances;
  std::vector<Pool> pools;
  std::vector<JobClass> workload;
  std::vector<Team> teams;  //!< `teams` (empty: no quotas); every class then names one
  DemandConfig demand;      //!< load scale and rate profile of every Poisson class
  SchedulerConfig scheduler;
  TopologyConfig topology;
  Limits limits;
  std::optional<TcoConfig> tco;  //!< multi-year projection, when the scenario asks for one
  std::optional<RecommendConfig> recommend;  //!< what `gpuplan recommend` sizes, when given
  std::optional<FailureConfig> failures;     //!< hardware failures, when the scenario has them
  EnergyConfig energy;  //!< power, site and grid settings (docs/energy.md); defaults when absent
  //! Catalog prices dated more than this many months before today are flagged stale.
  uint32_t stale_after_months = 12;
  //! The scenario as the user wrote it, after --set overrides; reports echo the effective
  //! scenario instead (models/load/scenario_echo.h).
  nlohmann::json source;

  //! The instance type of `pool` (resolved at load; a bad index is a bug: std::out_of_range).
  [[nodiscard]] const InstanceType& instance_of(const Pool& pool) const {
    return instances.at(pool.instance_idx);
  }
  //! The GPU of `pool`; std::logic_error when unresolved (a scenario built in memory must set
  //! Pool::gpu before anything asks for GPU figures).
  [[nodiscard]] const GpuSpec& gpu_of(const Pool& pool) const;
};

}  // namespace gpuplan
