#pragma once
//! Helpers shared by the price-file readers (models/price_import_*.cpp); internal to models/.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "models/economics/billing.h"

namespace gpuplan::price_import {

using json = nlohmann::json;

//! Hours in one year of a reservation term [h] (providers amortise over 365-day years).
using economics::HOURS_PER_YEAR;

//! Member `key` of `o` as a string; "" when `o` is not an object or the member is absent or not
//! a string.
[[nodiscard]] inline std::string text(const json& o, const char* key) {
  if (!o.is_object()) return {};
  const auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

//! Member `key` of `o` when it is an object or array, else nullptr.
[[nodiscard]] inline const json* member(const json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  const auto it = o.find(key);
  return it != o.end() && (it->is_object() || it->is_array()) ? &*it : nullptr;
}

//! A price written as a decimal number ("55.0400000000", the whole of `s`); nullopt when it is
//! not one, negative or not finite.
[[nodiscard]] std::optional<double> price_text(std::string_view s);

//! A price written as a JSON number or a decimal string (price_text); nullopt when it is neither,
//! negative or not finite.
[[nodiscard]] std::optional<double> price_value(const json& v);

//! The date part "YYYY-MM-DD" of an ISO 8601 time ("2025-06-01T00:00:00Z"); "" when `t` does
//! not start with one.
[[nodiscard]] std::string date_part(std::string_view t);

//! `s` without leading and trailing blanks (spaces, tabs, carriage returns).
[[nodiscard]] std::string_view trim(std::string_view s);

//! Whether `s` contains `part`, ignoring ASCII case.
[[nodiscard]] bool contains_nocase(std::string_view s, std::string_view part);

}  // namespace gpuplan::price_import
