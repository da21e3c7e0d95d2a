#pragma once
//! The load stage: JSONC text -> validated Scenario, or diagnostics (never an exception to users).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/data_files.h"
#include "models/diagnostic.h"
#include "models/field_reader.h"
#include "models/scenario.h"

namespace gpuplan {

//! Options of one load.
struct LoadOptions {
  std::vector<std::string> overrides;  //!< "a.b.0.c=VALUE" (VALUE as JSON, else as a string)
  //! Accept a pool "count" of 0 (a pool left out: recommend's "add nothing" variants).
  bool empty_pools = false;
  //! Folders searched for the data files a scenario names (traces, schedules), after the
  //! scenario's own folder (models/data_files.h).
  std::vector<std::string> data_path = default_data_path();
  bool read_traces = true;  //!< parse trace CSVs (validate can skip the big ones? no: always true)
};

//! The whole text of the scenario file `path`; nullopt with one io_error diagnostic (line 0)
//! when it is missing, not a regular file, too large or not UTF-8 (models/input_file.h).
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
