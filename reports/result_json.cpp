#include "reports/result_json.h"

#include <cmath>
#include <ctime>

#include "models/catalog/catalog_age.h"
#include "models/scenario/demand_profile.h"
#include "models/scenario/price_origin.h"
#include "models/scenario/pool_commitment.h"
#include "models/load/scenario_echo.h"
#include "reports/assessment.h"
#include "reports/economics_json.h"
#include "reports/network_json.h"
#include "reports/result_facts.h"
#include "reports/summary_means.h"
#include "reports/tco_json.h"
#include "sim/core/sketch.h"
#include "sim/mc_metrics.h"

namespace gpuplan {
namespace {

using nlohmann::json;
using reports::Means;
using study::Summary;

//! Empirical CDF of a pooled quantile sketch at the bucket edges that hold mass, for charts.
json cdf_json(const uint64_t* h) {
  const uint64_t n = sketch_count(h);
  json x = json::array(), p = json::array();
  uint64_t cum = 0;
  for (uint32_t b = 0; b < SKETCH_BINS && n > 0; ++b) {
    if (h[b] == 0) continue;
    cum += h[b];
    x.push_back(sketch_cdf_x(b));
    p.push_back(double(cum) / double(n));
  }
  return {{"x_s", x}, {"p", p}};
}

json statistic_json(const study::Statistic& m) {
  json j = {{"mean", m.mean}, {"n", m.n}};
  if (m.spread) {
    j["ci95_low"] = m.spread->ci95_low;
    j["ci95_high"] = m.spread->ci95_high;
    j["p05"] = m.spread->p05;
    j["p50"] = m.spread->p50;
    j["p95"] = m.spread->p95;
  }
  return j;
}

json metrics_section(const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  const bool one = s.info.replications == 1;
  const reports::ProvisionedGpus gpus = reports::provisioned_gpus(cs, s);
  // NOTE: offered_load is against the most the pools may hold (the saturation test); on the
  // utilization's basis (per provisioned GPU-hour, time-averaged) the cluster's load is scaled by
  // max / mean.
  const double avg = gpus.mean, max = gpus.max;
  // NOTE: a single run says whether it cannot keep up; across replications the share that did.
  const reports::Saturation sat = reports::saturation(cs, s);
  const json reaches =
      cs.reaches_capacity_s ? json(*cs.reaches_capacity_s / PROFILE_MONTH_S) : json(nullptr);
  json out = {{"jobs_submitted", mean.count("metrics.jobs_submitted")},
              {"jobs_completed", mean.count("metrics.jobs_completed")},
              {"jobs_unfinished", mean.count("metrics.jobs_unfinished")},
              {"wait_s", mean.duration("metrics.wait_s")},
              {"jct_s", mean.duration("metrics.jct_s")},
              {"gpu_utilization", mean("metrics.gpu_utilization")},
              {"offered_load", cs.offered_load},
              {"offered_load_per_provisioned", avg > 0 ? cs.cluster_offered_load * max / avg : 0.0},
              {"provisioned_gpus", {{"mean", avg}, {"max", max}}},
              {"mean_queued_jobs", mean("metrics.mean_queued_jobs")},
              {"mean_jobs_in_system", mean("metrics.mean_jobs_in_system")},
              {"offered_load_pool_gpus", cs.load_set_gpus},
              {"peak_offered_load", cs.peak_offered_load},
              {"peak_offered_load_pool_gpus", cs.peak_set_gpus},
              {"reaches_capacity_month", reaches},
              {"smallest_job_gpus", cs.smallest_job_gpus},
              {"saturated", one ? json(sat.share > 0.5) : json(sat.share)},
              {"saturation_cause", sat.cause},
              {"events", mean.count("metrics.events")},
              {"quantiles", "histogram"}};
  // NOTE: only where some pool shares its GPUs does the compute used part from the allocation.
  if (cs.scalars.share.n_shared_pools > 0) out["compute_used"] = mean("metrics.compute_used");
  if (follows_arrivals(cs.scalars))
    out["jct_mean_lower_bound_s"] = mean("metrics.jct_mean_lower_bound_s");
  return out;
}

//! cost_usd and per_pool.
void add_pools(json& r, const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  json per_pool_cost = json::object(), pools = json::array();
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const InstanceType* inst = &sc.instance_of(pool);
    const std::string k = "per_pool." + pool.name + ".";
    const double cost = mean("cost_usd.per_pool." + pool.name);
    per_pool_cost[pool.name] = cost;
    pools.push_back({{"name", pool.name},
                     {"instance", pool.instance},
                     {"gpu", inst ? inst->gpu : ""},
                     {"nodes", pool.count},
                     {"gpus", pool.count * cs.pools[p].gpus_per_node},
                     {"pricing", std::string(enum_name(pool.pricing))},
                     {"price_per_node_hour", pool.price_per_node_hour},
                     {"price_as_of", inst ? inst->as_of : ""},
                     {"price_stale", price_stale(sc, pool, today_utc())},
                     {"gpu_utilization", mean(k + "gpu_utilization")},
                     {"mean_nodes", mean(k + "mean_nodes")},
                     {"preemptions", mean.count(k + "preemptions")},
                     {"cost_usd", cost}});
    if (cs.scalars.share.n_shared_pools > 0) {
      pools.back()["sharing"] = reports::share_kind_name(pool.sharing.kind);
      pools.back()["compute_used"] = mean(k + "compute_used");
    }
  }
  json per_class_cost = json::object();
  for (const JobClass& jc : sc.workload)
    per_class_cost[jc.name] = mean("per_class." + jc.name + ".cost_usd");
  r["cost_usd"] = {{"total", mean("cost_usd.total")},
                   {"per_pool", per_pool_cost},
                   {"per_class", per_class_cost},
                   {"idle", mean("cost_usd.idle")},
                   {"per_job_mean", mean("cost_usd.per_job_mean")},
                   {"per_useful_gpu_hour", mean("cost_usd.per_useful_gpu_hour")},
                   {"per_gpu_hour", mean("cost_usd.per_gpu_hour")},
                   {"commitment_total", mean("cost_usd.total") + reserved_beyond_window_usd(sc)}};
  r["per_pool"] = pools;
}

json classes_section(const Scenario& sc, const Summary& s) {
  const Means mean{s};
  json classes = json::array();
  for (std::size_t c = 0; c < sc.workload.size(); ++c) {
    const std::string k = "per_class." + sc.workload[c].name;
    classes.push_back({{"name", sc.workload[c].name},
                       {"jobs_submitted", mean.count(k + ".jobs_submitted")},
                       {"jobs_completed", mean.count(k + ".jobs_completed")},
                       {"jobs_unfinished", mean.count(k + ".jobs_unfinished")},
                       {"wait_s", mean.duration(k + ".wait_s")},
                       {"jct_s", mean.duration(k + ".jct_s")},
                       {"cost_usd", mean(k + ".cost_usd")},
                       {"cost_per_job_usd", mean(k + ".cost_per_job_usd")},
                       {"useful_gpu_hours", mean(k + ".useful_gpu_hours")},
                       {"preemptions", mean.count(k + ".preemptions")},
                       {"scheduler_preemptions", mean.count(k + ".scheduler_preemptions")},
                       {"restarts_per_job", mean(k + ".restarts_per_job")},
                       {"effective_training_time", mean(k + ".effective_training_time")},
                       {"wait_cdf", cdf_json(&s.wait_hist[c * SKETCH_BINS])},
                       {"jct_cdf", cdf_json(&s.jct_hist[c * SKETCH_BINS])}});
  }
  return classes;
}

//! per_team: each team's quotas (per GPU type), waits, GPU-hours used and borrowed, quota use,
//! reclaim preemptions suffered and chargeback (docs/teams.md); empty without teams.
json teams_section(const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  json teams = json::array();
  const std::size_t nf = cs.flavor_names.size();
  for (std::size_t t = 0; t < sc.teams.size(); ++t) {
    const Team& team = sc.teams[t];
    const std::string k = "per_team." + team.name;
    json quota = json::object(), classes = json::array();
    for (std::size_t r = 0; r < nf; ++r) {
      const TeamQuota& q = cs.team_quotas[t * nf + r];
      quota[cs.flavor_names[r]] = {
          {"nominal", q.nominal},
          {"borrowing_limit",
           q.borrowing_limit == QUOTA_UNLIMITED ? json(nullptr) : json(q.borrowing_limit)},
          {"lending_limit",
           q.lending_limit == QUOTA_UNLIMITED ? json(nullptr) : json(q.lending_limit)}};
    }
    for (const JobClass& jc : sc.workload)
      if (jc.team == t) classes.push_back(jc.name);
    teams.push_back({{"name", team.name},
                     {"cohort", team.cohort.empty() ? json(nullptr) : json(team.cohort)},
                     {"classes", classes},
                     {"quota", quota},
                     {"jobs_submitted", mean.count(k + ".jobs_submitted")},
                     {"jobs_completed", mean.count(k + ".jobs_completed")},
                     {"jobs_unfinished", mean.count(k + ".jobs_unfinished")},
                     {"wait_s", mean.duration(k + ".wait_s")},
                     {"jct_s", mean.duration(k + ".jct_s")},
                     {"gpu_hours_used", mean(k + ".gpu_hours_used")},
                     {"gpu_hours_borrowed", mean(k + ".gpu_hours_borrowed")},
                     {"mean_gpus", mean(k + ".mean_gpus")},
                     {"quota_use", mean(k + ".quota_use")},
                     {"reclaim_preemptions", mean.count(k + ".reclaim_preemptions")},
                     {"cost_share", mean(k + ".cost_share")},
                     {"cost_usd", mean(k + ".cost_usd")}});
  }
  return teams;
}

//! gpu_hours and preemption totals.
void add_gpu_hours(json& r, const Summary& s) {
  const Means mean{s};
  r["gpu_hours"] = json::object();
  for (const char* k : {"provisioned", "busy", "useful", "lost_to_preemption",
                        "checkpoint_overhead", "restart_overhead"})
    r["gpu_hours"][k] = mean(std::string("gpu_hours.") + k);
  r["preemption"] = {{"preemptions", mean.count("preemption.preemptions")},
                     {"reclaimed_nodes", mean.count("preemption.reclaimed_nodes")},
                     {"waves", mean.count("preemption.waves")},
                     {"lost_gpu_hours", mean("gpu_hours.lost_to_preemption")},
                     {"checkpoint_overhead_gpu_hours", mean("gpu_hours.checkpoint_overhead")},
                     {"restart_overhead_gpu_hours", mean("gpu_hours.restart_overhead")},
                     {"restarts_per_job", mean("preemption.restarts_per_job")}};
}

//! The failure model and its window totals (docs/failures.md); only for scenarios with failures.
json failures_section(const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  const FailureConfig& fc = *sc.failures;
  json by_cause = json::object(), rates = json::object();
  for (std::size_t c = 0; c < cs.cause_names.size(); ++c) {
    by_cause[cs.cause_names[c]] = mean.count("failures.by_cause." + cs.cause_names[c]);
    rates[cs.cause_names[c]] = cs.failure_causes[c].rate_per_gpu_s * 3600.0;
  }
  return {{"table", fc.table.empty() ? "custom" : fc.table},
          {"scale", fc.scale},
          {"rate_per_gpu_hour", fc.rate_per_gpu_s() * 3600.0},
          {"rates_per_gpu_hour", rates},
          {"expected_failures", reports::expected_failures(sc, cs)},
          {"failures", mean.count("failures.failures")},
          {"by_cause", by_cause},
          {"interruptions", mean.count("failures.interruptions")},
          {"lost_gpu_hours", mean("failures.lost_gpu_hours")},
          {"down_gpu_hours", mean("failures.down_gpu_hours")},
          {"spares", reports::spare_nodes(sc)},
          {"spare_swaps", mean.count("failures.spare_swaps")},
          {"spare_utilization", mean("failures.spare_utilization")},
          {"effective_training_time", mean("failures.effective_training_time")}};
}

//! Planned maintenance window totals (docs/failures.md); only for scenarios with windows.
json maintenance_section(const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  return {{"window_batches", cs.maintenance.size()},
          {"node_windows", mean.count("maintenance.node_windows")},
          {"interruptions", mean.count("maintenance.interruptions")},
          {"lost_gpu_hours", mean("maintenance.lost_gpu_hours")},
          {"node_hours", mean("maintenance.node_hours")},
          {"gpu_hours", mean("maintenance.gpu_hours")}};
}

//! Shared pools (docs/sharing.md, "Allocation and compute used"): per pool the GPUs allocated to
//! jobs beside the compute they used, with both definitions; with fractional (milli-GPU) pools
//! also their GPU allocation ratio and the jobs that found no GPU with room. Only for scenarios
//! in which some pool shares its GPUs.
json sharing_section(const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  const Means mean{s};
  json pools = json::array();
  for (std::size_t p = 0; p < sc.pools.size(); ++p) {
    const Pool& pool = sc.pools[p];
    const std::string k = "per_pool." + pool.name + ".";
    pools.push_back({{"name", pool.name},
                     {"sharing", reports::share_kind_name(pool.sharing.kind)},
                     {"gpus", pool.count * cs.pools[p].gpus_per_node},
                     {"allocation", mean(k + "gpu_utilization")},
                     {"compute_used", mean(k + "compute_used")}});
  }
  json out = {
      {"compute_used", mean("metrics.compute_used")},
      {"pools", pools},
      {"definitions",
       {{"allocation",
         "share of the provisioned GPU-seconds allocated to jobs (gpu_utilization): a whole GPU "
         "a job holds, a busy MIG instance's compute slices / 7, a time-sliced GPU with at least "
         "one job, a milli-GPU share's milli / 1000"},
        {"compute_used",
         "share of the provisioned GPU-seconds of compute the jobs used: gpu_fraction u per GPU "
         "held, min(u, the instance's SM share) on MIG, min(sum of u, 1 / (1 + interference)) "
         "on a shared time-sliced GPU, milli / 1000 for a milli-GPU share"}}}};
  if (cs.scalars.share.n_frac_pools > 0) {
    json ratio = json::object();
    for (const Pool& pool : sc.pools)
      if (pool.sharing.kind == ShareKind::fractional)
        ratio[pool.name] = mean("per_pool." + pool.name + ".gpu_utilization");
    out["gpu_allocation_ratio"] = ratio;
    out["jobs_waited_for_room"] = mean.count("sharing.jobs_waited_for_room");
  }
  return out;
}

json timeseries_section(const CompiledScenario& cs, const Summary& s) {
  const ModelView v = cs.view();
  json t = json::array();
  for (uint32_t b = 0; b < v.n_bins; ++b) t.push_back(b * v.bin_width);
  json out = {{"bin_s", v.bin_width},           {"t_s", t},
              {"busy_gpus", s.stats.busy_gpus}, {"queued_jobs", s.stats.queued_jobs},
              {"spend_usd", s.stats.spend_usd}, {"provisioned_gpus", s.stats.provisioned_gpus}};
  if (!s.power_kw.empty()) out["power_kw"] = s.power_kw;
  if (!cs.team_names.empty()) {
    json teams = json::object();
    for (std::size_t k = 0; k < cs.team_names.size(); ++k)
      teams[cs.team_names[k]] = s.stats.team_gpus[k];
    out["team_gpus"] = teams;
  }
  return out;
}

json band_json(const Band& b) {
  return {{"p10", b.p10}, {"p50", b.p50}, {"p90", b.p90}};
}

json energy_means_json(const study::EnergyMeans& e) {
  return {{"kwh", e.kwh},
          {"tco2e", e.tco2e},
          {"power_cost_usd", e.power_cost_usd},
          {"mean_power_kw", e.mean_power_kw}};
}

//! result.json's "energy" (docs/outputs.md, "Energy and carbon").
json energy_json(const study::EnergySummary& e) {
  json out = energy_means_json(e.total);
  out["it_kwh"] = e.it_kwh;
  out["embodied_tco2e"] = e.embodied_tco2e;
  out["embodied_kgco2e_per_node"] = e.embodied_kgco2e_per_node;
  out["embodied_life_years"] = e.embodied_life_years;
  out["method"] =
      "location-based: busy GPU-seconds at the busy slot power and idle ones at the idle slot "
      "power (GPU curve plus node overhead), times PUE, times the grid factor (docs/energy.md)";
  json pools = json::object();
  for (const study::PoolEnergy& p : e.pools) {
    json j = energy_means_json(p.figures);
    j["idle_kwh"] = p.idle_kwh;
    j["embodied_tco2e"] = p.embodied_tco2e;
    j["power_cost_basis"] = p.power.power_billed ? "on_prem_site" : "in_instance_price";
    j["node_idle_kw"] = p.power.node_idle_w() / 1000.0;
    j["node_busy_kw"] = p.power.node_busy_w() / 1000.0;
    j["pue"] = p.power.pue;
    j["usd_per_kwh"] = p.power.usd_per_kwh;
    j["g_co2e_per_kwh"] = p.power.g_co2e_per_kwh;
    j["grid_region"] = p.power.region;
    j["grid_source"] = p.power.grid_source;
    j["power_source"] = p.power.power_source;
    pools[p.name] = j;
  }
  out["per_pool"] = pools;
  json classes = json::object();
  for (const study::ClassEnergy& c : e.classes) classes[c.name] = energy_means_json(c.figures);
  out["per_class"] = classes;
  if (e.grid_series_hours > 0)
    out["grid_series"] = {{"file", e.grid_series_file}, {"hours", e.grid_series_hours}};
  out["replications"] = e.replications;
  return out;
}

json summary_section(const Summary& s) {
  json out = json::object();
  for (std::size_t i = 0; i < s.stats.paths.size(); ++i)
    out[s.stats.paths[i]] = statistic_json(s.stat(s.stats.paths[i]));
  for (const auto& [path, stat] : s.tco_stats) out[path] = statistic_json(stat);
  for (const auto& [path, stat] : s.energy_stats) out[path] = statistic_json(stat);
  return out;
}

json monte_carlo_section(const Summary& s) {
  const study::StudyInfo& i = s.info;
  json target = nullptr;
  if (i.target_requested) {
    json reached = json::object();
    for (const char* path : HEADLINE_PATHS) {
      const MetricSummary& m = s.stats.at(path);
      reached[path] = m.mean != 0 ? m.half_width() / std::abs(m.mean) : 0.0;
    }
    target = {{"rel", i.target_ci_rel},
              {"met", i.target_met},
              {"max_replications", i.max_replications},
              {"reached_rel", reached}};
  }
  const McSummary& st = s.stats;
  return {{"backend", backend_name(i.backend)},
          {"device", i.device},
          {"processes", i.processes},
          {"batch_size", i.batch_size},
          {"batches", i.batches},
          {"bytes_per_replica", i.bytes_per_replica},
          {"replications_requested", i.replications_requested},
          {"saturated_replications", st.n_saturated},
          {"saturated_share", st.n_replicas ? double(st.n_saturated) / st.n_replicas : 0.0},
          {"replications_in_statistics", st.in_statistics.size()},
          {"statistics_over",
           st.statistics_over_all ? "all_replications" : "replications_that_kept_up"},
          {"target_ci", target}};
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

json result_json(const Scenario& sc, const CompiledScenario& cs, const Summary& s) {
  json r;
  r["scenario"] = sc.name;
  r["gpuplan_version"] = GPUPLAN_VERSION;
  r["seed"] = sc.seed;
  r["generated_at"] = utc_now_iso8601();
  r["replications"] = s.info.replications;
  r["horizon_s"] = sc.horizon_s;
  r["warmup_s"] = sc.warmup_s;
  r["window_s"] = sc.horizon_s - sc.warmup_s;
  r["metrics"] = metrics_section(cs, s);
  add_pools(r, sc, cs, s);
  r["per_class"] = classes_section(sc, s);
  if (!sc.teams.empty()) r["per_team"] = teams_section(sc, cs, s);
  add_gpu_hours(r, s);
  add_pool_economics(r["per_pool"], sc, cs);
  if (s.single) add_replica_economics(r, sc, cs, *s.single);
  r["network"] = network_json(sc, cs, s);
  if (sc.failures) r["failures"] = failures_section(sc, cs, s);
  if (!cs.maintenance.empty()) r["maintenance"] = maintenance_section(cs, s);
  if (cs.scalars.share.n_shared_pools > 0) r["sharing"] = sharing_section(sc, cs, s);
  if (sc.topology.kind != TopologyKind::none)
    r["topology"] =
        topology_json(sc, cs, s.stats.uplink_crossing_nodes, s.stats.uplink_congested_share);
  r["timeseries"] = timeseries_section(cs, s);
  // NOTE: one replication has no spread across replications, so no bands (as no CI).
  if (s.info.replications > 1) {
    r["bands"] = {{"busy_gpus", band_json(s.stats.busy_band)},
                  {"queued_jobs", band_json(s.stats.queued_band)},
                  {"cumulative_spend_usd", band_json(s.stats.cumulative_spend_band)}};
    if (!s.power_kw.empty()) r["bands"]["power_kw"] = band_json(s.power_band);
  }
  r["summary"] = summary_section(s);
  if (s.tco) r["tco"] = reports::tco_json(*s.tco);
  if (s.energy) r["energy"] = energy_json(*s.energy);
  if (s.info.monte_carlo) r["monte_carlo"] = monte_carlo_section(s);
  r["scenario_echo"] = effective_scenario_json(sc);
  r["warnings"] = s.warnings;
  // The verdicts report.html shows, pinned by tests.
  r["assessment"] = reports::assess(reports::result_facts(sc, cs, s));
  return r;
}

}  // namespace gpuplan
