#pragma once
//! `--set PATH=VALUE` on a parsed scenario document (also what each `sweep --vary` point applies):
//! PATH is keys and array indices joined by '.', where `*` matches every element of an array (or
//! member of an object); VALUE is JSON when it parses, else a string, and `x<number>` (e.g. `x0.9`)
//! multiplies the value already there (a number, or a string that starts with one, such as
//! "12/h" or "30m", whose unit is kept).
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/input/diagnostic.h"

namespace gpuplan {

//! The factor of a multiplier value `x<number>` (finite, >= 0), or nullopt for any other value.
[[nodiscard]] std::optional<double> override_multiplier(std::string_view value);

//! `v` multiplied by `factor`: a number, or a string whose leading number (after an optional "$")
//! is scaled and its rest kept; nullopt when `v` is neither.
[[nodiscard]] std::optional<nlohmann::json> scaled_value(const nlohmann::json& v, double factor);

//! Applies one `PATH=VALUE` to `root`; records bad_override (with the pointer reached) where it
//! cannot, and the load then fails.
void apply_override(nlohmann::json& root, const std::string& spec, Diagnostics& d);

}  // namespace gpuplan
