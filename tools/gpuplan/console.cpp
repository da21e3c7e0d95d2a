#include "tools/gpuplan/console.h"

#include <iostream>

#include "reports/assessment.h"
#include "reports/format.h"
#include "reports/quantity.h"
#include "study/load_check.h"

namespace gpuplan::cli {

using nlohmann::json;

std::string saturation_notice(const json& result) {
  if (!result.is_object()) return "";
  const json* assessment = result.contains("assessment") ? &result["assessment"] : nullptr;
  if (assessment == nullptr || !assessment->is_object() || !assessment->value("saturated", false))
    return "";
  std::string why;
  const json* metrics = result.contains("metrics") ? &result["metrics"] : nullptr;
  if (metrics != nullptr && metrics->is_object()) {
    const json& offered = metrics->contains("offered_load") ? (*metrics)["offered_load"] : json();
    const json& month =
        metrics->contains("reaches_capacity_month") ? (*metrics)["reaches_capacity_month"] : json();
    if (offered.is_number() && offered.get<double>() >= 1) {
      why = "offered load " +
            reports::format_quantity(reports::Quantity::fraction, offered.get<double>()) +
            " of capacity";
    } else if (month.is_number()) {
      why =
          "the demand reaches capacity in month " + reports::format_number(month.get<double>(), 1);
    }
    // NOTE: metrics.saturated also holds when the demand alone says so; the engine's own flag
    // (the share of replications it stopped) is the summary's metrics.saturated.
    const double runs = result.value("replications", 1.0);
    const double share = result.value("/summary/metrics.saturated/mean"_json_pointer, 0.0);
    if (share > 0) {
      why += (why.empty() ? "" : "; ") +
             (runs > 1 ? reports::format_quantity(reports::Quantity::count, share * runs) + " of " +
                             reports::format_quantity(reports::Quantity::count, runs) +
                             " replications stopped early"
                       : std::string("the run stopped early"));
    }
  }
  return "SATURATED: this configuration cannot keep up" + (why.empty() ? "" : " (" + why + ")") +
         ", so its waits are not meaningful";
}

std::size_t print_load_warnings(const Scenario& sc) {
  const std::vector<std::string> w = study::load_warnings(sc);
  for (const std::string& line : w) std::cerr << sc.name << ": warning: " << line << "\n";
  return w.size();
}

std::string tco_notice(const json& result) {
  if (!result.is_object() || !result.contains("assessment")) return "";
  const json& a = result["assessment"];
  if (!a.is_object() || !a.contains("cheapest_option") || !a["cheapest_option"].is_object())
    return "";
  const json& option = a["cheapest_option"];
  const std::string text = option.contains("text") ? reports::plain_text(option["text"]) : "";
  return text.empty() ? "" : "TCO: " + text;
}

std::vector<std::string> section_notices(const json& result) {
  std::vector<std::string> out;
  if (!result.is_object() || !result.contains("assessment") || !result["assessment"].is_object())
    return out;
  const json& a = result["assessment"];
  for (const auto& [key, label] : {std::pair{"failures", "failures"}, {"sharing", "shared GPUs"}}) {
    if (!a.contains(key) || !a[key].is_object() || !a[key].contains("items") ||
        !a[key]["items"].is_array())
      continue;
    std::string line = std::string(label) + ":";
    for (const json& item : a[key]["items"]) line += " " + reports::plain_text(item);
    out.push_back(line);
  }
  return out;
}

}  // namespace gpuplan::cli
