#include "tools/gpuplan/common.h"

#include <iostream>

namespace gpuplan::cli {

void add_scenario_options(CLI::App* cmd, ScenarioOptions& o) {
  cmd->add_option("SCENARIO", o.scenario, "Scenario file (JSON with comments)")->required();
  cmd->add_option("--out", o.out_dir, "Output folder (default out/<scenario name>/)");
  cmd->add_option("--seed", o.seed, "Override the scenario's seed");
  cmd->add_option("--set", o.overrides, "Override a scenario value: PATH=VALUE (repeatable)")
      ->type_name("PATH=VALUE");
  cmd->add_option("--errors", o.errors, "Format of input errors")
      ->check(CLI::IsMember({"text", "json"}));
  cmd->add_flag("--quiet,-q", o.quiet, "No progress or summary output");
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

}  // namespace gpuplan::cli
