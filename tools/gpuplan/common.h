#pragma once
//! Pieces every scenario-taking command shares: options, loading with diagnostics, writing outputs.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "models/load.h"

namespace gpuplan::cli {

//! Options common to run, mc and sweep.
struct ScenarioOptions {
  std::string scenario;
  std::string out_dir;  //!< "" = out/<scenario name>/
  std::optional<uint64_t> seed;
  std::vector<std::string> overrides;  //!< --set PATH=VALUE
  std::string errors = "text";         //!< text | json
  bool quiet = false;
};

//! Adds SCENARIO, --out, --seed, --set, --errors and --quiet to a subcommand.
void add_scenario_options(CLI::App* cmd, ScenarioOptions& o);

//! Loads the scenario of `o` with its --set and --seed overrides; diagnostics go to `diags`.
std::optional<Scenario> load_with_options(const ScenarioOptions& o, Diagnostics& diags);

//! Loads the scenario; on failure prints every diagnostic to stderr and returns nullopt.
std::optional<Scenario> load_or_report(const ScenarioOptions& o);

//! Prints diagnostics in the chosen format (text: one `file:line: /pointer: message` per line).
void print_diagnostics(const Diagnostics& d, const std::string& format);

//! The output folder: --out, or out/<scenario name>/.
std::filesystem::path output_dir(const ScenarioOptions& o, const Scenario& sc);

//! Writes `files` (name -> content) into `dir`, creating it; all or nothing (temp + rename).
//! Returns false with a message on stderr when the folder cannot be written.
bool write_outputs(const std::filesystem::path& dir,
                   const std::vector<std::pair<std::string, std::string>>& files);

}  // namespace gpuplan::cli
