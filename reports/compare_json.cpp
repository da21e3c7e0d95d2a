#include "reports/compare_json.h"

#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"
#include "reports/json_read.h"
#include "reports/result_json.h"
#include "models/compile/overloaded.h"
#include "models/scenario/demand_profile.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

//! "A" or "B" beside its scenario's name where both sides share it: the side's own overrides, or
//! the letter when it has none ("lab (pools.0.count=12)").
std::string side_label(const CompareSide& side, const CompareSide& other, const char* letter) {
  if (side.sc.name != other.sc.name) return side.sc.name;
  std::string own;
  for (const std::string& o : side.own) own += (own.empty() ? "" : ", ") + o;
  return side.sc.name + " (" + (own.empty() ? std::string(letter) : own) + ")";
}

//! Why a side cannot keep up with its demand, or "" when it can: the load check's verdict
//! (CompiledScenario::cannot_keep_up).
std::string falls_behind(const CompiledScenario& cs) {
  if (!cs.cannot_keep_up()) return "";
  if (cs.reaches_capacity_s && !overloaded(cs.offered_load))
    return "its demand reaches capacity in month " +
           format_number(*cs.reaches_capacity_s / PROFILE_MONTH_S, 1);
  return "it is offered " + format_percent(cs.offered_load, 0) + " of its capacity";
}

json side_json(const CompareSide& side, const CompareSide& other, const study::Summary& s,
               const char* dir, const char* letter) {
  const std::string behind = falls_behind(side.cs);
  return {{"scenario", side.sc.name},
          {"label", side_label(side, other, letter)},
          {"file", side.sc.file},
          {"dir", dir},
          {"overrides", {{"shared", side.shared}, {"own", side.own}}},
          {"replications", s.info.replications},
          {"saturated_replications", s.stats.n_saturated},
          {"keeps_up", behind.empty()},
          {"falls_behind", behind.empty() ? json(nullptr) : json(behind)},
          {"warnings", s.warnings}};
}

}  // namespace

json compare_json(const CompareSide& a, const CompareSide& b, const study::Comparison& c) {
  json diffs = json::array();
  for (const study::Difference& d : c.differences) {
    diffs.push_back(
        {{"metric", d.path},
         {"a_mean", d.a_mean},
         {"b_mean", d.b_mean},
         {"difference",
          {{"mean", d.paired.mean},
           {"ci95_low", d.paired.ci95_low},
           {"ci95_high", d.paired.ci95_high},
           {"n", d.paired.n}}},
         {"unpaired", {{"ci95_low", d.unpaired.ci95_low}, {"ci95_high", d.unpaired.ci95_high}}},
         {"significant", d.significant}});
  }
  json warnings = json::array();
  for (const auto& [side, s] : {std::pair{"A", &c.a}, std::pair{"B", &c.b}}) {
    if (s->stats.n_saturated == 0) continue;
    warnings.push_back(std::string(side) + " cannot keep up in " +
                       std::to_string(s->stats.n_saturated) + " of " +
                       std::to_string(s->stats.n_replicas) +
                       " replications; differences are over the replications that kept up on "
                       "both sides.");
  }
  const std::string behind_a = falls_behind(a.cs), behind_b = falls_behind(b.cs);
  if (!behind_a.empty() || !behind_b.empty()) {
    const bool both = !behind_a.empty() && !behind_b.empty();
    std::string w =
        both
            ? "Neither side keeps up with its demand: A (" + behind_a + ") and B (" + behind_b + ")"
            : std::string(behind_a.empty() ? "B" : "A") + " does not keep up with its demand (" +
                  (behind_a.empty() ? behind_b : behind_a) + ")";
    warnings.push_back(w +
                       "; its waits grow without bound from then on, so the differences compare " +
                       (both ? "two fleets that both fall behind" : "a fleet that falls behind") +
                       " over this horizon, not a steady state.");
  }
  return {{"gpuplan_version", GPUPLAN_VERSION},
          {"generated_at", utc_now_iso8601()},
          {"seed", a.sc.seed},
          {"replications", c.a.info.replications},
          {"common_random_numbers", true},
          {"method",
           "paired differences B - A, replica k of both sides sharing its random "
           "numbers; 95% CI: Student t on the per-replication differences"},
          {"a", side_json(a, b, c.a, "a", "A")},
          {"b", side_json(b, a, c.b, "b", "B")},
          {"paired_replications", c.paired.size()},
          {"differences", diffs},
          {"warnings", warnings}};
}

std::string render_compare_html(const json& doc) {
  return render_page(assets::page_html(), assets::style_css(),
                     {assets::common_js(), assets::compare_js()},
                     doc.is_object() ? doc : json::object(), "comparison");
}

}  // namespace gpuplan::reports
