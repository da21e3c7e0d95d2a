#pragma once
//! The load stage: JSONC text -> validated Scenario, or diagnostics (never an exception to users).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/diagnostic.h"
#include "models/input/field_reader.h"
#include "models/load/load_options.h"
#include "models/scenario/scenario.h"

namespace gpuplan {

//! The whole text of the scenario file `path`; nullopt with one io_error diagnostic (line 0)
//! when it is missing, not a regular file, too large or not UTF-8 (models/input/input_file.h).
std::optional<std::string> read_scenario_file(const std::string& path, Diagnostics& diags);

//! Loads and validates a scenario file; nullopt with `diags` filled when anything is wrong.
std::optional<Scenario> load_scenario(const std::string& path, const LoadOptions& opts,
                                      Diagnostics& diags);

//! Same from text; `file` labels messages, `base_dir` resolves relative trace paths.
std::optional<Scenario> load_scenario_text(std::string_view text, const std::string& file,
                                           const std::string& base_dir, const LoadOptions& opts,
                                           Diagnostics& diags);

//! The top-level keys a scenario may have (docs/scenario.schema.json lists the same).
const std::vector<std::string>& scenario_keys();

}  // namespace gpuplan
