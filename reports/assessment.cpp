#include "reports/assessment.h"

#include "models/compile/compile.h"
#include "reports/assessment_text.h"
#include "reports/format.h"
#include "reports/json_read.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace gpuplan::reports {
namespace {

using nlohmann::json;

// ---- safe access: a missing key or a value of the wrong type reads as absent -----------------

std::string string_at(const json& j, std::string_view dotted) {
  return string_value(find_path(j, dotted));
}

const json& array_at(const json& j, std::string_view dotted) {
  return array_value(find_path(j, dotted));
}

// ---- what the verdicts rest on, gathered once ------------------------------------------------

struct Stats {
  std::optional<double> mean, p50, p90, p99;
};

Stats stats_at(const json& j, std::string_view dotted) {
  const std::string p(dotted);
  return {number_at(j, p + ".mean"), number_at(j, p + ".p50"), number_at(j, p + ".p90"),
          number_at(j, p + ".p99")};
}

struct Pool {
  std::string name, pricing;
  std::optional<double> nodes, gpus, gpu_utilization, cost_usd;
  std::optional<double> mean_nodes;         // time-averaged provisioned (billed) nodes
  std::optional<double> elastic_min_nodes;  // set for elastic pools only
};

struct Facts {
  int64_t replications = 1;
  std::optional<double> window_s, util, offered, cost_total, cost_per_gpu_hour, gpus;
  // The busiest week's offered load, and the month (730 h) demand first reaches capacity.
  std::optional<double> peak_offered, reaches_month;
  // GPUs of the pools the offered load and the peak week are measured against.
  std::optional<double> offered_pool_gpus, peak_pool_gpus;
  std::optional<double> smallest_job_gpus;  // the fewest GPUs any job asks for (0: shared GPUs)
  // Provisioned GPUs time-averaged over the window (gpus: the most the pools may hold).
  std::optional<double> gpus_mean;
  std::optional<double> jobs_submitted, jobs_unfinished;
  Stats wait, jct;
  double saturated_share = 0;  // share of replicas that saturated, 0..1
  std::string saturation_cause, queue;
  std::vector<Pool> pools;
  std::size_t n_warnings = 0;

  bool mc() const { return replications > 1; }
  //! Demand at or above capacity: no queue reaches a steady state, flagged by the engine or not.
  bool overloaded() const { return offered && gpuplan::overloaded(*offered); }
  //! Demand passes capacity in some week of the horizon though not over the whole window.
  bool outgrown() const { return reaches_month.has_value() && !overloaded(); }
  //! The configuration cannot keep up: some replica saturated, the offered load is >= 100%, or
  //! the demand reaches capacity inside the horizon.
  bool saturated() const { return saturated_share > 0 || overloaded() || reaches_month; }
  //! Every job needs more than half the provisioned GPUs, so one runs at a time: more GPUs (short
  //! of a second gang) finish nothing sooner, and fewer cannot hold the gang.
  bool one_gang() const {
    return smallest_job_gpus && gpus && *smallest_job_gpus > 0 && 2 * *smallest_job_gpus > *gpus;
  }
  //! The provisioned GPUs vary over the window (elastic pools, preempted spot nodes): their time
  //! average is below the most the pools may hold.
  bool varies() const { return gpus_mean && gpus && *gpus - *gpus_mean > 0.05; }
  //! The GPUs utilization is measured against: time-averaged provisioned GPUs, else the count.
  std::optional<double> util_basis() const {
    return gpus_mean && *gpus_mean > 0 ? gpus_mean : gpus;
  }
  std::optional<double> mean_run_s() const {
    if (!wait.mean || !jct.mean || *jct.mean - *wait.mean <= 0) return std::nullopt;
    return *jct.mean - *wait.mean;
  }
};

std::vector<Pool> gather_pools(const json& r) {
  std::vector<Pool> rows;
  const json* per_pool = find_path(r, "cost_usd.per_pool");
  const bool have_map = per_pool != nullptr && per_pool->is_object();
  for (const json& p : array_at(r, "per_pool")) {
    if (!p.is_object()) continue;
    Pool row{string_at(p, "name"),       string_at(p, "pricing"),          number_at(p, "nodes"),
             number_at(p, "gpus"),       number_at(p, "gpu_utilization"),  number_at(p, "cost_usd"),
             number_at(p, "mean_nodes"), number_at(p, "elastic.min_nodes")};
    if (!row.cost_usd && !row.name.empty() && have_map)
      row.cost_usd = finite_number(member(*per_pool, row.name));
    rows.push_back(std::move(row));
  }
  // Only the cost map is present: one row per pool it names.
  if (rows.empty() && have_map) {
    for (const auto& [name, cost] : per_pool->items()) {
      Pool row{};
      row.name = name;
      row.cost_usd = finite_number(&cost);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

Facts gather(const json& r) {
  Facts f;
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
  f.wait = stats_at(r, "metrics.wait_s");
  f.jct = stats_at(r, "metrics.jct_s");
  if (const json* s = find_path(r, "metrics.saturated"); s != nullptr) {
    // NOTE: a Monte Carlo mean may turn the flag into the share of replicas that saturated.
    if (s->is_boolean()) f.saturated_share = s->get<bool>() ? 1.0 : 0.0;
    if (s->is_number()) f.saturated_share = std::clamp(s->get<double>(), 0.0, 1.0);
  }
  f.saturation_cause = string_at(r, "metrics.saturation_cause");
  f.queue = string_at(r, "scenario_echo.scheduler.queue");
  f.pools = gather_pools(r);
  double gpus = 0;
  bool have_gpus = false;
  for (const Pool& p : f.pools) {
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
  f.gpus_mean = number_at(r, "metrics.provisioned_gpus.mean");
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

// ---- sizing -------------------------------------------------------------------------------------

enum class Sizing : uint8_t {
  unknown,
  cannot_keep_up,
  running_hot,
  long_waits,
  over_provisioned,
  right_sized
};

struct SizingName {
  const char* verdict;
  const char* label;
  const char* tone;  // the pill colour: ok, warn, bad, info
};

SizingName sizing_name(Sizing s) {
  switch (s) {
    case Sizing::cannot_keep_up:
      return {"cannot_keep_up", "Cannot keep up", "bad"};
    case Sizing::running_hot:
      return {"running_hot", "Running hot", "warn"};
    case Sizing::long_waits:
      return {"long_waits", "Long waits", "warn"};
    case Sizing::over_provisioned:
      return {"over_provisioned", "Over-provisioned", "info"};
    case Sizing::right_sized:
      return {"right_sized", "Right-sized", "ok"};
    case Sizing::unknown:
      break;
  }
  return {"unknown", "", "info"};
}

Sizing classify(const Facts& f) {
  if (f.saturated()) return Sizing::cannot_keep_up;
  if (!f.util) return Sizing::unknown;
  if (*f.util >= UTIL_HIGH) return Sizing::running_hot;
  const auto run = f.mean_run_s();
  if (run && f.wait.p90 && *f.wait.p90 > LONG_WAIT_RATIO * *run) return Sizing::long_waits;
  if (*f.util < UTIL_LOW) return Sizing::over_provisioned;
  return Sizing::right_sized;
}

json saturated_banner(const Facts& f) {
  RichText t;
  if (f.outgrown() &&
      (f.saturation_cause == "demand_outgrows_capacity" || f.saturated_share == 0)) {
    t << "The demand grows past the cluster's capacity: the offered load reaches it in month " +
             format_number(*f.reaches_month, 1);
    if (f.peak_offered) t << " and " + pct(f.peak_offered, 0) + " of it in the busiest week";
    t << ". From then on the queue of waiting jobs grows for as long as the simulation runs, so "
         "the figures over the whole window understate the end of the horizon. ";
  } else if (f.saturated_share == 0 || f.saturation_cause == "offered_load") {
    t << "Jobs ask for " + pct(f.offered, 0) +
             " of the cluster's GPU capacity, so the queue of waiting jobs grows for as long as "
             "the simulation runs, even where the run was not stopped early. ";
  } else if (f.mc() && f.saturated_share < 1) {
    const double k = std::round(f.saturated_share * static_cast<double>(f.replications));
    t << "In " + format_count(k) + " of " + format_count(static_cast<double>(f.replications)) +
             " replications the queue grew without bound. ";
  } else {
    t << "The queue of waiting jobs grew without bound, so the simulation flagged the run as "
         "saturated. ";
  }
  t << "Wait and completion-time figures are ";
  t.strong("not meaningful");
  t << ": they only reflect how long the simulation ran. Add capacity or reduce the load, then "
       "run again.";
  if (!f.saturation_cause.empty() && f.saturation_cause != "none") {
    t << " Cause reported by the engine: ";
    t.code(f.saturation_cause);
    t << ".";
  }
  return {{"title", f.outgrown() ? "This configuration cannot keep up with the growing demand"
                                 : "This configuration cannot keep up with the offered load"},
          {"text", t.json()}};
}

RichText sizing_text(const Facts& f, Sizing s) {
  const auto run = f.mean_run_s();
  const std::string util = pct(f.util);
  RichText t;
  switch (s) {
    case Sizing::cannot_keep_up:
      if (f.outgrown()) {
        t << "The demand outgrows " +
                 (f.gpus ? "the " + plural(*f.gpus, "GPU", "GPUs") : std::string("the cluster")) +
                 ": it reaches their capacity in month " + format_number(*f.reaches_month, 1);
        if (f.peak_offered) t << " and " + pct(f.peak_offered, 0) + " of it in the busiest week";
        return t << ", after which the queue grows for as long as the simulation runs.";
      }
      t << "Jobs arrive faster than " +
               (f.gpus ? "the " + plural(*f.gpus, "GPU", "GPUs") : std::string("the cluster")) +
               " can finish them";
      if (f.offered) t << " (offered load " + pct(f.offered, 0) + " of capacity)";
      return t << ", so the queue grows for as long as the simulation runs.";
    case Sizing::running_hot:
      t << "GPUs are busy " + util + " of the time, which leaves little headroom for bursts";
      if (f.wait.p90 && f.wait.p99) {
        t << ": nine in ten jobs start within " + dur(f.wait.p90) +
                 ", but one in a hundred waits longer than " + dur(f.wait.p99) + " (p99)";
      }
      return t << ".";
    case Sizing::long_waits:
      return t << "GPUs are busy only " + util +
                      " of the time, yet one job in ten waits longer "
                      "than " +
                      dur(f.wait.p90) + " (p90 wait), more than half the mean run time of " +
                      dur(run) +
                      ". The queue comes from job shape or scheduling order (large jobs waiting "
                      "for whole nodes) rather than from total capacity.";
    case Sizing::over_provisioned:
      t << "GPUs are busy only " + util + " of the time";
      if (f.wait.p90) t << " and jobs start almost at once (p90 wait " + dur(f.wait.p90) + ")";
      return t << "; much of the fleet sits idle.";
    case Sizing::right_sized:
      t << "GPUs are busy " + util + " of the time";
      if (f.wait.p50 && f.wait.p90) {
        t << " and jobs start promptly: half within " + dur(f.wait.p50) + ", nine in ten within " +
                 dur(f.wait.p90) + " (p90)";
        if (run) t << ", against a mean run time of " + dur(run);
      }
      return t << ".";
    case Sizing::unknown:
      break;
  }
  return t << "The result reports no GPU utilization, so the sizing cannot be judged.";
}

RichText cost_text(const Facts& f) {
  RichText t;
  if (!f.cost_total) return t << "The result reports no cost.";
  t.strong(money(f.cost_total));
  if (f.window_s) {
    t << " over the " + format_duration(*f.window_s) + " statistics window (" +
             format_count(*f.window_s) + " s, from warmup to horizon)";
  }
  if (f.cost_per_gpu_hour) {
    t << ", or " + money(f.cost_per_gpu_hour) + " per provisioned GPU-hour";
    if (f.varies()) {
      t << " across " + format_number(*f.gpus_mean, 1) + " GPUs on average (time-averaged; " +
               format_count(*f.gpus) + " at most)";
    } else if (f.gpus) {
      t << " across " + plural(*f.gpus, "GPU", "GPUs");
    }
  }
  t << ".";
  if (f.cost_per_gpu_hour && f.util && *f.util > 0 && !f.saturated()) {
    t << " At " + pct(f.util) + " utilization each busy GPU-hour effectively costs " +
             format_money(*f.cost_per_gpu_hour / *f.util) + ".";
  }
  if (f.pools.size() > 1 && *f.cost_total > 0) {
    const auto top =
        std::max_element(f.pools.begin(), f.pools.end(), [](const Pool& a, const Pool& b) {
          return a.cost_usd.value_or(0) < b.cost_usd.value_or(0);
        });
    if (top->cost_usd) {
      t << " The largest share is pool ";
      t.code(top->name);
      t << " at " + format_money(*top->cost_usd) + " (" +
               format_percent(*top->cost_usd / *f.cost_total) + " of the total).";
    }
  }
  if (f.saturated()) {
    t << " The run saturated, so this is the price of the hardware, not of serving the workload.";
  }
  return t;
}

// A sweep command that scales pool 0 so the pools of `basis` GPUs (default: all) hold each of the
// given GPU totals; empty when pool 0 lacks node and GPU counts.
RichText pool_sweep(const Facts& f, const std::vector<double>& gpu_totals,
                    std::optional<double> basis = std::nullopt) {
  RichText t;
  if (!basis) basis = f.gpus;
  if (f.pools.empty() || !basis) return t;
  const Pool& p = f.pools.front();
  if (!p.nodes || !p.gpus || *p.nodes <= 0 || *p.gpus <= 0) return t;
  const double per_node = *p.gpus / *p.nodes;
  std::vector<long long> counts;
  for (const double total : gpu_totals) {
    const long long n = static_cast<long long>(*p.nodes + std::ceil((total - *basis) / per_node));
    if (n >= 1 && std::find(counts.begin(), counts.end(), n) == counts.end()) counts.push_back(n);
  }
  if (counts.empty()) return t;
  std::string values;
  for (const long long n : counts) values += (values.empty() ? "" : ",") + std::to_string(n);
  t << "To compare, scale pool ";
  t.code(p.name);
  t << " (" + format_count(*p.nodes) + " nodes of " +
           format_number(per_node, per_node == std::floor(per_node) ? 0 : 1) + " GPUs): ";
  t.code("gpuplan sweep SCENARIO --vary pools.0.count=" + values);
  return t << ".";
}

// What to reserve of an elastic pool paying on-demand prices: never more than its time-average
// provisioned nodes (its steady base); the burst above stays elastic on demand.
RichText elastic_pricing_hint(const Pool& p, double util) {
  RichText t;
  t << "Pool ";
  t.code(p.name);
  t << " is elastic and pays on-demand prices at " + pct(util) + " utilization";
  if (!p.mean_nodes) return t << "; reserve only its steady base, and keep the burst on demand.";
  const double base = std::floor(*p.mean_nodes);
  t << ", with " + format_number(*p.mean_nodes, 1) + " nodes provisioned on average (" +
           format_count(*p.elastic_min_nodes) + " always on";
  if (p.nodes) t << ", " + format_count(*p.nodes) + " at most";
  t << "). ";
  if (base < 1) return t << "Its steady base is under one node: keep it on demand.";
  return t << "Reserving pays only for its steady base: at most " + plural(base, "node", "nodes") +
                  " (the time-average), as a separate reserved pool, with the burst above it "
                  "kept elastic on demand.";
}

json change_items(const Facts& f, Sizing s) {
  json items = json::array();
  const auto add = [&](const RichText& t) {
    if (!t.empty()) items.push_back(t.json());
  };
  const std::string target_pct = format_percent(UTIL_TARGET, 0);
  if (f.one_gang() && s != Sizing::cannot_keep_up && s != Sizing::unknown) {
    add(RichText() << "Every job needs at least " + plural(*f.smallest_job_gpus, "GPU", "GPUs") +
                          ", more than half of the " + format_count(*f.gpus) +
                          " provisioned, so one job runs at a time: adding GPUs short of a "
                          "second such job finishes nothing sooner, and fewer cannot hold it. "
                          "Its time is set by its own speed, failures and restarts.");
    return items;
  }
  switch (s) {
    case Sizing::cannot_keep_up:
      if (const auto held = f.peak_pool_gpus ? f.peak_pool_gpus : f.gpus;
          f.outgrown() && f.peak_offered && held) {
        const double need = std::ceil(*f.peak_offered * *held);
        const double target = std::ceil(*f.peak_offered * *held / UTIL_TARGET);
        add(RichText() << "Add capacity before month " + format_number(*f.reaches_month, 1) +
                              ": the busiest week needs at least " + plural(need, "GPU", "GPUs") +
                              ", and about " + format_count(target) + " (" + target_pct +
                              " busy) to keep waits short, where the pools its jobs may use hold " +
                              format_count(*held) +
                              ". Staged purchases or a burst pool add them when the demand needs "
                              "them.");
        add(pool_sweep(f, {need, target}, held));
      } else if (const auto basis = f.offered_pool_gpus ? f.offered_pool_gpus : f.gpus;
                 f.offered && basis && !f.mc() && *f.offered > 0) {
        const double need = std::ceil(*f.offered * *basis);
        const double target = std::ceil(*f.offered * *basis / UTIL_TARGET);
        add(RichText() << "Provision at least " + plural(need, "GPU", "GPUs") +
                              " just to keep up, and about " + format_count(target) + " (" +
                              target_pct + " busy) to keep waits short; " +
                              (f.gpus && *basis == *f.gpus
                                   ? plural(*f.gpus, "GPU is", "GPUs are") + " provisioned today"
                                   : "the pools its jobs may use hold " + format_count(*basis)) +
                              ". Or reduce the offered load (fewer or shorter jobs).");
        add(pool_sweep(f, {need, target}, basis));
      } else if (const auto basis = f.offered_pool_gpus ? f.offered_pool_gpus : f.gpus;
                 f.offered && basis && *f.offered > 0) {
        const double target = std::ceil(*f.offered * *basis / UTIL_TARGET);
        add(RichText() << "Add capacity, to roughly " + plural(target, "GPU", "GPUs") + " (" +
                              target_pct +
                              " busy at the mean offered load), or reduce the offered load.");
        add(pool_sweep(f, {target}, basis));
      } else {
        add(RichText() << "Add capacity or reduce the offered load (fewer or shorter jobs), then "
                          "run again.");
      }
      break;
    case Sizing::running_hot:
      if (f.util_basis() && f.util) {
        const double base = *f.util_basis();
        const double target = std::ceil(*f.util * base / UTIL_TARGET);
        add(RichText() << "Add about " + plural(target - base, "GPU", "GPUs") + " (to " +
                              format_count(target) + (f.varies() ? " on average" : "") +
                              ") to bring utilization near " + target_pct +
                              " and shorten tail waits.");
        if (!f.varies()) add(pool_sweep(f, {target, std::ceil(target * 1.1)}));
      } else {
        add(RichText() << "Add capacity to bring utilization below " +
                              format_percent(UTIL_HIGH, 0) + ".");
      }
      break;
    case Sizing::long_waits: {
      RichText t;
      t << "Adding GPUs helps less here than placing jobs better";
      if (f.queue.empty() || f.queue == "fifo") {
        t << ": try backfill scheduling, ";
        t.code("gpuplan sweep SCENARIO --vary scheduler.queue=fifo,backfill");
        t << ", or nodes with more GPUs so large jobs find room sooner.";
      } else {
        t << ": try nodes with more GPUs, or separate pools for large jobs, so they find room "
             "sooner.";
      }
      add(t);
      break;
    }
    case Sizing::over_provisioned:
      if (f.util_basis() && f.util) {
        const double base = *f.util_basis();
        const double target = std::max(1.0, std::ceil(*f.util * base / UTIL_TARGET));
        RichText t;
        t << "About " + plural(target, "GPU", "GPUs") + (f.varies() ? " on average" : "") +
                 " would carry this load at about " + target_pct + " utilization, " +
                 format_number(base - target, f.varies() ? 1 : 0) + " fewer than today";
        if (f.cost_total) {
          t << ", saving roughly " + format_money(*f.cost_total * (1 - target / base)) +
                   " over the window at today's prices (pro rata)";
        }
        add(t << ". Check the waits that gives before you shrink.");
        if (!f.varies()) add(pool_sweep(f, {target, std::ceil(target * 1.15)}));
      } else {
        RichText t;
        t << "Fewer GPUs would carry this load; check the waits with ";
        t.code("gpuplan sweep");
        add(t << ".");
      }
      break;
    case Sizing::right_sized:
      add(RichText() << "No capacity change needed.");
      break;
    case Sizing::unknown:
      add(RichText() << "No recommendation: the result lacks the utilization figure.");
      break;
  }
  for (std::size_t i = 0; i < f.pools.size() && !f.saturated(); ++i) {
    const Pool& p = f.pools[i];
    const std::optional<double> util = p.gpu_utilization ? p.gpu_utilization : f.util;
    if (p.pricing != "on_demand" || !util || *util < PRICING_HINT_UTIL) continue;
    if (p.elastic_min_nodes) {
      add(elastic_pricing_hint(p, *util));
      continue;
    }
    RichText t;
    t << "Pool ";
    t.code(p.name);
    t << " pays on-demand prices at " + pct(util) +
             " utilization; reserved pricing usually costs less for load this steady: ";
    t.code("gpuplan sweep SCENARIO --vary pools." + std::to_string(i) +
           ".pricing=on_demand,reserved_1y");
    add(t << ".");
  }
  return items;
}

json confidence_items(const Facts& f, const json& r) {
  json items = json::array();
  if (!f.mc()) {
    RichText t;
    t.strong("One replication");
    t << " — run ";
    t.code("gpuplan mc");
    t << " for confidence intervals. These figures come from a single random draw of the "
         "workload.";
    items.push_back(t.json());
  } else {
    std::vector<std::string> parts;
    const auto wait = ci_half_width(r, "metrics.wait_s.mean");
    if (wait && !f.saturated()) {
      std::string p = "mean wait ± " + format_duration(*wait);
      if (f.wait.mean && *f.wait.mean > 0) p += " (± " + format_percent(*wait / *f.wait.mean) + ")";
      parts.push_back(p);
    }
    if (const auto u = ci_half_width(r, "metrics.gpu_utilization"))
      parts.push_back("GPU utilization ± " + format_number(*u * 100, 1) + " percentage points");
    if (const auto c = ci_half_width(r, "cost_usd.total")) {
      std::string p = "total cost ± " + format_money(*c);
      if (f.cost_total && *f.cost_total > 0) p += " (± " + format_percent(*c / *f.cost_total) + ")";
      parts.push_back(p);
    }
    RichText t;
    t.strong(format_count(static_cast<double>(f.replications)) + " replications");
    if (parts.empty()) {
      t << "; the result carries no confidence intervals for the headline figures.";
    } else {
      t << ". Half-widths of the 95% confidence intervals: ";
      for (std::size_t i = 0; i < parts.size(); ++i)
        t << (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
      t << ".";
    }
    items.push_back(t.json());
  }
  if (f.jobs_unfinished && *f.jobs_unfinished > 0) {
    RichText t;
    t << plural(*f.jobs_unfinished, "job", "jobs");
    if (f.jobs_submitted && *f.jobs_submitted > 0) {
      t << " of " + format_count(*f.jobs_submitted) + " counted (" +
               format_percent(*f.jobs_unfinished / *f.jobs_submitted) + ")";
    }
    t << std::string(std::llround(*f.jobs_unfinished) == 1 ? " was" : " were") +
             " still waiting or running at the horizon; their waits so far count in no "
             "percentile.";
    items.push_back(t.json());
  }
  if (f.n_warnings > 0) {
    RichText t;
    t << "The run raised " + plural(static_cast<double>(f.n_warnings), "warning", "warnings") +
             "; read ";
    t.link("#warnings", "them");
    items.push_back((t << " before relying on these figures.").json());
  }
  return items;
}

// Whether TCO option `o` serves the projected demand (documents before the flag: it does).
bool serves_demand(const json& o) {
  const json* v = member(o, "serves_demand");
  return v == nullptr || !v->is_boolean() || v->get<bool>();
}

// "on_prem runs out at month 6.8 (6.9 simulated) (5,000 GPU-h unserved)" for each option that
// falls short (the first short month where no run-out instant is known).
std::vector<RichText> short_options(const json& options) {
  std::vector<RichText> out;
  for (const auto& [name, o] : options.items()) {
    if (serves_demand(o)) continue;
    RichText t;
    t.code(name);
    // NOTE: the run-out instant (months from 0, to a tenth) where both sides give one; else the
    // first short month.
    const auto runs_out = number_at(o, "runs_out_month");
    const auto simulated_runs_out = number_at(o, "simulation.runs_out_month");
    const auto simulated = number_at(o, "simulation.stops_keeping_up_month");
    if (runs_out) {
      t << " runs out at month " + format_number(*runs_out, 1);
      if (simulated_runs_out) t << " (" + format_number(*simulated_runs_out, 1) + " simulated)";
    } else {
      if (const auto m = number_at(o, "stops_keeping_up_month"))
        t << " stops keeping up in month " + format_count(*m);
      else
        t << " cannot be projected";
      if (simulated) t << " (month " + format_count(*simulated) + " in the simulation)";
    }
    if (const auto u = number_at(o, "unserved_gpu_hours"); u && *u > 0)
      t << " (" + format_count(*u) + " GPU-h unserved)";
    out.push_back(std::move(t));
  }
  return out;
}

// The TCO option with the lowest NPV among those that serve the demand, and why; an object with
// a null name when none serves it; null without a TCO projection.
json cheapest_option(const json& r) {
  const json* options = find_path(r, "tco.options");
  if (options == nullptr || !options->is_object() || options->empty()) return nullptr;
  const std::string name = string_at(r, "tco.cheapest_by_npv");
  const std::vector<RichText> short_of = short_options(*options);
  const auto append_short = [&](RichText& t, const char* lead) {
    for (std::size_t k = 0; k < short_of.size(); ++k) {
      t << (k == 0 ? lead : "; ");
      t << short_of[k];
    }
  };
  const json* best = name.empty() ? nullptr : member(*options, name);
  const auto npv = best != nullptr ? number_at(*best, "npv_usd") : std::nullopt;
  if (!npv) {
    RichText t;
    const std::string note = string_at(r, "tco.cheapest_note");
    t << "No option is the cheapest: " + (note.empty() ? std::string("none has a cost") : note);
    append_short(t, ": ");
    return {{"name", nullptr}, {"npv_usd", nullptr}, {"text", (t << ".").json()}};
  }
  RichText t;
  t.code(name);
  t << " has the lowest net present value, " + format_money(*npv);
  std::string runner;
  std::optional<double> runner_npv;
  for (const auto& [other, o] : options->items()) {
    const auto v = number_at(o, "npv_usd");
    if (other == name || !v || !serves_demand(o)) continue;
    if (!runner_npv || *v < *runner_npv) {
      runner = other;
      runner_npv = v;
    }
  }
  if (runner_npv) {
    t << ", " + format_money(*runner_npv - *npv) + " less than the next option, ";
    t.code(runner);
  }
  if (name != "cloud") {
    if (const auto m = number_at(r, "tco.break_even_month." + name + "_vs_cloud"))
      t << "; it breaks even with the cloud in month " + format_count(*m);
  }
  if (const auto months = number_at(r, "tco.months"))
    t << ", over " + plural(*months, "month", "months");
  append_short(t, short_of.size() == 1 ? ". Left out as it does not serve the demand: "
                                       : ". Left out as they do not serve the demand: ");
  t << ".";
  if (const std::string caveat = string_at(r, "tco.caveat"); !caveat.empty()) {
    t << " ";
    t.strong("Caveat:");
    t << " " + caveat;
  }
  return {{"name", name}, {"npv_usd", *npv}, {"text", t.json()}};
}

json warnings_of(const json& r) {
  json out = json::array();
  for (const json& w : array_at(r, "warnings"))
    out.push_back(w.is_string() ? w.get<std::string>()
                                : w.dump(-1, ' ', false, json::error_handler_t::replace));
  return out;
}

}  // namespace

json assess(const json& result) {
  const Facts f = gather(result);
  const Sizing s = classify(f);
  const SizingName n = sizing_name(s);
  json a = {{"saturated", f.saturated()},
            {"sizing",
             {{"verdict", n.verdict},
              {"label", n.label},
              {"tone", n.tone},
              {"text", sizing_text(f, s).json()}}},
            {"banner", f.saturated() ? saturated_banner(f) : json(nullptr)},
            {"cost", cost_text(f).json()},
            {"changes", change_items(f, s)},
            {"confidence", confidence_items(f, result)},
            {"cheapest_option", cheapest_option(result)},
            {"failures", assess_failures(result)},
            {"sharing", assess_sharing(result)},
            {"warnings", warnings_of(result)}};
  if (json rec = assess_recommendation(result); !rec.is_null())
    a["recommendation"] = std::move(rec);
  return a;
}

std::string plain_text(const json& runs) {
  if (runs.is_string()) return runs.get<std::string>();
  if (!runs.is_array()) return "";
  std::string out;
  for (const json& r : runs) {
    if (r.is_string()) {
      out += r.get<std::string>();
    } else if (r.is_object()) {
      for (const char* key : {"code", "strong", "text"})
        if (const json* v = member(r, key); v != nullptr && v->is_string()) {
          out += v->get<std::string>();
          break;
        }
    }
  }
  return out;
}

}  // namespace gpuplan::reports
