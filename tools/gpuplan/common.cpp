#include "tools/gpuplan/common.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <system_error>

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

bool write_outputs(const std::filesystem::path& dir,
                   const std::vector<std::pair<std::string, std::string>>& files) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::cerr << dir.string() << ": cannot create the output folder: " << ec.message() << "\n";
    return false;
  }
  std::vector<std::filesystem::path> temps;
  for (const auto& [name, content] : files) {
    const auto tmp = dir / ("." + name + ".tmp");
    std::ofstream f(tmp, std::ios::binary);
    f << content;
    if (!f.good()) {
      std::cerr << tmp.string() << ": cannot write: " << std::strerror(errno) << "\n";
      for (const auto& t : temps) std::filesystem::remove(t, ec);
      return false;
    }
    temps.push_back(tmp);
  }
  for (size_t i = 0; i < files.size(); ++i)
    std::filesystem::rename(temps[i], dir / files[i].first, ec);
  return true;
}

}  // namespace gpuplan::cli
