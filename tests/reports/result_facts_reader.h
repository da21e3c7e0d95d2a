#pragma once
//! Reads the assessment's facts (reports/result_facts.h) back from a result.json, for the tests:
//! sample results in tests/reports/fixtures/ are assessed through it, and result_facts_test
//! checks that it reads from every bundled scenario's result.json what result_facts gathers from
//! the study, so result.json and its assessment say the same. An absent or mistyped key reads as
//! absent.
#include <algorithm>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "reports/json_read.h"
#include "reports/result_facts.h"

namespace gpuplan::reports::testing {

inline std::string string_at(const nlohmann::json& j, std::string_view dotted) {
  return string_value(find_path(j, dotted));
}

inline DurationFacts duration_at(const nlohmann::json& j, const std::string& p) {
  return {number_at(j, p + ".mean"), number_at(j, p + ".p50"), number_at(j, p + ".p90"),
          number_at(j, p + ".p99")};
}

//! Half-width of the 95% confidence interval of summary[`path`], when the result has one.
inline std::optional<double> ci_half_width_at(const nlohmann::json& r, const std::string& path) {
  const nlohmann::json* summary = member(r, "summary");
  // NOTE: summary keys contain dots; look them up whole
  const nlohmann::json* entry = summary != nullptr ? member(*summary, path) : nullptr;
  if (entry == nullptr) return std::nullopt;
  const auto lo = number_at(*entry, "ci95_low");
  const auto hi = number_at(*entry, "ci95_high");
  if (!lo || !hi) return std::nullopt;
  return (*hi - *lo) / 2;
}

inline std::vector<PoolFacts> pools_at(const nlohmann::json& r) {
  std::vector<PoolFacts> rows;
  const nlohmann::json* per_pool = find_path(r, "cost_usd.per_pool");
  const bool have_map = per_pool != nullptr && per_pool->is_object();
  for (const nlohmann::json& p : array_value(find_path(r, "per_pool"))) {
    if (!p.is_object()) continue;
    PoolFacts row{
        string_at(p, "name"),       string_at(p, "pricing"),          number_at(p, "nodes"),
        number_at(p, "gpus"),       number_at(p, "gpu_utilization"),  number_at(p, "cost_usd"),
        number_at(p, "mean_nodes"), number_at(p, "elastic.min_nodes")};
    if (!row.cost_usd && !row.name.empty() && have_map)
      row.cost_usd = finite_number(member(*per_pool, row.name));
    rows.push_back(std::move(row));
  }
  // Only the cost map is present: one row per pool it names.
  if (rows.empty() && have_map) {
    for (const auto& [name, cost] : per_pool->items()) {
      PoolFacts row{};
      row.name = name;
      row.cost_usd = finite_number(&cost);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

inline std::optional<FailureFacts> failures_at(const nlohmann::json& r) {
  const nlohmann::json* f = find_path(r, "failures");
  if (f == nullptr || !f->is_object()) return std::nullopt;
  FailureFacts out;
  out.failures = number_at(*f, "failures").value_or(0);
  out.expected_failures = number_at(*f, "expected_failures");
  if (const nlohmann::json* by_cause = member(*f, "by_cause");
      by_cause != nullptr && by_cause->is_object())
    for (const auto& [name, v] : by_cause->items())
      if (const auto n = finite_number(&v); n && *n > 0) out.by_cause.emplace_back(name, *n);
  std::sort(out.by_cause.begin(), out.by_cause.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  out.interruptions = number_at(*f, "interruptions").value_or(0);
  out.lost_gpu_hours = number_at(*f, "lost_gpu_hours");
  out.down_gpu_hours = number_at(*f, "down_gpu_hours");
  out.effective_training_time = number_at(*f, "effective_training_time");
  out.spares = number_at(*f, "spares").value_or(0);
  out.spare_swaps = number_at(*f, "spare_swaps").value_or(0);
  out.spare_utilization = number_at(*f, "spare_utilization");
  return out;
}

inline std::vector<SharedPoolFacts> shared_pools_at(const nlohmann::json& r) {
  std::vector<SharedPoolFacts> out;
  for (const nlohmann::json& p : array_value(find_path(r, "sharing.pools")))
    out.push_back({string_value(member(p, "name")), string_value(member(p, "sharing")),
                   number_at(p, "allocation"), number_at(p, "compute_used")});
  return out;
}

inline std::optional<TcoFacts> tco_at(const nlohmann::json& r) {
  const nlohmann::json* options = find_path(r, "tco.options");
  if (options == nullptr || !options->is_object() || options->empty()) return std::nullopt;
  TcoFacts t;
  for (const auto& [name, o] : options->items()) {
    const nlohmann::json* serves = member(o, "serves_demand");
    t.options.push_back({name, serves == nullptr || !serves->is_boolean() || serves->get<bool>(),
                         number_at(o, "npv_usd"), number_at(o, "unserved_gpu_hours"),
                         number_at(o, "stops_keeping_up_month"), number_at(o, "runs_out_month"),
                         number_at(o, "simulation.stops_keeping_up_month"),
                         number_at(o, "simulation.runs_out_month")});
  }
  t.cheapest_by_npv = string_at(r, "tco.cheapest_by_npv");
  t.cheapest_note = string_at(r, "tco.cheapest_note");
  if (!t.cheapest_by_npv.empty())
    t.cheapest_break_even_month =
        number_at(r, "tco.break_even_month." + t.cheapest_by_npv + "_vs_cloud");
  t.months = number_at(r, "tco.months");
  t.caveat = string_at(r, "tco.caveat");
  return t;
}

//! The facts of a result.json (or of a sample result holding some of its keys).
inline ResultFacts read_facts(const nlohmann::json& r) {
  ResultFacts f;
  if (const auto n = number_at(r, "replications"); n && *n >= 1)
    f.replications = static_cast<int64_t>(std::min(*n, 1e12));
  f.window_s = number_at(r, "window_s");
  f.util = number_at(r, "metrics.gpu_utilization");
  f.offered = number_at(r, "metrics.offered_load");
  f.peak_offered = number_at(r, "metrics.peak_offered_load");
  f.offered_pool_gpus = number_at(r, "metrics.offered_load_pool_gpus");
  f.peak_pool_gpus = number_at(r, "metrics.peak_offered_load_pool_gpus");
  f.reaches_month = number_at(r, "metrics.reaches_capacity_month");
  f.smallest_job_gpus = number_at(r, "metrics.smallest_job_gpus");
  f.cost_total = number_at(r, "cost_usd.total");
  f.cost_per_gpu_hour = number_at(r, "cost_usd.per_gpu_hour");
  f.jobs_submitted = number_at(r, "metrics.jobs_submitted");
  f.jobs_unfinished = number_at(r, "metrics.jobs_unfinished");
  f.wait = duration_at(r, "metrics.wait_s");
  f.jct = duration_at(r, "metrics.jct_s");
  if (const nlohmann::json* s = find_path(r, "metrics.saturated"); s != nullptr) {
    // NOTE: a Monte Carlo mean turns the flag into the share of replicas that saturated.
    if (s->is_boolean()) f.saturated_share = s->get<bool>() ? 1.0 : 0.0;
    if (s->is_number()) f.saturated_share = std::clamp(s->get<double>(), 0.0, 1.0);
  }
  f.saturation_cause = string_at(r, "metrics.saturation_cause");
  f.queue = string_at(r, "scenario_echo.scheduler.queue");
  f.pools = pools_at(r);
  double gpus = 0;
  bool have_gpus = false;
  for (const PoolFacts& p : f.pools) {
    if (!p.gpus) continue;
    gpus += *p.gpus;
    have_gpus = true;
  }
  if (!have_gpus) {
    for (const nlohmann::json& v : array_value(find_path(r, "timeseries.provisioned_gpus"))) {
      if (!v.is_number()) continue;
      gpus = std::max(gpus, v.get<double>());
    }
  }
  if (gpus > 0) f.gpus = gpus;
  f.gpus_mean = number_at(r, "metrics.provisioned_gpus.mean");
  f.wait_mean_ci = ci_half_width_at(r, "metrics.wait_s.mean");
  f.util_ci = ci_half_width_at(r, "metrics.gpu_utilization");
  f.cost_total_ci = ci_half_width_at(r, "cost_usd.total");
  f.tco = tco_at(r);
  f.failures = failures_at(r);
  f.shared_pools = shared_pools_at(r);
  for (const nlohmann::json& w : array_value(find_path(r, "warnings")))
    f.warnings.push_back(w.is_string()
                             ? w.get<std::string>()
                             : w.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return f;
}

}  // namespace gpuplan::reports::testing
