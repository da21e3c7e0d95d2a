#include "reports/quote_render.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "models/economics/billing.h"
#include "models/names.h"
#include "reports/format.h"
#include "reports/html_parts.h"

namespace gpuplan::quote {
namespace {

using nlohmann::json;
using reports::format_count;
using reports::format_duration;
using reports::format_money;
using reports::format_number;
using reports::format_percent;

std::string precision_name(Precision p) {
  return std::string(enum_name(p));
}

//! 7.0e10 -> "70B", 2e12 -> "2T", 1.5e9 -> "1.5B".
std::string count_text(double x) {
  static const struct {
    double scale;
    const char* suffix;
  } units[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}};
  for (const auto& u : units) {
    if (x >= u.scale) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g%s", std::round(x / u.scale * 100) / 100, u.suffix);
      return buf;
    }
  }
  return format_number(x, 0);
}

//! Scientific notation with three significant digits: 8.4e23 -> "8.4e23".
std::string sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", x);
  std::string s = buf;
  const size_t e = s.find("e+");
  if (e != std::string::npos) s.erase(e + 1, 1);
  return s;
}

//! Money for tables: "$7.25M" from a million, "$12,345" from ten thousand, else with cents.
std::string money_short(double usd) {
  if (!std::isfinite(usd)) return "n/a";
  char buf[32];
  if (usd >= 1e9)
    std::snprintf(buf, sizeof buf, "$%.2fB", usd / 1e9);
  else if (usd >= 1e6)
    std::snprintf(buf, sizeof buf, "$%.2fM", usd / 1e6);
  else if (usd >= 1e4)
    return "$" + format_number(usd, 0);
  else
    return format_money(usd);
  return buf;
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

//! P90 of a training option: "n/a" when no Monte Carlo ran for a spot option.
std::string p90_text(const TrainingOption& o) {
  if (o.spot_nodes > 0 && o.timing.replicas == 0) return "n/a";
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
  if (o.stale) add("stale price");
  return f;
}

std::string inference_flags(const InferenceOption& o) {
  std::string f;
  const auto add = [&](const char* s) { f += (f.empty() ? "" : ", ") + std::string(s); };
  if (!o.meets_target) add("misses p99");
  if (o.stale) add("stale price");
  return f;
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
  return o.risk + ", +" + std::to_string(o.nodes - o.serving_nodes) + " spare";
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
    s += std::string(t.deadline_s ? " and " : " within ") + money_short(*t.budget_usd);
  s += " (" + std::string(precision_name(t.precision)) + ", MFU " + format_percent(t.mfu, 0) +
       "; 6·N·D = " + sci(6 * t.params * t.tokens) + " FLOPs)";
  return s;
}

std::string inference_request_text(const InferenceRequest& q) {
  return "serve a " + count_text(q.params) + "-parameter model (" + precision_name(q.precision) +
         ") at " + format_number(q.requests_per_s, q.requests_per_s < 10 ? 2 : 0) +
         " requests/s, " + format_count(q.tokens_in) + " tokens in / " +
         format_count(q.tokens_out) + " out, p99 latency ≤ " + latency_text(q.p99_latency_s);
}

}  // namespace

// ---- assumptions -----------------------------------------------------------------------------

std::vector<Assumption> quote_assumptions(const QuoteRequest& req) {
  std::vector<Assumption> a;
  const QuoteOptions& o = req.options;
  if (req.training) {
    const TrainingRequest& t = *req.training;
    a.push_back({"Training compute",
                 "C = 6·N·D = 6 × " + count_text(t.params) + " × " + count_text(t.tokens) + " = " +
                     sci(6 * t.params * t.tokens) +
                     " FLOPs (2ND forward + 4ND backward; no activation recomputation).",
                 "Kaplan et al. 2020, arXiv:2001.08361 (DATA.md §6.3)"});
    a.push_back({"MFU",
                 format_percent(t.mfu, 0) + " of the dense " + precision_name(t.precision) +
                     " tensor peak, end to end (communication and stalls included, as published "
                     "MFUs are measured); the same on every GPU type.",
                 "Llama 3 405B: 38–43% BF16 MFU on 8K–16K H100 (arXiv:2407.21783 Table 4); PaLM "
                 "46.2% (DATA.md §6.3)"});
    a.push_back({"Memory fit",
                 "Mixed-precision Adam, 16 bytes per parameter; ZeRO-1 shards the 12 bytes of "
                 "optimizer state over data-parallel ranks; 20% of GPU memory kept for "
                 "activations. Tensor parallel inside a node, pipeline stages across nodes only "
                 "when needed.",
                 "models/speed.h; Rajbhandari et al. 2020 (ZeRO)"});
    a.push_back({"Gradient all-reduce",
                 "2 bytes per parameter per step over each data-parallel group, global batch " +
                     count_text(t.tokens_per_step) +
                     " tokens; bus bandwidth from the instance's NVLink and NICs (network at 94% "
                     "of line rate); it hides behind up to " +
                     format_percent(t.overlap, 0) + " of each step's compute.",
                 "nccl-tests busbw, NCCL tuning model (DATA.md §1.3–1.4)"});
    a.push_back({"Spot preemption",
                 "Each spot node is reclaimed at " + format_number(o.spot_hazard_per_node_hour, 2) +
                     " per node-hour (Poisson); losing any node stops the synchronous job. "
                     "Checkpoint every Daly-optimal interval; write " +
                     format_duration(t.checkpoint_s) + ", restart " + format_duration(t.restart_s) +
                     ", wait " + format_duration(t.replacement_s) +
                     " for a replacement node. P50/P90 from " + format_count(o.replicas) +
                     " Monte Carlo runs of the interruptions (seed " + std::to_string(o.seed) +
                     "), checked against the exact expectation.",
                 "SkyPilot spot-traces, 4-node p3 (DATA.md §3.2); Young 1974 / Daly 2006 (§3.3)"});
    a.push_back({"Training cost",
                 "Cluster price per hour × time to finish (per-second billing; total at the "
                 "P50 time). Reservations bill their whole 1- or 3-year term even when the job "
                 "ends sooner. A month is 730 h. The GPU count is the smallest whole number of "
                 "nodes meeting the deadline (P90 with spot).",
                 "AWS per-second billing; AWS/Azure/GCP reservation terms"});
  }
  if (req.inference) {
    const InferenceRequest& q = *req.inference;
    a.push_back({"Inference memory",
                 "Weights " + count_text(q.params) + " × " +
                     (q.precision == Precision::fp8 ? "1 byte" : "2 bytes") +
                     "; one model replica on the smallest power-of-two group of GPUs that holds "
                     "them with " +
                     format_percent(q.memory_reserve, 0) + " of memory kept for the KV cache.",
                 "DATA.md §6.3"});
    a.push_back({"Decode speed",
                 "Memory-bound: one decode step reads every weight once, at " +
                     format_percent(q.bandwidth_efficiency, 0) +
                     " of peak memory bandwidth; up to " + std::to_string(q.batch) +
                     " sequences share each step (batch efficiency), so a replica offers " +
                     std::to_string(q.batch) +
                     " decode slots. KV-cache reads and compute limits are not modelled.",
                 "tokens/s per sequence ≈ BW / bytes of weights (DATA.md §6.3)"});
    a.push_back({"Prefill",
                 "2·N·tokens_in FLOPs at " + format_percent(q.prefill_mfu, 0) +
                     " MFU on the replica's GPUs (at least one decode step), without stalling "
                     "other slots (chunked prefill).",
                 "DATA.md §6.3"});
    a.push_back({"Queueing",
                 "M/M/c: Poisson arrivals, exponential service of mean prefill + tokens_out × "
                 "step, c = decode slots; Erlang C gives P(wait) and the mean wait, the M/M/c "
                 "response-time distribution the p99 of wait + service. Checked by the "
                 "discrete-event engine on the same queue (" +
                     format_count(static_cast<double>(o.sim_requests)) +
                     " simulated requests; agreement within " +
                     format_percent(SIM_CHECK_TOLERANCE, 0) + ").",
                 "Erlang C; gpuplan engine (tests/sim/queueing_validation_test.cpp)"});
    a.push_back({"Inference cost",
                 "Cluster price per hour × 730 h per month; total over " +
                     format_number(q.months, q.months == std::floor(q.months) ? 0 : 1) +
                     " months or the reservation term if longer. Spot options add spare spot "
                     "nodes so expected capacity survives replacements; requests lost in a "
                     "preemption are retried (not modelled).",
                 "catalog prices"});
  }
  a.push_back({"Prices",
               "Public list prices per node-hour from the built-in catalog, each with its source "
               "and date; a price dated more than one year before the quote is flagged stale. "
               "Re-check current prices before signing.",
               "models/catalog/instances.json (DATA.md §4)"});
  return a;
}

bool sim_check_agrees(const InferenceOption& opt, const InferenceSimCheck& check) {
  if (check.saturated) return false;
  const bool p99_ok =
      std::abs(check.p99_latency_s - opt.p99_latency_s) <= SIM_CHECK_TOLERANCE * opt.p99_latency_s;
  const bool wait_ok = std::abs(check.mean_wait_s - opt.mean_wait_s) <=
                       std::max(SIM_CHECK_TOLERANCE * opt.mean_wait_s, 0.05 * opt.service_s);
  return p99_ok && wait_ok;
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
        {"#", "instance", "GPU", "GPUs (nodes)", "pricing", "P50", "P90", "monthly", "total",
         "spot risk", "$/TFLOPS·h", "price date", "flags"}};
    uint32_t shown = 0;
    for (const TrainingOption& o : q.training) {
      if (!o.feasible) {
        ++reasons[o.infeasible_reason];
        continue;
      }
      if (shown >= top) continue;
      rows.push_back({std::to_string(++shown), o.instance->id, o.gpu->id,
                      nodes_text(o.gpus, o.nodes), o.plan.label(), time_text(o.timing.p50_s),
                      p90_text(o), money_short(o.monthly_usd), money_short(o.total_usd),
                      spot_risk_text(o), usd_per_tflops_text(o.usd_per_tflops_hour),
                      o.instance->as_of, training_flags(o)});
    }
    out += rows.size() > 1 ? align(rows, {true, false, false, true, false, true, true, true, true,
                                          false, true, false, false})
                           : "no catalog option can run this training job\n";
  }
  if (req.inference) {
    out += "\nInference: " + inference_request_text(*req.inference) + "\n\n";
    std::vector<std::vector<std::string>> rows = {
        {"#", "instance", "GPU", "GPUs (nodes)", "pricing", "p99 M/M/c", "p99 sim", "wait Erlang C",
         "wait sim", "util", "monthly", "total", "$/1k req", "spot risk", "price date", "flags"}};
    uint32_t shown = 0;
    for (size_t i = 0; i < q.inference.size(); ++i) {
      const InferenceOption& o = q.inference[i];
      if (!o.feasible) {
        ++reasons[o.infeasible_reason];
        continue;
      }
      if (shown >= top) continue;
      const auto& check = i < r.inference_checks.size() ? r.inference_checks[i] : std::nullopt;
      rows.push_back(
          {std::to_string(++shown), o.instance->id, o.gpu->id, nodes_text(o.gpus, o.nodes),
           o.plan.label(), latency_text(o.p99_latency_s),
           check ? (check->saturated ? "saturated" : latency_text(check->p99_latency_s)) : "-",
           latency_text(o.mean_wait_s), check ? latency_text(check->mean_wait_s) : "-",
           format_percent(o.utilization, 0), money_short(o.monthly_usd), money_short(o.total_usd),
           "$" + format_number(o.usd_per_1k_requests, 4), spot_risk_text(o), o.instance->as_of,
           inference_flags(o)});
    }
    out += rows.size() > 1 ? align(rows, {true, false, false, true, false, true, true, true, true,
                                          true, true, true, true, false, false, false})
                           : "no catalog option can serve this load\n";
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
  j["assumptions"] = json::array();
  for (const Assumption& a : quote_assumptions(req))
    j["assumptions"].push_back({{"topic", a.topic}, {"text", a.text}, {"source", a.source}});
  const auto common = [](json& o, const InstanceType& it, const GpuSpec& gpu,
                         const PricingPlan& plan) {
    o["instance"] = it.id;
    o["provider"] = it.provider;
    o["gpu"] = gpu.id;
    o["gpus_per_node"] = it.gpus_per_node;
    o["pricing"] = plan.base;
    o["spot_share"] = plan.spot_share;
    o["pricing_label"] = plan.label();
    o["price_as_of"] = it.as_of;
    o["price_source"] = it.source;
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
    t["dp_busbw_gbyte_s"] = o.speed.dp_busbw_gbyte_s;
    t["work_s"] = o.speed.work_s;
    t["time_s"] = {{"p50", o.timing.p50_s},
                   {"p90", o.timing.p90_s},
                   {"mean_mc", o.timing.mc_mean_s},
                   {"expected", o.timing.expected_s}};
    t["checkpoint_interval_s"] = o.timing.interval_s;
    t["expected_interruptions"] = o.timing.expected_interruptions;
    t["hourly_usd"] = o.hourly_usd;
    t["monthly_usd"] = o.monthly_usd;
    t["total_usd"] = o.total_usd;
    t["total_p90_usd"] = o.total_p90_usd;
    t["usd_per_tflops_hour"] = o.usd_per_tflops_hour;
    t["meets_deadline"] = o.meets_deadline;
    t["within_budget"] = o.within_budget;
    t["spot_risk"] = o.risk;
    t["stale_price"] = o.stale;
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
    t["group_gpus"] = o.group_gpus;
    t["servers"] = o.servers;
    t["token_step_s"] = o.token_step_s;
    t["prefill_s"] = o.prefill_s;
    t["service_s"] = o.service_s;
    t["decode_tokens_per_gpu_s"] = o.decode_tokens_per_gpu_s;
    t["utilization"] = o.utilization;
    t["erlang_c"] = {
        {"p_wait", o.p_wait}, {"mean_wait_s", o.mean_wait_s}, {"p99_latency_s", o.p99_latency_s}};
    if (i < r.inference_checks.size() && r.inference_checks[i]) {
      const InferenceSimCheck& c = *r.inference_checks[i];
      t["simulation"] = {{"requests", c.requests},          {"horizon_s", c.horizon_s},
                         {"mean_wait_s", c.mean_wait_s},    {"p99_latency_s", c.p99_latency_s},
                         {"utilization", c.utilization},    {"saturated", c.saturated},
                         {"agrees", sim_check_agrees(o, c)}};
    }
    t["hourly_usd"] = o.hourly_usd;
    t["monthly_usd"] = o.monthly_usd;
    t["total_usd"] = o.total_usd;
    t["usd_per_1k_requests"] = o.usd_per_1k_requests;
    t["usd_per_tflops_hour"] = o.usd_per_tflops_hour;
    t["meets_target"] = o.meets_target;
    t["spot_risk"] = o.risk;
    t["stale_price"] = o.stale;
    j["inference"].push_back(t);
  }
  return j;
}

// ---- HTML ------------------------------------------------------------------------------------

namespace {

constexpr const char* QUOTE_CSS = R"CSS(
@page { size: A4; margin: 9mm 9mm 10mm; }
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
body { margin: 0; background: #eef1f5; color: #1f2937; font: 12.5px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Liberation Sans", sans-serif; }
.page { max-width: 1000px; margin: 18px auto; background: #fff; border: 1px solid #dde2e9; border-radius: 8px; overflow: hidden; }
header { background: #0f1b33; color: #f5f7fb; padding: 18px 26px 16px; display: flex; justify-content: space-between; align-items: flex-end; gap: 20px; }
.brand { text-transform: uppercase; letter-spacing: .14em; font-size: 10.5px; color: #9fb3d9; font-weight: 650; }
header h1 { margin: 3px 0 2px; font-size: 22px; font-weight: 650; letter-spacing: -.01em; word-break: break-word; }
header .for { color: #c5d0e3; font-size: 13px; word-break: break-word; }
header dl { margin: 0; display: grid; grid-template-columns: auto auto; gap: 1px 12px; font-size: 11.5px; color: #c5d0e3; text-align: right; white-space: nowrap; }
header dt { color: #8ea3c8; }
header dd { margin: 0; color: #f5f7fb; font-variant-numeric: tabular-nums; }
main { padding: 14px 26px 6px; }
section { margin: 0 0 14px; }
h2 { font-size: 12.5px; text-transform: uppercase; letter-spacing: .06em; color: #334155; margin: 0 0 6px; font-weight: 700; border-bottom: 2px solid #0f1b33; padding-bottom: 3px; break-after: avoid; }
.ask { margin: 0 0 4px; }
.ask b { color: #0f1b33; }
.rec { display: grid; grid-template-columns: 1.6fr repeat(4, 1fr); gap: 8px; margin: 8px 0 10px; break-inside: avoid; }
.rec > div { border: 1px solid #dde2e9; border-radius: 7px; padding: 7px 10px; background: #f8fafc; min-width: 0; }
.rec .main { background: #ecfdf5; border-color: #a7f3d0; }
.rec .main.warn { background: #fffbeb; border-color: #fcd34d; }
.label { font-size: 9.5px; color: #5b6472; text-transform: uppercase; letter-spacing: .05em; font-weight: 650; }
.value { font-size: 16px; font-weight: 650; font-variant-numeric: tabular-nums; margin-top: 1px; white-space: nowrap; }
.sub { font-size: 10.5px; color: #5b6472; }
table { border-collapse: collapse; width: 100%; font-size: 11px; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 5px; border-bottom: 1px solid #e3e6eb; text-align: left; vertical-align: top; white-space: nowrap; }
thead th { font-size: 9px; color: #5b6472; text-transform: uppercase; letter-spacing: .03em; border-bottom: 1.5px solid #b8c1cc; vertical-align: bottom; }
td.num, th.num { text-align: right; }
td.flags { white-space: normal; }
td small { display: block; color: #6b7280; font-size: 9.5px; }
tr { break-inside: avoid; }
tr.best td { background: #ecfdf5; font-weight: 600; }
tr.miss td { color: #8a6a2f; }
.flag { display: inline-block; font-size: 9px; font-weight: 650; padding: 0 5px; border-radius: 99px; margin: 0 3px 1px 0; white-space: nowrap; }
.flag.warn { background: #fffbeb; color: #b45309; border: 1px solid #fcd34d; }
.flag.bad { background: #fef2f2; color: #b91c1c; border: 1px solid #fca5a5; }
.flag.ok { background: #ecfdf5; color: #047857; border: 1px solid #a7f3d0; }
.note { color: #5b6472; font-size: 10px; margin: 4px 0 0; }
.assume { margin: 0; padding: 0; list-style: none; font-size: 10px; columns: 2; column-gap: 22px; }
.assume li { margin: 0 0 4px; break-inside: avoid; }
.assume b { color: #0f1b33; }
.assume .src { color: #6b7280; font-style: italic; }
.prices td { font-size: 9.5px; }
.prices td.src { color: #5b6472; white-space: normal; }
footer { padding: 8px 26px 14px; font-size: 9.5px; color: #6b7280; border-top: 1px solid #e3e6eb; display: flex; justify-content: space-between; gap: 12px; }
@media print {
  body { background: #fff; font-size: 10px; line-height: 1.3; }
  .page { margin: 0; border: 0; border-radius: 0; max-width: none; }
  header { padding: 11px 14px 9px; border-radius: 5px; }
  header h1 { font-size: 18px; }
  main { padding: 8px 0 0; }
  footer { padding: 5px 0 0; font-size: 8px; }
  section { margin-bottom: 9px; }
  .rec { gap: 6px; margin: 5px 0 7px; }
  .rec > div { padding: 5px 8px; }
  .value { font-size: 13px; }
  .sub, .label { font-size: 8px; }
  table { font-size: 8.5px; }
  th, td { padding: 2px 3px; }
  thead th { font-size: 7px; }
  .flag { font-size: 7px; padding: 0 4px; }
  .assume, .note { font-size: 8px; }
  .assume li { margin-bottom: 2px; }
  .prices td { font-size: 7px; padding: 1px 3px; line-height: 1.2; }
  td small { font-size: 7px; line-height: 1.1; }
  .assume { font-size: 7.5px; }
}
)CSS";

using reports::esc;

std::string flag(const char* cls, const std::string& text) {
  return "<span class=\"flag " + std::string(cls) + "\">" + esc(text) + "</span>";
}

std::string kpi(const std::string& label, const std::string& value, const std::string& sub,
                const char* cls = "") {
  return "<div class=\"" + std::string(cls) + "\"><div class=\"label\">" + esc(label) +
         "</div><div class=\"value\">" + esc(value) + "</div><div class=\"sub\">" + esc(sub) +
         "</div></div>";
}

std::string th(const char* text, bool num = false) {
  return std::string(num ? "<th class=\"num\">" : "<th>") + text + "</th>";
}
std::string td(const std::string& text, bool num = false) {
  return std::string(num ? "<td class=\"num\">" : "<td>") + esc(text) + "</td>";
}

//! The instance id with its GPU below in small type.
std::string instance_cell(const InstanceType* it, const GpuSpec* gpu) {
  return "<td>" + esc(it->id) + " <small>" + esc(gpu->id) + "</small></td>";
}

std::string training_section(const QuoteReport& r, std::set<const InstanceType*>& shown_instances) {
  const TrainingRequest& t = *r.request->training;
  const auto& opts = r.quote->training;
  std::string h = "<section><h2>Training</h2><p class=\"ask\"><b>Request:</b> " +
                  esc(training_request_text(t)) + "</p>";
  const TrainingOption* best = nullptr;
  for (const auto& o : opts)
    if (o.feasible) {
      best = &o;
      break;
    }
  if (!best) return h + "<p>No catalog option can run this training job.</p></section>";
  const bool ok = best->meets_deadline && best->within_budget;
  h += "<div class=\"rec\">" +
       kpi(ok ? "Recommended" : "Best available (misses a target)",
           format_count(best->gpus) + " × " + best->gpu->id,
           format_count(best->nodes) + " × " + best->instance->id + ", " + best->plan.label(),
           ok ? "main" : "main warn") +
       kpi("Time to finish", time_text(best->timing.p50_s), "P90 " + p90_text(*best)) +
       kpi("Total cost", money_short(best->total_usd),
           best->plan.term_years() > 0 ? "whole reservation term" : "at the P50 time") +
       kpi("Per month", money_short(best->monthly_usd),
           money_short(best->hourly_usd) + " per hour") +
       kpi("Parallel TP · PP · DP",
           std::to_string(best->layout.tensor_parallel) + " · " +
               std::to_string(best->layout.pipeline_parallel) + " · " +
               std::to_string(best->layout.data_parallel),
           "all-reduce " + format_number(best->speed.allreduce_step_s, 2) + " s of " +
               format_number(best->speed.compute_step_s, 2) + " s step") +
       "</div>";
  h += "<table><thead><tr>" + th("#", true) + th("Instance / GPU") + th("GPUs (nodes)", true) +
       th("Pricing") + th("P50", true) + th("P90", true) + th("Per month", true) +
       th("Total", true) + th("Spot risk") + th("$/TFLOPS·h", true) + th("Flags") +
       "</tr></thead><tbody>";
  uint32_t n = 0;
  for (const auto& o : opts) {
    if (!o.feasible || n >= r.request->options.top) continue;
    shown_instances.insert(o.instance);
    std::string flags;
    if (!o.meets_deadline) flags += flag("bad", "misses deadline");
    if (!o.within_budget) flags += flag("bad", "over budget");
    if (o.stale) flags += flag("warn", "stale price " + o.instance->as_of);
    const char* cls = n == 0 && ok
                          ? " class=\"best\""
                          : (!o.meets_deadline || !o.within_budget ? " class=\"miss\"" : "");
    h += std::string("<tr") + cls + ">" + td(std::to_string(++n), true) +
         instance_cell(o.instance, o.gpu) + td(nodes_text(o.gpus, o.nodes), true) +
         td(o.plan.label()) + td(time_text(o.timing.p50_s), true) + td(p90_text(o), true) +
         td(money_short(o.monthly_usd), true) + td(money_short(o.total_usd), true) +
         td(spot_risk_text(o)) + td(usd_per_tflops_text(o.usd_per_tflops_hour), true) +
         "<td class=\"flags\">" + flags + "</td></tr>";
  }
  h += "</tbody></table>";
  size_t infeasible = 0;
  for (const auto& o : opts) infeasible += !o.feasible;
  h += "<p class=\"note\">Ranked: options meeting the deadline" +
       std::string(t.budget_usd ? " and budget" : "") +
       " first, then by total cost. GPUs are whole nodes. P50/P90: time to finish, from the "
       "Monte Carlo of spot preemptions (equal to the failure-free time without spot). "
       "$/TFLOPS·h: cluster price per hour over its dense peak TFLOPS. " +
       std::to_string(infeasible) +
       " further instance/pricing combinations cannot run this job (see quote.json).</p>";
  return h + "</section>";
}

std::string inference_section(const QuoteReport& r,
                              std::set<const InstanceType*>& shown_instances) {
  const InferenceRequest& q = *r.request->inference;
  const auto& opts = r.quote->inference;
  std::string h = "<section><h2>Inference</h2><p class=\"ask\"><b>Request:</b> " +
                  esc(inference_request_text(q)) + "</p>";
  size_t best_idx = opts.size();
  for (size_t i = 0; i < opts.size(); ++i)
    if (opts[i].feasible) {
      best_idx = i;
      break;
    }
  if (best_idx == opts.size())
    return h + "<p>No catalog option can serve this load within the target.</p></section>";
  const InferenceOption& best = opts[best_idx];
  const auto& check =
      best_idx < r.inference_checks.size() ? r.inference_checks[best_idx] : std::nullopt;
  h += "<div class=\"rec\">" +
       kpi(best.meets_target ? "Recommended" : "Best available (misses p99)",
           format_count(best.gpus) + " × " + best.gpu->id,
           format_count(best.nodes) + " × " + best.instance->id + ", " + best.plan.label(),
           best.meets_target ? "main" : "main warn") +
       kpi("p99 latency", latency_text(best.p99_latency_s),
           check ? "simulated " + latency_text(check->p99_latency_s) : "M/M/c") +
       kpi("Per month", money_short(best.monthly_usd),
           "$" + format_number(best.usd_per_1k_requests, 4) + " per 1k requests") +
       kpi("Utilization", format_percent(best.utilization, 0),
           format_count(best.servers) + " decode slots") +
       kpi("Decode", format_number(best.decode_tokens_per_gpu_s, 0) + " tok/s",
           "per GPU; " + latency_text(best.token_step_s) + " per step") +
       "</div>";
  h += "<table><thead><tr>" + th("#", true) + th("Instance / GPU") + th("GPUs (nodes)", true) +
       th("Pricing") + th("p99 model · sim", true) + th("Wait Erlang C · sim", true) +
       th("Util.", true) + th("Per month", true) + th("Total", true) + th("$/1k req", true) +
       th("Spot risk") + th("Flags") + "</tr></thead><tbody>";
  uint32_t n = 0;
  for (size_t i = 0; i < opts.size(); ++i) {
    const InferenceOption& o = opts[i];
    if (!o.feasible || n >= r.request->options.top) continue;
    shown_instances.insert(o.instance);
    const auto& c = i < r.inference_checks.size() ? r.inference_checks[i] : std::nullopt;
    std::string flags;
    if (!o.meets_target) flags += flag("bad", "misses p99");
    if (c) flags += sim_check_agrees(o, *c) ? flag("ok", "sim agrees") : flag("bad", "sim differs");
    if (o.stale) flags += flag("warn", "stale price " + o.instance->as_of);
    const char* cls =
        n == 0 && o.meets_target ? " class=\"best\"" : (!o.meets_target ? " class=\"miss\"" : "");
    const std::string p99_sim =
        c ? (c->saturated ? "saturated" : latency_text(c->p99_latency_s)) : "–";
    const std::string wait_sim = c ? latency_text(c->mean_wait_s) : "–";
    h += std::string("<tr") + cls + ">" + td(std::to_string(++n), true) +
         instance_cell(o.instance, o.gpu) + td(nodes_text(o.gpus, o.nodes), true) +
         td(o.plan.label()) + td(latency_text(o.p99_latency_s) + " · " + p99_sim, true) +
         td(latency_text(o.mean_wait_s) + " · " + wait_sim, true) +
         td(format_percent(o.utilization, 0), true) + td(money_short(o.monthly_usd), true) +
         td(money_short(o.total_usd), true) +
         td("$" + format_number(o.usd_per_1k_requests, 4), true) + td(spot_risk_text(o)) +
         "<td class=\"flags\">" + flags + "</td></tr>";
  }
  h += "</tbody></table>";
  h += "<p class=\"note\">Ranked: options meeting the p99 target first, then by total cost over "
       "the term. \"sim\": the discrete-event engine run on the same queue (" +
       format_count(static_cast<double>(r.request->options.sim_requests)) +
       " requests); it agrees when the p99 is within " + format_percent(SIM_CHECK_TOLERANCE, 0) +
       " and the mean wait within " + format_percent(SIM_CHECK_TOLERANCE, 0) +
       " or 5% of the service time.</p>";
  return h + "</section>";
}

std::string prices_section(const std::set<const InstanceType*>& shown) {
  if (shown.empty()) return "";
  std::vector<const InstanceType*> rows(shown.begin(), shown.end());
  std::sort(rows.begin(), rows.end(),
            [](const InstanceType* a, const InstanceType* b) { return a->id < b->id; });
  const auto price = [](std::optional<double> p) {
    return p ? format_money(*p) : std::string("–");
  };
  std::string h =
      "<section><h2>Prices used (USD per node-hour)</h2><table class=\"prices\"><thead><tr>" +
      th("Instance") + th("GPUs") + th("On-demand", true) + th("1-yr", true) + th("3-yr", true) +
      th("Spot", true) + th("As of") + th("Source") + "</tr></thead><tbody>";
  for (const InstanceType* it : rows) {
    const InstancePrices& p = it->price_per_hour;
    h += "<tr>" + td(it->id) + td(std::to_string(it->gpus_per_node) + "× " + it->gpu) +
         td(price(p.on_demand), true) + td(price(p.reserved_1y), true) +
         td(price(p.reserved_3y), true) + td(price(p.spot), true) + td(it->as_of) +
         "<td class=\"src\">" + esc(it->source) +
         (it->notes.empty() ? "" : " <b>Note:</b> " + esc(it->notes)) + "</td></tr>";
  }
  return h + "</tbody></table></section>";
}

}  // namespace

std::string render_quote_html(const QuoteReport& r) {
  const QuoteRequest& req = *r.request;
  std::set<const InstanceType*> shown;
  std::string body;
  if (req.training) body += training_section(r, shown);
  if (req.inference) body += inference_section(r, shown);
  std::string assume = "<section><h2>Assumptions</h2><ul class=\"assume\">";
  for (const Assumption& a : quote_assumptions(req))
    assume += "<li><b>" + esc(a.topic) + ".</b> " + esc(a.text) + " <span class=\"src\">" +
              esc(a.source) + "</span></li>";
  assume += "</ul></section>";
  body += assume + prices_section(shown);

  std::string h =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src "
      "'unsafe-inline'; img-src data:\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>Quote: " +
      esc(req.name) + "</title><style>" + QUOTE_CSS + "</style></head><body><div class=\"page\">";
  h += "<header><div><div class=\"brand\">gpuplan · GPU capacity quote</div><h1>" + esc(req.name) +
       "</h1><div class=\"for\">" +
       (req.customer.empty() ? std::string("Sizing and pricing across the instance catalog")
                             : "Prepared for " + esc(req.customer)) +
       "</div></div><dl><dt>Date</dt><dd>" + esc(r.quote->today) +
       "</dd><dt>Options sized</dt><dd>" +
       std::to_string(r.quote->training.size() + r.quote->inference.size()) +
       "</dd><dt>Prices</dt><dd>public list, USD</dd></dl></header><main>";
  h += body;
  h += "</main><footer><span>Generated by gpuplan " + esc(r.version) + " on " +
       esc(r.quote->today) +
       ". Estimates from published figures, not a commitment; list prices change — confirm "
       "with the provider before signing.</span><span>quote.json holds every figure.</span>"
       "</footer></div></body></html>\n";
  return h;
}

}  // namespace gpuplan::quote
