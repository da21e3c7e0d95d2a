#pragma once
//! Gavel's throughput matrix (Narayanan et al., OSDI'20; stanford-futuredata/gavel,
//! scheduler/simulation_throughputs.json): for each worker type ("k80", "p100", "v100", and
//! "*_unconsolidated"), each job type and scale factor ("('ResNet-50 (batch size 64)', 1)")
//! maps to {"null": steps/s alone on the GPUs, "<other job key>": [this, other] steps/s when
//! co-located}. gpuplan reads the isolated ("null") throughputs of the consolidated worker types
//! and turns them into per-class speeds on each GPU type (docs/scheduling-policies.md).
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"

namespace gpuplan {

//! Isolated throughputs of a Gavel file: worker type -> job key -> steps/s (> 0, finite).
struct GavelThroughputs {
  std::map<std::string, std::map<std::string, double>> isolated;
};

//! The isolated throughputs of a parsed Gavel file (entries without a positive finite "null" are
//! left out: Gavel writes 0 where a job did not run); nullopt with `error` set to one sentence
//! when it is not an object of worker types mapping job keys to objects.
[[nodiscard]] std::optional<GavelThroughputs> parse_gavel_throughputs(const nlohmann::json& doc,
                                                                      std::string& error);

//! Gavel's key of a job type at a scale factor (GPUs): "('<job type>', <scale>)".
[[nodiscard]] std::string gavel_key(const std::string& job_type, uint32_t scale);

//! The job types of `t` (the first element of each key, e.g. "ResNet-50 (batch size 64)"),
//! sorted, without duplicates.
[[nodiscard]] std::vector<std::string> gavel_job_types(const GavelThroughputs& t);

//! Gavel's worker type of a catalog GPU: its id up to the first '-', lowercase ("V100-16GB" ->
//! "v100", "K80" -> "k80").
[[nodiscard]] std::string gavel_worker_type(const GpuSpec& gpu);

}  // namespace gpuplan
