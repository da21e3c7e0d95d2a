//! libFuzzer harness: the CLI's `--set PATH=VALUE` parser. Each input line is one --set applied
//! to a small valid scenario, which is then loaded as `gpuplan run --set ...` would.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "models/load/load.h"

namespace {

// A small complete scenario (scenarios/quickstart.json without comments).
constexpr std::string_view BASE = R"({
  "name": "fuzz", "seed": 42, "horizon": "30d", "warmup": "2d",
  "pools": [{"name": "a100", "instance": "p4d.24xlarge", "count": 8, "pricing": "on_demand"}],
  "workload": [{"name": "training", "arrival": {"poisson": {"rate": "6.5/h"}},
                "gpus": {"choice": {"1": 0.7, "2": 0.1, "4": 0.15, "8": 0.05}},
                "duration": {"lognormal": {"median": "19m", "p90": "5.4h"}}}],
  "scheduler": {"queue": "fifo", "placement": "best_fit"}
})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuplan::LoadOptions opts;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  for (size_t b = 0; b <= in.size();) {
    const size_t e = std::min(in.find('\n', b), in.size());
    opts.overrides.emplace_back(in.substr(b, e - b));
    b = e + 1;
  }
  gpuplan::Diagnostics diags;
  (void)gpuplan::load_scenario_text(BASE, "fuzz.json", "/nonexistent-gpuplan-fuzz", opts, diags);
  (void)diags.to_text();
  (void)diags.to_json();
  return 0;
}
