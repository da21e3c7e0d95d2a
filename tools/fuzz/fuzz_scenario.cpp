//! libFuzzer harness: the scenario loader (JSONC parse, every field reader, trace references,
//! topology checks) on arbitrary bytes; it must end in a Scenario or diagnostics, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/load/load.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuplan::Diagnostics diags;
  gpuplan::LoadOptions opts;
  // NOTE: relative trace paths resolve in a folder that does not exist, so a mutated scenario
  // reads no files of the machine (absolute paths still go through the input-file checks).
  (void)gpuplan::load_scenario_text(std::string_view(reinterpret_cast<const char*>(data), size),
                                    "fuzz.json", "/nonexistent-gpuplan-fuzz", opts, diags);
  (void)diags.to_text();
  (void)diags.to_json();
  return 0;
}
