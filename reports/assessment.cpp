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

// ---- what the verdicts rest on, with the tests the verdicts share ------------------------------

struct Facts : ResultFacts {
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
    const auto top = std::max_element(f.pools.begin(), f.pools.end(),
                                      [](const PoolFacts& a, const PoolFacts& b) {
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
  const PoolFacts& p = f.pools.front();
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
RichText elastic_pricing_hint(const PoolFacts& p, double util) {
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
    const PoolFacts& p = f.pools[i];
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

json confidence_items(const Facts& f) {
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
    const auto wait = f.wait_mean_ci;
    if (wait && !f.saturated()) {
      std::string p = "mean wait ± " + format_duration(*wait);
      if (f.wait.mean && *f.wait.mean > 0) p += " (± " + format_percent(*wait / *f.wait.mean) + ")";
      parts.push_back(p);
    }
    if (const auto u = f.util_ci)
      parts.push_back("GPU utilization ± " + format_number(*u * 100, 1) + " percentage points");
    if (const auto c = f.cost_total_ci) {
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
  if (!f.warnings.empty()) {
    RichText t;
    t << "The run raised " + plural(static_cast<double>(f.warnings.size()), "warning", "warnings") +
             "; read ";
    t.link("#warnings", "them");
    items.push_back((t << " before relying on these figures.").json());
  }
  return items;
}

// "on_prem runs out at month 6.8 (6.9 simulated) (5,000 GPU-h unserved)" for each option that
// falls short (the first short month where no run-out instant is known).
std::vector<RichText> short_options(const TcoFacts& t) {
  std::vector<RichText> out;
  for (const TcoOptionFacts& o : t.options) {
    if (o.serves_demand) continue;
    RichText r;
    r.code(o.name);
    // NOTE: the run-out instant (months from 0, to a tenth) where both sides give one; else the
    // first short month.
    if (o.runs_out_month) {
      r << " runs out at month " + format_number(*o.runs_out_month, 1);
      if (o.simulated_runs_out_month)
        r << " (" + format_number(*o.simulated_runs_out_month, 1) + " simulated)";
    } else {
      if (o.stops_keeping_up_month)
        r << " stops keeping up in month " + format_count(*o.stops_keeping_up_month);
      else
        r << " cannot be projected";
      if (o.simulated_stops_keeping_up_month)
        r << " (month " + format_count(*o.simulated_stops_keeping_up_month) + " in the simulation)";
    }
    if (o.unserved_gpu_hours && *o.unserved_gpu_hours > 0)
      r << " (" + format_count(*o.unserved_gpu_hours) + " GPU-h unserved)";
    out.push_back(std::move(r));
  }
  return out;
}

// The TCO option with the lowest NPV among those that serve the demand, and why; an object with
// a null name when none serves it; null without a TCO projection.
json cheapest_option(const std::optional<TcoFacts>& tco) {
  if (!tco) return nullptr;
  const TcoFacts& t = *tco;
  const std::vector<RichText> short_of = short_options(t);
  const auto append_short = [&](RichText& r, const char* lead) {
    for (std::size_t k = 0; k < short_of.size(); ++k) {
      r << (k == 0 ? lead : "; ");
      r << short_of[k];
    }
  };
  const auto best = std::find_if(t.options.begin(), t.options.end(), [&](const auto& o) {
    return !t.cheapest_by_npv.empty() && o.name == t.cheapest_by_npv;
  });
  const auto npv = best != t.options.end() ? best->npv_usd : std::nullopt;
  if (!npv) {
    RichText r;
    r << "No option is the cheapest: " +
             (t.cheapest_note.empty() ? std::string("none has a cost") : t.cheapest_note);
    append_short(r, ": ");
    return {{"name", nullptr}, {"npv_usd", nullptr}, {"text", (r << ".").json()}};
  }
  const std::string& name = best->name;
  RichText r;
  r.code(name);
  r << " has the lowest net present value, " + format_money(*npv);
  const TcoOptionFacts* runner = nullptr;
  for (const TcoOptionFacts& o : t.options) {
    if (o.name == name || !o.npv_usd || !o.serves_demand) continue;
    if (runner == nullptr || *o.npv_usd < *runner->npv_usd) runner = &o;
  }
  if (runner != nullptr) {
    r << ", " + format_money(*runner->npv_usd - *npv) + " less than the next option, ";
    r.code(runner->name);
  }
  if (name != "cloud" && t.cheapest_break_even_month)
    r << "; it breaks even with the cloud in month " + format_count(*t.cheapest_break_even_month);
  if (t.months) r << ", over " + plural(*t.months, "month", "months");
  append_short(r, short_of.size() == 1 ? ". Left out as it does not serve the demand: "
                                       : ". Left out as they do not serve the demand: ");
  r << ".";
  if (!t.caveat.empty()) {
    r << " ";
    r.strong("Caveat:");
    r << " " + t.caveat;
  }
  return {{"name", name}, {"npv_usd", *npv}, {"text", r.json()}};
}

}  // namespace

json assess(const ResultFacts& facts) {
  const Facts f{facts};
  const Sizing s = classify(f);
  const SizingName n = sizing_name(s);
  return {{"saturated", f.saturated()},
          {"sizing",
           {{"verdict", n.verdict},
            {"label", n.label},
            {"tone", n.tone},
            {"text", sizing_text(f, s).json()}}},
          {"banner", f.saturated() ? saturated_banner(f) : json(nullptr)},
          {"cost", cost_text(f).json()},
          {"changes", change_items(f, s)},
          {"confidence", confidence_items(f)},
          {"cheapest_option", cheapest_option(f.tco)},
          {"failures", assess_failures(facts)},
          {"sharing", assess_sharing(facts)},
          {"warnings", f.warnings}};
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
