//! libFuzzer harness: the quote request reader (JSONC parse and validation) on arbitrary bytes.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/quote/quote.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuplan::Diagnostics diags;
  (void)gpuplan::quote::parse_request_text(
      std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json", diags);
  (void)diags.to_text();
  (void)diags.to_json();
  return 0;
}
