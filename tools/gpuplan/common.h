#pragma once
//! Pieces every scenario-taking command shares: options, loading with diagnostics, writing outputs.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "models/load/load.h"
#include "reports/output_folder.h"

namespace gpuplan::cli {

//! Options common to run, mc and sweep.
struct ScenarioOptions {
  std::string scenario;
  std::string out_dir;  //!< "" = out/<scenario name>/
  std::optional<uint64_t> seed;
  std::vector<std::string> overrides;  //!< --set PATH=VALUE
  std::vector<std::string> data_dirs;  //!< --data-dir DIR: searched first for named data files
  std::string errors = "text";         //!< text | json
  bool quiet = false;
};

//! `--openmetrics [--metrics-start TIME]` of run and mc (reports/metrics_export.h).
struct MetricsOptions {
  bool openmetrics = false;
  std::string start;  //!< UTC time of the simulation's start; "" = the default
};

//! Adds --openmetrics and --metrics-start (checked at parse time: a bad time is invalid input).
void add_metrics_options(CLI::App* cmd, MetricsOptions& o);

//! The export files of `result` (reports/metrics_export.h) when --openmetrics was given; none
//! otherwise.
[[nodiscard]] std::vector<std::pair<std::string, std::string>> metrics_files(
    const MetricsOptions& o, const nlohmann::json& result);

//! Adds SCENARIO, --out, --seed, --set, --data-dir, --errors and --quiet to a subcommand.
void add_scenario_options(CLI::App* cmd, ScenarioOptions& o);

//! Adds the repeatable --data-dir DIR (an existing folder) to a subcommand.
void add_data_dir_option(CLI::App* cmd, std::vector<std::string>& dirs);

//! The data search path of a command: its --data-dir folders, then GPUPLAN_DATA's, then the
//! shared data folder next to the project (models/input/data_files.h).
[[nodiscard]] std::vector<std::string> data_path(const std::vector<std::string>& data_dirs);

//! Loads the scenario of `o` with its --set and --seed overrides; diagnostics go to `diags`.
std::optional<Scenario> load_with_options(const ScenarioOptions& o, Diagnostics& diags);

//! Loads the scenario; on failure prints every diagnostic to stderr and returns nullopt.
std::optional<Scenario> load_or_report(const ScenarioOptions& o);

//! The built-in catalog with the overlay files `overlays` applied in order (later files win);
//! nullopt with diagnostics naming the file and field when one cannot be read, is invalid or is
//! not priced in USD (`flag` names the option in that message).
[[nodiscard]] std::optional<Catalog> catalog_with_overlays(const std::vector<std::string>& overlays,
                                                           const std::string& flag,
                                                           Diagnostics& diags);

//! Prints diagnostics in the chosen format (text: one `file:line: /pointer: message` per line).
void print_diagnostics(const Diagnostics& d, const std::string& format);

//! The output folder: --out, or out/<scenario name>/.
std::filesystem::path output_dir(const ScenarioOptions& o, const Scenario& sc);

//! Files of one command: (name inside the output folder, content); a name may hold one
//! subfolder ("point-3/result.json").
using OutputFiles = std::vector<std::pair<std::string, std::string>>;

//! Whether `dir` may be used as an output folder (reports::output_folder_problem); prints why
//! not on stderr. Call it before any work, so a bad --out costs no run (invalid input, exit 2).
[[nodiscard]] bool output_folder_ok(const std::filesystem::path& dir,
                                    const std::vector<std::string>& also_ours = {});

//! Stages the output folder `dir` (reports::OutputFolder); nullptr with a message on stderr.
[[nodiscard]] std::unique_ptr<reports::OutputFolder> stage_outputs(
    const std::filesystem::path& dir, const std::vector<std::string>& also_ours = {});

//! Writes `files` into the staged folder `out`; false with a message on stderr.
[[nodiscard]] bool write_files(reports::OutputFolder& out, const OutputFiles& files);

//! Publishes `out` (all its files appear at once); false with a message on stderr.
[[nodiscard]] bool publish(reports::OutputFolder& out);

//! Stages, writes and publishes `files` in `dir`: all of them appear together or none does.
//! Returns false with a message on stderr when the folder cannot be written.
[[nodiscard]] bool write_outputs(const std::filesystem::path& dir, const OutputFiles& files);

}  // namespace gpuplan::cli
