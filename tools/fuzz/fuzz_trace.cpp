//! libFuzzer harness: the CSV trace reader on arbitrary bytes. The first byte picks the time
//! format, rebasing and a row limit, so both numeric and datetime paths are exercised.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "models/trace/trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuplan::TraceFormat fmt;
  fmt.path = "fuzz.csv";
  if (size > 0) {
    const uint8_t mode = data[0];
    fmt.time_format = (mode & 1) ? gpuplan::TimeFormat::datetime : gpuplan::TimeFormat::seconds;
    fmt.rebase = (mode & 2) == 0;
    fmt.time_scale = (mode & 4) ? 60.0 : 1.0;
    if (mode & 8) fmt.limit = mode >> 4;
    ++data;
    --size;
  }
  gpuplan::Diagnostics diags;
  (void)gpuplan::parse_trace(std::string_view(reinterpret_cast<const char*>(data), size), fmt,
                             "fuzz.csv", "/workload/0/trace", diags);
  (void)diags.to_text();
  (void)diags.to_json();
  return 0;
}
