#pragma once
//! Token lengths as a request or a serving scenario gives them: a count (`512`), or an object with
//! one distribution of counts (`{"lognormal": {"median": 1000, "p90": 3000}}`, `fixed`,
//! `uniform` {low, high}, `exponential` {mean}); docs/quote.md and docs/serving-simulation.md.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "models/input/diagnostic.h"
#include "models/input/field_reader.h"
#include "models/perf/inference/length_distribution.h"

namespace gpuplan {

//! The length at `ptr`, each count in [lo, hi]; nullopt with the problem recorded in `d`.
[[nodiscard]] std::optional<inference::LengthDistribution> read_length_distribution(
    FieldReader& r, Diagnostics& d, const nlohmann::json& v, const std::string& ptr, double lo,
    double hi);

}  // namespace gpuplan
