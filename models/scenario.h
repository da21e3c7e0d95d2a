#pragma once
//! The scenario as the planner wrote it, typed and validated (units resolved to SI: s, 1/s, USD).
//! Produced by load_scenario() (models/load.h); consumed by compile() (models/compile.h).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog.h"
#include "sim/core/types.h"

namespace gpuplan {

//! A random duration [s]; `values`/`weights` only for empirical.
struct Distribution {
  DistKind kind = DistKind::fixed;
  double a = 0;  //!< fixed value, exponential mean, uniform/loguniform low, lognormal mu (of ln s)
  double b = 0;  //!< uniform/loguniform high, lognormal sigma (of ln s)
  std::vector<double> values;   //!< empirical values [s]
  std::vector<double> weights;  //!< empirical weights (normalised by compile)
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

//! A job class: arrivals + sizes + durations, or a replayed trace.
struct JobClass {
  std::string name;
  std::string pointer;             //!< JSON pointer of this class in the scenario (for messages)
  double rate_per_s = 0;           //!< Poisson arrival rate (when no trace)
  GpuChoice gpus;                  //!< GPUs per job (when no trace)
  Distribution duration;           //!< [s] (when no trace)
  std::optional<TraceFormat> trace;
  std::vector<TraceRow> trace_rows;  //!< filled by the loader when `trace` is set
  uint64_t skipped_rows = 0;  //!< trace rows dropped for 0 GPUs or a duration <= 0
  std::string reference_gpu;       //!< GPU model the durations refer to ("" = pool's own)
  std::vector<std::string> pools;  //!< pools this class may use ("" = all)
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

//! A whole validated scenario.
struct Scenario {
  std::string name;
  std::string file;  //!< path it was loaded from ("" for in-memory)
  uint64_t seed = 42;
  double horizon_s = 0;
  double warmup_s = 0;
  std::vector<InstanceType> instances;  //!< inline instance types
  std::vector<Pool> pools;
  std::vector<JobClass> workload;
  SchedulerConfig scheduler;
  Limits limits;
  nlohmann::json source;  //!< the scenario after --set overrides (echoed into reports)
};

}  // namespace gpuplan
