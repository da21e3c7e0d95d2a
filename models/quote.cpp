#include "models/quote.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>

#include "models/catalog_age.h"
#include "models/collectives.h"
#include "models/economics/billing.h"
#include "models/economics/checkpoint.h"
#include "models/jsonc.h"
#include "models/load.h"

namespace gpuplan::quote {
namespace {

using economics::HOURS_PER_MONTH;
using economics::HOURS_PER_YEAR;
using economics::SECONDS_PER_HOUR;
using nlohmann::json;

constexpr double INF = std::numeric_limits<double>::infinity();
constexpr double BYTES_PER_GB = 1e9;  // GpuSpec::mem_gb and mem_bw_tbps are decimal units
constexpr uint32_t MAX_INFERENCE_NODES = 100000;
// Deepest pipeline a layout may use: Llama 3 405B trained with 16 stages [M]; deeper pipelines
// lose more to bubbles than the MFU assumption covers.
constexpr uint32_t MAX_PIPELINE_STAGES = 16;
constexpr double MAX_SLOWDOWN =
    10;  // expected / failure-free time beyond which spot "never" finishes
constexpr double MC_DRAW_BUDGET = 4e6;  // random draws per Monte Carlo of one option (~50 ms)
constexpr uint32_t MIN_REPLICAS = 50;   // fewest Monte Carlo replicas kept under that budget

// ---- parsing helpers -------------------------------------------------------------------------

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

// A number followed by an optional K/M/B/T suffix (case-insensitive; "G" is a synonym of "B").
std::optional<double> number_with_suffix(std::string text) {
  if (text.empty()) return std::nullopt;
  double scale = 1;
  switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K':
      scale = 1e3;
      break;
    case 'M':
      scale = 1e6;
      break;
    case 'B':
    case 'G':
      scale = 1e9;
      break;
    case 'T':
      scale = 1e12;
      break;
    default:
      break;
  }
  if (scale != 1) text.pop_back();
  text = trim(text);
  double v = 0;
  const char* end = text.data() + text.size();
  const auto res = std::from_chars(text.data(), end, v);
  if (res.ec != std::errc() || res.ptr != end || !std::isfinite(v)) return std::nullopt;
  return v * scale;
}

bool is_comment_key(const std::string& k) {
  return k == "$schema" || k.starts_with("_") || k.starts_with("x-");
}

// Reads the members of one request object: reports unknown keys and wrong types, and gives
// typed getters that record a diagnostic for each bad value.
class ObjectReader {
 public:
  ObjectReader(const json& j, std::string pointer, const std::vector<std::string>& allowed,
               Diagnostics& d)
      : j_(j), ptr_(std::move(pointer)), d_(d) {
    if (!j.is_object()) {
      d_.error(ptr_, DiagCode::wrong_type, "must be an object, got " + std::string(j.type_name()));
      return;
    }
    for (const auto& [k, v] : j.items())
      if (!is_comment_key(k) && std::find(allowed.begin(), allowed.end(), k) == allowed.end())
        d_.unknown_key(ptr_ + "/" + pointer_token(k), k, allowed);
  }

  [[nodiscard]] bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
  [[nodiscard]] std::string at(const char* key) const { return ptr_ + "/" + key; }

  void missing(const char* key, const std::string& what) {
    d_.error(at(key), DiagCode::missing_key, "missing \"" + std::string(key) + "\": " + what);
  }

  //! A count: a number or a string like "70B".
  std::optional<double> count(const char* key, double lo, double hi) {
    if (!has(key)) return std::nullopt;
    const json& v = j_[key];
    std::optional<double> x;
    if (v.is_number()) {
      x = v.get<double>();
    } else if (v.is_string()) {
      x = parse_count(v.get<std::string>());
      if (!x) {
        d_.error(at(key), DiagCode::bad_unit,
                 "cannot read \"" + v.get<std::string>() +
                     "\" as a count; write a number with an optional K, M, B or T suffix, e.g. "
                     "\"70B\"");
        return std::nullopt;
      }
    } else {
      wrong_type(key, "a number or a string like \"70B\"");
      return std::nullopt;
    }
    return in_range(key, *x, lo, hi);
  }

  //! A plain number in [lo, hi].
  std::optional<double> number(const char* key, double lo, double hi) {
    if (!has(key)) return std::nullopt;
    if (!j_[key].is_number()) {
      wrong_type(key, "a number");
      return std::nullopt;
    }
    return in_range(key, j_[key].get<double>(), lo, hi);
  }

  //! A whole number in [lo, hi].
  std::optional<uint64_t> integer(const char* key, double lo, double hi) {
    if (!has(key)) return std::nullopt;
    const json& v = j_[key];
    if (!v.is_number() || v.get<double>() != std::floor(v.get<double>())) {
      wrong_type(key, "a whole number");
      return std::nullopt;
    }
    auto x = in_range(key, v.get<double>(), lo, hi);
    if (!x) return std::nullopt;
    return static_cast<uint64_t>(*x);
  }

  //! A duration: seconds, or "<number><unit>" with unit ms s m h d w y.
  std::optional<double> duration(const char* key, double lo) {
    return with_parser(
        key, lo, parse_duration, "a duration",
        "write seconds or a number with a unit ms, s, m, h, d, w or y, or the word, e.g. \"30d\" "
        "or \"30 days\"",
        "s");
  }

  //! A rate: per second, or "<number>/<unit>".
  std::optional<double> rate(const char* key, double lo) {
    return with_parser(key, lo, parse_rate, "a rate",
                       "write a number per second or \"<number>/<unit>\", e.g. \"3000/s\"", "/s");
  }

  //! Money: USD as a number, or "$5M".
  std::optional<double> money(const char* key, double lo) {
    return with_parser(key, lo, parse_money, "an amount of money",
                       "write US dollars as a number or a string like \"$5M\" or \"$250K\"", "USD");
  }

  //! A string.
  std::optional<std::string> string(const char* key) {
    if (!has(key)) return std::nullopt;
    if (!j_[key].is_string()) {
      wrong_type(key, "a string");
      return std::nullopt;
    }
    return j_[key].get<std::string>();
  }

  //! A precision among `allowed`.
  std::optional<Precision> precision(const char* key, const std::vector<std::string>& allowed) {
    auto s = string(key);
    if (!s) return std::nullopt;
    if (std::find(allowed.begin(), allowed.end(), *s) == allowed.end()) {
      d_.unknown_name(at(key), "precision", *s, allowed);
      return std::nullopt;
    }
    return parse_precision(*s);
  }

  //! An array of strings, each checked against `known` (case-insensitive).
  std::optional<std::vector<std::string>> names(const char* key, std::string_view what,
                                                const std::vector<std::string>& known) {
    if (!has(key)) return std::nullopt;
    const json& v = j_[key];
    if (!v.is_array()) {
      wrong_type(key, "an array of strings");
      return std::nullopt;
    }
    std::vector<std::string> out;
    bool ok = true;
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string p = at(key) + "/" + std::to_string(i);
      if (!v[i].is_string()) {
        d_.error(p, DiagCode::wrong_type, "must be a string, got " + std::string(v[i].type_name()));
        ok = false;
        continue;
      }
      const std::string s = v[i].get<std::string>();
      const auto hit = std::find_if(known.begin(), known.end(), [&](const std::string& k) {
        return std::equal(k.begin(), k.end(), s.begin(), s.end(), [](char a, char b) {
          return std::tolower(static_cast<unsigned char>(a)) ==
                 std::tolower(static_cast<unsigned char>(b));
        });
      });
      if (hit == known.end()) {
        d_.unknown_name(p, what, s, known);
        ok = false;
      } else {
        out.push_back(*hit);
      }
    }
    if (!ok) return std::nullopt;
    return out;
  }

  //! An array of numbers in [lo, hi].
  std::optional<std::vector<double>> numbers(const char* key, double lo, double hi) {
    if (!has(key)) return std::nullopt;
    const json& v = j_[key];
    if (!v.is_array() || v.empty()) {
      wrong_type(key, "a non-empty array of numbers");
      return std::nullopt;
    }
    std::vector<double> out;
    bool ok = true;
    for (size_t i = 0; i < v.size(); ++i) {
      const std::string p = at(key) + "/" + std::to_string(i);
      if (!v[i].is_number()) {
        d_.error(p, DiagCode::wrong_type, "must be a number, got " + std::string(v[i].type_name()));
        ok = false;
      } else if (const double x = v[i].get<double>(); !(x >= lo && x <= hi)) {
        d_.out_of_range(p, x, lo, hi);
        ok = false;
      } else {
        out.push_back(x);
      }
    }
    if (!ok) return std::nullopt;
    return out;
  }

 private:
  void wrong_type(const char* key, const std::string& want) {
    d_.error(at(key), DiagCode::wrong_type,
             "must be " + want + ", got " + std::string(j_[key].type_name()));
  }

  std::optional<double> in_range(const char* key, double x, double lo, double hi) {
    if (!(x >= lo && x <= hi)) {
      d_.out_of_range(at(key), x, lo, hi);
      return std::nullopt;
    }
    return x;
  }

  template <class Parser>
  std::optional<double> with_parser(const char* key, double lo, Parser parse, const char* what,
                                    const char* how, const char* unit) {
    if (!has(key)) return std::nullopt;
    const json& v = j_[key];
    std::optional<double> x;
    if (v.is_number())
      x = v.get<double>();
    else if (v.is_string())
      x = parse(v.get<std::string>());
    else {
      wrong_type(key, std::string(what) + " (number or string)");
      return std::nullopt;
    }
    if (!x) {
      d_.error(at(key), DiagCode::bad_unit, "cannot read " + v.dump() + " as " + what + "; " + how);
      return std::nullopt;
    }
    if (!(*x >= lo) || !std::isfinite(*x)) {
      d_.out_of_range(at(key), *x, lo, INF, unit);
      return std::nullopt;
    }
    return x;
  }

  const json& j_;
  std::string ptr_;
  Diagnostics& d_;
};

std::vector<std::string> known_providers(const Catalog& c) {
  std::vector<std::string> out;
  for (const auto& it : c.instances)
    if (std::find(out.begin(), out.end(), it.provider) == out.end()) out.push_back(it.provider);
  return out;
}

template <class T>
void set_if(std::optional<T> v, T& field) {
  if (v) field = *v;
}

std::optional<TrainingRequest> read_training(const json& j, Diagnostics& d) {
  const size_t before = d.size();
  ObjectReader r(j, "/training", training_keys(), d);
  TrainingRequest t;
  if (!r.has("params")) r.missing("params", "the model's parameter count, e.g. \"70B\"");
  if (!r.has("tokens")) r.missing("tokens", "the training tokens, e.g. \"2T\"");
  if (j.is_object() && !r.has("deadline") && !r.has("budget"))
    d.error("/training", DiagCode::missing_key,
            "a training request needs \"deadline\" (e.g. \"30d\") or \"budget\" (e.g. \"$5M\")");
  set_if(r.count("params", 1e6, 1e15), t.params);
  set_if(r.count("tokens", 1e6, 1e17), t.tokens);
  if (auto x = r.duration("deadline", 1)) t.deadline_s = *x;
  if (auto x = r.money("budget", 0)) t.budget_usd = *x;
  set_if(r.precision("precision", {"bf16", "fp16", "fp8", "tf32", "fp32"}), t.precision);
  set_if(r.number("mfu", 0.01, 1), t.mfu);
  set_if(r.count("tokens_per_step", 1, 1e12), t.tokens_per_step);
  set_if(r.number("overlap", 0, 1), t.overlap);
  set_if(r.duration("checkpoint", 0), t.checkpoint_s);
  set_if(r.duration("restart", 0), t.restart_s);
  set_if(r.duration("replacement", 0), t.replacement_s);
  if (auto x = r.integer("max_gpus", 1, 1 << 20)) t.max_gpus = static_cast<uint32_t>(*x);
  if (d.size() != before) return std::nullopt;
  return t;
}

std::optional<InferenceRequest> read_inference(const json& j, Diagnostics& d) {
  const size_t before = d.size();
  ObjectReader r(j, "/inference", inference_keys(), d);
  InferenceRequest q;
  if (!r.has("params")) r.missing("params", "the model's parameter count, e.g. \"8B\"");
  if (!r.has("requests_per_s"))
    r.missing("requests_per_s", "the request rate, e.g. 2000 or \"2000/s\"");
  if (!r.has("tokens_out")) r.missing("tokens_out", "generated tokens per request, e.g. 128");
  if (!r.has("p99_latency"))
    r.missing("p99_latency", "the p99 latency target of wait + service, e.g. \"2s\"");
  set_if(r.count("params", 1e6, 1e15), q.params);
  set_if(r.precision("precision", {"bf16", "fp16", "fp8"}), q.precision);
  set_if(r.rate("requests_per_s", 1e-6), q.requests_per_s);
  set_if(r.count("tokens_in", 0, 1e7), q.tokens_in);
  set_if(r.count("tokens_out", 1, 1e7), q.tokens_out);
  if (auto x = r.duration("p99_latency", 1e-6)) q.p99_latency_s = *x;
  if (auto x = r.integer("batch", 1, 4096)) q.batch = static_cast<uint32_t>(*x);
  set_if(r.number("bandwidth_efficiency", 0.01, 1), q.bandwidth_efficiency);
  set_if(r.number("prefill_mfu", 0.01, 1), q.prefill_mfu);
  set_if(r.number("memory_reserve", 0, 0.95), q.memory_reserve);
  set_if(r.number("months", 0.01, 120), q.months);
  if (d.size() != before) return std::nullopt;
  return q;
}

bool read_options(const json& j, QuoteOptions& o, Diagnostics& d) {
  const size_t before = d.size();
  ObjectReader r(j, "/options", options_keys(), d);
  const Catalog& cat = builtin_catalog();
  std::vector<std::string> gpus, instances;
  for (const auto& g : cat.gpus) gpus.push_back(g.id);
  for (const auto& it : cat.instances) instances.push_back(it.id);
  set_if(r.names("providers", "provider", known_providers(cat)), o.providers);
  set_if(r.names("gpus", "GPU", gpus), o.gpus);
  set_if(r.names("instances", "instance type", instances), o.instances);
  set_if(r.names("pricing", "pricing", {"on_demand", "reserved_1y", "reserved_3y", "spot"}),
         o.pricing);
  set_if(r.numbers("spot_shares", 0.01, 1), o.spot_shares);
  set_if(r.number("spot_hazard_per_node_hour", 0, 100), o.spot_hazard_per_node_hour);
  if (auto x = r.integer("replicas", 10, 100000)) o.replicas = static_cast<uint32_t>(*x);
  set_if(r.integer("sim_requests", 1000, 1e8), o.sim_requests);
  set_if(r.integer("seed", 0, 9007199254740992.0), o.seed);
  if (auto x = r.integer("top", 1, 1000)) o.top = static_cast<uint32_t>(*x);
  return d.size() == before;
}

// ---- sizing helpers --------------------------------------------------------------------------

uint64_t ceil_div(double a, double b) {
  return static_cast<uint64_t>(std::max(0.0, std::ceil(a / b)));
}

// Quantile of a sorted sample (linear interpolation, Hyndman-Fan type 7).
double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double h = (sorted.size() - 1) * q;
  const auto lo = static_cast<size_t>(std::floor(h));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

// An exponential variate from 53 bits of a 64-bit Mersenne Twister (bit-exact on every platform,
// unlike std::exponential_distribution).
double exponential(std::mt19937_64& rng, double rate) {
  const double u = (static_cast<double>(rng() >> 11) + 0.5) * (1.0 / 9007199254740992.0);
  return -std::log(u) / rate;
}

// Time to get through one block of `len` seconds that restarts after each interruption, paying
// `downtime` and a (interruptible) recovery of `recovery` seconds each time.
double simulate_segment(std::mt19937_64& rng, double len, double recovery, double downtime,
                        double hazard, double& interruptions) {
  double t = 0;
  while (true) {
    const double x = exponential(rng, hazard);
    if (x >= len) return t + len;
    t += x + downtime;
    interruptions += 1;
    while (true) {  // recovery: read the checkpoint back, itself interruptible
      const double y = exponential(rng, hazard);
      if (y >= recovery) {
        t += recovery;
        break;
      }
      t += y + downtime;
      interruptions += 1;
    }
  }
}

double cluster_price_per_hour(uint32_t nodes, uint32_t spot_nodes, const PlanPrice& p) {
  return (nodes - spot_nodes) * p.base_usd_per_node_hour + spot_nodes * p.spot_usd_per_node_hour;
}

std::string risk_level(double spot_share, double slowdown) {
  if (spot_share <= 0) return "none";
  if (slowdown < 0.05) return "low";
  if (slowdown < 0.25) return "medium";
  return "high";
}

std::string today_string(std::chrono::year_month_day d) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%04d-%02u-%02u", static_cast<int>(d.year()),
                static_cast<unsigned>(d.month()), static_cast<unsigned>(d.day()));
  return buf;
}

std::vector<PricingPlan> plans_for(const InstanceType& it, const QuoteOptions& o) {
  std::vector<PricingPlan> out;
  if (it.provider == "on_prem") return {PricingPlan{"on_prem", 0}};
  for (const auto& p : o.pricing) {
    if (p == "spot")
      for (double s : o.spot_shares) out.push_back(PricingPlan{"on_demand", s});
    else
      out.push_back(PricingPlan{p, 0});
  }
  return out;
}

}  // namespace

// ---- request ---------------------------------------------------------------------------------

const std::vector<std::string>& request_keys() {
  static const std::vector<std::string> k = {"name", "customer", "training", "inference",
                                             "options"};
  return k;
}
const std::vector<std::string>& training_keys() {
  static const std::vector<std::string> k = {
      "params",          "tokens",  "deadline",   "budget",  "precision",   "mfu",
      "tokens_per_step", "overlap", "checkpoint", "restart", "replacement", "max_gpus"};
  return k;
}
const std::vector<std::string>& inference_keys() {
  static const std::vector<std::string> k = {
      "params",      "precision",      "requests_per_s", "tokens_in",
      "tokens_out",  "p99_latency",    "batch",          "bandwidth_efficiency",
      "prefill_mfu", "memory_reserve", "months"};
  return k;
}
const std::vector<std::string>& options_keys() {
  static const std::vector<std::string> k = {"providers",   "gpus",
                                             "instances",   "pricing",
                                             "spot_shares", "spot_hazard_per_node_hour",
                                             "replicas",    "sim_requests",
                                             "seed",        "top"};
  return k;
}

std::optional<double> parse_count(std::string_view text) {
  return number_with_suffix(trim(text));
}

std::optional<double> parse_money(std::string_view text) {
  std::string s = trim(text);
  if (!s.empty() && s.front() == '$') s.erase(0, 1);
  if (s.size() >= 3 && (s.ends_with("USD") || s.ends_with("usd"))) s.resize(s.size() - 3);
  s.erase(std::remove(s.begin(), s.end(), ','), s.end());
  return number_with_suffix(trim(s));
}

std::optional<QuoteRequest> parse_request(const json& j, Diagnostics& diags) {
  const size_t before = diags.size();
  ObjectReader r(j, "", request_keys(), diags);
  if (!j.is_object()) return std::nullopt;
  QuoteRequest q;
  q.source = j;
  set_if(r.string("name"), q.name);
  set_if(r.string("customer"), q.customer);
  if (!r.has("training") && !r.has("inference"))
    diags.error("", DiagCode::missing_key,
                "a quote request needs \"training\" (model, tokens, deadline or budget) or "
                "\"inference\" (model, request rate, latency target), or both");
  if (r.has("training")) q.training = read_training(j["training"], diags);
  if (r.has("inference")) q.inference = read_inference(j["inference"], diags);
  if (r.has("options")) read_options(j["options"], q.options, diags);
  if (diags.size() != before) return std::nullopt;
  return q;
}

std::optional<QuoteRequest> parse_request_text(std::string_view text, const std::string& file,
                                               Diagnostics& diags) {
  diags.set_file(file);
  auto doc = parse_jsonc(text, file, diags);
  if (!doc) return std::nullopt;
  diags.set_lines(&doc->lines);
  auto q = parse_request(doc->value, diags);
  diags.set_lines(nullptr);
  return q;
}

// ---- pricing ---------------------------------------------------------------------------------

std::string PricingPlan::label() const {
  if (spot_share > 0) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "spot %.0f%%", 100 * spot_share);
    return buf;
  }
  if (base == "reserved_1y") return "1-yr reserved";
  if (base == "reserved_3y") return "3-yr reserved";
  if (base == "on_prem") return "on-prem";
  return "on-demand";
}

double PricingPlan::term_years() const {
  if (base == "reserved_1y") return 1;
  if (base == "reserved_3y") return 3;
  return 0;
}

std::optional<PlanPrice> plan_price(const InstanceType& it, const PricingPlan& plan) {
  const InstancePrices& p = it.price_per_hour;
  std::optional<double> base;
  if (plan.base == "on_demand")
    base = p.on_demand;
  else if (plan.base == "reserved_1y")
    base = p.reserved_1y;
  else if (plan.base == "reserved_3y")
    base = p.reserved_3y;
  else if (plan.base == "on_prem")
    base = p.on_prem;
  PlanPrice out;
  if (plan.spot_share < 1) {
    if (!base) return std::nullopt;
    out.base_usd_per_node_hour = *base;
  }
  if (plan.spot_share > 0) {
    if (!p.spot) return std::nullopt;
    out.spot_usd_per_node_hour = *p.spot;
  }
  return out;
}

// ---- training --------------------------------------------------------------------------------

std::optional<TrainingLayout> fit_training_layout(const TrainingRequest& req, const GpuSpec& gpu,
                                                  uint32_t gpus_per_node, uint32_t nodes) {
  TrainingJob job;
  job.params = req.params;
  job.zero = ZeroStage::optimizer;
  const uint32_t n = gpus_per_node * nodes;
  const auto fits = [&](uint32_t tp, uint32_t pp) {
    job.tensor_parallel = tp;
    job.pipeline_parallel = pp;
    job.data_parallel = n / (tp * pp);
    return memory_per_gpu(job, gpu).fits();
  };
  // Tensor parallelism first (powers of two dividing the node), then pipeline stages that divide
  // the node count, so every GPU of the cluster works.
  for (uint32_t tp = 1; tp <= gpus_per_node; tp *= 2)
    if (gpus_per_node % tp == 0 && fits(tp, 1)) return TrainingLayout{tp, 1, n / tp};
  for (uint32_t pp = 2; pp <= std::min(nodes, MAX_PIPELINE_STAGES); ++pp)
    if (nodes % pp == 0 && fits(gpus_per_node, pp))
      return TrainingLayout{gpus_per_node, pp, n / (gpus_per_node * pp)};
  return std::nullopt;
}

TrainingSpeed training_speed(const TrainingRequest& req, const InstanceType& it, const GpuSpec& gpu,
                             uint32_t nodes, const TrainingLayout& layout) {
  TrainingJob job;
  job.params = req.params;
  job.tokens = req.tokens;
  job.tokens_per_step = req.tokens_per_step;
  job.precision = req.precision;
  job.mfu = req.mfu;
  job.tensor_parallel = layout.tensor_parallel;
  job.pipeline_parallel = layout.pipeline_parallel;
  job.data_parallel = layout.data_parallel;
  job.zero = ZeroStage::optimizer;
  job.overlap = 0;  // the overlap is applied below, against the compute time
  const CommPlacement pl = make_comm_placement(it, gpu, it.gpus_per_node, nodes);
  const SpeedEstimate e = estimate_training(job, gpu, pl);
  TrainingSpeed s;
  s.steps = e.steps;
  s.compute_step_s = e.compute_s;
  s.allreduce_step_s = e.allreduce_s;
  s.dp_busbw_gbyte_s = e.dp_busbw_gbyte_s;
  // NOTE: published MFUs are end to end, with the gradient all-reduce bucketed behind the
  // backward pass; only the part longer than overlap x compute shows.
  const double exposed =
      std::isinf(e.allreduce_s) ? INF : std::max(0.0, e.allreduce_s - req.overlap * e.compute_s);
  s.step_s = e.compute_s + exposed;
  s.work_s = s.steps * s.step_s;
  return s;
}

SpotTiming spot_timing(double work_s, double hazard_per_s, double checkpoint_s, double restart_s,
                       double replacement_s, uint32_t replicas, uint64_t seed) {
  SpotTiming t;
  t.hazard_per_s = hazard_per_s;
  if (hazard_per_s <= 0 || work_s <= 0) {
    t.expected_s = t.mc_mean_s = t.p50_s = t.p90_s = work_s;
    return t;
  }
  t.interval_s = economics::daly_interval_s(checkpoint_s, 1.0 / hazard_per_s).value_or(work_s);
  t.interval_s = std::min(t.interval_s, work_s);
  const economics::CheckpointedJob job{work_s, checkpoint_s, restart_s, replacement_s};
  t.expected_s =
      economics::expected_completion_time_s(job, t.interval_s, hazard_per_s).value_or(INF);
  // NOTE: a run expected to take 10x its failure-free time is useless to a customer and would
  // need millions of draws per replica; report it as not finishing.
  if (!(t.expected_s < MAX_SLOWDOWN * work_s)) {
    t.mc_mean_s = t.p50_s = t.p90_s = t.expected_s = INF;
    return t;
  }
  if (replicas == 0) {
    t.mc_mean_s = t.p50_s = t.p90_s = t.expected_s;
    t.expected_interruptions = hazard_per_s * t.expected_s;
    return t;
  }
  std::mt19937_64 rng(seed);
  const double n_segments = std::ceil(work_s / t.interval_s);
  // Each segment takes one draw, each interruption at least two: fewer replicas past the budget.
  const double draws_per_replica = n_segments + 2 * hazard_per_s * t.expected_s;
  replicas =
      static_cast<uint32_t>(std::clamp(MC_DRAW_BUDGET / draws_per_replica,
                                       double(std::min(replicas, MIN_REPLICAS)), double(replicas)));
  t.replicas = replicas;
  const double last = work_s - (n_segments - 1) * t.interval_s;
  std::vector<double> times(replicas);
  double interruptions = 0, sum = 0;
  for (uint32_t r = 0; r < replicas; ++r) {
    double total = 0;
    for (double k = 0; k < n_segments; ++k) {
      const double len = (k + 1 < n_segments ? t.interval_s : last) + checkpoint_s;
      total += simulate_segment(rng, len, restart_s, replacement_s, hazard_per_s, interruptions);
    }
    times[r] = total;
    sum += total;
  }
  std::sort(times.begin(), times.end());
  t.mc_mean_s = sum / replicas;
  t.p50_s = quantile(times, 0.5);
  t.p90_s = quantile(times, 0.9);
  t.expected_interruptions = interruptions / replicas;
  return t;
}

TrainingOption size_training(const TrainingRequest& req, const QuoteOptions& o,
                             const InstanceType& it, const GpuSpec& gpu, const PricingPlan& plan) {
  TrainingOption opt;
  opt.instance = &it;
  opt.gpu = &gpu;
  opt.plan = plan;
  const auto price = plan_price(it, plan);
  const double peak = peak_tflops(gpu, req.precision);
  const uint32_t gpn = std::max<uint32_t>(it.gpus_per_node, 1);
  const auto max_nodes = static_cast<uint32_t>(std::max<uint64_t>(1, req.max_gpus / gpn));
  if (!price) {
    opt.infeasible_reason = "no " + plan.label() + " price in the catalog";
    return opt;
  }
  if (peak <= 0) {
    opt.infeasible_reason = "no tensor throughput figure for this precision";
    return opt;
  }
  const double hazard_per_node_s = o.spot_hazard_per_node_hour / SECONDS_PER_HOUR;
  // NOTE: gradient all-reduce and pipeline transfers between nodes need a scale-out network;
  // an instance without NICs in the catalog is a single-node option only.
  const uint32_t max_nodes_here = it.nics * it.nic_gbps > 0 ? max_nodes : 1;

  // Evaluates one cluster size; returns false when it has no layout or cannot run.
  struct Eval {
    uint32_t nodes = 0, spot_nodes = 0;
    TrainingLayout layout;
    TrainingSpeed speed;
    SpotTiming timing;
    double hourly = 0;
  };
  const auto evaluate = [&](uint32_t nodes, bool with_mc, Eval& e) {
    const auto layout = fit_training_layout(req, gpu, gpn, nodes);
    if (!layout) return false;
    e.nodes = nodes;
    e.layout = *layout;
    e.speed = training_speed(req, it, gpu, nodes, *layout);
    if (!std::isfinite(e.speed.work_s)) return false;
    e.spot_nodes = static_cast<uint32_t>(std::ceil(plan.spot_share * nodes - 1e-9));
    e.hourly = cluster_price_per_hour(nodes, e.spot_nodes, *price);
    const double hazard = e.spot_nodes * hazard_per_node_s;
    e.timing = spot_timing(e.speed.work_s, hazard, req.checkpoint_s, req.restart_s,
                           req.replacement_s, with_mc ? o.replicas : 0, o.seed);
    return true;
  };
  const auto cost_of = [&](const Eval& e, double seconds) {
    const double hours = std::max(seconds / SECONDS_PER_HOUR, plan.term_years() * HOURS_PER_YEAR);
    return e.hourly * hours;
  };

  // Fewest nodes whose memory fits, searched up from a bound: the replicated 4 bytes per
  // parameter of ZeRO-1 must be split over at most every GPU of the cluster.
  const double usable = gpu.mem_gb * BYTES_PER_GB * (1 - TrainingJob{}.activation_reserve);
  uint32_t min_nodes = static_cast<uint32_t>(
      std::clamp<uint64_t>(ceil_div(req.params * (WEIGHT_BYTES + GRADIENT_BYTES), usable * gpn), 1,
                           max_nodes_here + 1ull));
  while (min_nodes <= max_nodes_here && !fit_training_layout(req, gpu, gpn, min_nodes)) ++min_nodes;
  if (min_nodes > max_nodes_here) {
    opt.infeasible_reason =
        max_nodes_here == 1
            ? "model states do not fit in one node (no scale-out network in "
              "the catalog)"
            : "model states do not fit in " + std::to_string(req.max_gpus) + " GPUs";
    return opt;
  }

  Eval best;
  bool found = false;
  if (req.deadline_s) {
    // Compute-only lower bound on the nodes: no cluster below it meets the deadline.
    const double gpu_s = req.tokens * 6 * req.params / (peak * 1e12 * req.mfu);
    uint32_t nodes =
        std::max<uint32_t>(min_nodes, static_cast<uint32_t>(std::min<uint64_t>(
                                          ceil_div(gpu_s / *req.deadline_s, gpn), max_nodes_here)));
    // The expected time falls with more nodes until communication or preemptions dominate, then
    // rises: find the fastest cluster by a ternary search on the analytic expectation.
    const auto expected_at = [&](uint32_t n) {
      Eval e;
      return evaluate(n, false, e) ? e.timing.expected_s : INF;
    };
    uint32_t lo = min_nodes, hi = max_nodes_here;
    while (hi - lo > 2) {
      const uint32_t m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
      const double f1 = expected_at(m1), f2 = expected_at(m2);
      if (std::isinf(f1) && std::isinf(f2))
        hi = m1;  // past the point where preemptions win
      else if (f1 <= f2)
        hi = m2;
      else
        lo = m1;
    }
    uint32_t fastest = lo;
    for (uint32_t n = lo + 1; n <= hi; ++n)
      if (expected_at(n) < expected_at(fastest)) fastest = n;
    // The smallest cluster up to the fastest whose time to finish (P90 with spot) fits.
    for (; nodes <= fastest; ++nodes) {
      Eval e;
      if (!evaluate(nodes, false, e) || e.timing.expected_s > *req.deadline_s) continue;
      if (plan.spot_share > 0) {
        evaluate(nodes, true, e);
        if (e.timing.p90_s > *req.deadline_s) continue;
      }
      best = e;
      found = true;
      break;
    }
    if (!found) {
      // Report the fastest cluster, marked as missing the deadline.
      Eval e;
      if (evaluate(fastest, plan.spot_share > 0 && expected_at(fastest) <= 2 * *req.deadline_s,
                   e) &&
          std::isfinite(e.timing.expected_s)) {
        best = e;
        found = true;
        opt.meets_deadline = false;
      }
    }
  } else {
    // Budget only: the most nodes (up to max_gpus) whose P50 cost stays within the budget.
    Eval e;
    uint32_t lo = min_nodes, hi = max_nodes_here;
    if (evaluate(lo, true, e)) {
      best = e;
      found = true;
      if (cost_of(e, e.timing.p50_s) <= *req.budget_usd) {
        while (lo < hi) {
          const uint32_t mid = lo + (hi - lo + 1) / 2;
          Eval m;
          if (evaluate(mid, true, m) && cost_of(m, m.timing.p50_s) <= *req.budget_usd) {
            lo = mid;
            best = m;
          } else {
            hi = mid - 1;
          }
        }
      }
    }
  }
  if (!found || !std::isfinite(best.timing.p90_s)) {
    opt.infeasible_reason =
        plan.spot_share > 0   ? "spot preemptions too frequent to finish (cluster MTBF below the "
                                "checkpoint cost)"
        : max_nodes_here == 1 ? "no scale-out network in the catalog, and one "
                                "node is too small or too slow"
                              : "no cluster up to " + std::to_string(req.max_gpus) +
                                    " GPUs can run it (network or memory)";
    return opt;
  }
  opt.feasible = true;
  opt.nodes = best.nodes;
  opt.gpus = best.nodes * gpn;
  opt.spot_nodes = best.spot_nodes;
  opt.layout = best.layout;
  opt.speed = best.speed;
  opt.timing = best.timing;
  opt.hourly_usd = best.hourly;
  opt.monthly_usd = best.hourly * HOURS_PER_MONTH;
  opt.total_usd = cost_of(best, best.timing.p50_s);
  opt.total_p90_usd = cost_of(best, best.timing.p90_s);
  opt.usd_per_tflops_hour = best.hourly / (opt.gpus * peak);
  if (req.deadline_s)
    opt.meets_deadline = opt.meets_deadline && best.timing.p90_s <= *req.deadline_s;
  if (req.budget_usd) opt.within_budget = opt.total_usd <= *req.budget_usd;
  opt.risk = risk_level(plan.spot_share, best.timing.p50_s / best.speed.work_s - 1);
  return opt;
}

// ---- inference -------------------------------------------------------------------------------

double erlang_c(uint32_t c, double a) {
  if (c == 0 || a >= c) return 1.0;
  // Erlang B by its stable recursion, then C = B / (1 - rho (1 - B)).
  double b = 1.0;
  for (uint32_t k = 1; k <= c; ++k) b = a * b / (k + a * b);
  const double rho = a / c;
  return b / (1.0 - rho * (1.0 - b));
}

double mmc_mean_wait_s(uint32_t c, double lambda, double mu) {
  if (lambda >= c * mu) return INF;
  return erlang_c(c, lambda / mu) / (c * mu - lambda);
}

double mmc_response_tail(uint32_t c, double lambda, double mu, double t) {
  if (lambda >= c * mu) return 1.0;
  const double pw = erlang_c(c, lambda / mu);
  const double theta = c * mu - lambda;  // rate of the wait, given that a request waits
  // wait + service, given a wait: hypoexponential(theta, mu), or Erlang-2 when theta == mu
  const double both = std::abs(theta - mu) < 1e-12 * mu
                          ? (1 + mu * t) * std::exp(-mu * t)
                          : (theta * std::exp(-mu * t) - mu * std::exp(-theta * t)) / (theta - mu);
  return (1 - pw) * std::exp(-mu * t) + pw * both;
}

double mmc_response_quantile_s(uint32_t c, double lambda, double mu, double q) {
  if (lambda >= c * mu) return INF;
  double lo = 0, hi = 1.0 / mu;
  while (mmc_response_tail(c, lambda, mu, hi) > 1 - q) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (mmc_response_tail(c, lambda, mu, mid) > 1 - q ? lo : hi) = mid;
  }
  return hi;
}

InferenceOption size_inference(const InferenceRequest& req, const QuoteOptions& o,
                               const InstanceType& it, const GpuSpec& gpu,
                               const PricingPlan& plan) {
  InferenceOption opt;
  opt.instance = &it;
  opt.gpu = &gpu;
  opt.plan = plan;
  const auto price = plan_price(it, plan);
  if (!price) {
    opt.infeasible_reason = "no " + plan.label() + " price in the catalog";
    return opt;
  }
  const uint32_t gpn = std::max<uint32_t>(it.gpus_per_node, 1);
  const double weight_bytes = req.params * (req.precision == Precision::fp8 ? 1.0 : 2.0);
  const double peak = peak_tflops(gpu, req.precision);
  // NOTE: fp8 weights on a GPU without fp8 units are served upcast (peak_tflops falls back to
  // bf16); memory and bandwidth still count one byte per weight. Smallest tensor-parallel group
  // (power of two dividing the node) that holds the weights.
  uint32_t g = 1;
  while (g <= gpn && weight_bytes > (1 - req.memory_reserve) * g * gpu.mem_gb * BYTES_PER_GB)
    g *= 2;
  if (g > gpn || gpn % g != 0) {
    opt.infeasible_reason = "weights do not fit in one node";
    return opt;
  }
  opt.group_gpus = g;
  const double group_bw = g * gpu.mem_bw_tbps * 1e12 * req.bandwidth_efficiency;  // [B/s]
  opt.token_step_s = weight_bytes / group_bw;
  const double prefill_compute =
      2 * req.params * req.tokens_in / (g * peak * 1e12 * req.prefill_mfu);
  opt.prefill_s = req.tokens_in > 0 ? std::max(prefill_compute, opt.token_step_s) : 0;
  opt.service_s = opt.prefill_s + req.tokens_out * opt.token_step_s;
  opt.decode_tokens_per_gpu_s = req.batch / opt.token_step_s / g;
  opt.slots_per_node = (gpn / g) * req.batch;
  const double lambda = req.requests_per_s;
  const double mu = 1.0 / opt.service_s;
  // With unlimited slots the response is the service alone, Exp(mu), whose p99 is S ln 100.
  if (opt.service_s * std::log(100.0) >= req.p99_latency_s) {
    opt.infeasible_reason = "the service time alone misses the p99 target";
    return opt;
  }
  // Fewest nodes whose slots keep P(wait + service > target) within 1%.
  auto nodes =
      static_cast<uint32_t>(std::max<uint64_t>(ceil_div(lambda / mu, opt.slots_per_node), 1));
  for (;; ++nodes) {
    if (nodes > MAX_INFERENCE_NODES) {
      opt.infeasible_reason = "needs more than " + std::to_string(MAX_INFERENCE_NODES) + " nodes";
      return opt;
    }
    const uint32_t c = nodes * opt.slots_per_node;
    if (lambda < c * mu && mmc_response_tail(c, lambda, mu, req.p99_latency_s) <= 0.01) break;
  }
  opt.serving_nodes = nodes;
  opt.servers = nodes * opt.slots_per_node;
  // Spot nodes are away for a replacement after each preemption: provision extra spot nodes so
  // the expected serving capacity stays at the sized count (availability 1 / (1 + lambda D)).
  const double availability =
      1.0 / (1.0 + o.spot_hazard_per_node_hour * DEFAULT_REPLACEMENT_S / SECONDS_PER_HOUR);
  const auto spot_needed = static_cast<uint32_t>(std::ceil(plan.spot_share * nodes - 1e-9));
  opt.spot_nodes =
      spot_needed > 0 ? static_cast<uint32_t>(std::ceil(spot_needed / availability - 1e-9)) : 0;
  opt.nodes = nodes - spot_needed + opt.spot_nodes;
  opt.gpus = opt.nodes * gpn;
  opt.utilization = lambda / (opt.servers * mu);
  opt.p_wait = erlang_c(opt.servers, lambda / mu);
  opt.mean_wait_s = mmc_mean_wait_s(opt.servers, lambda, mu);
  opt.p99_latency_s = mmc_response_quantile_s(opt.servers, lambda, mu, 0.99);
  opt.hourly_usd = cluster_price_per_hour(opt.nodes, opt.spot_nodes, *price);
  opt.monthly_usd = opt.hourly_usd * HOURS_PER_MONTH;
  const double months = std::max(req.months, 12 * plan.term_years());
  opt.total_usd = opt.monthly_usd * months;
  opt.usd_per_1k_requests = opt.hourly_usd / (lambda * SECONDS_PER_HOUR) * 1000;
  opt.usd_per_tflops_hour = opt.hourly_usd / (opt.gpus * peak);
  opt.meets_target = opt.p99_latency_s <= req.p99_latency_s;
  opt.feasible = true;
  opt.risk = risk_level(plan.spot_share, 1 - availability);
  return opt;
}

// ---- the whole quote -------------------------------------------------------------------------

std::vector<const InstanceType*> candidate_instances(const Catalog& catalog,
                                                     const QuoteOptions& o) {
  const auto listed = [](const std::vector<std::string>& list, const std::string& v) {
    return list.empty() || std::any_of(list.begin(), list.end(), [&](const std::string& x) {
             return std::equal(x.begin(), x.end(), v.begin(), v.end(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) ==
                      std::tolower(static_cast<unsigned char>(b));
             });
           });
  };
  std::vector<const InstanceType*> out;
  for (const auto& it : catalog.instances) {
    const bool provider_ok =
        o.providers.empty() ? it.provider != "on_prem" : listed(o.providers, it.provider);
    if (provider_ok && listed(o.gpus, it.gpu) && listed(o.instances, it.id) &&
        catalog.find_gpu(it.gpu) != nullptr)
      out.push_back(&it);
  }
  return out;
}

Quote make_quote(const QuoteRequest& req, const Catalog& catalog,
                 std::chrono::year_month_day today) {
  Quote q;
  q.today = today_string(today);
  for (const InstanceType* it : candidate_instances(catalog, req.options)) {
    const GpuSpec& gpu = *catalog.find_gpu(it->gpu);
    const bool stale = is_stale(it->as_of, today);
    for (const PricingPlan& plan : plans_for(*it, req.options)) {
      if (req.training) {
        q.training.push_back(size_training(*req.training, req.options, *it, gpu, plan));
        q.training.back().stale = stale;
      }
      if (req.inference) {
        q.inference.push_back(size_inference(*req.inference, req.options, *it, gpu, plan));
        q.inference.back().stale = stale;
      }
    }
  }
  // Feasible first, then those meeting every target, then the cheapest total; ties by time.
  std::stable_sort(
      q.training.begin(), q.training.end(), [](const TrainingOption& a, const TrainingOption& b) {
        const auto key = [](const TrainingOption& o) {
          return std::make_tuple(!o.feasible, !(o.meets_deadline && o.within_budget),
                                 o.feasible ? o.total_usd : INF, o.feasible ? o.timing.p90_s : INF);
        };
        return key(a) < key(b);
      });
  std::stable_sort(q.inference.begin(), q.inference.end(),
                   [](const InferenceOption& a, const InferenceOption& b) {
                     const auto key = [](const InferenceOption& o) {
                       return std::make_tuple(!o.feasible, !o.meets_target,
                                              o.feasible ? o.total_usd : INF,
                                              o.feasible ? o.p99_latency_s : INF);
                     };
                     return key(a) < key(b);
                   });
  return q;
}

}  // namespace gpuplan::quote
