#include "study/scenario_text.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/load.h"

namespace gpuplan::study {

namespace fs = std::filesystem;

std::optional<ScenarioText> read_scenario_text(const std::string& path,
                                               std::vector<std::string> overrides,
                                               Diagnostics& diags) {
  std::error_code ec;
  std::ifstream in(path, std::ios::binary);
  if (!fs::is_regular_file(path, ec) || !in) {
    diags.add(Diagnostic{
        path,
        0,
        "",
        DiagCode::io_error,
        "cannot read the scenario file: " +
            std::string(fs::exists(path, ec) ? "it is not a readable file" : "no such file"),
        {}});
    return std::nullopt;
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  return ScenarioText{buf.str(), path, fs::path(path).parent_path().string(), std::move(overrides)};
}

std::optional<Scenario> load_variant(const ScenarioText& t, const std::vector<std::string>& extra,
                                     Diagnostics& diags) {
  LoadOptions lo;
  lo.overrides = t.overrides;
  lo.overrides.insert(lo.overrides.end(), extra.begin(), extra.end());
  auto sc = load_scenario_text(t.text, t.file, t.base_dir, lo, diags);
  return diags.ok() ? sc : std::nullopt;
}

}  // namespace gpuplan::study
