#include "study/scenario_text.h"

#include <filesystem>

#include "models/load/load.h"

namespace gpuplan::study {

namespace fs = std::filesystem;

std::optional<ScenarioText> read_scenario_text(const std::string& path,
                                               std::vector<std::string> overrides,
                                               Diagnostics& diags) {
  auto text = read_scenario_file(path, diags);
  if (!text) return std::nullopt;
  return ScenarioText{std::move(*text), path, fs::path(path).parent_path().string(),
                      std::move(overrides)};
}

std::optional<Scenario> load_variant(const ScenarioText& t, const std::vector<PoolPin>& pins,
                                     Diagnostics& diags, bool empty_pools) {
  LoadOptions lo;
  lo.empty_pools = empty_pools;
  lo.overrides = t.overrides;
  lo.data_path = t.data_path;
  lo.pool_pins = pins;
  auto sc = load_scenario_text(t.text, t.file, t.base_dir, lo, diags);
  return diags.ok() ? sc : std::nullopt;
}

}  // namespace gpuplan::study
