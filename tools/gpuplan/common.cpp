#include "tools/gpuplan/common.h"

#include <cstdlib>
#include <iostream>

#include "models/catalog/catalog_overlay.h"
#include "reports/metrics_export.h"

namespace gpuplan::cli {

void add_scenario_options(CLI::App* cmd, ScenarioOptions& o) {
  cmd->add_option("SCENARIO", o.scenario, "Scenario file (JSON with comments)")->required();
  cmd->add_option("--out", o.out_dir, "Output folder (default out/<scenario name>/)");
  cmd->add_option("--seed", o.seed, "Override the scenario's seed");
  cmd->add_option("--set", o.overrides, "Override a scenario value: PATH=VALUE (repeatable)")
      ->type_name("PATH=VALUE");
  add_data_dir_option(cmd, o.data_dirs);
  cmd->add_option("--errors", o.errors, "Format of input errors")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--quiet,-q", o.quiet, "No progress or summary output");
}

void add_metrics_options(CLI::App* cmd, MetricsOptions& o) {
  auto* flag = cmd->add_flag("--openmetrics", o.openmetrics,
                             "Also write metrics.om (the time series as OpenMetrics text, for "
                             "promtool tsdb create-blocks-from openmetrics), "
                             "grafana_dashboard.json and prometheus_rules.yml");
  cmd->add_option("--metrics-start", o.start,
                  "UTC time the simulation starts at in metrics.om: YYYY-MM-DD or "
                  "YYYY-MM-DDTHH:MM:SSZ (default " +
                      reports::format_utc_time(reports::METRICS_DEFAULT_START_UNIX_S) + ")")
      ->type_name("TIME")
      ->needs(flag)
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            return reports::parse_utc_time(text)
                       ? ""
                       : "not a UTC time: write YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ, e.g. "
                         "2027-01-01T00:00:00Z";
          },
          "TIME"));
}

std::vector<std::pair<std::string, std::string>> metrics_files(const MetricsOptions& o,
                                                               const nlohmann::json& result) {
  if (!o.openmetrics) return {};
  const int64_t start =
      o.start.empty() ? reports::METRICS_DEFAULT_START_UNIX_S : *reports::parse_utc_time(o.start);
  return reports::metrics_export(result, start);
}

void add_data_dir_option(CLI::App* cmd, std::vector<std::string>& dirs) {
  cmd->add_option("--data-dir", dirs,
                  "Folder holding the data files scenarios name (traces, schedules); searched "
                  "after the scenario's folder, before $GPUPLAN_DATA and ../shared/data next to "
                  "the project (repeatable)")
      ->type_name("DIR")
      ->check(CLI::ExistingDirectory);
}

std::vector<std::string> data_path(const std::vector<std::string>& data_dirs) {
  return data_search_path(data_dirs, std::getenv(DATA_PATH_ENV));
}

void print_diagnostics(const Diagnostics& d, const std::string& format) {
  if (format == "json")
    std::cerr << d.to_json() << "\n";
  else
    std::cerr << d.to_text();
}

std::optional<Scenario> load_with_options(const ScenarioOptions& o, Diagnostics& diags) {
  LoadOptions lo;
  lo.overrides = o.overrides;
  lo.data_path = data_path(o.data_dirs);
  if (o.seed) lo.overrides.push_back("seed=" + std::to_string(*o.seed));
  return load_scenario(o.scenario, lo, diags);
}

std::optional<Scenario> load_or_report(const ScenarioOptions& o) {
  Diagnostics diags;
  auto sc = load_with_options(o, diags);
  if (!sc || !diags.ok()) {
    print_diagnostics(diags, o.errors);
    return std::nullopt;
  }
  return sc;
}

std::filesystem::path output_dir(const ScenarioOptions& o, const Scenario& sc) {
  if (!o.out_dir.empty()) return o.out_dir;
  return std::filesystem::path("out") / sc.name;
}

bool output_folder_ok(const std::filesystem::path& dir, const std::vector<std::string>& also_ours) {
  const std::string problem = reports::output_folder_problem(dir, also_ours);
  if (problem.empty()) return true;
  std::cerr << "--out " << problem << "\n";
  return false;
}

std::unique_ptr<reports::OutputFolder> stage_outputs(const std::filesystem::path& dir,
                                                     const std::vector<std::string>& also_ours) {
  std::string error;
  auto out = reports::OutputFolder::stage(dir, error, also_ours);
  if (!out) std::cerr << error << "\n";
  return out;
}

bool write_files(reports::OutputFolder& out, const OutputFiles& files) {
  for (const auto& [name, content] : files) {
    if (!out.write(name, content)) {
      std::cerr << out.error() << "\n";
      return false;
    }
  }
  return true;
}

bool publish(reports::OutputFolder& out) {
  if (out.commit()) return true;
  std::cerr << out.error() << "\n";
  return false;
}

bool write_outputs(const std::filesystem::path& dir, const OutputFiles& files) {
  const auto out = stage_outputs(dir);
  return out && write_files(*out, files) && publish(*out);
}

std::optional<Catalog> catalog_with_overlays(const std::vector<std::string>& overlays,
                                             const std::string& flag, Diagnostics& diags) {
  Catalog catalog = builtin_catalog();
  bool ok = true;
  for (const std::string& file : overlays) {
    const auto overlay = read_catalog_overlay(file, catalog, "", diags);
    if (!overlay) {
      ok = false;
      continue;
    }
    if (overlay->currency != "USD") {
      diags.add(Diagnostic{file,
                           0,
                           "",
                           DiagCode::bad_flag,
                           flag + ": the overlay is priced in " + overlay->currency +
                               "; gpuplan's money is USD, so import the price file with "
                               "--currency USD",
                           {}});
      ok = false;
      continue;
    }
    apply_overlay(catalog, *overlay);
  }
  if (!ok) return std::nullopt;
  return catalog;
}

}  // namespace gpuplan::cli
