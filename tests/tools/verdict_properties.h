#pragma once
//! Properties every verdict of a result.json must satisfy, whatever the scenario: the assessment
//! never contradicts the load check or the saturation flag beside it (docs/outputs.md, "Summary").
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "reports/assessment.h"

namespace gpuplan_cli_test {

//! Every paragraph of a list of rich-text sentences, joined by newlines.
inline std::string paragraphs_of(const nlohmann::json& list) {
  std::string out;
  if (list.is_array())
    for (const nlohmann::json& p : list) out += gpuplan::reports::plain_text(p) + "\n";
  return out;
}

//! The properties `r` breaks, one sentence each; empty when it keeps them all.
inline std::vector<std::string> verdict_violations(const nlohmann::json& r) {
  using nlohmann::json;
  std::vector<std::string> out;
  const json& m = r.value("metrics", json::object());
  const json& a = r.value("assessment", json::object());
  const json sat = m.value("saturated", json());
  const bool saturated =
      sat.is_boolean() ? sat.get<bool>() : sat.is_number() && sat.get<double>() > 0;
  const bool demand_past_capacity =
      m.value("offered_load", 0.0) >= 1.0 || m.value("reaches_capacity_month", json()).is_number();
  const std::string verdict = a.value("sizing", json::object()).value("verdict", "");
  const std::string sizing =
      gpuplan::reports::plain_text(a.value("sizing", json::object()).value("text", json()));
  const std::string changes = paragraphs_of(a.value("changes", json::array()));
  // One definition of saturation: the load check, the result's flag and the banner agree.
  if (demand_past_capacity && !saturated)
    out.push_back("the demand reaches capacity but metrics.saturated is false");
  if (a.value("saturated", false) != saturated)
    out.push_back("assessment.saturated differs from metrics.saturated");
  if (saturated != a.value("banner", json()).is_object())
    out.push_back("the cannot-keep-up banner does not follow metrics.saturated");
  if (saturated && verdict != "cannot_keep_up")
    out.push_back("a run that cannot keep up is judged '" + verdict + "'");
  // No "not capacity" while the demand passes capacity.
  if (demand_past_capacity &&
      (sizing.find("rather than from total capacity") != std::string::npos ||
       changes.find("helps less here than placing jobs") != std::string::npos))
    out.push_back("'not capacity' while the demand passes capacity");
  // No "add GPUs" for one job at a time.
  const double gang = m.value("smallest_job_gpus", 0.0);
  const double gpus = m.value("provisioned_gpus", json::object()).value("max", 0.0);
  if (gang > 0 && 2 * gang > gpus && !saturated && changes.find("Add about") != std::string::npos)
    out.push_back("'add GPUs' for a workload that runs one job at a time");
  // No cheapest option from a fleet that cannot keep up without its caveat.
  if (r.contains("tco") && r["tco"].value("cheapest_by_npv", json()).is_string() && saturated) {
    if (!r["tco"].contains("caveat"))
      out.push_back("a cheapest TCO option of a saturated run without tco.caveat");
    const std::string cheapest = gpuplan::reports::plain_text(
        a.value("cheapest_option", json::object()).value("text", json()));
    if (cheapest.find("Caveat:") == std::string::npos)
      out.push_back("the report's cheapest option of a saturated run shows no caveat");
  }
  // TCO options: one meaning of "serves the demand" for the projection, the simulation and the
  // choice of the cheapest.
  if (r.contains("tco") && r["tco"].contains("options")) {
    const json& options = r["tco"]["options"];
    bool any_serves = false;
    for (const auto& [name, o] : options.items()) {
      const bool serves = o.value("serves_demand", false);
      any_serves = any_serves || serves;
      if (serves && o.value("stops_keeping_up_month", json()).is_number())
        out.push_back("TCO option " + name + " serves the demand yet stops keeping up");
      const json sim = o.value("simulation", json::object());
      if (serves && sim.value("stops_keeping_up_month", json()).is_number())
        out.push_back("TCO option " + name + " serves the demand yet runs out in the simulation");
    }
    const json cheapest = r["tco"].value("cheapest_by_npv", json());
    if (any_serves && cheapest.is_string() &&
        !options.value(cheapest.get<std::string>(), json::object()).value("serves_demand", false))
      out.push_back("the cheapest TCO option " + cheapest.get<std::string>() +
                    " does not serve the demand while another does");
  }
  return out;
}

}  // namespace gpuplan_cli_test
