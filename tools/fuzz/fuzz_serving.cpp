//! libFuzzer harness: the serving-scenario loader (`gpuplan serve-sim`: JSONC parse, every field
//! reader, the catalog's models, GPUs and prices, the replica's memory and KV cache checks) on
//! arbitrary bytes; it must end in a ServingScenario or diagnostics, never a crash.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/load/serving_scenario.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuplan::Diagnostics diags;
  // NOTE: traces resolve in a folder that does not exist and on no data path, so a mutated
  // scenario reads no files of the machine (absolute paths still go through the input checks).
  (void)gpuplan::load_serving_scenario(std::string_view(reinterpret_cast<const char*>(data), size),
                                       "fuzz.json", "/nonexistent-gpuplan-fuzz", {}, diags);
  (void)diags.to_text();
  (void)diags.to_json();
  return 0;
}
