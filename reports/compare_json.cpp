#include "reports/compare_json.h"

#include "reports/format.h"
#include "reports/html_parts.h"
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

//! A number as the table shows it: raw, short, or "n/a".
std::string cell(const json& j, const char* key) {
  const auto v = finite_number(find_path(j, key));
  return v ? esc(format_raw(*v)) : std::string("n/a");
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
  const std::string title = "Compare: " + string_value(find_path(doc, "a.scenario")) + " vs " +
                            string_value(find_path(doc, "b.scenario"));
  std::string rows;
  for (const json& d : array_value(find_path(doc, "differences"))) {
    const bool sig = d.is_object() && d.value("significant", false);
    rows += "<tr><td>" + code(string_value(find_path(d, "metric"))) + "</td><td>" +
            cell(d, "a_mean") + "</td><td>" + cell(d, "b_mean") + "</td><td>" +
            cell(d, "difference.mean") + "</td><td>[" + cell(d, "difference.ci95_low") + ", " +
            cell(d, "difference.ci95_high") + "]</td><td>[" + cell(d, "unpaired.ci95_low") + ", " +
            cell(d, "unpaired.ci95_high") + "]</td><td>" +
            (sig ? pill("warn", "yes") : pill("info", "no")) + "</td></tr>\n";
  }
  std::string warnings;
  for (const json& w : array_value(find_path(doc, "warnings")))
    if (w.is_string()) warnings += "<li>" + esc(w.get<std::string>()) + "</li>";
  const auto n = finite_number(find_path(doc, "paired_replications"));
  const json* seed = find_path(doc, "seed");
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
         "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
         "'unsafe-inline'\">"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
         esc(title) +
         "</title><style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}"
         "table{border-collapse:collapse}td,th{border-bottom:1px solid #ddd;padding:.3em .8em;"
         "text-align:right}td:first-child,th:first-child{text-align:left}"
         ".pill{border-radius:1em;padding:0 "
         ".6em}.pill-warn{background:#fde2b8}.pill-info{background:#e4ecf7}"
         "</style></head><body><h1>" +
         esc(title) + "</h1><p>B &minus; A per metric over " +
         (n ? plural(*n, "paired replication", "paired replications") : std::string("n/a")) +
         " with common random numbers (seed " + esc(seed != nullptr ? seed->dump() : "n/a") +
         "): replica k of both scenarios draws the same arrivals, sizes and durations, so the "
         "difference is the configuration's. Significant: the paired 95% CI excludes 0.</p>" +
         (warnings.empty() ? std::string() : "<ul>" + warnings + "</ul>") +
         "<table><thead><tr><th>metric</th><th>A mean</th><th>B mean</th><th>B &minus; A</th>"
         "<th>95% CI (paired)</th><th>95% CI (unpaired)</th><th>significant</th></tr></thead>"
         "<tbody>\n" +
         rows +
         "</tbody></table><p>compare.json holds every figure; a/ and b/ hold each "
         "scenario's own Monte Carlo result.</p></body></html>\n";
}

}  // namespace gpuplan::reports
