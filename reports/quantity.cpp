#include "reports/quantity.h"

#include <cmath>

#include "reports/format.h"

namespace gpuplan::reports {
namespace {

bool has(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Whether one dot-separated segment of `path` is `name` or ends in `suffix`.
bool any_segment(std::string_view path, std::string_view suffix) {
  while (!path.empty()) {
    const std::size_t dot = path.find('.');
    const std::string_view seg = path.substr(0, dot);
    if (seg.size() >= suffix.size() && seg.substr(seg.size() - suffix.size()) == suffix)
      return true;
    if (dot == std::string_view::npos) break;
    path.remove_prefix(dot + 1);
  }
  return false;
}

}  // namespace

Quantity quantity_of(std::string_view path) {
  const std::size_t dot = path.rfind('.');
  const std::string_view leaf = dot == std::string_view::npos ? path : path.substr(dot + 1);
  // NOTE: "…_per_usd_…" is something per dollar (TFLOPS per $·h), not money.
  if (has(path, "cost_usd") || (has(leaf, "usd") && !has(leaf, "per_usd"))) return Quantity::money;
  if (has(leaf, "utilization") || has(leaf, "share") || leaf.substr(0, 2) == "p_")
    return Quantity::fraction;
  if (leaf.substr(0, 5) == "jobs_" || leaf == "gpus" || leaf == "nodes") return Quantity::count;
  if (any_segment(path, "_s")) return Quantity::seconds;
  return Quantity::plain;
}

std::string format_quantity(Quantity q, double value) {
  if (!std::isfinite(value)) return "n/a";
  switch (q) {
    case Quantity::money:
      return format_money(value);
    case Quantity::count:
      return format_count(value);
    case Quantity::seconds:
      return format_number(value, 1) + " s";
    case Quantity::fraction:
      // NOTE: format_number, not format_percent, so an overload reads "54,003.1%" like the
      // other figures.
      return format_number(100 * value, 1) + "%";
    case Quantity::plain:
      break;
  }
  return format_number(value, 2);
}

std::string format_change(Quantity q, double delta) {
  if (!std::isfinite(delta)) return "n/a";
  if (q == Quantity::fraction) {
    const std::string points = format_number(100 * delta, 1);
    return (points[0] == '-' ? "" : "+") + points + " pp";
  }
  const std::string text = format_quantity(q, delta);
  // NOTE: format_money and format_number already write the minus sign of a negative value.
  return text[0] == '-' ? text : "+" + text;
}

std::string format_with_ci(Quantity q, double mean, double low, double high) {
  return format_quantity(q, mean) + " [" + format_quantity(q, low) + ", " +
         format_quantity(q, high) + "]";
}

}  // namespace gpuplan::reports
