#pragma once
//! Reading a result document defensively, as the HTML renderers do (they never throw on a malformed
//! result): a missing key or a value of the wrong type reads as absent.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace gpuplan::reports {

//! j[key] with the key taken whole (summary keys contain dots); null when absent or j is no object.
[[nodiscard]] const nlohmann::json* member(const nlohmann::json& j, std::string_view key);

//! The value at a dotted path ("metrics.wait_s.mean"); null when any step is absent.
[[nodiscard]] const nlohmann::json* find_path(const nlohmann::json& j, std::string_view dotted);

//! *v when it is a finite number, else nullopt (also for a null v).
[[nodiscard]] std::optional<double> finite_number(const nlohmann::json* v);

//! The finite number at a dotted path, else nullopt.
[[nodiscard]] std::optional<double> number_at(const nlohmann::json& j, std::string_view dotted);

//! *v when it is a string, else "".
[[nodiscard]] std::string string_value(const nlohmann::json* v);

//! *v when it is an array, else an empty array.
[[nodiscard]] const nlohmann::json& array_value(const nlohmann::json* v);

}  // namespace gpuplan::reports
