#pragma once
//! The one reader of calendar timestamps in input files: job traces (models/trace/) and token
//! traces (models/perf/inference/token_trace.h).
#include <optional>
#include <string_view>

namespace gpuplan {

//! Seconds since 1970-01-01 00:00:00 UTC of "YYYY-MM-DD HH:MM:SS" (a 'T' separator, fractional
//! seconds and a trailing 'Z' are accepted); nullopt when malformed or not a calendar date.
[[nodiscard]] std::optional<double> parse_datetime(std::string_view text);

}  // namespace gpuplan
