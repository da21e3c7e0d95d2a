#pragma once
//! A scenario file read once, with the overrides every variant of it shares (--set, --seed), so
//! studies that probe many variants (recommend) load each from memory, never re-reading the file.
#include <optional>
#include <string>
#include <vector>

#include "models/input/data_files.h"
#include "models/input/diagnostic.h"
#include "models/load/load_options.h"
#include "models/scenario/scenario.h"

namespace gpuplan::study {

//! The text of a scenario file and the overrides its variants share.
struct ScenarioText {
  std::string text;                    //!< the file's content
  std::string file;                    //!< its path, labelling messages
  std::string base_dir;                //!< where its relative trace paths start
  std::vector<std::string> overrides;  //!< "a.b.0.c=VALUE", applied to every variant first
  std::vector<std::string> data_path = default_data_path();  //!< LoadOptions::data_path
};

//! Reads `path` once (models' read_scenario_file); nullopt with its io_error diagnostic when it
//! cannot be read.
[[nodiscard]] std::optional<ScenarioText> read_scenario_text(const std::string& path,
                                                             std::vector<std::string> overrides,
                                                             Diagnostics& diags);

//! The scenario of `t` with its shared overrides, then the pools `pins` sets; nullopt with `diags`
//! filled when the variant is invalid. `empty_pools`: a pool may have 0 nodes (models'
//! LoadOptions).
[[nodiscard]] std::optional<Scenario> load_variant(const ScenarioText& t,
                                                   const std::vector<PoolPin>& pins,
                                                   Diagnostics& diags, bool empty_pools = false);

}  // namespace gpuplan::study
