#include "reports/compare_json.h"

#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"
#include "reports/json_read.h"
#include "reports/result_json.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

json side_json(const Scenario& sc, const study::Summary& s, const char* dir) {
  return {{"scenario", sc.name},
          {"file", sc.file},
          {"dir", dir},
          {"replications", s.info.replications},
          {"saturated_replications", s.stats.n_saturated}};
}

}  // namespace

json compare_json(const Scenario& a, const Scenario& b, const study::Comparison& c) {
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
  return {{"gpuplan_version", GPUPLAN_VERSION},
          {"generated_at", utc_now_iso8601()},
          {"seed", a.seed},
          {"replications", c.a.info.replications},
          {"common_random_numbers", true},
          {"method",
           "paired differences B - A, replica k of both sides sharing its random "
           "numbers; 95% CI: Student t on the per-replication differences"},
          {"a", side_json(a, c.a, "a")},
          {"b", side_json(b, c.b, "b")},
          {"paired_replications", c.paired.size()},
          {"differences", diffs},
          {"warnings", warnings}};
}

std::string render_compare_html(const json& doc) {
  return render_page(assets::page_html(), assets::style_css(),
                     join_scripts({assets::common_js(), assets::compare_js()}),
                     doc.is_object() ? doc : json::object(), "comparison");
}

}  // namespace gpuplan::reports
