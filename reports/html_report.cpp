#include "reports/html_report.h"

#include "models/compile.h"
#include "models/embedded.h"
#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_parts.h"
#include "reports/json_read.h"
#include "topologies/graphviz.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

// Thresholds of the plain-words verdict; docs/outputs.md states them for readers.
inline constexpr double UTIL_LOW = 0.5;         // below: over-provisioned
inline constexpr double UTIL_HIGH = 0.9;        // at or above: running hot
inline constexpr double UTIL_TARGET = 0.8;      // sizing suggestions aim at this utilization
inline constexpr double LONG_WAIT_RATIO = 0.5;  // p90 wait above this share of mean run time: long
inline constexpr double PRICING_HINT_UTIL = 0.6;  // steady enough to suggest reserved pricing

// ---- safe access: a missing key or a value of the wrong type reads as absent -----------------

std::optional<double> number_at(const json& j, std::string_view dotted) {
  return finite_number(find_path(j, dotted));
}

std::string string_at(const json& j, std::string_view dotted) {
  return string_value(find_path(j, dotted));
}

const json& array_at(const json& j, std::string_view dotted) {
  return array_value(find_path(j, dotted));
}

bool is_numeric_array(const json* v) {
  return v != nullptr && v->is_array() && !v->empty() &&
         std::all_of(v->begin(), v->end(),
                     [](const json& e) { return e.is_number() || e.is_null(); });
}

// ---- what the report says, gathered once ------------------------------------------------------

struct Stats {
  std::optional<double> mean, p50, p90, p99;
};

Stats stats_at(const json& j, std::string_view dotted) {
  const std::string p(dotted);
  return {number_at(j, p + ".mean"), number_at(j, p + ".p50"), number_at(j, p + ".p90"),
          number_at(j, p + ".p99")};
}

struct PoolRow {
  std::string name, instance, gpu, pricing, price_as_of;
  std::optional<double> nodes, gpus, price_per_node_hour, gpu_utilization, cost_usd;
};

struct Facts {
  std::string scenario, version, generated_at, seed, saturation_cause;
  int64_t replications = 1;
  std::optional<double> window_s, warmup_s, util, offered, cost_total, cost_per_gpu_hour, gpus,
      bin_s;
  std::optional<double> jobs_submitted, jobs_completed, jobs_unfinished, events, mean_queued;
  Stats wait, jct;
  double saturated_share = 0;  // share of replicas that saturated, 0..1
  std::vector<PoolRow> pools;
  std::size_t n_warnings = 0;

  bool mc() const { return replications > 1; }
  //! Demand at or above capacity: no queue reaches a steady state, flagged by the engine or not.
  bool overloaded() const { return offered && gpuplan::overloaded(*offered); }
  //! The configuration cannot keep up: some replica saturated, or the offered load is >= 100%.
  bool saturated() const { return saturated_share > 0 || overloaded(); }
  std::optional<double> mean_run_s() const {
    if (!wait.mean || !jct.mean || *jct.mean - *wait.mean <= 0) return std::nullopt;
    return *jct.mean - *wait.mean;
  }
};

std::vector<PoolRow> gather_pools(const json& r) {
  std::vector<PoolRow> rows;
  for (const json& p : array_at(r, "per_pool")) {
    if (!p.is_object()) continue;
    PoolRow row{string_at(p, "name"),
                string_at(p, "instance"),
                string_at(p, "gpu"),
                string_at(p, "pricing"),
                string_at(p, "price_as_of"),
                number_at(p, "nodes"),
                number_at(p, "gpus"),
                number_at(p, "price_per_node_hour"),
                number_at(p, "gpu_utilization"),
                number_at(p, "cost_usd")};
    if (!row.cost_usd && !row.name.empty()) {
      const json* per_pool = find_path(r, "cost_usd.per_pool");
      if (per_pool != nullptr && per_pool->is_object())
        row.cost_usd = number_at(*per_pool, row.name);
    }
    rows.push_back(std::move(row));
  }
  // Only the cost map is present: one row per pool it names.
  const json* per_pool = find_path(r, "cost_usd.per_pool");
  if (rows.empty() && per_pool != nullptr && per_pool->is_object()) {
    for (const auto& [name, cost] : per_pool->items()) {
      PoolRow row{};
      row.name = name;
      if (cost.is_number()) row.cost_usd = cost.get<double>();
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Facts gather(const json& r) {
  Facts f;
  f.scenario = string_at(r, "scenario");
  f.version = string_at(r, "gpuplan_version");
  f.generated_at = string_at(r, "generated_at");
  if (const json* seed = find_path(r, "seed");
      seed != nullptr && (seed->is_number() || seed->is_string())) {
    f.seed = seed->is_string() ? seed->get<std::string>() : seed->dump();
  }
  if (const auto n = number_at(r, "replications"); n && *n >= 1)
    f.replications = static_cast<int64_t>(std::min(*n, 1e12));
  f.window_s = number_at(r, "window_s");
  f.warmup_s = number_at(r, "warmup_s");
  f.util = number_at(r, "metrics.gpu_utilization");
  f.offered = number_at(r, "metrics.offered_load");
  f.cost_total = number_at(r, "cost_usd.total");
  f.cost_per_gpu_hour = number_at(r, "cost_usd.per_gpu_hour");
  f.bin_s = number_at(r, "timeseries.bin_s");
  f.jobs_submitted = number_at(r, "metrics.jobs_submitted");
  f.jobs_completed = number_at(r, "metrics.jobs_completed");
  f.jobs_unfinished = number_at(r, "metrics.jobs_unfinished");
  f.events = number_at(r, "metrics.events");
  f.mean_queued = number_at(r, "metrics.mean_queued_jobs");
  f.wait = stats_at(r, "metrics.wait_s");
  f.jct = stats_at(r, "metrics.jct_s");
  if (const json* s = find_path(r, "metrics.saturated"); s != nullptr) {
    // NOTE: a Monte Carlo mean may turn the flag into the share of replicas that saturated.
    if (s->is_boolean()) f.saturated_share = s->get<bool>() ? 1.0 : 0.0;
    if (s->is_number()) f.saturated_share = std::clamp(s->get<double>(), 0.0, 1.0);
  }
  f.saturation_cause = string_at(r, "metrics.saturation_cause");
  f.pools = gather_pools(r);
  double gpus = 0;
  bool have_gpus = false;
  for (const PoolRow& p : f.pools) {
    if (!p.gpus) continue;
    gpus += *p.gpus;
    have_gpus = true;
  }
  if (!have_gpus) {
    for (const json& v : array_at(r, "timeseries.provisioned_gpus")) {
      if (!v.is_number()) continue;
      gpus = std::max(gpus, v.get<double>());
      have_gpus = true;
    }
  }
  if (have_gpus && gpus > 0) f.gpus = gpus;
  f.n_warnings = array_at(r, "warnings").size();
  return f;
}

//! Half-width of the 95% confidence interval of summary[`path`], when the result has one.
std::optional<double> ci_half_width(const json& r, const std::string& path) {
  const json* summary = member(r, "summary");
  // NOTE: summary keys contain dots; look them up whole
  const json* entry = summary != nullptr ? member(*summary, path) : nullptr;
  if (entry == nullptr) return std::nullopt;
  const auto lo = number_at(*entry, "ci95_low");
  const auto hi = number_at(*entry, "ci95_high");
  if (!lo || !hi) return std::nullopt;
  return (*hi - *lo) / 2;
}

// ---- small HTML helpers -----------------------------------------------------------------------

// A duration with its raw seconds in a tooltip.
std::string dur_span(double s) {
  return "<span title=\"" + esc(format_raw(s)) + " s\">" + esc(format_duration(s)) + "</span>";
}

// ---- (a) summary --------------------------------------------------------------------------------

enum class Sizing : uint8_t {
  unknown,
  cannot_keep_up,
  running_hot,
  long_waits,
  over_provisioned,
  right_sized
};

Sizing classify(const Facts& f) {
  if (f.saturated()) return Sizing::cannot_keep_up;
  if (!f.util) return Sizing::unknown;
  if (*f.util >= UTIL_HIGH) return Sizing::running_hot;
  const auto run = f.mean_run_s();
  if (run && f.wait.p90 && *f.wait.p90 > LONG_WAIT_RATIO * *run) return Sizing::long_waits;
  if (*f.util < UTIL_LOW) return Sizing::over_provisioned;
  return Sizing::right_sized;
}

std::string saturated_banner(const Facts& f) {
  std::string h =
      "<div class=\"banner banner-bad\" role=\"alert\"><strong class=\"banner-title\">This "
      "configuration cannot "
      "keep up with the offered load</strong><p>";
  if (f.saturated_share == 0) {
    h += "Jobs ask for " + pct(f.offered, 0) +
         " of the cluster's GPU capacity, so the queue of waiting jobs grows for as long as the "
         "simulation runs, even where the run was not stopped early. ";
  } else if (f.mc() && f.saturated_share < 1) {
    const double k = std::round(f.saturated_share * static_cast<double>(f.replications));
    h += "In " + format_count(k) + " of " + format_count(static_cast<double>(f.replications)) +
         " replications the queue grew without bound. ";
  } else {
    h += "The queue of waiting jobs grew without bound, so the simulation flagged the run as "
         "saturated. ";
  }
  h += "Wait and completion-time figures are <strong>not meaningful</strong>: they only reflect "
       "how long "
       "the simulation ran. Add capacity or reduce the load, then run again.";
  if (!f.saturation_cause.empty() && f.saturation_cause != "none") {
    h += " Cause reported by the engine: " + code(f.saturation_cause) + ".";
  }
  return h + "</p></div>\n";
}

std::string sizing_text(const Facts& f, Sizing s) {
  const auto run = f.mean_run_s();
  const std::string util = pct(f.util);
  switch (s) {
    case Sizing::cannot_keep_up: {
      std::string h = pill("bad", "Cannot keep up") + "Jobs arrive faster than ";
      h += f.gpus ? "the " + plural(*f.gpus, "GPU", "GPUs") : std::string("the cluster");
      h += " can finish them";
      if (f.offered) h += " (offered load " + pct(f.offered, 0) + " of capacity)";
      return h + ", so the queue grows for as long as the simulation runs.";
    }
    case Sizing::running_hot: {
      std::string h = pill("warn", "Running hot") + "GPUs are busy " + util +
                      " of the time, which leaves little headroom for bursts";
      if (f.wait.p90 && f.wait.p99) {
        h += ": nine in ten jobs start within " + dur(f.wait.p90) +
             ", but one in a hundred waits longer than " + dur(f.wait.p99) + " (p99)";
      }
      return h + ".";
    }
    case Sizing::long_waits:
      return pill("warn", "Long waits") + "GPUs are busy only " + util +
             " of the time, yet one job in ten waits longer than " + dur(f.wait.p90) +
             " (p90 wait), more than half the mean run time of " + dur(run) +
             ". The queue comes from job shape or scheduling order (large jobs waiting for whole "
             "nodes) "
             "rather than from total capacity.";
    case Sizing::over_provisioned: {
      std::string h =
          pill("info", "Over-provisioned") + "GPUs are busy only " + util + " of the time";
      if (f.wait.p90) h += " and jobs start almost at once (p90 wait " + dur(f.wait.p90) + ")";
      return h + "; much of the fleet sits idle.";
    }
    case Sizing::right_sized: {
      std::string h = pill("ok", "Right-sized") + "GPUs are busy " + util + " of the time";
      if (f.wait.p50 && f.wait.p90) {
        h += " and jobs start promptly: half within " + dur(f.wait.p50) + ", nine in ten within " +
             dur(f.wait.p90) + " (p90)";
        if (run) h += ", against a mean run time of " + dur(run);
      }
      return h + ".";
    }
    case Sizing::unknown:
      break;
  }
  return "The result reports no GPU utilization, so the sizing cannot be judged.";
}

std::string cost_text(const Facts& f) {
  if (!f.cost_total) return "The result reports no cost.";
  std::string h = "<strong>" + money(f.cost_total) + "</strong>";
  if (f.window_s) {
    h += " over the " + esc(format_duration(*f.window_s)) + " statistics window (" +
         format_count(*f.window_s) + " s, from warmup to horizon)";
  }
  if (f.cost_per_gpu_hour) {
    h += ", or " + money(f.cost_per_gpu_hour) + " per provisioned GPU-hour";
    if (f.gpus) h += " across " + plural(*f.gpus, "GPU", "GPUs");
  }
  h += ".";
  if (f.cost_per_gpu_hour && f.util && *f.util > 0 && !f.saturated()) {
    h += " At " + pct(f.util) + " utilization each busy GPU-hour effectively costs " +
         format_money(*f.cost_per_gpu_hour / *f.util) + ".";
  }
  if (f.pools.size() > 1 && *f.cost_total > 0) {
    const auto top =
        std::max_element(f.pools.begin(), f.pools.end(), [](const PoolRow& a, const PoolRow& b) {
          return a.cost_usd.value_or(0) < b.cost_usd.value_or(0);
        });
    if (top->cost_usd) {
      h += " The largest share is pool " + code(top->name) + " at " + format_money(*top->cost_usd) +
           " (" + format_percent(*top->cost_usd / *f.cost_total) + " of the total).";
    }
  }
  if (f.saturated()) {
    h += " The run saturated, so this is the price of the hardware, not of serving the workload.";
  }
  return h;
}

// A sweep command that scales pool 0 to hold each of the given GPU totals, or "" when pool 0 lacks
// node and GPU counts.
std::string pool_sweep(const Facts& f, const std::vector<double>& gpu_totals) {
  if (f.pools.empty() || !f.gpus) return "";
  const PoolRow& p = f.pools.front();
  if (!p.nodes || !p.gpus || *p.nodes <= 0 || *p.gpus <= 0) return "";
  const double per_node = *p.gpus / *p.nodes;
  std::vector<long long> counts;
  for (const double total : gpu_totals) {
    const long long n = static_cast<long long>(*p.nodes + std::ceil((total - *f.gpus) / per_node));
    if (n >= 1 && std::find(counts.begin(), counts.end(), n) == counts.end()) counts.push_back(n);
  }
  if (counts.empty()) return "";
  std::string values;
  for (const long long n : counts) values += (values.empty() ? "" : ",") + std::to_string(n);
  return "<p>To compare, scale pool " + code(p.name) + " (" + format_count(*p.nodes) +
         " nodes of " + format_number(per_node, per_node == std::floor(per_node) ? 0 : 1) +
         " GPUs): " + code("gpuplan sweep SCENARIO --vary pools.0.count=" + values) + ".</p>";
}

std::string change_text(const Facts& f, Sizing s, const json& r) {
  std::string h;
  switch (s) {
    case Sizing::cannot_keep_up:
      if (f.offered && f.gpus && !f.mc() && *f.offered > 0) {
        const double need = std::ceil(*f.offered * *f.gpus);
        const double target = std::ceil(*f.offered * *f.gpus / UTIL_TARGET);
        h += "<p>Provision at least " + plural(need, "GPU", "GPUs") +
             " just to keep up, and about " + format_count(target) + " (" +
             format_percent(UTIL_TARGET, 0) + " busy) to keep waits short; " +
             plural(*f.gpus, "GPU is", "GPUs are") +
             " provisioned today. Or reduce the offered load "
             "(fewer or shorter jobs).</p>" +
             pool_sweep(f, {need, target});
      } else if (f.offered && f.gpus && *f.offered > 0) {
        const double target = std::ceil(*f.offered * *f.gpus / UTIL_TARGET);
        h += "<p>Add capacity, to roughly " + plural(target, "GPU", "GPUs") + " (" +
             format_percent(UTIL_TARGET, 0) +
             " busy at the mean offered load), or reduce the offered load.</p>" +
             pool_sweep(f, {target});
      } else {
        h += "<p>Add capacity or reduce the offered load (fewer or shorter jobs), then run "
             "again.</p>";
      }
      break;
    case Sizing::running_hot:
      if (f.gpus && f.util) {
        const double target = std::ceil(*f.util * *f.gpus / UTIL_TARGET);
        h += "<p>Add about " + plural(target - *f.gpus, "GPU", "GPUs") + " (to " +
             format_count(target) + ") to bring utilization near " +
             format_percent(UTIL_TARGET, 0) + " and shorten tail waits.</p>" +
             pool_sweep(f, {target, std::ceil(target * 1.1)});
      } else {
        h += "<p>Add capacity to bring utilization below " + format_percent(UTIL_HIGH, 0) + ".</p>";
      }
      break;
    case Sizing::long_waits: {
      const std::string queue = string_at(r, "scenario_echo.scheduler.queue");
      h += "<p>Adding GPUs helps less here than placing jobs better";
      if (queue.empty() || queue == "fifo") {
        h += ": try backfill scheduling, " +
             code("gpuplan sweep SCENARIO --vary scheduler.queue=fifo,backfill") +
             ", or nodes with more GPUs so large jobs find room sooner.</p>";
      } else {
        h += ": try nodes with more GPUs, or separate pools for large jobs, so they find room "
             "sooner.</p>";
      }
      break;
    }
    case Sizing::over_provisioned:
      if (f.gpus && f.util) {
        const double target = std::max(1.0, std::ceil(*f.util * *f.gpus / UTIL_TARGET));
        h += "<p>About " + plural(target, "GPU", "GPUs") + " would carry this load at about " +
             format_percent(UTIL_TARGET, 0) + " utilization, " + format_count(*f.gpus - target) +
             " fewer than today";
        if (f.cost_total) {
          h += ", saving roughly " + format_money(*f.cost_total * (1 - target / *f.gpus)) +
               " over the window at today's prices (pro rata)";
        }
        h += ". Check the waits that gives before you shrink.</p>" +
             pool_sweep(f, {target, std::ceil(target * 1.15)});
      } else {
        h += "<p>Fewer GPUs would carry this load; check the waits with " + code("gpuplan sweep") +
             ".</p>";
      }
      break;
    case Sizing::right_sized:
      h += "<p>No capacity change needed.</p>";
      break;
    case Sizing::unknown:
      h += "<p>No recommendation: the result lacks the utilization figure.</p>";
      break;
  }
  for (std::size_t i = 0; i < f.pools.size() && !f.saturated(); ++i) {
    const PoolRow& p = f.pools[i];
    const std::optional<double> util = p.gpu_utilization ? p.gpu_utilization : f.util;
    if (p.pricing != "on_demand" || !util || *util < PRICING_HINT_UTIL) continue;
    h += "<p>Pool " + code(p.name) + " pays on-demand prices at " + pct(util) +
         " utilization; reserved pricing usually costs less for load this steady: " +
         code("gpuplan sweep SCENARIO --vary pools." + std::to_string(i) +
              ".pricing=on_demand,reserved_1y") +
         ".</p>";
  }
  return h;
}

std::string confidence_text(const Facts& f, const json& r) {
  std::string h;
  if (!f.mc()) {
    h += "<p><strong>One replication</strong> — run " + code("gpuplan mc") +
         " for confidence intervals. These figures come from a single random draw of the "
         "workload.</p>";
  } else {
    std::vector<std::string> parts;
    const auto wait = ci_half_width(r, "metrics.wait_s.mean");
    if (wait && !f.saturated()) {
      std::string p = "mean wait ± " + format_duration(*wait);
      if (f.wait.mean && *f.wait.mean > 0) p += " (± " + format_percent(*wait / *f.wait.mean) + ")";
      parts.push_back(p);
    }
    if (const auto u = ci_half_width(r, "metrics.gpu_utilization")) {
      parts.push_back("GPU utilization ± " + format_number(*u * 100, 1) + " percentage points");
    }
    if (const auto c = ci_half_width(r, "cost_usd.total")) {
      std::string p = "total cost ± " + format_money(*c);
      if (f.cost_total && *f.cost_total > 0) p += " (± " + format_percent(*c / *f.cost_total) + ")";
      parts.push_back(p);
    }
    h += "<p><strong>" + format_count(static_cast<double>(f.replications)) +
         " replications</strong>";
    if (parts.empty()) {
      h += "; the result carries no confidence intervals for the headline figures.</p>";
    } else {
      h += ". Half-widths of the 95% confidence intervals: ";
      for (std::size_t i = 0; i < parts.size(); ++i)
        h += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
      h += ".</p>";
    }
  }
  if (f.jobs_unfinished && *f.jobs_unfinished > 0) {
    h += "<p>" + plural(*f.jobs_unfinished, "job", "jobs");
    if (f.jobs_submitted && *f.jobs_submitted > 0) {
      h += " of " + format_count(*f.jobs_submitted) + " counted (" +
           format_percent(*f.jobs_unfinished / *f.jobs_submitted) + ")";
    }
    h += std::string(std::llround(*f.jobs_unfinished) == 1 ? " was" : " were") +
         " still waiting or running at the horizon; their waits so far count in no percentile.</p>";
  }
  if (f.n_warnings > 0) {
    h += "<p>The run raised " + plural(static_cast<double>(f.n_warnings), "warning", "warnings") +
         "; read <a href=\"#warnings\">them</a> before relying on these figures.</p>";
  }
  return h;
}

std::string render_summary(const Facts& f, const json& r) {
  const Sizing s = classify(f);
  std::string h = "<section id=\"summary\" aria-labelledby=\"h-summary\">\n";
  if (f.saturated()) h += saturated_banner(f);
  h += "<div class=\"card\"><h2 id=\"h-summary\">Summary</h2><dl class=\"verdicts\">\n";
  const auto row = [&](std::string_view title, const std::string& body) {
    h += "<div class=\"verdict\"><dt>" + std::string(title) + "</dt><dd>" + body + "</dd></div>\n";
  };
  row("Sizing", "<p>" + sizing_text(f, s) + "</p>");
  row("Cost", "<p>" + cost_text(f) + "</p>");
  row("What to change", change_text(f, s, r));
  row("How sure we are", confidence_text(f, r));
  return h + "</dl></div>\n</section>\n";
}

// ---- (b) key figures ----------------------------------------------------------------------------

struct Tile {
  std::string label, value, detail, raw, ci;
  bool not_meaningful = false;
};

std::string render_tile(const Tile& t) {
  std::string h = "<div class=\"kpi" + std::string(t.not_meaningful ? " nm" : "") + "\"";
  if (!t.raw.empty()) h += " title=\"" + esc(t.raw) + "\"";
  h += "><div class=\"label\">" + t.label + "</div><div class=\"value\">" + t.value + "</div>";
  if (!t.ci.empty()) h += "<div class=\"ci\">" + t.ci + "</div>";
  return h + "<div class=\"detail\">" + t.detail + "</div></div>\n";
}

std::string ci_suffix(const std::optional<double>& half, std::string (*fmt)(double)) {
  return half ? "± " + fmt(*half) + " <small>(95% CI)</small>" : "";
}

std::string fmt_duration_plain(double s) {
  return format_duration(s);
}
std::string fmt_money_plain(double usd) {
  return format_money(usd);
}
std::string fmt_points(double fraction) {
  return format_number(fraction * 100, 1) + " pp";
}

Tile duration_tile(const Facts& f, const json& r, std::string label, const std::optional<double>& v,
                   const std::string& path, std::string detail) {
  Tile t{std::move(label), "", std::move(detail), "", ""};
  if (f.saturated()) {
    t.value = "not meaningful";
    t.not_meaningful = true;
    t.detail = "saturated run: the queue grows without bound";
    return t;
  }
  t.value = dur(v);
  if (v) t.raw = format_raw(*v) + " s";
  t.ci = ci_suffix(ci_half_width(r, path), fmt_duration_plain);
  return t;
}

std::string stats_cell(const json& r, const std::optional<double>& v, const std::string& path) {
  if (!v) return "<td class=\"num\">n/a</td>";
  std::string h =
      "<td class=\"num\" title=\"" + esc(format_raw(*v)) + " s\">" + esc(format_duration(*v));
  if (const auto half = ci_half_width(r, path))
    h += "<br><small>± " + esc(format_duration(*half)) + "</small>";
  return h + "</td>";
}

std::string render_figures(const Facts& f, const json& r) {
  std::string h =
      "<section id=\"figures\" aria-labelledby=\"h-figures\"><h2 id=\"h-figures\">Key "
      "figures</h2>\n<div class=\"kpis\">\n";
  std::vector<Tile> tiles;
  // A saturated run shows every duration tile as "not meaningful"; otherwise absent ones are left
  // out.
  const auto add_duration_tile = [&](std::string label, const std::optional<double>& v,
                                     const std::string& path, std::string detail) {
    if (v || f.saturated())
      tiles.push_back(duration_tile(f, r, std::move(label), v, path, std::move(detail)));
  };
  if (f.util) {
    tiles.push_back({"GPU utilization", pct(f.util), "busy ÷ provisioned GPU-seconds in the window",
                     format_raw(*f.util),
                     ci_suffix(ci_half_width(r, "metrics.gpu_utilization"), fmt_points)});
  }
  if (f.offered) {
    tiles.push_back({"Offered load", pct(f.offered),
                     "GPU demand ÷ GPUs provisioned; above 100% cannot be served",
                     format_raw(*f.offered),
                     ci_suffix(ci_half_width(r, "metrics.offered_load"), fmt_points)});
  }
  add_duration_tile("Mean wait", f.wait.mean, "metrics.wait_s.mean", "submit → first start");
  add_duration_tile("p90 wait", f.wait.p90, "metrics.wait_s.p90",
                    "nine in ten jobs start within this");
  add_duration_tile("Mean job completion time", f.jct.mean, "metrics.jct_s.mean",
                    "submit → finish, wait included");
  if (f.cost_total) {
    tiles.push_back({"Total cost", money(f.cost_total),
                     f.window_s
                         ? "US dollars over the " + esc(format_duration(*f.window_s)) + " window"
                         : "US dollars",
                     format_raw(*f.cost_total) + " USD",
                     ci_suffix(ci_half_width(r, "cost_usd.total"), fmt_money_plain)});
  }
  if (f.cost_per_gpu_hour) {
    tiles.push_back({"Cost per GPU-hour", money(f.cost_per_gpu_hour),
                     "total ÷ provisioned GPU-hours",
                     format_raw(*f.cost_per_gpu_hour) + " USD/GPU-h",
                     ci_suffix(ci_half_width(r, "cost_usd.per_gpu_hour"), fmt_money_plain)});
  }
  if (f.gpus) {
    tiles.push_back({"GPUs provisioned", format_count(*f.gpus),
                     f.pools.empty() ? "GPUs"
                                     : "GPUs in " + plural(static_cast<double>(f.pools.size()),
                                                           "pool", "pools"),
                     format_raw(*f.gpus), ""});
  }
  for (const Tile& t : tiles) h += render_tile(t);
  h += "</div>\n<div class=\"subgrid\">\n";

  // Wait and JCT statistics for all classes together.
  h += "<div class=\"card\"><table><caption>Wait and job completion time, all classes";
  if (f.mc()) h += "<small>mean across replications ± 95% CI half-width</small>";
  h +=
      "</caption><thead><tr><th scope=\"col\">Measure</th><th scope=\"col\" class=\"num\">Mean</th>"
      "<th scope=\"col\" class=\"num\">Median (p50)</th><th scope=\"col\" class=\"num\">p90</th>"
      "<th scope=\"col\" class=\"num\">p99</th></tr></thead><tbody>\n";
  const auto stats_row = [&](std::string_view label, const Stats& s, const std::string& key) {
    h += "<tr><th scope=\"row\">" + std::string(label) + "</th>";
    if (f.saturated()) {
      h += "<td colspan=\"4\" class=\"nm-row\">not meaningful: the queue grows without bound</td>";
    } else {
      h += stats_cell(r, s.mean, key + ".mean") + stats_cell(r, s.p50, key + ".p50") +
           stats_cell(r, s.p90, key + ".p90") + stats_cell(r, s.p99, key + ".p99");
    }
    h += "</tr>\n";
  };
  stats_row("Wait (submit → first start)", f.wait, "metrics.wait_s");
  stats_row("Job completion time (submit → finish)", f.jct, "metrics.jct_s");
  h += "</tbody></table><p class=\"note\">";
  h += f.saturated()
           ? "Not shown: a saturated run's waits only reflect how long the simulation ran."
           : "Completed jobs submitted in the statistics window; hover a value for raw seconds.";
  if (!f.saturated() && string_at(r, "metrics.quantiles") == "histogram") {
    h += " Percentiles are read from a fine histogram, so they are close but not exact.";
  }
  h += "</p></div>\n";

  // Jobs and run facts.
  h += "<div class=\"card\"><table class=\"facts-table\"><caption>Jobs and "
       "simulation</caption><tbody>\n";
  const auto fact = [&](std::string_view label, const std::optional<double>& v,
                        std::string_view unit) {
    if (v) {
      h += "<tr><th scope=\"row\">" + std::string(label) + "</th><td class=\"num\" title=\"" +
           esc(format_raw(*v)) + "\">" + format_count(*v) + " " + std::string(unit) +
           "</td></tr>\n";
    }
  };
  fact("Jobs submitted in the window", f.jobs_submitted, "jobs");
  fact("Jobs completed", f.jobs_completed, "jobs");
  fact("Unfinished at the horizon", f.jobs_unfinished, "jobs");
  fact("Events simulated", f.events, "events");
  if (f.mean_queued && !f.saturated()) {
    h += "<tr><th scope=\"row\">Jobs queued, time average</th><td class=\"num\" title=\"" +
         esc(format_raw(*f.mean_queued)) + "\">" + format_number(*f.mean_queued, 1) +
         " jobs</td></tr>\n";
  }
  if (f.window_s) {
    h += "<tr><th scope=\"row\">Statistics window</th><td class=\"num\">" + dur_span(*f.window_s) +
         "</td></tr>\n";
  }
  h += "<tr><th scope=\"row\">Replications</th><td class=\"num\">" +
       format_count(static_cast<double>(f.replications)) + "</td></tr>\n</tbody></table>";
  if (f.mc()) h += "<p class=\"note\">Every figure is the mean across replications.</p>";
  return h + "</div>\n</div>\n</section>\n";
}

// ---- (c) charts ---------------------------------------------------------------------------------

// Time series longer than this are merged, bin groups into one point, so the page stays light;
// the CSV keeps full resolution.
inline constexpr std::size_t MAX_CHART_POINTS = 1500;

struct ChartPlan {
  json data = json::object();
  std::size_t bins_per_point = 1;
  bool gpus = false, queue = false, spend = false, wait_cdf = false, jct_cdf = false, cost = false;
  bool have_classes_with_cdf = false;
};

// Merges every `k` consecutive elements of a numeric array into one: their sum when `sum`, else
// their mean; non-numbers are skipped, and a group without numbers becomes null.
json coarsen(const json& series, std::size_t k, bool sum) {
  json out = json::array();
  for (std::size_t i = 0; i < series.size(); i += k) {
    double total = 0;
    std::size_t n = 0;
    for (std::size_t j = i; j < std::min(i + k, series.size()); ++j) {
      if (!series[j].is_number()) continue;
      total += series[j].get<double>();
      ++n;
    }
    if (n == 0) {
      out.push_back(nullptr);
    } else {
      out.push_back(sum ? total : total / static_cast<double>(n));
    }
  }
  return out;
}

bool valid_cdf(const json& c) {
  const json* x = find_path(c, "x_s");
  const json* p = find_path(c, "p");
  return is_numeric_array(x) && is_numeric_array(p) && x->size() == p->size();
}

bool valid_band(const json& b) {
  return is_numeric_array(find_path(b, "p10")) && is_numeric_array(find_path(b, "p50")) &&
         is_numeric_array(find_path(b, "p90"));
}

ChartPlan plan_charts(const json& r, const Facts& f) {
  ChartPlan plan;
  json ts = json::object();
  for (const char* key : {"t_s", "busy_gpus", "provisioned_gpus", "queued_jobs", "spend_usd"}) {
    const json* v = find_path(r, std::string("timeseries.") + key);
    if (is_numeric_array(v)) ts[key] = *v;
  }
  if (!ts.contains("t_s") && f.bin_s) {
    std::size_t n = 0;
    for (const auto& [key, v] : ts.items()) n = std::max(n, v.size());
    json t = json::array();
    for (std::size_t i = 0; i < n; ++i) t.push_back(static_cast<double>(i) * *f.bin_s);
    if (n > 0) ts["t_s"] = std::move(t);
  }
  json bands = json::object();
  for (const char* key : {"busy_gpus", "queued_jobs", "cumulative_spend_usd"}) {
    const json* b = find_path(r, std::string("bands.") + key);
    if (b != nullptr && valid_band(*b)) {
      bands[key] = {{"p10", (*b)["p10"]}, {"p50", (*b)["p50"]}, {"p90", (*b)["p90"]}};
    }
  }
  const bool have_t = ts.contains("t_s");
  if (have_t && ts["t_s"].size() > MAX_CHART_POINTS) {
    const std::size_t k = (ts["t_s"].size() + MAX_CHART_POINTS - 1) / MAX_CHART_POINTS;
    plan.bins_per_point = k;
    json t = json::array();
    for (std::size_t i = 0; i < ts["t_s"].size(); i += k) t.push_back(ts["t_s"][i]);
    ts["t_s"] = std::move(t);
    for (auto& [key, series] : ts.items()) {
      if (key != "t_s") series = coarsen(series, k, key == "spend_usd");
    }
    for (auto& [key, band] : bands.items()) {
      for (auto& [level, series] : band.items()) series = coarsen(series, k, false);
    }
  }
  plan.gpus = have_t && (ts.contains("busy_gpus") || ts.contains("provisioned_gpus") ||
                         bands.contains("busy_gpus"));
  plan.queue = have_t && (ts.contains("queued_jobs") || bands.contains("queued_jobs"));
  plan.spend = have_t && (ts.contains("spend_usd") || bands.contains("cumulative_spend_usd"));

  json classes = json::array();
  for (const json& c : array_at(r, "per_class")) {
    json entry = {{"name", string_at(c, "name")}};
    for (const char* key : {"wait_cdf", "jct_cdf"}) {
      const json* cdf = find_path(c, key);
      if (cdf != nullptr && valid_cdf(*cdf)) {
        entry[key] = {{"x_s", (*cdf)["x_s"]}, {"p", (*cdf)["p"]}};
        (key == std::string_view("wait_cdf") ? plan.wait_cdf : plan.jct_cdf) = true;
      }
    }
    classes.push_back(std::move(entry));
  }
  plan.have_classes_with_cdf = plan.wait_cdf || plan.jct_cdf;
  if (f.saturated()) plan.wait_cdf = plan.jct_cdf = false;

  json pools = json::array();
  for (const PoolRow& p : f.pools) {
    if (p.cost_usd)
      pools.push_back({{"name", p.name}, {"pricing", p.pricing}, {"cost_usd", *p.cost_usd}});
  }
  plan.cost = !pools.empty();

  plan.data = {{"timeseries", std::move(ts)},
               {"bands", std::move(bands)},
               {"classes", std::move(classes)},
               {"pools", std::move(pools)}};
  if (f.warmup_s) plan.data["warmup_s"] = *f.warmup_s;
  return plan;
}

std::string figure(std::string_view chart, bool wide, std::string_view title,
                   const std::string& caption, std::string_view aria) {
  return "<figure class=\"card" + std::string(wide ? " wide" : "") + "\"><figcaption><h3>" +
         std::string(title) + "</h3><p>" + caption +
         "</p></figcaption><div class=\"chart-box\"><canvas data-chart=\"" + std::string(chart) +
         "\" role=\"img\" aria-label=\"" + std::string(aria) + "\"></canvas></div></figure>\n";
}

std::string render_charts(const Facts& f, const ChartPlan& plan, bool cost_here) {
  if (!(plan.gpus || plan.queue || plan.spend || (plan.cost && cost_here) ||
        plan.have_classes_with_cdf))
    return "";
  std::string h =
      "<section id=\"charts\" aria-labelledby=\"h-charts\"><h2 id=\"h-charts\">Charts</h2>\n<div "
      "class=\"charts\">\n";
  const std::string bin =
      f.bin_s ? esc(format_duration(*f.bin_s * static_cast<double>(plan.bins_per_point))) + " "
              : "";
  const bool warmup = f.warmup_s && *f.warmup_s > 0;
  const std::string warmup_note = warmup ? " Grey: warmup, not counted in statistics." : "";
  const std::string band_note = f.mc() ? " Line: median across " +
                                             format_count(static_cast<double>(f.replications)) +
                                             " replications; shaded: 10th to 90th percentile."
                                       : "";
  if (plan.gpus) {
    h += figure("gpus", true, "GPUs busy and provisioned over time",
                "Busy GPUs averaged over each " + bin + "bin, against GPUs provisioned (dashed)." +
                    band_note + warmup_note,
                "Line chart of busy and provisioned GPUs over simulated time");
  }
  if (plan.queue) {
    h += figure("queue", false, "Queued jobs over time",
                "Jobs submitted but not yet started, averaged over each " + bin + "bin." +
                    band_note + warmup_note,
                "Line chart of the number of queued jobs over simulated time");
  }
  if (plan.spend) {
    h += figure(
        "spend", false, "Cumulative spend",
        "Running total in US dollars since the start of the simulation" +
            std::string(warmup ? ", warmup included, so it ends above the window's cost." : ".") +
            band_note + warmup_note,
        "Line chart of cumulative spend in US dollars over simulated time");
  }
  if (plan.wait_cdf) {
    h += figure("wait_cdf", false, "Wait time distribution by class",
                "Share of each class's completed jobs that waited at most the time on the x axis "
                "(log scale); "
                "a line crosses 90% at the class's p90 wait. Zero waits sit at the left edge.",
                "Cumulative distribution of wait times per job class, log time axis");
  }
  if (plan.jct_cdf) {
    h += figure("jct_cdf", false, "Job completion time distribution by class",
                "Share of each class's completed jobs that finished within the time on the x axis "
                "(log scale), "
                "measured from submission.",
                "Cumulative distribution of job completion times per job class, log time axis");
  }
  if (f.saturated() && plan.have_classes_with_cdf) {
    h += "<figure class=\"card placeholder\"><p>Wait and completion-time distributions are not "
         "shown: in a "
         "saturated run they only reflect how long the simulation ran.</p></figure>\n";
  }
  if (plan.cost && cost_here) {
    h += figure(
        "cost", false, "Cost by pool",
        "US dollars per pool over the statistics window" +
            (f.window_s ? " (" + esc(format_duration(*f.window_s)) + ")" : std::string()) +
            ", coloured by pricing: blue on-demand, orange spot, green reserved, grey on-prem.",
        "Bar chart of cost per pool in US dollars");
  }
  return h + "</div>\n</section>\n";
}

// ---- (d) tables ---------------------------------------------------------------------------------

std::string text_td(const std::string& s) {
  return "<td data-sort=\"" + esc(s) + "\">" + (s.empty() ? "" : esc(s)) + "</td>";
}

std::string num_td(const std::optional<double>& v, const std::string& shown,
                   std::string_view unit_title) {
  if (!v) return "<td class=\"num\" data-sort=\"\">n/a</td>";
  return "<td class=\"num\" data-sort=\"" + esc(format_raw(*v)) + "\" title=\"" +
         esc(format_raw(*v)) + (unit_title.empty() ? "" : " " + std::string(unit_title)) + "\">" +
         shown + "</td>";
}

std::string render_tables(const Facts& f, const json& r) {
  const json& classes = array_at(r, "per_class");
  if (f.pools.empty() && classes.empty()) return "";
  std::string h =
      "<section id=\"tables\" aria-labelledby=\"h-tables\"><h2 id=\"h-tables\">Pools and job "
      "classes</h2>\n"
      "<p id=\"gp-sort-status\" class=\"visually-hidden\" aria-live=\"polite\"></p>\n";
  if (!f.pools.empty()) {
    h += "<div class=\"card table-card table-scroll\"><table class=\"sortable\" "
         "id=\"pools-table\"><caption>Pools "
         "<small>select a column heading to sort</small></caption><thead><tr>" +
         sort_th("Pool", false) + sort_th("Instance", false) + sort_th("GPU", false) +
         sort_th("Nodes", true) + sort_th("GPUs", true) + sort_th("Pricing", false) +
         sort_th("Price per node-hour", true) + sort_th("GPU utilization", true) +
         sort_th("Cost over window", true) + sort_th("Share of cost", true) +
         "</tr></thead><tbody>\n";
    for (const PoolRow& p : f.pools) {
      const std::optional<double> share = p.cost_usd && f.cost_total && *f.cost_total > 0
                                              ? std::optional<double>(*p.cost_usd / *f.cost_total)
                                              : std::nullopt;
      h += "<tr>" + text_td(p.name) + text_td(p.instance) + text_td(p.gpu) +
           num_td(p.nodes, p.nodes ? format_count(*p.nodes) : "", "nodes") +
           num_td(p.gpus, p.gpus ? format_count(*p.gpus) : "", "GPUs") + text_td(p.pricing) +
           num_td(p.price_per_node_hour, money(p.price_per_node_hour),
                  "USD per node-hour" +
                      (p.price_as_of.empty() ? "" : ", price as of " + esc(p.price_as_of))) +
           num_td(p.gpu_utilization, pct(p.gpu_utilization), "") +
           num_td(p.cost_usd, money(p.cost_usd), "USD") + num_td(share, pct(share), "") + "</tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  if (!classes.empty()) {
    h += "<div class=\"card table-card table-scroll\"><table class=\"sortable\" "
         "id=\"classes-table\"><caption>Job classes "
         "<small>durations in human units; hover for raw seconds</small></caption><thead><tr>" +
         sort_th("Class", false) + sort_th("Submitted", true) + sort_th("Completed", true) +
         sort_th("Unfinished", true) + sort_th("Mean wait", true) + sort_th("p50 wait", true) +
         sort_th("p90 wait", true) + sort_th("p99 wait", true) + sort_th("Mean JCT", true) +
         sort_th("p90 JCT", true) + sort_th("p99 JCT", true) + "</tr></thead><tbody>\n";
    for (const json& c : classes) {
      h += "<tr>" + text_td(string_at(c, "name"));
      for (const char* key : {"jobs_submitted", "jobs_completed", "jobs_unfinished"}) {
        const auto v = number_at(c, key);
        h += num_td(v, v ? format_count(*v) : "", "jobs");
      }
      for (const char* key : {"wait_s.mean", "wait_s.p50", "wait_s.p90", "wait_s.p99", "jct_s.mean",
                              "jct_s.p90", "jct_s.p99"}) {
        const auto v = number_at(c, key);
        h += f.saturated() ? "<td class=\"num nm\" data-sort=\"\">not meaningful</td>"
                           : num_td(v, v ? esc(format_duration(*v)) : "", "s");
      }
      h += "</tr>\n";
    }
    h += "</tbody></table><p class=\"note\">JCT: job completion time, from submission to finish. "
         "Statistics cover "
         "completed jobs submitted in the window.</p></div>\n";
  }
  return h + "</section>\n";
}

// ---- (d2) network, economics, preemption and TCO: each section only when its keys are present --

std::string gpu_h(const std::optional<double>& v) {
  return v ? format_number(*v, *v >= 100 ? 0 : 1) + " GPU-h" : "n/a";
}

std::string tiles_html(const std::vector<Tile>& tiles) {
  std::string h = "<div class=\"kpis\">\n";
  for (const Tile& t : tiles) h += render_tile(t);
  return h + "</div>\n";
}

Tile raw_tile(std::string label, std::string value, std::string detail,
              const std::optional<double>& raw, std::string_view unit) {
  return {std::move(label), std::move(value), std::move(detail),
          raw ? format_raw(*raw) + (unit.empty() ? "" : " " + std::string(unit)) : "", ""};
}

//! For a Monte Carlo result, says that a section's figures are means across replications.
std::string mc_means_note(const json& r) {
  const auto n = number_at(r, "replications");
  if (find_path(r, "monte_carlo") == nullptr || !n) return "";
  return "<p class=\"note\">Means across " + plural(*n, "replication", "replications") +
         "; the <code>summary</code> in result.json and replicas.csv give each figure's 95% CI, "
         "percentiles and every replication's value.</p>\n";
}

//! Colour swatches of the link-load scale (topologies::load_color).
std::string load_legend() {
  std::string h = "<span class=\"load-legend\">";
  const std::pair<double, const char*> stops[] = {
      {0.0, "idle"}, {0.2, "20%"}, {0.5, "50%"}, {0.8, "80%"}, {1.0, "≥ 100% (gangs slowed)"}};
  for (const auto& [load, label] : stops)
    h += "<span><i style=\"background:" + topologies::load_color(load) + "\"></i>" + esc(label) +
         "</span>";
  return h + "</span>";
}

//! The busiest uplinks by time-averaged load, at most 10 rows.
std::string render_busiest_links(const json& links) {
  std::vector<const json*> rows;
  for (const json& l : links)
    if (l.is_object() && number_at(l, "mean_load")) rows.push_back(&l);
  std::stable_sort(rows.begin(), rows.end(), [](const json* a, const json* b) {
    return *number_at(*a, "mean_load") > *number_at(*b, "mean_load");
  });
  const std::size_t shown = std::min<std::size_t>(rows.size(), 10);
  std::string h =
      "<div class=\"card table-card table-scroll\"><table id=\"links-table\" "
      "class=\"sortable\"><caption>Busiest uplinks <small>" +
      esc(std::to_string(shown)) + " of " + esc(std::to_string(rows.size())) +
      ", by time-averaged load</small></caption><thead><tr><th scope=\"col\">Uplinks of</th>"
      "<th scope=\"col\" class=\"num\">Level</th><th scope=\"col\" "
      "class=\"num\">Capacity</th><th scope=\"col\" class=\"num\">Crossing nodes "
      "(mean)</th><th scope=\"col\" class=\"num\">Load</th><th scope=\"col\" "
      "class=\"num\">Time congested</th></tr></thead><tbody>\n";
  for (std::size_t i = 0; i < shown; ++i) {
    const json& l = *rows[i];
    const double load = *number_at(l, "mean_load");
    h += "<tr><td>" + esc(string_at(l, "group")) + "</td><td class=\"num\">" +
         esc(format_number(number_at(l, "level").value_or(0), 0)) + "</td><td class=\"num\">" +
         esc(format_number(number_at(l, "capacity_gbps").value_or(0), 0)) +
         " Gb/s</td><td class=\"num\">" +
         esc(format_number(number_at(l, "mean_crossing_nodes").value_or(0), 2)) +
         "</td><td class=\"num\"><i class=\"swatch\" style=\"background:" +
         topologies::load_color(load) + "\"></i>" + esc(pct(load)) + "</td><td class=\"num\">" +
         esc(pct(number_at(l, "congested_share"))) + "</td></tr>\n";
  }
  return h + "</tbody></table></div>\n";
}

std::string render_network(const json& r) {
  const json* net = find_path(r, "network");
  const std::string svg_text = string_at(r, "topology.svg");
  const bool have_net = net != nullptr && net->is_object();
  if (!have_net && find_path(r, "topology") == nullptr) return "";
  std::string h =
      "<section id=\"network\" aria-labelledby=\"h-network\"><h2 id=\"h-network\">Network "
      "topology</h2>\n";
  h += mc_means_note(r);
  std::vector<Tile> tiles;
  const std::string placement = string_at(r, "network.placement");
  if (!placement.empty())
    tiles.push_back({"Placement policy", esc(placement), "how gangs are placed on nodes", "", ""});
  const std::string kind = string_at(r, "network.topology");
  const std::string topo_name = string_at(r, "topology.name");
  if (!kind.empty() || !topo_name.empty()) {
    tiles.push_back(
        {"Topology", esc(kind.empty() ? string_at(r, "topology.kind") : kind),
         topo_name.empty() ? (kind == "none" ? "one non-blocking switch" : "") : esc(topo_name), "",
         ""});
  }
  if (const auto s = number_at(r, "network.mean_comm_slowdown")) {
    const auto n = number_at(r, "network.multi_node_jobs_completed");
    tiles.push_back(raw_tile(
        "Mean comm slowdown", format_number(*s, 3) + "×",
        "run time ÷ run time with ideal placement" +
            (n ? ", over " + plural(*n, "multi-node job", "multi-node jobs") : std::string()),
        s, "(ratio)"));
  }
  if (const auto g = number_at(r, "network.stranded_gpus")) {
    const auto share = number_at(r, "network.stranded_share");
    tiles.push_back(raw_tile("Stranded GPUs", format_number(*g, 1) + " GPUs",
                             "free GPUs on partly used nodes, time-averaged" +
                                 (share ? " (" + pct(share) + " of provisioned)" : std::string()),
                             g, "GPUs"));
  }
  if (const auto c = number_at(r, "network.rate_changes")) {
    tiles.push_back(raw_tile("Rate changes", format_count(*c) + " changes",
                             "times link sharing moved a running job's finish", c, "changes"));
  }
  if (!tiles.empty()) h += tiles_html(tiles);
  const json& bw = array_at(r, "topology.level_bw_gbps");
  const json& lat = array_at(r, "topology.level_latency_s");
  if (!bw.empty() || !lat.empty()) {
    static constexpr std::array<std::string_view, 4> LEVEL = {"0 · hosts / NVSwitch", "1 · leaf",
                                                              "2 · spine", "3 · core"};
    h += "<div class=\"card table-card table-scroll\"><table id=\"topology-table\"><caption>Links "
         "per level";
    if (const auto hosts = number_at(r, "topology.hosts"))
      h += " <small>" + plural(*hosts, "host", "hosts") + "</small>";
    h += "</caption><thead><tr><th scope=\"col\">Level</th><th scope=\"col\" "
         "class=\"num\">Bandwidth per host, all sending</th><th scope=\"col\" "
         "class=\"num\">One-way latency</th></tr></thead><tbody>\n";
    for (std::size_t i = 0; i < std::max(bw.size(), lat.size()); ++i) {
      const std::string level = i < LEVEL.size() ? std::string(LEVEL[i]) : std::to_string(i);
      std::string b = "not limited";
      if (i < bw.size() && bw[i].is_number())
        b = format_number(bw[i].get<double>(), bw[i].get<double>() >= 100 ? 0 : 1) + " Gb/s";
      std::string l = "n/a";
      if (i < lat.size() && lat[i].is_number()) {
        const double s = lat[i].get<double>();
        l = s > 0 && s < 1e-3 ? format_number(s * 1e6, 2) + " µs" : format_duration(s);
      }
      h += "<tr><td>" + esc(level) + "</td><td class=\"num\">" + esc(b) +
           "</td><td class=\"num\">" + esc(l) + "</td></tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  const json& links = array_at(r, "topology.links");
  if (!links.empty()) h += render_busiest_links(links);
  if (!svg_text.empty()) {
    const std::string svg = sanitize_svg(svg_text);
    if (!svg.empty()) {
      h += "<figure class=\"card topo\"><figcaption><h3>Topology graph</h3><p>Hosts as "
           "ellipses, switches as boxes, links labelled in Gb/s";
      if (!links.empty()) {
        h += " and shaded by load: the line rate of the gangs crossing a link ÷ its capacity, "
             "time-averaged over the statistics window. " +
             load_legend() + " Links inside a server or ring carry no measured load and stay black";
      }
      h += ". Scroll to see all of it.</p></figcaption><div class=\"topo-box\" role=\"img\" "
           "aria-label=\"Network topology graph\">" +
           svg + "</div></figure>\n";
    }
  } else if (const std::string err = string_at(r, "topology.svg_error"); !err.empty()) {
    h += "<p class=\"note\">No topology drawing: " + esc(err) + "</p>\n";
  }
  return h + "</section>\n";
}

// Adds chart data for the sections below to `data`; returns their HTML.
std::string render_cost_detail(const Facts& f, const json& r, bool pool_chart, json& data) {
  const json* per_class = find_path(r, "cost_usd.per_class");
  const json* gh = find_path(r, "gpu_hours");
  const auto per_useful = number_at(r, "cost_usd.per_useful_gpu_hour");
  const bool have_class = per_class != nullptr && per_class->is_object() && !per_class->empty();
  const bool have_hours = gh != nullptr && gh->is_object() && number_at(r, "gpu_hours.provisioned");
  if (!have_class && !have_hours && !per_useful) return "";
  std::string h =
      "<section id=\"cost-detail\" aria-labelledby=\"h-cost-detail\"><h2 id=\"h-cost-detail\">Cost "
      "by way of paying and by class</h2>\n";
  h += mc_means_note(r);
  std::vector<Tile> tiles;
  if (per_useful)
    tiles.push_back(raw_tile("Cost per useful GPU-hour", money(per_useful) + "/GPU-h",
                             "total ÷ GPU-hours that produced kept work", per_useful,
                             "USD per GPU-hour"));
  if (const auto v = number_at(r, "cost_usd.per_gpu_hour"))
    tiles.push_back(raw_tile("Cost per provisioned GPU-hour", money(v) + "/GPU-h",
                             "total ÷ billed GPU-hours", v, "USD per GPU-hour"));
  if (const auto v = number_at(r, "cost_usd.idle"))
    tiles.push_back(raw_tile("Idle cost", money(v),
                             "provisioned capacity no job held, plus billing rounding" +
                                 (f.cost_total && *f.cost_total > 0
                                      ? " (" + format_percent(*v / *f.cost_total) + " of total)"
                                      : std::string()),
                             v, "USD"));
  if (const auto v = number_at(r, "cost_usd.per_job_mean"))
    tiles.push_back(
        raw_tile("Cost per completed job", money(v), "total ÷ jobs completed", v, "USD per job"));
  if (!tiles.empty()) h += tiles_html(tiles);
  h += "<div class=\"charts\">\n";
  const std::string window =
      f.window_s ? " (" + esc(format_duration(*f.window_s)) + ")" : std::string();
  if (pool_chart) {
    h += figure("cost", false, "Cost by pool and pricing",
                "US dollars per pool over the statistics window" + window +
                    ", coloured by pricing: blue on-demand, orange spot, green reserved, grey "
                    "on-prem.",
                "Bar chart of cost per pool in US dollars");
  }
  if (have_class) {
    json rows = json::array();
    for (const auto& [name, v] : per_class->items())
      if (v.is_number()) rows.push_back({{"name", name}, {"cost_usd", v.get<double>()}});
    if (const auto idle = number_at(r, "cost_usd.idle"))
      rows.push_back({{"name", "idle"}, {"cost_usd", *idle}, {"idle", true}});
    if (!rows.empty()) {
      data["class_cost"] = std::move(rows);
      h += figure("class_cost", false, "Cost by job class and idle",
                  "US dollars over the statistics window" + window +
                      ": each class's GPU-seconds at its pools' per-GPU rate; grey: provisioned "
                      "capacity no job held.",
                  "Bar chart of cost per job class and idle cost in US dollars");
    }
  }
  if (have_hours) {
    json g = json::object();
    for (const char* key : {"provisioned", "busy", "useful", "lost_to_preemption",
                            "checkpoint_overhead", "restart_overhead"}) {
      if (const auto v = number_at(*gh, key)) g[key] = *v;
    }
    data["gpu_hours"] = g;
    h += figure("gpu_hours", true, "Where the provisioned GPU-hours went",
                "GPU-hours (GPUs × hours) over the statistics window: useful work, compute lost to "
                "preemption, checkpoint writing, restart overhead and idle (provisioned − busy).",
                "Stacked bar chart of provisioned GPU-hours split into useful, lost, checkpoint, "
                "restart and idle");
  }
  h += "</div>\n";
  if (have_hours) {
    h += "<div class=\"card table-card table-scroll\"><table id=\"gpu-hours-table\"><caption>"
         "GPU-hours <small>GPUs × hours over the window</small></caption><thead><tr><th "
         "scope=\"col\">Kind</th><th scope=\"col\" class=\"num\">GPU-hours</th><th scope=\"col\" "
         "class=\"num\">Share of provisioned</th></tr></thead><tbody>\n";
    const auto prov = number_at(*gh, "provisioned");
    for (const auto& [key, label] : std::vector<std::pair<const char*, const char*>>{
             {"provisioned", "Provisioned (billed)"},
             {"busy", "Busy (held by running jobs)"},
             {"useful", "Useful (kept work)"},
             {"lost_to_preemption", "Lost to preemption"},
             {"checkpoint_overhead", "Checkpoint overhead"},
             {"restart_overhead", "Restart overhead"}}) {
      const auto v = number_at(*gh, key);
      if (!v) continue;
      const std::optional<double> share =
          prov && *prov > 0 ? std::optional<double>(*v / *prov) : std::nullopt;
      h += "<tr><td>" + std::string(label) + "</td>" + num_td(v, gpu_h(v), "GPU-h") +
           num_td(share, pct(share), "") + "</tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  return h + "</section>\n";
}

std::string render_utilization(const Facts& f, json& data) {
  json rows = json::array();
  for (const PoolRow& p : f.pools) {
    if (p.gpu_utilization)
      rows.push_back({{"name", p.name}, {"pricing", p.pricing}, {"util", *p.gpu_utilization}});
  }
  if (rows.empty()) return "";
  data["pool_util"] = std::move(rows);
  if (f.util) data["overall_util"] = *f.util;
  return "<section id=\"utilization\" aria-labelledby=\"h-utilization\"><h2 "
         "id=\"h-utilization\">Utilization per pool</h2>\n<div class=\"charts\">\n" +
         figure("pool_util", true, "GPU utilization per pool",
                "Busy ÷ provisioned GPU-seconds of each pool over the statistics window, in "
                "percent" +
                    (f.util ? "; dashed: the whole cluster (" + pct(f.util) + ")" : std::string()) +
                    ". Colour: pricing, as above.",
                "Bar chart of GPU utilization per pool in percent") +
         "</div>\n</section>\n";
}

std::string render_preemption(const json& r) {
  const json* p = find_path(r, "preemption");
  if (p == nullptr || !p->is_object()) return "";
  std::string h =
      "<section id=\"preemption\" aria-labelledby=\"h-preemption\"><h2 "
      "id=\"h-preemption\">Preemptions and lost work</h2>\n";
  h += mc_means_note(r);
  std::vector<Tile> tiles;
  if (const auto v = number_at(*p, "preemptions"))
    tiles.push_back(raw_tile("Preemptions", plural(*v, "job run", "job runs"),
                             "job runs ended by a spot reclaim (a gang counts once)", v, "runs"));
  if (const auto v = number_at(*p, "reclaimed_nodes")) {
    const auto waves = number_at(*p, "waves");
    tiles.push_back(raw_tile("Reclaimed nodes", plural(*v, "node", "nodes"),
                             waves ? "in " + plural(*waves, "reclaim wave", "reclaim waves") : "",
                             v, "nodes"));
  }
  if (const auto v = number_at(*p, "lost_gpu_hours"))
    tiles.push_back(raw_tile("Lost work", gpu_h(v), "compute thrown away since the last checkpoint",
                             v, "GPU-h"));
  const auto ck = number_at(*p, "checkpoint_overhead_gpu_hours");
  const auto rs = number_at(*p, "restart_overhead_gpu_hours");
  if (ck || rs) {
    const double sum = ck.value_or(0) + rs.value_or(0);
    tiles.push_back(
        raw_tile("Checkpoint + restart", gpu_h(sum),
                 gpu_h(ck) + " writing checkpoints, " + gpu_h(rs) + " reloading after a reclaim",
                 sum, "GPU-h"));
  }
  if (const auto v = number_at(*p, "restarts_per_job"))
    tiles.push_back(raw_tile("Restarts per job", format_number(*v, 2) + " restarts",
                             "restarts of completed jobs ÷ jobs completed", v, "per job"));
  if (!tiles.empty()) h += tiles_html(tiles);
  const json& pools = array_at(*p, "per_pool");
  if (!pools.empty()) {
    h += "<div class=\"card table-card table-scroll\"><table class=\"sortable\" "
         "id=\"preemption-pools-table\"><caption>Preemptions per pool</caption><thead><tr>" +
         sort_th("Pool", false) + sort_th("Preemptions", true) + sort_th("Reclaimed nodes", true) +
         sort_th("Reclaim waves", true) + "</tr></thead><tbody>\n";
    for (const json& row : pools) {
      h += "<tr>" + text_td(string_at(row, "name"));
      for (const auto& [key, unit] : std::vector<std::pair<const char*, const char*>>{
               {"preemptions", "runs"}, {"reclaimed_nodes", "nodes"}, {"waves", "waves"}}) {
        const auto v = number_at(row, key);
        h += num_td(v, v ? format_count(*v) + " " + unit : "", unit);
      }
      h += "</tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  const json& classes = array_at(*p, "per_class");
  if (!classes.empty()) {
    h += "<div class=\"card table-card table-scroll\"><table class=\"sortable\" "
         "id=\"preemption-classes-table\"><caption>Preemptions and lost work per class "
         "<small>GPU-h: GPUs × hours</small></caption><thead><tr>" +
         sort_th("Class", false) + sort_th("Preemptions", true) + sort_th("Lost work", true) +
         sort_th("Checkpoint overhead", true) + sort_th("Restart overhead", true) +
         sort_th("Restarts per job", true) + "</tr></thead><tbody>\n";
    for (const json& row : classes) {
      h += "<tr>" + text_td(string_at(row, "name"));
      const auto n = number_at(row, "preemptions");
      h += num_td(n, n ? format_count(*n) + " runs" : "", "runs");
      for (const char* key :
           {"lost_gpu_hours", "checkpoint_overhead_gpu_hours", "restart_overhead_gpu_hours"}) {
        const auto v = number_at(row, key);
        h += num_td(v, gpu_h(v), "GPU-h");
      }
      const auto rpj = number_at(row, "restarts_per_job");
      h += num_td(rpj, rpj ? format_number(*rpj, 2) : "", "restarts per job") + "</tr>\n";
    }
    h += "</tbody></table></div>\n";
  }
  return h + "</section>\n";
}

std::string render_tco(const json& r, json& data) {
  const json* options = find_path(r, "tco.options");
  if (options == nullptr || !options->is_object() || options->empty()) return "";
  json series = json::array();
  for (const auto& [name, o] : options->items()) {
    const json* cum = find_path(o, "cumulative_usd");
    if (!is_numeric_array(cum)) continue;
    json entry = {{"name", name}, {"cumulative_usd", *cum}};
    const json* band = find_path(o, "cumulative_usd_band");
    if (band != nullptr && band->is_object() && is_numeric_array(find_path(*band, "p10")) &&
        is_numeric_array(find_path(*band, "p90")))
      entry["band"] = {{"p10", (*band)["p10"]}, {"p90", (*band)["p90"]}};
    series.push_back(std::move(entry));
  }
  std::string h =
      "<section id=\"tco\" aria-labelledby=\"h-tco\"><h2 id=\"h-tco\">TCO projection</h2>\n";
  std::vector<std::string> settings;
  if (const auto m = number_at(r, "tco.months")) settings.push_back(plural(*m, "month", "months"));
  if (const std::string b = string_at(r, "tco.basis"); !b.empty())
    settings.push_back(esc(b) + " basis");
  if (const auto d = number_at(r, "tco.discount_rate"))
    settings.push_back("discount rate " + pct(d) + " a year");
  if (const auto g = number_at(r, "tco.demand_growth_per_month"))
    settings.push_back("demand growth " + pct(g) + " a month");
  if (const auto d = number_at(r, "tco.initial_demand_gpu_hours_per_month"))
    settings.push_back("initial demand " + gpu_h(d) + " a month");
  if (!settings.empty()) {
    h += "<p class=\"note\">Projection: ";
    for (std::size_t i = 0; i < settings.size(); ++i) h += (i ? ", " : "") + settings[i];
    h += ". Month m covers hours [730 m, 730 (m + 1)).</p>\n";
  }
  if (!series.empty()) {
    data["tco"] = std::move(series);
    h += "<div class=\"charts\">\n" +
         figure("tco", true, "Cumulative cost per option",
                find_path(r, "monte_carlo") != nullptr
                    ? "US dollars paid up to the end of each month, per compared option: the mean "
                      "over replications, each projecting its own measured demand; shaded: 10th "
                      "to 90th percentile."
                    : "US dollars paid up to the end of each month, per compared option.",
                "Line chart of cumulative cost in US dollars per month for each option") +
         "</div>\n";
  }
  const std::string cheapest = string_at(r, "tco.cheapest_by_npv");
  h += "<div class=\"card table-card table-scroll\"><table class=\"sortable\" "
       "id=\"tco-table\"><caption>Options compared</caption><thead><tr>" +
       sort_th("Option", false) + sort_th("On-prem nodes", true) + sort_th("Total cost", true) +
       sort_th("NPV", true) + sort_th("Break-even vs cloud", true) +
       sort_th("Burst / unserved", true) + "</tr></thead><tbody>\n";
  for (const auto& [name, o] : options->items()) {
    h += "<tr>" + std::string("<td data-sort=\"") + esc(name) + "\">" + esc(name) +
         (name == cheapest ? " " + pill("ok", "cheapest by NPV") : "") + "</td>";
    const auto nodes = number_at(o, "nodes");
    h += num_td(nodes, nodes ? format_count(*nodes) + " nodes" : "", "nodes");
    // Monte Carlo: the mean with its 95% CI half-width from the summary.
    const auto with_ci = [&](const std::optional<double>& v, const std::string& key) {
      const auto half = ci_half_width(r, "tco.options." + name + "." + key);
      return money(v) + (half ? " <span class=\"ci\">± " + money(half) + "</span>" : "");
    };
    const auto total = number_at(o, "total_usd");
    h += num_td(total, with_ci(total, "total_usd"), "USD");
    const auto npv = number_at(o, "npv_usd");
    h += num_td(npv, with_ci(npv, "npv_usd"), "USD");
    const json* be = find_path(r, "tco.break_even_month." + name + "_vs_cloud");
    if (name == "cloud") {
      h += "<td class=\"num\" data-sort=\"\">—</td>";
    } else if (be != nullptr && be->is_number()) {
      const double m = be->get<double>();
      h += num_td(m, "month " + format_count(m), "month (from 0)");
    } else {
      h += "<td class=\"num\" data-sort=\"\">never</td>";
    }
    const auto burst = number_at(o, "burst_gpu_hours");
    const auto unserved = number_at(o, "unserved_gpu_hours");
    if (burst) {
      h += num_td(burst, gpu_h(burst) + " burst", "GPU-h");
    } else if (unserved) {
      h += num_td(unserved, gpu_h(unserved) + " unserved", "GPU-h");
    } else {
      h += "<td class=\"num\" data-sort=\"\"></td>";
    }
    h += "</tr>\n";
  }
  h += "</tbody></table><p class=\"note\">NPV: net present value of the monthly costs at the "
       "discount rate. Break-even: first month (from 0) at whose end the option's cumulative cost "
       "is at most the cloud's." +
       std::string(find_path(r, "monte_carlo") != nullptr
                       ? " Across replications: totals and NPV are means ± 95% CI half-width; "
                         "on-prem nodes the mean fleet sized; break-even the median month "
                         "(never when half or more never break even)."
                       : "") +
       "</p></div>\n";
  return h + "</section>\n";
}

// ---- (e) reproduce, (f) warnings ----------------------------------------------------------------

std::string render_reproduce(const Facts& f, const json& r) {
  std::string h =
      "<section id=\"reproduce\" aria-labelledby=\"h-reproduce\"><div class=\"card\"><h2 "
      "id=\"h-reproduce\">"
      "Reproduce this run</h2>\n<dl class=\"facts\">";
  const auto fact = [&](std::string_view label, const std::string& value) {
    if (!value.empty()) h += "<dt>" + std::string(label) + "</dt><dd>" + value + "</dd>";
  };
  fact("Scenario", f.scenario.empty() ? "" : code(f.scenario));
  fact("gpuplan version", esc(f.version));
  fact("Seed", esc(f.seed));
  fact("Replications", format_count(static_cast<double>(f.replications)));
  fact("Generated", esc(readable_timestamp(f.generated_at)));
  std::string command =
      f.mc() ? "gpuplan mc scenario.json --replications " + std::to_string(f.replications)
             : "gpuplan run scenario.json";
  if (!f.seed.empty()) command += " --seed " + f.seed;
  const json* echo = find_path(r, "scenario_echo");
  fact("Command",
       code(command) +
           (echo != nullptr ? " with the scenario below saved as " + code("scenario.json") : ""));
  h += "</dl>\n";
  if (echo != nullptr) {
    h += "<pre class=\"echo\" aria-label=\"Scenario as simulated, defaults filled in\"><code>" +
         esc(echo->dump(2, ' ', false, json::error_handler_t::replace)) + "</code></pre>\n";
  } else {
    h += "<p class=\"note\">The result does not include the scenario; keep the scenario file with "
         "this report.</p>\n";
  }
  return h + "</div></section>\n";
}

std::string render_warnings(const json& r) {
  const json& warnings = array_at(r, "warnings");
  std::string h =
      "<section id=\"warnings\" aria-labelledby=\"h-warnings\"><div class=\"card\"><h2 "
      "id=\"h-warnings\">Warnings</h2>\n";
  if (warnings.empty())
    return h + "<p class=\"note\">The run raised no warnings.</p></div></section>\n";
  h += "<ul class=\"warnings\">\n";
  for (const json& w : warnings) {
    h += "<li>" +
         esc(w.is_string() ? w.get<std::string>()
                           : w.dump(-1, ' ', false, json::error_handler_t::replace)) +
         "</li>\n";
  }
  return h + "</ul></div></section>\n";
}

}  // namespace

std::string render_html_report(const json& result) {
  const Facts f = gather(result);
  ChartPlan plan = plan_charts(result, f);
  const std::string name = f.scenario.empty() ? "Unnamed scenario" : f.scenario;

  std::string h;
  h.reserve(gpuplan::embedded::chartjs().size() + 64 * 1024);
  h += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       // NOTE: the policy forbids every fetch, so the report provably works offline and leaks
       // nothing.
       "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src "
       "'unsafe-inline'; "
       "style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'\">\n"
       "<meta name=\"generator\" content=\"gpuplan " +
       esc(f.version) +
       "\">\n"
       "<title>" +
       esc(name) + " — gpuplan capacity report</title>\n<style>\n";
  h += report_css();
  h += "</style>\n<script>\n";
  h += report_error_capture_js();
  h += "</script>\n</head>\n<body>\n<header class=\"masthead\"><div class=\"wrap\"><div "
       "class=\"brand\">gpuplan · "
       "capacity report</div><h1>" +
       esc(name) + "</h1><p class=\"meta\">";
  if (!f.generated_at.empty())
    h += "<span>Generated " + esc(readable_timestamp(f.generated_at)) + "</span>";
  if (!f.version.empty()) h += "<span>gpuplan " + esc(f.version) + "</span>";
  if (!f.seed.empty()) h += "<span>seed " + esc(f.seed) + "</span>";
  h += "<span>" + plural(static_cast<double>(f.replications), "replication", "replications") +
       "</span>";
  if (f.window_s) h += "<span>statistics window " + dur_span(*f.window_s) + "</span>";
  h += "</p></div></header>\n<nav class=\"toc\" aria-label=\"Sections\"><ul><li><a "
       "href=\"#summary\">Summary</a></li>"
       "<li><a href=\"#figures\">Key figures</a></li>";
  // The cost-by-pool chart moves into the cost section when that section is shown.
  const std::string cost_detail = render_cost_detail(f, result, plan.cost, plan.data);
  const std::string charts = render_charts(f, plan, cost_detail.empty());
  const std::string network = render_network(result);
  const std::string utilization = render_utilization(f, plan.data);
  const std::string preemption = render_preemption(result);
  const std::string tco = render_tco(result, plan.data);
  const std::string tables = render_tables(f, result);
  if (!charts.empty()) h += "<li><a href=\"#charts\">Charts</a></li>";
  if (!network.empty()) h += "<li><a href=\"#network\">Network</a></li>";
  if (!cost_detail.empty()) h += "<li><a href=\"#cost-detail\">Cost</a></li>";
  if (!utilization.empty()) h += "<li><a href=\"#utilization\">Utilization</a></li>";
  if (!preemption.empty()) h += "<li><a href=\"#preemption\">Preemptions</a></li>";
  if (!tco.empty()) h += "<li><a href=\"#tco\">TCO</a></li>";
  if (!tables.empty()) h += "<li><a href=\"#tables\">Pools and classes</a></li>";
  h += "<li><a href=\"#reproduce\">Reproduce</a></li><li><a href=\"#warnings\">Warnings (" +
       std::to_string(f.n_warnings) + ")</a></li></ul></nav>\n<main class=\"wrap\">\n";
  h += render_summary(f, result);
  h += render_figures(f, result);
  h += charts;
  h += network;
  h += cost_detail;
  h += utilization;
  h += preemption;
  h += tco;
  h += tables;
  h += render_reproduce(f, result);
  h += render_warnings(result);
  h += "</main>\n<footer><div class=\"wrap\">Generated by gpuplan " + esc(f.version) +
       ". Figures cover jobs submitted in the statistics window, from warmup to horizon. This file "
       "is "
       "self-contained: it opens offline and loads nothing from the network.</div></footer>\n";
  h += "<script type=\"application/json\" id=\"gp-data\">" + json_for_script(plan.data) +
       "</script>\n";
  h += "<script id=\"gp-chartjs\">\n" + script_safe(gpuplan::embedded::chartjs()) + "\n</script>\n";
  h += "<script>\n" + script_safe(report_js()) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace gpuplan::reports
