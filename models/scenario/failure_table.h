#pragma once
//! The scenario's hardware failure model as written (`"failures": {...}`, docs/failures.md) and
//! the built-in cause table it may name ("llama3").
#include <string>
#include <vector>

#include "models/scenario/scenario_economics.h"
#include "sim/core/types.h"

namespace gpuplan {

//! One cause of failure with its rate.
struct FailureCauseConfig {
  std::string name;
  double rate_per_gpu_hour = 0;  //!< [1/(GPU·h)] >= 0, finite
  FailureScope scope = FailureScope::node;
};

//! The `failures` section: causes and their rates, a scale on all of them, repair times.
struct FailureConfig {
  std::string table;  //!< "llama3" when the built-in table was named, else "" (explicit rates)
  std::vector<FailureCauseConfig> causes;
  double scale = 1;  //!< multiplies every rate (sweeps of the failure rate)
  DelaySpec repair;  //!< [s] until a failed node or switch is back
  //! Sum of all rates times scale [1/(GPU·s)]: what interrupts a gang, per GPU.
  [[nodiscard]] double rate_per_gpu_s() const;
};

//! Llama 3 405B pre-training, 54 days on 16,384 H100 (Dubey et al., "The Llama 3 Herd of Models",
//! arXiv 2407.21783, Table 5): the 419 unexpected interruptions by root cause, as rates per
//! GPU-hour (count / (16,384 GPUs x 54 d x 24 h)). Switch/cable failures take a leaf switch
//! down; software bugs, NCCL watchdog timeouts and dependency failures interrupt the jobs only.
[[nodiscard]] std::vector<FailureCauseConfig> llama3_failure_table();

//! Unexpected interruptions in the Llama 3 snapshot, and its GPUs and days (the table's basis).
inline constexpr double LLAMA3_INTERRUPTIONS = 419;
inline constexpr double LLAMA3_GPUS = 16384;
inline constexpr double LLAMA3_DAYS = 54;

//! Default repair time when the scenario gives none: exponential, mean 4 h (docs/failures.md).
inline constexpr double DEFAULT_REPAIR_MEAN_S = 4 * 3600.0;

}  // namespace gpuplan
