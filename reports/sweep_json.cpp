#include "reports/sweep_json.h"

#include "reports/assessment.h"

#include "reports/csv.h"
#include "reports/format.h"
#include "reports/result_json.h"

namespace gpuplan::reports {
namespace {

using nlohmann::json;

//! The figures of a point that sweep.csv / sweep.json list: mean and 95% CI.
const char* const SWEEP_METRICS[][2] = {{"metrics.wait_s.mean", "wait_mean_s"},
                                        {"metrics.wait_s.p90", "wait_p90_s"},
                                        {"metrics.jct_s.mean", "jct_mean_s"},
                                        {"metrics.gpu_utilization", "gpu_utilization"},
                                        {"metrics.useful_utilization", "useful_utilization"},
                                        {"cost_usd.total", "cost_usd_total"},
                                        {"cost_usd.per_gpu_hour", "cost_usd_per_gpu_hour"}};

//! A point's figure: a metric's statistics, or "metrics.useful_utilization" (useful ÷ provisioned
//! GPU-hours, study::useful_utilization), which no replica row holds.
MetricSummary figure(const study::Summary& s, const std::string& path) {
  return path == "metrics.useful_utilization" ? study::useful_utilization(s) : s.stats.at(path);
}

//! A --vary value as --set parses it: JSON when it parses, else a string.
json value_json(const std::string& text) {
  json v = json::parse(text, nullptr, false);
  return v.is_discarded() ? json(text) : v;
}

double saturated_share(const study::Summary& s) {
  return s.stats.n_replicas ? double(s.stats.n_saturated) / s.stats.n_replicas : 0.0;
}

}  // namespace

json sweep_json(const SweepRequest& req, const std::vector<SweepAxis>& axes,
                const std::vector<std::vector<std::size_t>>& grid, const study::Sweep& sweep) {
  json points = json::array(), wait_idx = json::array(), util_idx = json::array();
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const study::SweepPoint& p = sweep.points[i];
    json values = json::object(), figures = json::object();
    for (std::size_t a = 0; a < axes.size(); ++a)
      values[axes[a].path] = value_json(axes[a].values[grid[i][a]]);
    for (const auto& [path, column] : SWEEP_METRICS) {
      const MetricSummary m = figure(p.summary, path);
      figures[path] = {{"mean", m.mean}, {"ci95_low", m.ci95_low}, {"ci95_high", m.ci95_high}};
    }
    points.push_back({{"point", i},
                      {"dir", "point-" + std::to_string(i)},
                      {"values", values},
                      {"replications", p.summary.info.replications},
                      {"saturated_share", saturated_share(p.summary)},
                      {"saturation_cause", p.summary.stats.saturation_cause},
                      {"offered_load", p.offered_load},
                      {"gpus", p.gpus},
                      {"window_s", p.window_s},
                      {"summary", figures},
                      {"pareto",
                       {{"cost_vs_wait_p90", p.front_cost_wait},
                        {"cost_vs_useful_work", p.front_cost_useful_work}}}});
    if (p.front_cost_wait) wait_idx.push_back(i);
    if (p.front_cost_useful_work) util_idx.push_back(i);
  }
  json axes_json = json::array();
  for (const SweepAxis& a : axes) {
    json vals = json::array();
    for (const auto& v : a.values) vals.push_back(value_json(v));
    axes_json.push_back({{"path", a.path}, {"values", vals}});
  }
  json doc = {
      {"scenario", req.scenario},
      {"gpuplan_version", GPUPLAN_VERSION},
      {"generated_at", utc_now_iso8601()},
      {"command", req.command},
      {"seed", req.seed},
      {"replications", req.replications},
      {"common_random_numbers", true},
      {"target", req.wait_p90_target_s ? json::object({{"wait_p90_s", *req.wait_p90_target_s}})
                                       : json(nullptr)},
      {"vary", axes_json},
      {"points", points},
      {"pareto", {{"cost_vs_wait_p90", wait_idx}, {"cost_vs_useful_work", util_idx}}}};
  doc["assessment"] = reports::assess_sweep(doc);  // the verdicts sweep.html shows
  return doc;
}

void write_sweep_csv(const std::vector<SweepAxis>& axes,
                     const std::vector<std::vector<std::size_t>>& grid, const study::Sweep& sweep,
                     std::ostream& csv) {
  csv << "point";
  for (const SweepAxis& a : axes) csv << ',' << csv_text_field(a.path);
  csv << ",replications,saturated_share";
  for (const auto& [path, column] : SWEEP_METRICS)
    csv << ',' << column << ',' << column << "_ci95_low," << column << "_ci95_high";
  csv << ",pareto_cost_wait_p90,pareto_cost_useful_work\n";
  for (std::size_t i = 0; i < sweep.points.size(); ++i) {
    const study::SweepPoint& p = sweep.points[i];
    csv << i;
    for (std::size_t a = 0; a < axes.size(); ++a)
      csv << ',' << csv_text_field(axes[a].values[grid[i][a]]);
    csv << ',' << p.summary.info.replications << ',' << format_raw(saturated_share(p.summary));
    for (const auto& [path, column] : SWEEP_METRICS) {
      const MetricSummary m = figure(p.summary, path);
      for (const double v : {m.mean, m.ci95_low, m.ci95_high}) csv << ',' << format_raw(v);
    }
    csv << ',' << (p.front_cost_wait ? "true" : "false") << ','
        << (p.front_cost_useful_work ? "true" : "false") << '\n';
  }
}

}  // namespace gpuplan::reports
