#pragma once
//! The scenario as the planner wrote it, typed and validated (units resolved to SI: s, 1/s, USD).
//! Produced by load_scenario() (models/load.h); consumed by compile() (models/compile.h).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog.h"
#include "models/scenario_economics.h"
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
  std::string path;                 //!< resolved against the scenario file's folder
  std::string submit_column = "submit_time";
  std::string gpus_column = "num_gpus";
  std::string duration_column = "duration";
  std::string time_format = "seconds";  //!< "seconds" or "datetime" (YYYY-MM-DD HH:MM:SS)
  double time_scale = 1.0;              //!< multiply numeric times and durations to get [s]
  bool rebase = true;                   //!< shift submit times so the first row is at 0
  double offset_s = 0;                  //!< added to every submit time after rebasing
  std::optional<uint64_t> limit;        //!< use only the first N rows
};

//! One row of a trace after parsing.
struct TraceRow {
  double submit_s;
  double duration_s;
  uint32_t gpus;
  uint32_t line = 0;  //!< 1-based line of the row in the CSV file (for messages)
};

//! A training description of a job class (models/speed.h): sets the communication share of each
//! step, and with `tokens` the duration of every job.
struct TrainingSpec {
  double params = 0;                 //!< N, model parameters
  std::optional<double> tokens;      //!< D, tokens per job: duration = speed model (gpus fixed)
  std::optional<double> step_time_s;  //!< [s] one optimizer step on the reference GPU, ideal placement
  double batch_tokens = 4e6;         //!< global batch per step (when step_time is absent)
  std::string precision = "bf16";    //!< fp32 | tf32 | bf16 | fp16 | fp8
  double mfu = 0.4;                  //!< model FLOPs utilisation (0, 1]
  bool data_parallel = true;         //!< all GPUs data-parallel; false: tensor-parallel in a node
  double overlap = 0;                //!< share of the gradient all-reduce hidden behind compute
};

//! A job class: arrivals + sizes + durations, or a replayed trace.
struct JobClass {
  std::string name;
  std::string description;         //!< free text as written ("" = none)
  std::string pointer;             //!< JSON pointer of this class in the scenario (for messages)
  double rate_per_s = 0;           //!< Poisson arrival rate (when no trace)
  GpuChoice gpus;                  //!< GPUs per job (when no trace)
  Distribution duration;           //!< [s] (when no trace)
  std::optional<TraceFormat> trace;
  std::vector<TraceRow> trace_rows;  //!< filled by the loader when `trace` is set
  uint64_t skipped_rows = 0;  //!< trace rows dropped for 0 GPUs or a duration <= 0
  std::string reference_gpu;       //!< GPU model the durations refer to ("" = pool's own)
  std::vector<std::string> pools;  //!< pools this class may use ("" = all)
  std::optional<TrainingSpec> training;  //!< communication-aware speed (models/network_plan.h)
  std::optional<double> comm_fraction;   //!< share of a step spent in network all-reduce (no training)
  ClassEconomics econ;                   //!< checkpointing and spot tolerance
};

//! An instance type defined inline in the scenario (overrides/extends the catalog).
using InlineInstance = InstanceType;

//! A pool of identical nodes of one instance type under one way of paying.
struct Pool {
  std::string name;
  std::string instance;    //!< instance type id (catalog or inline)
  uint32_t count = 0;      //!< nodes
  std::string pricing = "on_demand";  //!< on_demand | reserved_1y | reserved_3y | spot | on_prem
  double price_per_node_hour = 0;     //!< [USD/h] resolved by the loader from the instance type
  PoolEconomics econ;                 //!< billing, reserved terms, on-prem, spot, elastic
};

//! Network topology kinds (topologies/builders.h).
enum class TopologyKind : uint8_t {
  none,  //!< one non-blocking switch (no key): every placement is ideal
  single_switch,
  two_level_tree,
  leaf_spine,
  fat_tree,
  rail_optimized,
  tree_ring_hybrid,
  custom,
};

//! One vertex or link of a custom topology, as written (hosts are cluster nodes in order).
struct CustomVertexSpec {
  std::string name;
  std::string kind = "host";  //!< host | switch | node_switch | controller
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
  std::string kind_name;             //!< as written, for reports
  uint32_t nodes_per_leaf = 0;       //!< two_level_tree, leaf_spine (0 = all nodes on one leaf)
  uint32_t spines = 0;               //!< leaf_spine, rail_optimized (0 = builder default)
  uint32_t k = 0;                    //!< fat_tree
  uint32_t su = 0;                   //!< rail_optimized scalable units (0 = enough for the nodes)
  uint32_t nodes_per_su = 32;        //!< rail_optimized
  uint32_t groups_per_switch = 2;    //!< tree_ring_hybrid
  uint32_t workers_per_group = 32;   //!< tree_ring_hybrid
  std::optional<double> link_gbps;   //!< [Gb/s] host link (default: the node's NICs)
  std::optional<double> uplink_gbps;  //!< [Gb/s] leaf uplink / master link / ring link by kind
  std::optional<double> latency_s;   //!< [s] per-link latency
  double oversubscription = 1;       //!< leaf_spine downlink : uplink
  double comm_fraction = 0;          //!< default comm share of classes without training
  std::vector<CustomVertexSpec> vertices;
  std::vector<CustomLinkSpec> links;
};

//! Scheduler options.
struct SchedulerConfig {
  QueuePolicy queue = QueuePolicy::fifo;
  Placement placement = Placement::best_fit;
};

//! Engine capacities and output resolution.
struct Limits {
  uint32_t max_active_jobs = 1u << 16;  //!< queued + running jobs; beyond = saturated
  uint32_t time_bins = 240;             //!< bins of the time series
};

//! One service-level objective of a recommendation: `min <= metric <= max` in a replica.
struct RecommendSlo {
  std::string metric;         //!< metric path, e.g. "metrics.wait_s.p90" (sim/mc_metrics.h)
  std::optional<double> min;  //!< lower bound in the metric's unit ([s] for *_s.* paths)
  std::optional<double> max;  //!< upper bound in the metric's unit
};

//! One pool to size in a recommendation: every instance x pricing, from count.min to count.max.
struct RecommendCandidate {
  std::string pool;                    //!< name of a pool of the scenario
  std::vector<std::string> instances;  //!< instance type ids (catalog spelling)
  std::vector<std::string> pricing;    //!< pricings to try (default: the pool's own)
  uint32_t count_min = 1;              //!< fewest nodes to try
  uint32_t count_max = 64;             //!< most nodes to try
};

//! The scenario's `recommend` section (docs/recommend.md).
struct RecommendConfig {
  std::vector<RecommendSlo> slos;
  double probability = 0.9;  //!< share of replicas that must meet every SLO, (0, 1]
  std::vector<RecommendCandidate> candidates;
  uint32_t replications = 32;  //!< replicas per probe
};

//! A whole validated scenario.
struct Scenario {
  std::string name;
  std::string description;  //!< free text as written ("" = none)
  std::string file;  //!< path it was loaded from ("" for in-memory)
  uint64_t seed = 42;
  double horizon_s = 0;
  double warmup_s = 0;
  std::vector<InstanceType> instances;  //!< inline instance types
  std::vector<Pool> pools;
  std::vector<JobClass> workload;
  SchedulerConfig scheduler;
  TopologyConfig topology;
  Limits limits;
  std::optional<TcoConfig> tco;  //!< multi-year projection, when the scenario asks for one
  std::optional<RecommendConfig> recommend;  //!< what `gpuplan recommend` sizes, when given
  //! The scenario as the user wrote it, after --set overrides; reports echo the effective
  //! scenario instead (models/scenario_echo.h).
  nlohmann::json source;
};

//! The instance type `id` as `sc` sees it: its inline instances first, then the built-in
//! catalog (case-insensitive); nullptr when neither has it.
const InstanceType* find_instance(const Scenario& sc, std::string_view id);

}  // namespace gpuplan
