#pragma once
//! One name table per closed set of the scenario, used in both directions: parse_enum<E>() when
//! loading, enum_name() in the echo and in reports. A table lists the names in enumerator order.
#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/economics/billing.h"
#include "models/economics/spot.h"
#include "models/economics/tco.h"
#include "models/input/plan_enums.h"

namespace gpuplan {

//! The name table of a closed set: `what` names the set in messages ("unknown <what> ..."),
//! `names[i]` is the scenario's word for enumerator i. GPUPLAN_ENUM_NAMES(E, what, names...)
//! declares one; the engine's sets are in models/input/engine_names.h.
template <class E>
struct EnumTraits;

#define GPUPLAN_ENUM_NAMES(E, WHAT, ...)                       \
  template <>                                                  \
  struct EnumTraits<E> {                                       \
    static constexpr std::string_view what = WHAT;             \
    static constexpr std::string_view names[] = {__VA_ARGS__}; \
  }

GPUPLAN_ENUM_NAMES(Pricing, "pricing", "on_demand", "reserved_1y", "reserved_3y", "spot",
                   "on_prem");
GPUPLAN_ENUM_NAMES(Upfront, "upfront option", "none", "partial", "all");
GPUPLAN_ENUM_NAMES(TimeFormat, "time format", "seconds", "datetime");
GPUPLAN_ENUM_NAMES(TopologyKind, "topology kind", "none", "single_switch", "two_level_tree",
                   "leaf_spine", "fat_tree", "rail_optimized", "tree_ring_hybrid", "custom");
GPUPLAN_ENUM_NAMES(CustomVertexKind, "vertex kind", "host", "switch", "node_switch", "controller");
GPUPLAN_ENUM_NAMES(TcoOption, "TCO option", "cloud", "on_prem", "hybrid", "keep", "buy", "staged",
                   "reserve_1y", "reserve_3y", "burst");
GPUPLAN_ENUM_NAMES(SloPeriod, "SLO period", "over_window", "every_month");
GPUPLAN_ENUM_NAMES(FallbackTarget, "fallback target", "on_demand");
GPUPLAN_ENUM_NAMES(Precision, "precision", "fp32", "tf32", "bf16", "fp8", "fp16");
GPUPLAN_ENUM_NAMES(economics::BillingGranularity, "billing granularity", "second", "hour",
                   "millisecond");
GPUPLAN_ENUM_NAMES(economics::SpotAdvisorBand, "Spot Advisor band", "<5%", "5-10%", "10-15%",
                   "15-20%", ">20%");
GPUPLAN_ENUM_NAMES(economics::CostBasis, "cost basis", "cash", "accrual");
GPUPLAN_ENUM_NAMES(economics::SpotProvider, "spot provider", "aws", "gcp", "azure");

//! Number of enumerators of E.
template <class E>
inline constexpr size_t enum_count = std::size(EnumTraits<E>::names);

//! The scenario's word for `e`.
template <class E>
[[nodiscard]] constexpr std::string_view enum_name(E e) {
  return EnumTraits<E>::names[static_cast<size_t>(e)];
}

//! Every name of E in enumerator order (for messages and "did you mean").
template <class E>
[[nodiscard]] const std::vector<std::string>& enum_names() {
  static const std::vector<std::string> names(std::begin(EnumTraits<E>::names),
                                              std::end(EnumTraits<E>::names));
  return names;
}

//! The enumerator named `name` (exact spelling), or nullopt.
template <class E>
[[nodiscard]] constexpr std::optional<E> parse_enum(std::string_view name) {
  const auto& names = EnumTraits<E>::names;
  const auto it = std::find(std::begin(names), std::end(names), name);
  if (it == std::end(names)) return std::nullopt;
  return static_cast<E>(it - std::begin(names));
}

}  // namespace gpuplan
