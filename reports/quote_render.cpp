#include "reports/quote_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "models/economics/billing.h"
#include "models/perf/energy/energy_data.h"
#include "models/perf/energy/power_model.h"
#include "models/perf/training/calibration.h"
#include "models/perf/training/published_runs.h"
#include "models/input/names.h"
#include "reports/format.h"
#include "reports/quantity.h"
#include "reports/quote_text.h"
#include "reports/serving_json.h"
#include "reports/assessment.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"

namespace gpuplan::quote {
namespace {

using nlohmann::json;
using reports::format_count;
using reports::format_duration;
using reports::format_money;
using reports::format_number;
using reports::format_percent;

//! Money as every command prints it (reports/quantity.h): "$7,251,234.12".
std::string money_text(double usd) {
  return reports::format_quantity(reports::Quantity::money, usd);
}

//! A training time: days with one decimal from a day up, else format_duration.
std::string time_text(double s) {
  if (!std::isfinite(s)) return "never";
  if (s >= 86400) return format_number(s / 86400, 1) + " d";
  return format_duration(s);
}

//! Latency: milliseconds below a second, seconds with two decimals below a minute.
std::string latency_text(double s) {
  if (!std::isfinite(s)) return "n/a";
  if (s < 5e-6) return "0 ms";  // below the 0.01 ms the table can show
  if (s < 1) return format_number(s * 1000, s < 0.01 ? 2 : (s < 0.1 ? 1 : 0)) + " ms";
  if (s < 60) return format_number(s, 2) + " s";
  return format_duration(s);
}

//! Energy and carbon for a table cell: "1.2 GWh · 450 t", "84.0 MWh · 31.2 t", "950 kWh · 0.36 t"
//! (quote.js keeps the same format).
std::string energy_text(const OptionEnergy& e) {
  const double k = e.kwh, t = e.tco2e;
  const std::string energy = k >= 1e6   ? format_number(k / 1e6, 2) + " GWh"
                             : k >= 1e3 ? format_number(k / 1e3, 1) + " MWh"
                                        : format_number(k, 0) + " kWh";
  return energy + " · " + format_number(t, t < 10 ? 2 : t < 100 ? 1 : 0) + " t";
}

//! An option's `energy` keys in quote.json: kWh and tCO2e (`per` = "run" or "month") and the
//! power, PUE and grid figures behind them; the grid factor's source only in the internal view.
json energy_json(const OptionEnergy& e, const char* per, bool internal) {
  json j = {{"kwh", e.kwh},
            {"tco2e", e.tco2e},
            {"per", per},
            {"node_busy_kw", e.node_busy_kw},
            {"node_idle_kw", e.node_idle_kw},
            {"pue", e.pue},
            {"g_co2e_per_kwh", e.g_co2e_per_kwh},
            {"grid_region", e.grid_region}};
  if (internal) j["grid_source"] = e.grid_source;
  return j;
}

//! What a training option's Monte Carlo figures come from.
std::string mc_source_text(const SpotTiming& t) {
  if (t.replicas > 0) return format_count(t.replicas) + " runs, which P50 and P90 come from too";
  return format_count(t.sampled_blocks) +
         " sampled checkpoint blocks, whose spread gives P90 too (the run is their sum)";
}

//! P90 of a training option: "n/a" when no Monte Carlo ran for a spot option.
std::string p90_text(const TrainingOption& o) {
  if (o.spot_nodes > 0 && o.timing.replicas == 0 && o.timing.sampled_blocks == 0) return "n/a";
  return time_text(o.timing.p90_s);
}

std::string usd_per_tflops_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "$%.4f", v);
  return buf;
}

std::string training_flags(const TrainingOption& o) {
  std::string f;
  const auto add = [&](const char* s) { f += (f.empty() ? "" : ", ") + std::string(s); };
  if (!o.meets_deadline) add("misses deadline");
  if (!o.within_budget) add("over budget");
  if (!o.recommended) add(("not recommended (MFU " + format_percent(o.speed.mfu, 0) + ")").c_str());
  if (o.speed.above_published)
    add(("MFU above the best published run (" + format_percent(o.speed.best_published_mfu, 0) + ")")
            .c_str());
  if (o.speed.extrapolated) add("extrapolated layout");
  if (!o.speed.modelled) add("MFU set by --mfu");
  if (o.stale) add("stale price");
  return f;
}

//! "41 % · 1,234 tok/s/GPU".
std::string efficiency_text(const TrainingSpeed& s) {
  return format_percent(s.mfu, 1) + " · " + format_number(s.tokens_per_gpu_s, 0);
}

std::string inference_flags(const InferenceOption& o, const std::optional<ServingCheck>& sim) {
  std::string f;
  const auto add = [&](const char* s) { f += (f.empty() ? "" : ", ") + std::string(s); };
  if (!o.meets_target)
    add(o.spot_loss && o.spot_loss->p99_budget_share >= 1 && o.sizing.meets
            ? "spot reclaims break the p99"
            : "misses target");
  if (sim && !sim->meets_targets) add("simulation misses p99");
  if (o.stale) add("stale price");
  return f;
}

//! A p99 of the iteration-level simulation for a table cell: "82.5 ms", "saturated", or "-"
//! where the row was not simulated.
std::string sim_p99_text(const std::optional<ServingCheck>& sim, Estimate ServingCheck::*p99) {
  if (!sim) return "-";
  return sim->saturated ? "saturated" : latency_text(((*sim).*p99).mean);
}

//! The share of simulated requests within both SLOs with its 95 % interval: "99.7 % ±0.2"; "-"
//! where the row was not simulated or the request sets no TTFT or TPOT target.
std::string attainment_text(const InferenceRequest& req, const std::optional<ServingCheck>& sim) {
  if (!sim || !(req.ttft_p99_s > 0 || req.tpot_p99_s > 0)) return "-";
  const Estimate& a = sim->slo_attainment;
  const double half = 0.5 * (a.ci95_high - a.ci95_low);
  return format_percent(a.mean, 1) + " ±" + format_number(100 * half, 1);
}

std::string spot_risk_text(const TrainingOption& o) {
  if (o.spot_nodes == 0) return "none";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s (~%.0f stops, +%.0f%%)", o.risk.c_str(),
                o.timing.expected_interruptions, 100 * (o.timing.p50_s / o.speed.work_s - 1));
  return buf;
}

std::string spot_risk_text(const InferenceOption& o) {
  if (o.spot_nodes == 0) return "none";
  std::string text = o.risk + ", +" + std::to_string(o.nodes - o.serving_nodes) + " spare";
  if (o.spot_loss) {
    char buf[96];
    std::snprintf(buf, sizeof buf, " (~%.0f reclaims/mo, %.2g%% of requests miss)",
                  o.spot_loss->node_losses_per_month, 100 * o.spot_loss->miss_share);
    text += buf;
  }
  return text;
}

//! "6 × TP2, b64 +1": replicas, GPUs each, batch, spares.
std::string replicas_text(const InferenceOption& o) {
  return format_count(o.sizing.replicas) + " × TP" + std::to_string(o.sizing.tp) + " b" +
         std::to_string(o.sizing.batch) + " +" + std::to_string(o.spare_replicas);
}

//! ": nearest, <instance> with <miss>" over every instance, or "".
std::string nearest_miss_text(const Quote& q) {
  const InferenceOption* best = nullptr;
  for (const InferenceOption& o : q.inference)
    if (!o.feasible && o.miss_ratio > 0 && std::isfinite(o.miss_ratio) &&
        (!best || o.miss_ratio < best->miss_ratio))
      best = &o;
  if (!best) return "";
  const std::string& r = best->infeasible_reason;
  const auto colon = r.find(": nearest is ");
  return ": the nearest miss is " + best->instance->id + ", " +
         (colon == std::string::npos ? r : r.substr(colon + 13));
}

std::string nodes_text(uint32_t gpus, uint32_t nodes) {
  return format_count(gpus) + " (" + format_count(nodes) + "×)";
}

// ---- text table ------------------------------------------------------------------------------

//! Left-aligned columns padded to their widest cell (UTF-8 aware: counts code points).
std::string align(const std::vector<std::vector<std::string>>& rows,
                  const std::vector<bool>& right) {
  const auto width = [](const std::string& s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;
    return n;
  };
  std::vector<size_t> w(rows.front().size(), 0);
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) w[i] = std::max(w[i], width(r[i]));
  std::string out;
  for (size_t k = 0; k < rows.size(); ++k) {
    std::string line;
    for (size_t i = 0; i < rows[k].size(); ++i) {
      const std::string pad(w[i] - width(rows[k][i]), ' ');
      line += (i ? "  " : "") + (right[i] ? pad + rows[k][i] : rows[k][i] + pad);
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
    if (k == 0) {
      size_t total = 0;
      for (size_t x : w) total += x + 2;
      out += std::string(total - 2, '-') + "\n";
    }
  }
  return out;
}

std::string training_request_text(const TrainingRequest& t) {
  std::string s =
      "train " + count_text(t.params) + " parameters on " + count_text(t.tokens) + " tokens";
  if (t.deadline_s) s += " within " + time_text(*t.deadline_s);
  if (t.budget_usd)
    s += std::string(t.deadline_s ? " and " : " within ") + money_text(*t.budget_usd);
  s += " (" + std::string(precision_name(t.precision)) + ", MFU " +
       (t.mfu ? format_percent(*t.mfu, 0) : std::string("modelled per instance")) +
       "; 6·N·D = " + sci(6 * t.params * t.tokens) + " FLOPs)";
  return s;
}

std::string inference_request_text(const InferenceRequest& q) {
  std::string s =
      "serve " +
      (q.model_label.empty() ? "a " + count_text(q.params) + "-parameter model" : q.model_label) +
      " (" + precision_name(q.precision) + ") to ";
  s += q.concurrent_streams > 0
           ? format_count(q.concurrent_streams) + " concurrent streams"
           : format_number(q.requests_per_s, q.requests_per_s < 10 ? 2 : 0) + " requests/s";
  if (q.lengths && q.tokens_trace.empty())
    s += ", " + q.lengths_text + " (means " + format_count(q.tokens_in) + " in / " +
         format_count(q.tokens_out) + " out, prompt p99 " + format_count(q.lengths->p99_in) + ")";
  else if (q.lengths)
    s += ", lengths of the " + format_count(static_cast<double>(q.lengths->in.size())) +
         " requests in " + q.tokens_trace + " (prompt mean " + format_count(q.tokens_in) +
         ", p99 " + format_count(q.lengths->p99_in) + "; output mean " +
         format_count(q.tokens_out) + ", p99 " + format_count(q.lengths->p99_out) + " tokens)";
  else
    s += ", " + format_count(q.tokens_in) + " tokens in / " + format_count(q.tokens_out) + " out";
  std::vector<std::string> targets;
  if (q.ttft_p99_s > 0) targets.push_back("TTFT p99 ≤ " + latency_text(q.ttft_p99_s));
  if (q.tpot_p99_s > 0) targets.push_back("TPOT p99 ≤ " + latency_text(q.tpot_p99_s));
  if (q.p99_latency_s > 0) targets.push_back("end-to-end p99 ≤ " + latency_text(q.p99_latency_s));
  for (size_t i = 0; i < targets.size(); ++i) s += (i == 0 ? "; " : ", ") + targets[i];
  return s + "; " + std::to_string(q.spares) + " spare replica" + (q.spares == 1 ? "" : "s");
}

}  // namespace

std::optional<SpotDeadlineNote> spot_deadline_note(const QuoteRequest& req, const Quote& q) {
  if (!req.training || !req.training->deadline_s) return std::nullopt;
  const TrainingOption* closest = nullptr;
  bool any_spot = false;
  for (const TrainingOption& o : q.training) {
    if (o.plan.spot_share <= 0) continue;
    any_spot = true;
    if (o.feasible && o.meets_deadline) return std::nullopt;
    const bool usable = o.feasible || o.timing.interval_s > 0;
    if (!usable) continue;
    // A feasible option beats an infeasible one; among feasible ones the smaller P90 wins.
    if (!closest || (o.feasible && !closest->feasible) ||
        (o.feasible && closest->feasible && o.timing.p90_s < closest->timing.p90_s))
      closest = &o;
  }
  if (!any_spot || !closest) return std::nullopt;
  const TrainingOption& o = *closest;
  SpotDeadlineNote n;
  n.checkpoint_interval_s = o.timing.interval_s;
  n.interruption_every_s = o.timing.hazard_per_s > 0 ? 1 / o.timing.hazard_per_s : 0;
  n.spot_nodes = o.spot_nodes;
  const TrainingRequest& t = *req.training;
  n.text = "No spot option meets the " + format_duration(*t.deadline_s) +
           " deadline. The closest, " + o.instance->id + " (" + o.plan.label() + ", " +
           format_count(o.spot_nodes) + " spot nodes), is interrupted every " +
           format_duration(n.interruption_every_s) + " on average at " +
           format_number(req.options.spot_hazard_per_node_hour, 2) +
           " preemptions per spot node-hour" +
           (req.options.failure_rate_per_gpu_hour > 0 ? " plus hardware failures" : "") +
           "; checkpointing every " + format_duration(n.checkpoint_interval_s) +
           " (the Daly interval for a " + format_duration(t.checkpoint_s) + " checkpoint write, " +
           format_duration(t.restart_s + t.replacement_s) + " to restart on a new node) " +
           (o.feasible ? "it finishes in " + format_duration(o.timing.p90_s) + " (P90)."
                       : std::string("it loses more to interruptions than it gains.")) +
           " Fewer spot nodes, a lower preemption rate or faster checkpoints would change this; "
           "the on-demand and reserved options are not affected.";
  return n;
}

bool sim_check_agrees(const InferenceOption& opt, const InferenceSimCheck& check) {
  if (check.saturated) return false;
  // NOTE: the model's M/M/c bounds the fixed-service queue from above; the check confirms the
  // bound (within the tolerance for sampling noise), not equality.
  return check.ttft_p99_s <= (1 + SIM_CHECK_TOLERANCE) * opt.sizing.ttft_p99_s &&
         check.mean_wait_s <=
             opt.sizing.wait_mean_s +
                 std::max(SIM_CHECK_TOLERANCE * opt.sizing.wait_mean_s, 0.05 * opt.sizing.slot_s);
}

// ---- terminal --------------------------------------------------------------------------------

std::string format_quote_table(const QuoteReport& r) {
  const QuoteRequest& req = *r.request;
  const Quote& q = *r.quote;
  const uint32_t top = req.options.top;
  std::string out = "Quote \"" + req.name + "\"" +
                    (req.customer.empty() ? "" : " for " + req.customer) + ", " + q.today + "\n";
  std::map<std::string, uint32_t> reasons;
  if (req.training) {
    out += "\nTraining: " + training_request_text(*req.training) + "\n\n";
    std::vector<std::vector<std::string>> rows = {
        {"#", "instance", "GPU", "GPUs (nodes)", "MFU · tok/s/GPU", "pricing", "P50", "P90",
         "monthly", "total", "spot risk", "$/TFLOPS·h", "energy · CO2e", "price date", "flags"}};
    std::string layouts;
    uint32_t shown = 0;
    double widest = 0;  // the widest 95 % interval of a shown row's Monte Carlo mean time
    std::string widest_source;
    for (const TrainingOption& o : q.training) {
      if (!o.feasible) {
        // NOTE: a reason's figures (after ':') differ per instance; the terminal groups by rule.
        ++reasons[o.infeasible_reason.substr(0, o.infeasible_reason.find(':'))];
        continue;
      }
      if (shown >= top) continue;
      rows.push_back({std::to_string(++shown), o.instance->id, o.gpu->id,
                      nodes_text(o.gpus, o.nodes), efficiency_text(o.speed), o.plan.label(),
                      time_text(o.timing.p50_s), p90_text(o), money_text(o.monthly_usd),
                      money_text(o.total_usd), spot_risk_text(o),
                      usd_per_tflops_text(o.usd_per_tflops_hour), energy_text(o.energy),
                      o.instance->as_of, training_flags(o)});
      if (o.timing.mc_mean_se_s > 0 && o.timing.mc_mean_s > 0 &&
          1.96 * o.timing.mc_mean_se_s / o.timing.mc_mean_s >= widest) {
        widest = 1.96 * o.timing.mc_mean_se_s / o.timing.mc_mean_s;
        widest_source = mc_source_text(o.timing);
      }
      layouts += "  #" + std::to_string(shown) + " " + o.speed.layout_text +
                 (o.speed.nearest_run.empty() ? std::string("; no published run on this GPU")
                                              : "; nearest published run " + o.speed.nearest_run) +
                 "\n";
    }
    out += rows.size() > 1 ? align(rows, {true, false, false, true, true, false, true, true, true,
                                          true, false, true, true, false, false}) +
                                 "\nLayout and MFU basis:\n" + layouts
                           : "no catalog option can run this training job\n";
    if (!widest_source.empty())
      out += "\nMonte Carlo precision: every row's mean time to finish is known to within ±" +
             format_percent(widest, 1) + " (95 % interval of the mean; the widest row, from " +
             widest_source + ").\n";
    if (const auto note = spot_deadline_note(req, q)) out += "\n" + note->text + "\n";
  }
  if (req.inference) {
    out += "\nInference: " + inference_request_text(*req.inference) + "\n\n";
    std::vector<std::vector<std::string>> rows = {
        {"#",          "instance", "GPU",      "GPUs (nodes)", "replicas",         "pricing",
         "TTFT p99",   "TTFT sim", "TPOT p99", "TPOT sim",     "SLO met",          "util",
         "tokens/s",   "monthly",  "total",    "$/1M tok",     "energy · CO2e/mo", "spot risk",
         "price date", "flags"}};
    std::optional<ServingCheck> simulated;  // one simulated row, for the note below the table
    uint32_t shown = 0;
    for (size_t i = 0; i < q.inference.size(); ++i) {
      const InferenceOption& o = q.inference[i];
      if (!o.feasible) {
        ++reasons[o.infeasible_reason.substr(0, o.infeasible_reason.find(':'))];
        continue;
      }
      if (shown >= top) continue;
      const auto& sim = i < r.serving_checks.size() ? r.serving_checks[i] : std::nullopt;
      if (sim) simulated = sim;
      rows.push_back({std::to_string(++shown),
                      o.instance->id,
                      o.gpu->id,
                      nodes_text(o.gpus, o.nodes),
                      replicas_text(o),
                      o.plan.label(),
                      latency_text(o.sizing.ttft_p99_s),
                      sim_p99_text(sim, &ServingCheck::ttft_p99),
                      latency_text(o.sizing.tpot_p99_s),
                      sim_p99_text(sim, &ServingCheck::tpot_p99),
                      attainment_text(*req.inference, sim),
                      format_percent(o.sizing.utilization, 0),
                      format_count(o.sizing.demand_tokens_per_s),
                      money_text(o.monthly_usd),
                      money_text(o.total_usd),
                      "$" + format_number(o.usd_per_1m_output_tokens, 2),
                      energy_text(o.energy),
                      spot_risk_text(o),
                      o.instance->as_of,
                      inference_flags(o, sim)});
    }
    out += rows.size() > 1
               ? align(rows, {true, false, false, true, true, false, true, true,  true,  true,
                              true, true,  true,  true, true, true,  true, false, false, false})
               : "no catalog option can serve this load" + nearest_miss_text(q) + "\n";
    if (simulated)
      out +=
          "\nSimulated step by step (TTFT sim, TPOT sim, SLO met): each shown option's load "
          "replicas under continuous batching (vLLM's scheduler, max_num_seqs = the batch, "
          "chunked prefill, asynchronous scheduling, vLLM's default token budget: 8,192 on GPUs "
          "of 70 GiB or more but "
          "the A100, else 2,048, or the batch if larger; the serving software's step and "
          "request overheads fitted on measured vLLM runs), " +
          format_count(double(simulated->requests)) + " requests counted over " +
          std::to_string(simulated->replications) +
          " runs; p99s are the runs' mean, SLO met is the share of requests within both the "
          "TTFT and the TPOT target with its 95 % interval.\n";
  }
  if (!reasons.empty()) {
    out += "\nNot shown (cannot run):";
    for (const auto& [why, n] : reasons) out += "\n  " + std::to_string(n) + " × " + why;
    out += "\n";
  }
  out += "\nAssumptions:\n";
  for (const Assumption& a : quote_assumptions(req)) out += "  - " + a.topic + ": " + a.text + "\n";
  return out;
}

// ---- JSON ------------------------------------------------------------------------------------

json quote_json(const QuoteReport& r) {
  const QuoteRequest& req = *r.request;
  const Quote& q = *r.quote;
  json j;
  j["quote"] = req.name;
  j["customer"] = req.customer;
  j["date"] = q.today;
  j["gpuplan_version"] = r.version;
  j["request"] = req.source;
  j["request_text"] = json::object();
  if (req.training) j["request_text"]["training"] = training_request_text(*req.training);
  if (req.inference) j["request_text"]["inference"] = inference_request_text(*req.inference);
  j["options"] = {{"top", req.options.top},
                  {"sim_requests", req.options.sim_requests},
                  {"sim_tolerance", SIM_CHECK_TOLERANCE},
                  {"training_budget", req.training && req.training->budget_usd.has_value()},
                  {"stale_after_months", req.options.stale_after_months}};
  // NOTE: the customer view carries no sources, confidence tags or internal references; they go
  // to the internal appendix only (QuoteReport::internal).
  j["view"] = r.internal ? "internal" : "customer";
  j["assumptions"] = json::array();
  json assumption_sources = json::array();
  for (const Assumption& a : quote_assumptions(req)) {
    j["assumptions"].push_back({{"topic", a.topic}, {"text", a.text}});
    assumption_sources.push_back({{"topic", a.topic}, {"source", a.source}});
  }
  const auto common = [&r](json& o, const InstanceType& it, const GpuSpec& gpu,
                           const PricingPlan& plan) {
    o["instance"] = it.id;
    o["provider"] = it.provider;
    o["gpu"] = gpu.id;
    o["gpus_per_node"] = it.gpus_per_node;
    // NOTE: a row all on spot is priced at spot; a mix names its base with its spot share.
    o["pricing"] = plan.spot_share >= 1 ? std::string("spot") : std::string(enum_name(plan.base));
    o["spot_share"] = plan.spot_share;
    o["pricing_label"] = plan.label();
    o["price_as_of"] = it.as_of;
    if (r.internal) o["price_source"] = it.source;
  };
  j["training"] = json::array();
  for (const TrainingOption& o : q.training) {
    json t;
    common(t, *o.instance, *o.gpu, o.plan);
    t["feasible"] = o.feasible;
    if (!o.feasible) {
      t["reason"] = o.infeasible_reason;
      j["training"].push_back(t);
      continue;
    }
    t["nodes"] = o.nodes;
    t["gpus"] = o.gpus;
    t["spot_nodes"] = o.spot_nodes;
    t["layout"] = {{"tensor_parallel", o.layout.tensor_parallel},
                   {"pipeline_parallel", o.layout.pipeline_parallel},
                   {"data_parallel", o.layout.data_parallel}};
    t["step_s"] = {{"compute", o.speed.compute_step_s},
                   {"allreduce", o.speed.allreduce_step_s},
                   {"total", o.speed.step_s}};
    t["steps"] = o.speed.steps;
    t["mfu"] = o.speed.mfu;
    t["mfu_source"] = o.speed.modelled ? "modelled" : "request";
    t["tokens_per_gpu_s"] = o.speed.tokens_per_gpu_s;
    t["layout"]["text"] = o.speed.layout_text;
    t["nearest_published_run"] = o.speed.nearest_run;
    if (r.internal) t["nearest_published_run_source"] = o.speed.nearest_run_source;
    t["best_published_mfu"] = o.speed.best_published_mfu;
    t["above_published"] = o.speed.above_published;
    t["extrapolated"] = o.speed.extrapolated;
    t["exposed_comm_step_s"] = o.speed.exposed_comm_step_s;
    t["bubble_step_s"] = o.speed.bubble_step_s;
    t["micro_batches"] = o.speed.micro_batches;
    t["recommended"] = o.recommended;
    if (!o.recommended) t["not_recommended_reason"] = o.not_recommended_reason;
    t["dp_busbw_gbyte_s"] = o.speed.dp_busbw_gbyte_s;
    t["work_s"] = o.speed.work_s;
    t["time_s"] = {{"p50", o.timing.p50_s},
                   {"p90", o.timing.p90_s},
                   {"mean_mc", o.timing.mc_mean_s},
                   {"mean_mc_se", o.timing.mc_mean_se_s},
                   {"expected", o.timing.expected_s}};
    t["checkpoint_interval_s"] = o.timing.interval_s;
    t["expected_interruptions"] = o.timing.expected_interruptions;
    t["hardware_failures"] = {
        {"rate_per_gpu_hour", req.options.failure_rate_per_gpu_hour},
        {"expected", o.failure_hazard_per_s * o.timing.expected_s},
        {"share_of_interruptions",
         o.timing.hazard_per_s > 0 ? o.failure_hazard_per_s / o.timing.hazard_per_s : 0.0}};
    t["hourly_usd"] = o.hourly_usd;
    t["monthly_usd"] = o.monthly_usd;
    t["total_usd"] = o.total_usd;
    t["total_p90_usd"] = o.total_p90_usd;
    t["usd_per_tflops_hour"] = o.usd_per_tflops_hour;
    t["mc_replicas"] = o.timing.replicas;
    t["mc_sampled_blocks"] = o.timing.sampled_blocks;
    t["term_years"] = o.plan.term_years();
    if (o.plan.term_years() > 0)
      t["reserved"] = {{"commitment_usd", o.cost.commitment_usd},
                       {"in_use_usd", o.cost.in_window_usd}};
    t["meets_deadline"] = o.meets_deadline;
    t["within_budget"] = o.within_budget;
    t["spot_risk"] = o.risk;
    t["stale_price"] = o.stale;
    t["energy"] = energy_json(o.energy, "run", r.internal);
    j["training"].push_back(t);
  }
  j["inference"] = json::array();
  for (size_t i = 0; i < q.inference.size(); ++i) {
    const InferenceOption& o = q.inference[i];
    json t;
    common(t, *o.instance, *o.gpu, o.plan);
    t["feasible"] = o.feasible;
    if (!o.feasible) {
      t["reason"] = o.infeasible_reason;
      j["inference"].push_back(t);
      continue;
    }
    t["nodes"] = o.nodes;
    t["serving_nodes"] = o.serving_nodes;
    t["gpus"] = o.gpus;
    t["spot_nodes"] = o.spot_nodes;
    t["group_gpus"] = o.sizing.tp;
    t["batch"] = o.sizing.batch;
    t["replicas"] = o.sizing.replicas;
    t["spare_replicas"] = o.spare_replicas;
    t["servers"] = o.servers;
    t["weights_gb"] = o.sizing.weight_bytes / 1e9;
    t["kv_bytes_per_token"] = o.sizing.kv_bytes_per_token;
    t["max_batch_by_memory"] = o.sizing.max_batch_by_memory;
    t["token_step_s"] = o.sizing.step_s;
    t["prefill_s"] = o.sizing.prefill_s;
    t["service_s"] = o.sizing.slot_s;
    t["requests_per_s"] = o.sizing.requests_per_s;
    t["output_tokens_per_s"] = o.sizing.demand_tokens_per_s;
    t["capacity_tokens_per_s"] = o.sizing.capacity_tokens_per_s;
    t["utilization"] = o.sizing.utilization;
    t["headroom"] = 1 - o.sizing.utilization;
    t["ttft_s"] = {{"p50", o.sizing.ttft_p50_s}, {"p99", o.sizing.ttft_p99_s}};
    t["tpot_s"] = {{"p50", o.sizing.tpot_p50_s}, {"p99", o.sizing.tpot_p99_s}};
    t["e2e_p99_s"] = o.sizing.e2e_p99_s;
    t["erlang_c"] = {{"p_wait", o.sizing.p_wait}, {"mean_wait_s", o.sizing.wait_mean_s}};
    if (i < r.inference_checks.size() && r.inference_checks[i]) {
      const InferenceSimCheck& c = *r.inference_checks[i];
      t["simulation"] = {{"requests", c.requests},       {"horizon_s", c.horizon_s},
                         {"mean_wait_s", c.mean_wait_s}, {"wait_p99_s", c.wait_p99_s},
                         {"ttft_p99_s", c.ttft_p99_s},   {"utilization", c.utilization},
                         {"saturated", c.saturated},     {"agrees", sim_check_agrees(o, c)}};
    }
    if (i < r.serving_checks.size() && r.serving_checks[i]) {
      const ServingCheck& c = *r.serving_checks[i];
      t["serving_simulation"] = {{"replications", c.replications},
                                 {"requests", c.requests},
                                 {"max_num_seqs", c.max_num_seqs},
                                 {"max_num_batched_tokens", c.max_num_batched_tokens},
                                 {"slo_attainment", reports::interval_json(c.slo_attainment)},
                                 {"ttft_p99_s", reports::interval_json(c.ttft_p99)},
                                 {"tpot_p99_s", reports::interval_json(c.tpot_p99)},
                                 {"e2e_p99_s", reports::interval_json(c.e2e_p99)},
                                 {"output_tokens_per_s", c.output_tokens_per_s},
                                 {"kv_occupancy_peak", c.kv_occupancy_peak},
                                 {"preemptions_per_1k", c.preemptions_per_1k},
                                 {"saturated", c.saturated},
                                 {"meets_targets", c.meets_targets}};
    }
    t["hourly_usd"] = o.hourly_usd;
    t["monthly_usd"] = o.monthly_usd;
    t["total_usd"] = o.total_usd;
    if (o.plan.term_years() > 0)
      t["reserved"] = {{"commitment_usd", o.cost.commitment_usd},
                       {"in_use_usd", o.cost.in_window_usd}};
    t["usd_per_1k_requests"] = o.usd_per_1k_requests;
    t["usd_per_1m_output_tokens"] = o.usd_per_1m_output_tokens;
    t["usd_per_tflops_hour"] = o.usd_per_tflops_hour;
    t["meets_target"] = o.meets_target;
    t["spot_risk"] = o.risk;
    if (o.spot_loss)
      t["spot_loss"] = {
          {"reclaims_per_month", o.spot_loss->node_losses_per_month},
          {"in_flight_per_node", o.spot_loss->in_flight_per_node},
          {"requests_interrupted_per_month", o.spot_loss->requests_interrupted_per_month},
          {"interrupted_share", o.spot_loss->interrupted_share},
          {"nodes_lost_before_overload", o.spot_loss->nodes_lost_before_overload},
          {"overloaded_share", o.spot_loss->overloaded_share},
          {"miss_share", o.spot_loss->miss_share},
          {"p99_budget_share", o.spot_loss->p99_budget_share}};
    t["stale_price"] = o.stale;
    t["energy"] = energy_json(o.energy, "month", r.internal);
    j["inference"].push_back(t);
  }
  // The prices of every instance the options use [USD per node-hour], by instance id.
  std::set<const InstanceType*> used;
  for (const TrainingOption& o : q.training) used.insert(o.instance);
  for (const InferenceOption& o : q.inference) used.insert(o.instance);
  std::vector<const InstanceType*> rows(used.begin(), used.end());
  std::sort(rows.begin(), rows.end(),
            [](const InstanceType* a, const InstanceType* b) { return a->id < b->id; });
  j["prices"] = json::array();
  json price_sources = json::array();
  const auto price = [](const std::optional<double>& p) { return p ? json(*p) : json(nullptr); };
  for (const InstanceType* it : rows) {
    const InstancePrices& p = it->price_per_hour;
    j["prices"].push_back({{"instance", it->id},
                           {"gpu", it->gpu},
                           {"gpus_per_node", it->gpus_per_node},
                           {"on_demand", price(p.on_demand)},
                           {"reserved_1y", price(p.reserved_1y)},
                           {"reserved_3y", price(p.reserved_3y)},
                           {"spot", price(p.spot)},
                           {"as_of", it->as_of}});
    price_sources.push_back({{"instance", it->id}, {"source", it->source}, {"notes", it->notes}});
  }
  if (r.internal)
    j["internal"] = {{"assumption_sources", std::move(assumption_sources)},
                     {"price_sources", std::move(price_sources)}};
  if (const auto note = spot_deadline_note(req, q))
    j["spot_note"] = {{"text", note->text},
                      {"checkpoint_interval_s", note->checkpoint_interval_s},
                      {"interruption_every_s", note->interruption_every_s},
                      {"spot_nodes", note->spot_nodes}};
  j["assessment"] = reports::assess_quote(j);
  return j;
}

std::string render_quote_html(const QuoteReport& r) {
  return reports::render_page(reports::assets::quote_html(), reports::assets::quote_css(),
                              {reports::assets::common_js(), reports::assets::quote_js()},
                              quote_json(r));
}

}  // namespace gpuplan::quote
