#include "reports/mc_result.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "models/scenario_echo.h"
#include "reports/csv.h"
#include "reports/economics_json.h"
#include "reports/network_json.h"
#include "reports/format.h"
#include "reports/result_json.h"
#include "sim/core/stats.h"
#include "sim/mc_metrics.h"

namespace gpuplan {
namespace {

using nlohmann::json;

double mean_of(const McSummary& s, const std::string& path) {
  return s.at(path).mean;
}

json duration_means(const McSummary& s, const std::string& prefix) {
  return {{"mean", mean_of(s, prefix + ".mean")},
          {"p50", mean_of(s, prefix + ".p50")},
          {"p90", mean_of(s, prefix + ".p90")},
          {"p99", mean_of(s, prefix + ".p99")}};
}

//! Empirical CDF of a pooled histogram at the bin edges that hold mass (as in single runs).
json cdf_json(const uint64_t* h) {
  uint64_t n = 0;
  for (uint32_t b = 0; b < HIST_BINS; ++b) n += h[b];
  json x = json::array(), p = json::array();
  uint64_t cum = 0;
  for (uint32_t b = 0; b < HIST_BINS && n > 0; ++b) {
    if (h[b] == 0) continue;
    cum += h[b];
    x.push_back(b == 0 ? 0.0 : hist_lower(b + 1));
    p.push_back(double(cum) / double(n));
  }
  return {{"x_s", x}, {"p", p}};
}

json band_json(const Band& b) {
  return {{"p10", b.p10}, {"p50", b.p50}, {"p90", b.p90}};
}

json summary_json(const McSummary& s) {
  json out = json::object();
  for (std::size_t i = 0; i < s.paths.size(); ++i) {
    const MetricSummary& m = s.stats[i];
    out[s.paths[i]] = {{"mean", m.mean}, {"ci95_low", m.ci95_low}, {"ci95_high", m.ci95_high},
                       {"p05", m.p05},   {"p50", m.p50},           {"p95", m.p95},
                       {"n", m.n}};
  }
  return out;
}

//! Element-wise mean of documents of one shape: numbers averaged (kept as they are when all equal),
//! arrays and objects member by member, anything else (strings, nulls) taken from the first.
json mean_document(const std::vector<json>& docs) {
  const json& first = docs.front();
  if (first.is_number()) {
    // NOTE: a figure every replication shares (months, a fixed fleet) keeps its exact value.
    if (std::all_of(docs.begin(), docs.end(), [&](const json& d) { return d == first; }))
      return first;
    double sum = 0;
    for (const json& d : docs) sum += d.is_number() ? d.get<double>() : 0.0;
    return sum / double(docs.size());
  }
  // NOTE: where the shapes differ no mean is meaningful, and the first document stands.
  if (first.is_array()) {
    json out = json::array();
    for (std::size_t i = 0; i < first.size(); ++i) {
      std::vector<json> parts;
      for (const json& d : docs) {
        if (!d.is_array() || d.size() != first.size()) return first;
        parts.push_back(d[i]);
      }
      out.push_back(mean_document(parts));
    }
    return out;
  }
  if (first.is_object()) {
    json out = json::object();
    for (const auto& [key, value] : first.items()) {
      std::vector<json> parts;
      for (const json& d : docs) {
        if (!d.is_object() || !d.contains(key)) return first;
        parts.push_back(d[key]);
      }
      out[key] = mean_document(parts);
    }
    return out;
  }
  return first;
}

//! The TCO projection across replications (docs/outputs.md): each replication's measured demand
//! gives its own projection. Figures are means, with a p10/p50/p90 band per month on cumulative
//! cost; break-even is the median month over replications (null when half or more never break
//! even); NPV and total cost per option also go into `summary` with their 95% CI.
json mc_tco_json(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                 const McSummary& s, json& summary) {
  std::vector<json> docs;
  for (const std::size_t k : s.in_statistics) {
    const ReplicaMetrics& m = st.replicas[k].metrics;
    std::vector<double> busy;
    for (const PoolMetrics& p : m.pools) busy.push_back(p.busy_gpu_s);
    docs.push_back(tco_json(sc, cs, m.gpu_hours, busy));
  }
  if (docs.empty()) return nullptr;
  json out = mean_document(docs);
  if (!out.contains("options")) return out;
  std::string cheapest;
  double cheapest_npv = 0;
  for (auto& [name, option] : out["options"].items()) {
    std::vector<std::vector<double>> cum;
    std::vector<double> npv, total;
    for (const json& d : docs) {
      const json& o = d["options"][name];
      cum.push_back(o["cumulative_usd"].get<std::vector<double>>());
      npv.push_back(o["npv_usd"].get<double>());
      total.push_back(o["total_usd"].get<double>());
    }
    std::vector<std::span<const double>> rows(cum.begin(), cum.end());
    const Band band = percentile_band(rows, cum.front().size());
    option["cumulative_usd_band"] = {{"p10", band.p10}, {"p50", band.p50}, {"p90", band.p90}};
    for (const auto& [key, values] : {std::pair{"npv_usd", &npv}, std::pair{"total_usd", &total}}) {
      const MetricSummary m = summarize(*values);
      summary["tco.options." + name + "." + key] = {
          {"mean", m.mean}, {"ci95_low", m.ci95_low}, {"ci95_high", m.ci95_high},
          {"p05", m.p05},   {"p50", m.p50},           {"p95", m.p95},
          {"n", m.n}};
    }
    if (cheapest.empty() || option["npv_usd"].get<double>() < cheapest_npv) {
      cheapest = name;
      cheapest_npv = option["npv_usd"].get<double>();
    }
  }
  out["cheapest_by_npv"] = cheapest;
  if (out.contains("break_even_month")) {
    for (auto& [key, month] : out["break_even_month"].items()) {
      // NOTE: "never" sorts last, so the median is a month only when most replications break even.
      std::vector<double> months;
      for (const json& d : docs) {
        const json& m = d["break_even_month"][key];
        months.push_back(m.is_number() ? m.get<double>() : std::numeric_limits<double>::infinity());
      }
      std::sort(months.begin(), months.end());
      const double median = months[(months.size() - 1) / 2];
      month = std::isinf(median) ? json(nullptr) : json(median);
    }
  }
  out["replications"] = docs.size();
  return out;
}

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * share);
  return buf;
}

//! Scenario-level warnings (offered load, stale prices) as a single run reports them, then the
//! Monte Carlo ones: saturated replicas and an unmet CI target.
json mc_warnings(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                 const McSummary& s, const McRequest& req) {
  ReplicaMetrics neutral;  // not saturated, nothing unfinished: only scenario-level warnings
  neutral.pools.resize(cs.pools.size());
  neutral.classes.resize(cs.classes.size());
  json w = result_warnings(sc, cs, neutral);
  if (s.n_saturated > 0) {
    const std::string k = std::to_string(s.n_saturated), n = std::to_string(s.n_replicas);
    if (s.statistics_over_all) {
      w.push_back("This configuration cannot keep up: all " + n + " replications saturated (" +
                  s.saturation_cause +
                  ") and stopped early; every figure is over those truncated "
                  "runs and is not meaningful.");
    } else {
      w.push_back("This configuration cannot keep up in " + k + " of " + n + " replications (" +
                  percent(double(s.n_saturated) / s.n_replicas) + ", " + s.saturation_cause +
                  "): those runs stopped early and are left out of every figure except "
                  "metrics.saturated; means and intervals are over the " +
                  std::to_string(s.in_statistics.size()) +
                  " replications that kept up, so they "
                  "understate waits.");
    }
  }
  const double unfinished = mean_of(s, "metrics.jobs_unfinished");
  if (unfinished > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", unfinished);
    w.push_back(std::string("On average ") + buf +
                " counted job(s) per replication were still waiting or running at the horizon; "
                "they count in jobs_unfinished and in no wait or completion-time percentile.");
  }
  if (st.target_requested && !st.target_met) {
    w.push_back("The --target-ci of " + percent(req.target_ci_rel) + " was not met within " +
                std::to_string(s.n_replicas) +
                " replications (--max-replications); see summary for the intervals reached.");
  }
  return w;
}

}  // namespace

json monte_carlo_result(const Scenario& sc, const CompiledScenario& cs, const McStudy& st,
                        const McSummary& s, const McRequest& req) {
  const ModelView v = cs.view();
  json r;
  r["scenario"] = sc.name;
  r["gpuplan_version"] = GPUPLAN_VERSION;
  r["seed"] = sc.seed;
  r["replications"] = s.n_replicas;
  r["generated_at"] = utc_now_iso8601();
  r["horizon_s"] = sc.horizon_s;
  r["warmup_s"] = sc.warmup_s;
  r["window_s"] = sc.horizon_s - sc.warmup_s;
  r["metrics"] = {{"jobs_submitted", mean_of(s, "metrics.jobs_submitted")},
                  {"jobs_completed", mean_of(s, "metrics.jobs_completed")},
                  {"jobs_unfinished", mean_of(s, "metrics.jobs_unfinished")},
                  {"wait_s", duration_means(s, "metrics.wait_s")},
                  {"jct_s", duration_means(s, "metrics.jct_s")},
                  {"gpu_utilization", mean_of(s, "metrics.gpu_utilization")},
                  {"offered_load", cs.offered_load},
                  {"mean_queued_jobs", mean_of(s, "metrics.mean_queued_jobs")},
                  {"mean_jobs_in_system", mean_of(s, "metrics.mean_jobs_in_system")},
                  {"saturated", mean_of(s, "metrics.saturated")},
                  {"saturation_cause", s.saturation_cause},
                  {"events", mean_of(s, "metrics.events")},
                  {"quantiles", "histogram"}};

  json per_pool_cost = json::object(), pools = json::array();
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const InstanceType* inst = &sc.instance_of(pool);
    const double cost = mean_of(s, "cost_usd.per_pool." + pool.name);
    per_pool_cost[pool.name] = cost;
    pools.push_back({{"name", pool.name},
                     {"instance", pool.instance},
                     {"gpu", inst ? inst->gpu : ""},
                     {"nodes", pool.count},
                     {"gpus", pool.count * cs.pools[p].gpus_per_node},
                     {"pricing", std::string(enum_name(pool.pricing))},
                     {"price_per_node_hour", pool.price_per_node_hour},
                     {"price_as_of", inst ? inst->as_of : ""},
                     {"gpu_utilization", mean_of(s, "per_pool." + pool.name + ".gpu_utilization")},
                     {"mean_nodes", mean_of(s, "per_pool." + pool.name + ".mean_nodes")},
                     {"preemptions", mean_of(s, "per_pool." + pool.name + ".preemptions")},
                     {"cost_usd", cost}});
  }
  json per_class_cost = json::object();
  for (const JobClass& jc : sc.workload)
    per_class_cost[jc.name] = mean_of(s, "per_class." + jc.name + ".cost_usd");
  r["cost_usd"] = {{"total", mean_of(s, "cost_usd.total")},
                   {"per_pool", per_pool_cost},
                   {"per_class", per_class_cost},
                   {"idle", mean_of(s, "cost_usd.idle")},
                   {"per_job_mean", mean_of(s, "cost_usd.per_job_mean")},
                   {"per_useful_gpu_hour", mean_of(s, "cost_usd.per_useful_gpu_hour")},
                   {"per_gpu_hour", mean_of(s, "cost_usd.per_gpu_hour")}};
  r["per_pool"] = pools;
  // Means over the replicas in statistics, in the single-run shape (the summary has their CIs).
  r["gpu_hours"] = json::object();
  for (const char* k : {"provisioned", "busy", "useful", "lost_to_preemption",
                        "checkpoint_overhead", "restart_overhead"})
    r["gpu_hours"][k] = mean_of(s, std::string("gpu_hours.") + k);
  r["preemption"] = {{"preemptions", mean_of(s, "preemption.preemptions")},
                     {"reclaimed_nodes", mean_of(s, "preemption.reclaimed_nodes")},
                     {"waves", mean_of(s, "preemption.waves")},
                     {"lost_gpu_hours", mean_of(s, "gpu_hours.lost_to_preemption")},
                     {"checkpoint_overhead_gpu_hours", mean_of(s, "gpu_hours.checkpoint_overhead")},
                     {"restart_overhead_gpu_hours", mean_of(s, "gpu_hours.restart_overhead")},
                     {"restarts_per_job", mean_of(s, "preemption.restarts_per_job")}};
  r["network"] = {{"stranded_gpus", mean_of(s, "network.stranded_gpus")},
                  {"mean_comm_slowdown", mean_of(s, "network.mean_comm_slowdown")},
                  {"rate_changes", mean_of(s, "network.rate_changes")}};
  if (sc.topology.kind != TopologyKind::none)
    r["topology"] = topology_json(sc, cs, s.uplink_crossing_nodes, s.uplink_congested_share);

  const auto& wait_hist = s.statistics_over_all ? st.wait_hist_all : st.wait_hist_ok;
  const auto& jct_hist = s.statistics_over_all ? st.jct_hist_all : st.jct_hist_ok;
  json classes = json::array();
  for (std::size_t c = 0; c < sc.workload.size(); ++c) {
    const std::string k = "per_class." + sc.workload[c].name;
    classes.push_back({{"name", sc.workload[c].name},
                       {"jobs_submitted", mean_of(s, k + ".jobs_submitted")},
                       {"jobs_completed", mean_of(s, k + ".jobs_completed")},
                       {"jobs_unfinished", mean_of(s, k + ".jobs_unfinished")},
                       {"wait_s", duration_means(s, k + ".wait_s")},
                       {"jct_s", duration_means(s, k + ".jct_s")},
                       {"cost_usd", mean_of(s, k + ".cost_usd")},
                       {"cost_per_job_usd", mean_of(s, k + ".cost_per_job_usd")},
                       {"useful_gpu_hours", mean_of(s, k + ".useful_gpu_hours")},
                       {"preemptions", mean_of(s, k + ".preemptions")},
                       {"restarts_per_job", mean_of(s, k + ".restarts_per_job")},
                       {"wait_cdf", cdf_json(&wait_hist[c * HIST_BINS])},
                       {"jct_cdf", cdf_json(&jct_hist[c * HIST_BINS])}});
  }
  r["per_class"] = classes;

  json t = json::array();
  for (uint32_t b = 0; b < v.n_bins; ++b) t.push_back(b * v.bin_width);
  r["timeseries"] = {{"bin_s", v.bin_width},     {"t_s", t},
                     {"busy_gpus", s.busy_gpus}, {"queued_jobs", s.queued_jobs},
                     {"spend_usd", s.spend_usd}, {"provisioned_gpus", s.provisioned_gpus}};
  r["bands"] = {{"busy_gpus", band_json(s.busy_band)},
                {"queued_jobs", band_json(s.queued_band)},
                {"cumulative_spend_usd", band_json(s.cumulative_spend_band)}};
  r["summary"] = summary_json(s);
  if (sc.tco) r["tco"] = mc_tco_json(sc, cs, st, s, r["summary"]);

  json target = nullptr;
  if (st.target_requested) {
    json reached = json::object();
    for (const char* path : HEADLINE_PATHS) {
      const MetricSummary& m = s.at(path);
      reached[path] = m.mean != 0 ? m.half_width() / std::abs(m.mean) : 0.0;
    }
    target = {{"rel", req.target_ci_rel},
              {"met", st.target_met},
              {"max_replications", req.max_replications},
              {"reached_rel", reached}};
  }
  r["monte_carlo"] = {
      {"backend", backend_name(st.backend)},
      {"device", st.device},
      {"batch_size", st.batch_size},
      {"batches", st.batches},
      {"bytes_per_replica", st.bytes_per_replica},
      {"replications_requested", req.replications},
      {"saturated_replications", s.n_saturated},
      {"saturated_share", s.n_replicas ? double(s.n_saturated) / s.n_replicas : 0.0},
      {"replications_in_statistics", s.in_statistics.size()},
      {"statistics_over", s.statistics_over_all ? "all_replications" : "replications_that_kept_up"},
      {"target_ci", target}};
  r["scenario_echo"] = effective_scenario_json(sc);
  r["warnings"] = mc_warnings(sc, cs, st, s, req);
  return r;
}

void write_replicas_csv(const McStudy& st, const McSummary& s, std::ostream& out) {
  out << "replica";
  for (const std::string& p : s.paths) out << ',' << reports::csv_text_field(p);
  out << ",saturation_cause\n";
  for (std::size_t k = 0; k < s.rows.size(); ++k) {
    out << k;
    for (double v : s.rows[k]) out << ',' << reports::format_raw(v);
    out << ',' << saturation_name(st.replicas[k].metrics.saturation) << '\n';
  }
}

}  // namespace gpuplan
