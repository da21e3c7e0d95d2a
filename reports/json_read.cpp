#include "reports/json_read.h"

#include <cmath>

namespace gpuplan::reports {

using nlohmann::json;

const json* member(const json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? nullptr : &*it;
}

const json* find_path(const json& j, std::string_view dotted) {
  const json* at = &j;
  while (at != nullptr && !dotted.empty()) {
    const std::size_t dot = dotted.find('.');
    at = member(*at, dotted.substr(0, dot));
    dotted = dot == std::string_view::npos ? std::string_view{} : dotted.substr(dot + 1);
  }
  return at;
}

std::optional<double> finite_number(const json* v) {
  if (v == nullptr || !v->is_number()) return std::nullopt;
  const double d = v->get<double>();
  return std::isfinite(d) ? std::optional<double>(d) : std::nullopt;
}

std::optional<double> number_at(const json& j, std::string_view dotted) {
  return finite_number(find_path(j, dotted));
}

std::string string_value(const json* v) {
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string{};
}

const json& array_value(const json* v) {
  static const json EMPTY = json::array();
  return v != nullptr && v->is_array() ? *v : EMPTY;
}

}  // namespace gpuplan::reports
