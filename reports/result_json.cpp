#include "reports/result_json.h"

#include <cmath>
#include <ctime>

#include "models/catalog_age.h"
#include "models/scenario_echo.h"
#include "reports/economics_json.h"
#include "reports/network_json.h"
#include "sim/core/state.h"
#include "sim/core/stats.h"

namespace gpuplan {
namespace {

using nlohmann::json;

json duration_json(const DurationStats& d) {
  return {{"mean", d.mean}, {"p50", d.p50}, {"p90", d.p90}, {"p99", d.p99}};
}

//! Empirical CDF of a class's histogram at the bin edges that hold mass, for charts.
json cdf_json(const uint32_t* h) {
  uint64_t n = 0;
  for (uint32_t b = 0; b < HIST_BINS; ++b) n += h[b];
  json x = json::array(), p = json::array();
  if (n == 0) return {{"x_s", x}, {"p", p}};
  uint64_t cum = 0;
  for (uint32_t b = 0; b < HIST_BINS; ++b) {
    if (h[b] == 0) continue;
    cum += h[b];
    x.push_back(b == 0 ? 0.0 : hist_lower(b + 1));
    p.push_back(double(cum) / double(n));
  }
  return {{"x_s", x}, {"p", p}};
}

}  // namespace

std::string utc_now_iso8601() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

json metrics_json(const ReplicaMetrics& m, const CompiledScenario& cs) {
  return {{"jobs_submitted", m.jobs_submitted},
          {"jobs_completed", m.jobs_completed},
          {"jobs_unfinished", m.jobs_unfinished},
          {"wait_s", duration_json(m.wait_s)},
          {"jct_s", duration_json(m.jct_s)},
          {"gpu_utilization", m.gpu_utilization},
          {"offered_load", cs.offered_load},
          {"mean_queued_jobs", m.mean_queued_jobs},
          {"mean_jobs_in_system", m.mean_jobs_in_system},
          {"saturated", m.saturated()},
          {"saturation_cause", saturation_name(m.saturation)},
          {"events", m.events},
          {"quantiles", m.exact_quantiles ? "exact" : "histogram"}};
}

json result_warnings(const Scenario& sc, const CompiledScenario& cs, const ReplicaMetrics& m) {
  json w = json::array();
  if (m.saturated()) {
    w.push_back("This configuration cannot keep up: the replica stopped at t = " +
                std::to_string(m.saturated_at_s) + " s when " +
                (m.saturation == SaturationCause::queue_overflow
                     ? "the queue exceeded limits.max_active_jobs (" +
                           std::to_string(sc.limits.max_active_jobs) + " jobs)"
                     : std::string("the event calendar overflowed")) +
                "; waits and completion times are not meaningful.");
  } else if (overloaded(cs.offered_load)) {
    w.push_back("Offered load is " + std::to_string(cs.offered_load) +
                " of capacity (>= 1): the queue grows without bound, so waits depend on the "
                "horizon and are not steady-state figures.");
  }
  for (const Pool& p : sc.pools) {
    const InstanceType* inst = &sc.instance_of(p);
    if (inst && is_stale(inst->as_of, today_utc())) {
      w.push_back("Pool " + p.name + ": the price of " + p.instance + " dates from " +
                  (inst->as_of.empty() ? std::string("an unknown date") : inst->as_of) +
                  ", over a year ago; re-check it before relying on the cost figures (source: " +
                  inst->source + ").");
    }
  }
  if (m.jobs_unfinished > 0) {
    w.push_back(std::to_string(m.jobs_unfinished) +
                " counted job(s) were still waiting or running at the horizon; they count in "
                "jobs_unfinished and in no wait or completion-time percentile.");
  }
  return w;
}

json single_run_result(const Scenario& sc, const CompiledScenario& cs, const ReplicaMetrics& m,
                       const ReplicaState& s) {
  const ModelView v = cs.view();
  json r;
  r["scenario"] = sc.name;
  r["gpuplan_version"] = GPUPLAN_VERSION;
  r["seed"] = sc.seed;
  r["generated_at"] = utc_now_iso8601();
  r["replications"] = 1;
  r["horizon_s"] = sc.horizon_s;
  r["warmup_s"] = sc.warmup_s;
  r["window_s"] = sc.horizon_s - sc.warmup_s;
  r["metrics"] = metrics_json(m, cs);

  json per_pool_cost = json::object();
  json pools = json::array();
  double provisioned_gpu_hours = 0;
  for (size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const InstanceType* inst = &sc.instance_of(pool);
    per_pool_cost[pool.name] = m.pools[p].cost_usd;
    const uint32_t gpus = pool.count * cs.pools[p].gpus_per_node;
    provisioned_gpu_hours += gpus * (sc.horizon_s - sc.warmup_s) / 3600.0;
    pools.push_back({{"name", pool.name},
                     {"instance", pool.instance},
                     {"gpu", inst ? inst->gpu : ""},
                     {"nodes", pool.count},
                     {"gpus", gpus},
                     {"pricing", std::string(enum_name(pool.pricing))},
                     {"price_per_node_hour", pool.price_per_node_hour},
                     {"price_as_of", inst ? inst->as_of : ""},
                     {"price_stale", inst ? is_stale(inst->as_of, today_utc()) : true},
                     {"gpu_utilization", m.pools[p].gpu_utilization},
                     {"cost_usd", m.pools[p].cost_usd}});
  }
  r["cost_usd"] = {
      {"total", m.cost_usd},
      {"per_pool", per_pool_cost},
      {"per_gpu_hour", provisioned_gpu_hours > 0 ? m.cost_usd / provisioned_gpu_hours : 0}};
  r["per_pool"] = pools;

  json classes = json::array();
  for (size_t c = 0; c < sc.workload.size(); ++c) {
    const ClassMetrics& cm = m.classes[c];
    classes.push_back({{"name", sc.workload[c].name},
                       {"jobs_submitted", cm.submitted},
                       {"jobs_completed", cm.completed},
                       {"jobs_unfinished", cm.unfinished},
                       {"wait_s", duration_json(cm.wait_s)},
                       {"jct_s", duration_json(cm.jct_s)},
                       {"wait_cdf", cdf_json(&s.wait_hist[c * HIST_BINS])},
                       {"jct_cdf", cdf_json(&s.jct_hist[c * HIST_BINS])}});
  }
  r["per_class"] = classes;

  json t = json::array(), busy = json::array(), queued = json::array(), spend = json::array(),
       prov = json::array();
  for (uint32_t b = 0; b < v.n_bins; ++b) {
    const double width = (b + 1 == v.n_bins) ? v.horizon - b * v.bin_width : v.bin_width;
    t.push_back(b * v.bin_width);
    busy.push_back(s.bin_busy_gpu_s[b] / width);
    queued.push_back(s.bin_queued_job_s[b] / width);
    spend.push_back(s.bin_spend_usd[b]);
    prov.push_back(s.bin_provisioned_gpu_s[b] / width);
  }
  r["timeseries"] = {{"bin_s", v.bin_width},  {"t_s", t},           {"busy_gpus", busy},
                     {"queued_jobs", queued}, {"spend_usd", spend}, {"provisioned_gpus", prov}};
  add_economics_json(r, sc, cs, m, s);  // cost per class/job/useful GPU-h, preemption, tco
  r["scenario_echo"] = effective_scenario_json(sc);
  r["network"] = network_json(sc, cs, s);
  if (sc.topology.kind != TopologyKind::none) {
    std::vector<double> crossing, congested;
    uplink_window_means(v, s, crossing, congested);
    r["topology"] = topology_json(sc, cs, crossing, congested);
  }
  r["warnings"] = result_warnings(sc, cs, m);
  return r;
}

}  // namespace gpuplan
