//! Reading a quote request (models/quote/quote.h) with the one field reader
//! (models/input/field_reader.h).
#include <algorithm>

#include "models/input/field_reader.h"
#include "models/input/jsonc.h"
#include "models/input/names.h"
#include "models/load/length_reader.h"
#include "models/quote/quote.h"

namespace gpuplan::quote {
namespace {

using nlohmann::json;

constexpr double MAX_TOKENS = 1e7;  //!< a length's largest count, prompt or output

std::vector<std::string> known_providers(const Catalog& c) {
  std::vector<std::string> out;
  for (const auto& it : c.instances)
    if (std::find(out.begin(), out.end(), it.provider) == out.end()) out.push_back(it.provider);
  return out;
}

//! GPU models some instance type of `cat` has, in catalog order.
std::vector<std::string> offered_gpus(const Catalog& cat) {
  std::vector<std::string> out;
  for (const auto& g : cat.gpus)
    if (std::any_of(cat.instances.begin(), cat.instances.end(),
                    [&](const InstanceType& it) { return it.gpu == g.id; }))
      out.push_back(g.id);
  return out;
}

//! A GPU filter resolved to models instances have: an id ("H100-SXM", any case) or a family
//! ("H100": every offered model whose id is it or starts with it and a '-'). A model no instance
//! has, or an unknown name, is reported with suggestions among offered models only.
std::optional<std::vector<std::string>> gpu_filter(FieldReader& r, Diagnostics& d, const json& v,
                                                   const std::string& ptr, const Catalog& cat) {
  const std::vector<std::string> offered = offered_gpus(cat);
  if (!v.is_array()) return r.names(v, ptr, "GPU", offered);  // records wrong_type
  const auto lower = [](std::string x) {
    for (char& c : x) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return x;
  };
  std::vector<std::string> out;
  bool ok = true;
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string at = fields::child(ptr, i);
    const auto name = r.string(v[i], at);
    if (!name) {
      ok = false;
      continue;
    }
    const std::string want = lower(*name);
    size_t found = 0;
    for (const std::string& id : offered) {
      const std::string l = lower(id);
      if (l == want || (l.size() > want.size() && l.compare(0, want.size(), want) == 0 &&
                        l[want.size()] == '-')) {
        if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
        ++found;
      }
    }
    if (found > 0) continue;
    ok = false;
    const bool listed_only = std::any_of(cat.gpus.begin(), cat.gpus.end(),
                                         [&](const GpuSpec& g) { return lower(g.id) == want; });
    if (listed_only)
      d.error(at, DiagCode::unknown_name,
              "no instance type in the catalog has the GPU " + in_quotes(*name) +
                  "; GPUs that instances have: " + fields::list_names(offered),
              offered);
    else
      d.unknown_name(at, "GPU", *name, offered);
  }
  if (!ok) return std::nullopt;
  return out;
}

template <class T, class U>
void set_if(std::optional<U> v, T& field) {
  if (v) field = static_cast<T>(*v);
}

//! The members of one request section, read at `ptr`; unknown keys reported on construction.
class Section {
 public:
  Section(FieldReader& r, const json& j, std::string ptr, const std::vector<std::string>& keys)
      : r_(r), j_(j), ptr_(std::move(ptr)), ok_(r.object(j, ptr_)) {
    if (ok_) r_.check_keys(j, ptr_, keys);
  }
  [[nodiscard]] const json* get(const char* key) const {
    return ok_ ? FieldReader::get(j_, key) : nullptr;
  }
  [[nodiscard]] std::string at(const char* key) const { return fields::child(ptr_, key); }
  //! Records missing_key when `key` is absent from an object section.
  void need(const char* key, std::string_view hint) const {
    if (ok_) r_.need(j_, ptr_, key, hint);
  }
  //! Reads member `key` with `read(value, pointer)` when present.
  template <class F>
  auto read(const char* key, F read) const -> decltype(read(std::declval<const json&>(), "")) {
    const json* v = get(key);
    if (v == nullptr) return std::nullopt;
    return read(*v, at(key));
  }
  [[nodiscard]] bool is_object() const { return ok_; }

 private:
  FieldReader& r_;
  const json& j_;
  std::string ptr_;
  bool ok_;
};

// A precision among `allowed`, reported against `allowed` so the suggestion is one the section
// supports.
std::optional<Precision> precision(FieldReader& r, const Section& s,
                                   const std::vector<std::string>& allowed) {
  return s.read("precision", [&](const json& v, const std::string& p) -> std::optional<Precision> {
    auto k = r.choice(v, p, "precision", allowed);
    if (!k) return std::nullopt;
    return parse_enum<Precision>(allowed[*k]);
  });
}

std::optional<TrainingRequest> read_training(const json& j, Diagnostics& d) {
  const size_t before = d.size();
  FieldReader r(d);
  const Section s(r, j, "/training", training_keys());
  TrainingRequest t;
  s.need("params", "the model's parameter count, e.g. \"70B\"");
  s.need("tokens", "the training tokens, e.g. \"2T\"");
  if (s.is_object() && !s.get("deadline") && !s.get("budget"))
    d.error("/training", DiagCode::missing_key,
            "a training request needs \"deadline\" (e.g. \"30d\") or \"budget\" (e.g. \"$5M\")");
  const auto count = [&](double lo, double hi) {
    return [&r, lo, hi](const json& v, const std::string& p) { return r.count(v, p, lo, hi); };
  };
  const auto number = [&](double lo, double hi) {
    return [&r, lo, hi](const json& v, const std::string& p) { return r.number(v, p, lo, hi); };
  };
  const auto duration = [&](double lo) {
    return [&r, lo](const json& v, const std::string& p) {
      return r.at_least(r.duration(v, p, false), p, lo, "s");
    };
  };
  set_if(s.read("params", count(1e6, 1e15)), t.params);
  set_if(s.read("tokens", count(1e6, 1e17)), t.tokens);
  if (auto x = s.read("deadline", duration(1))) t.deadline_s = *x;
  if (auto x =
          s.read("budget", [&](const json& v, const std::string& p) { return r.money(v, p, 0); }))
    t.budget_usd = *x;
  set_if(precision(r, s, {"bf16", "fp16", "fp8", "tf32", "fp32"}), t.precision);
  if (auto x = s.read("mfu", number(0.01, 1))) t.mfu = *x;
  set_if(s.read("mfu_floor", number(0, 1)), t.mfu_floor);
  set_if(s.read("tokens_per_step", count(1, 1e12)), t.tokens_per_step);
  set_if(s.read("overlap", number(0, 1)), t.overlap);
  set_if(s.read("checkpoint", duration(0)), t.checkpoint_s);
  set_if(s.read("restart", duration(0)), t.restart_s);
  set_if(s.read("replacement", duration(0)), t.replacement_s);
  set_if(s.read("max_gpus",
                [&](const json& v, const std::string& p) { return r.integer(v, p, 1, 1 << 20); }),
         t.max_gpus);
  if (d.size() != before) return std::nullopt;
  return t;
}

//! A model architecture object: the widths of a decoder-only transformer.
std::optional<training::ModelShape> read_architecture(FieldReader& r, Diagnostics& d, const json& j,
                                                      const std::string& ptr) {
  const Section s(r, j, ptr, architecture_keys());
  if (!s.is_object()) return std::nullopt;
  for (const char* k : {"layers", "hidden", "heads", "vocab"})
    s.need(k, "an architecture needs layers, hidden, heads and vocab");
  const auto whole = [&](uint64_t lo, uint64_t hi) {
    return [&r, lo, hi](const json& v, const std::string& p) { return r.integer(v, p, lo, hi); };
  };
  training::ModelShape m;
  m.gated_mlp = true;
  set_if(s.read("layers", whole(1, 10000)), m.layers);
  set_if(s.read("hidden", whole(64, 1 << 20)), m.hidden);
  set_if(s.read("ffn", whole(1, 1 << 22)), m.ffn);
  set_if(s.read("heads", whole(1, 4096)), m.heads);
  set_if(s.read("kv_heads", whole(1, 4096)), m.kv_heads);
  set_if(s.read("head_dim", whole(1, 65536)), m.head_dim);
  set_if(s.read("vocab", whole(1, 1 << 24)), m.vocab);
  set_if(s.read("experts", whole(1, 4096)), m.experts);
  set_if(s.read("experts_per_token", whole(1, 4096)), m.experts_per_token);
  set_if(s.read("gated_mlp", [&](const json& v, const std::string& p) { return r.boolean(v, p); }),
         m.gated_mlp);
  set_if(s.read("tied_embeddings",
                [&](const json& v, const std::string& p) { return r.boolean(v, p); }),
         m.tied_embeddings);
  if (m.kv_heads > m.heads && m.heads > 0) {
    d.error(s.at("kv_heads"), DiagCode::out_of_range,
            "kv_heads (" + std::to_string(m.kv_heads) + ") cannot exceed heads (" +
                std::to_string(m.heads) + ")");
    return std::nullopt;
  }
  if (m.experts_per_token > m.experts) {
    d.error(s.at("experts_per_token"), DiagCode::out_of_range,
            "experts_per_token (" + std::to_string(m.experts_per_token) +
                ") cannot exceed experts (" + std::to_string(m.experts) + ")");
    return std::nullopt;
  }
  if (m.layers == 0 || m.hidden == 0 || m.heads == 0 || m.vocab == 0) return std::nullopt;
  return m;
}

//! "model": a preset id, a parameter count ("8B", a GPT-style shape) or an architecture object.
std::optional<training::ModelShape> read_model(FieldReader& r, Diagnostics& d, const json& v,
                                               const std::string& ptr, std::string& label) {
  if (v.is_object()) {
    label = "the described model";
    return read_architecture(r, d, v, ptr);
  }
  if (v.is_string()) {
    const std::string id = v.get<std::string>();
    if (const auto* m = training::find_model_preset(id)) {
      label = m->name;
      return *m;
    }
    if (const auto n = parse_count(id); n && *n >= 1e6 && *n <= 1e15)
      if (auto m = training::shape_for_params(*n)) return m;  // labelled by its count
    d.unknown_name(ptr, "model", id, training::model_preset_names());
    return std::nullopt;
  }
  r.wrong_type(v, ptr,
               "a model preset (\"llama-3-8b\"), a parameter count (\"8B\") or an "
               "architecture object");
  return std::nullopt;
}

std::optional<InferenceRequest> read_inference(const json& j, Diagnostics& d) {
  const size_t before = d.size();
  FieldReader r(d);
  const Section s(r, j, "/inference", inference_keys());
  InferenceRequest q;
  const auto either = [&](const char* a, const char* b, const std::string& hint) {
    if (!s.is_object()) return;
    if (!s.get(a) && !s.get(b))
      d.error(
          "/inference", DiagCode::missing_key,
          "an inference request needs \"" + std::string(a) + "\" or \"" + b + "\" (" + hint + ")");
    else if (s.get(a) && s.get(b))
      d.error(s.at(b), DiagCode::infeasible,
              "give either \"" + std::string(a) + "\" or \"" + b + "\", not both");
  };
  either("model", "params", "a preset such as \"llama-3-8b\", or a parameter count such as \"8B\"");
  either("requests_per_s", "concurrent_streams",
         "the load, e.g. 2000 requests/s or 3000 concurrent streams");
  if (s.is_object() && s.get("tokens_trace")) {
    for (const char* k : {"tokens_in", "tokens_out"})
      if (s.get(k))
        d.error(s.at(k), DiagCode::infeasible,
                "give the lengths as \"tokens_in\"/\"tokens_out\" or as \"tokens_trace\", "
                "not both");
  } else {
    s.need("tokens_out", "generated tokens per request, e.g. 128 (or a \"tokens_trace\" file)");
  }
  if (s.is_object() && !s.get("ttft_p99") && !s.get("tpot_p99") && !s.get("p99_latency"))
    d.error("/inference", DiagCode::missing_key,
            "an inference request needs a latency target: \"ttft_p99\" (time to first token, "
            "e.g. \"500ms\"), \"tpot_p99\" (time per output token, e.g. \"50ms\") or "
            "\"p99_latency\" (the whole request, e.g. \"10s\")");
  const auto count = [&](double lo, double hi) {
    return [&r, lo, hi](const json& v, const std::string& p) { return r.count(v, p, lo, hi); };
  };
  const auto number = [&](double lo, double hi) {
    return [&r, lo, hi](const json& v, const std::string& p) { return r.number(v, p, lo, hi); };
  };
  const auto latency = [&](const json& v, const std::string& p) {
    return r.at_least(r.duration(v, p, false), p, 1e-6, "s");
  };
  if (const auto m = s.read("model", [&](const json& v, const std::string& p) {
        return read_model(r, d, v, p, q.model_label);
      }))
    q.model = *m;
  if (const auto n = s.read("params", count(1e6, 1e15))) {
    if (auto m = training::shape_for_params(*n)) q.model = *m;
  }
  q.params = q.model.layers > 0 ? q.model.total_params() : 0;
  set_if(precision(r, s, {"bf16", "fp16", "fp8"}), q.precision);
  set_if(s.read("requests_per_s",
                [&](const json& v, const std::string& p) {
                  const auto x = r.at_least(r.rate(v, p), p, 1e-6, "/s");
                  // NOTE: ten times a large public chat service; beyond it the sizing's queue
                  // would hold more requests than a quote can search in its 2 s.
                  if (x && *x > MAX_REQUESTS_PER_S) {
                    d.out_of_range(p, *x, 1e-6, MAX_REQUESTS_PER_S, "/s");
                    return std::optional<double>();
                  }
                  return x;
                }),
         q.requests_per_s);
  set_if(s.read("concurrent_streams", count(1, 1e8)), q.concurrent_streams);
  const auto length = [&](double lo) {
    return [&r, &d, lo](const json& v, const std::string& p) {
      return read_length_distribution(r, d, v, p, lo, MAX_TOKENS);
    };
  };
  const auto in = s.read("tokens_in", length(0));
  const auto out = s.read("tokens_out", length(1));
  if (in) q.tokens_in = in->a;
  if (out) q.tokens_out = out->a;
  using Kind = inference::LengthDistribution::Kind;
  if ((in && in->kind != Kind::fixed) || (out && out->kind != Kind::fixed)) {
    const inference::LengthDistribution prompt = in.value_or(inference::LengthDistribution{});
    const inference::LengthDistribution output = out.value_or(inference::LengthDistribution{});
    auto t = inference::stratified_lengths(prompt, output);
    q.tokens_in = t.mean_in;
    q.tokens_out = t.mean_out;
    q.lengths = std::make_shared<const inference::TokenLengths>(std::move(t));
    q.lengths_text = "prompt " + prompt.text() + ", output " + output.text() + " tokens";
  }
  set_if(
      s.read("tokens_trace", [&](const json& v, const std::string& p) { return r.string(v, p); }),
      q.tokens_trace);
  set_if(s.read("ttft_p99", latency), q.ttft_p99_s);
  set_if(s.read("tpot_p99", latency), q.tpot_p99_s);
  set_if(s.read("p99_latency", latency), q.p99_latency_s);
  set_if(s.read("batch",
                [&](const json& v, const std::string& p) { return r.integer(v, p, 1, 65536); }),
         q.batch);
  set_if(s.read("spares",
                [&](const json& v, const std::string& p) { return r.integer(v, p, 0, 1000); }),
         q.spares);
  set_if(s.read("max_utilization", number(0.1, 1)), q.max_utilization);
  set_if(s.read("bandwidth_efficiency", number(0.01, 1)), q.bandwidth_efficiency);
  set_if(s.read("prefill_mfu", number(0.01, 1)), q.prefill_mfu);
  set_if(s.read("memory_reserve", number(0, 0.95)), q.memory_reserve);
  set_if(s.read("months", number(0.01, 120)), q.months);
  if (d.size() != before) return std::nullopt;
  return q;
}

bool read_options(const json& j, QuoteOptions& o, Diagnostics& d) {
  const size_t before = d.size();
  FieldReader r(d);
  const Section s(r, j, "/options", options_keys());
  const Catalog& cat = builtin_catalog();
  std::vector<std::string> instances;
  for (const auto& it : cat.instances) instances.push_back(it.id);
  const auto names = [&](std::string_view what, const std::vector<std::string>& known) {
    return [&r, what, &known](const json& v, const std::string& p) {
      return r.names(v, p, what, known);
    };
  };
  const std::vector<std::string> providers = known_providers(cat);
  // NOTE: a quote prices cloud plans; on-prem comes with on-prem instance types, not as a plan.
  const std::vector<std::string> pricings(enum_names<Pricing>().begin(),
                                          enum_names<Pricing>().end() - 1);
  const auto whole = [&](uint64_t lo, uint64_t hi) {
    return [&r, lo, hi](const json& v, const std::string& p) { return r.integer(v, p, lo, hi); };
  };
  set_if(s.read("providers", names("provider", providers)), o.providers);
  set_if(s.read("gpus",
                [&](const json& v, const std::string& p) { return gpu_filter(r, d, v, p, cat); }),
         o.gpus);
  set_if(s.read("instances", names("instance type", instances)), o.instances);
  if (const auto words = s.read("pricing", names("pricing", pricings))) {
    o.pricing.clear();
    for (const std::string& w : *words) o.pricing.push_back(*parse_enum<Pricing>(w));
  }
  set_if(s.read("spot_shares",
                [&](const json& v, const std::string& p) { return r.numbers(v, p, 0.01, 1); }),
         o.spot_shares);
  set_if(s.read("failure_rate_per_gpu_hour",
                [&](const json& v, const std::string& p) { return r.number(v, p, 0, 1); }),
         o.failure_rate_per_gpu_hour);
  set_if(s.read("spot_hazard_per_node_hour",
                [&](const json& v, const std::string& p) { return r.number(v, p, 0, 100); }),
         o.spot_hazard_per_node_hour);
  set_if(s.read("replicas", whole(10, 100000)), o.replicas);
  set_if(s.read("sim_requests", whole(1000, 100000000)), o.sim_requests);
  set_if(s.read("seed", whole(0, 9007199254740992ull)), o.seed);
  set_if(s.read("top", whole(1, 1000)), o.top);
  if (const auto m = s.read("stale_after_months", whole(1, 1200))) o.stale_after_months = *m;
  return d.size() == before;
}

}  // namespace

const std::vector<std::string>& request_keys() {
  static const std::vector<std::string> k = {"name", "customer", "training", "inference",
                                             "options"};
  return k;
}
const std::vector<std::string>& training_keys() {
  static const std::vector<std::string> k = {
      "params",          "tokens",  "deadline",   "budget",  "precision",   "mfu",     "mfu_floor",
      "tokens_per_step", "overlap", "checkpoint", "restart", "replacement", "max_gpus"};
  return k;
}
const std::vector<std::string>& inference_keys() {
  static const std::vector<std::string> k = {
      "model",       "params",         "precision",    "requests_per_s",  "concurrent_streams",
      "tokens_in",   "tokens_out",     "tokens_trace", "ttft_p99",        "tpot_p99",
      "p99_latency", "batch",          "spares",       "max_utilization", "bandwidth_efficiency",
      "prefill_mfu", "memory_reserve", "months"};
  return k;
}
const std::vector<std::string>& architecture_keys() {
  static const std::vector<std::string> k = {"layers",    "hidden",         "ffn",
                                             "heads",     "kv_heads",       "head_dim",
                                             "vocab",     "experts",        "experts_per_token",
                                             "gated_mlp", "tied_embeddings"};
  return k;
}
const std::vector<std::string>& options_keys() {
  static const std::vector<std::string> k = {"providers",
                                             "gpus",
                                             "instances",
                                             "pricing",
                                             "spot_shares",
                                             "spot_hazard_per_node_hour",
                                             "failure_rate_per_gpu_hour",
                                             "replicas",
                                             "sim_requests",
                                             "seed",
                                             "top",
                                             "stale_after_months"};
  return k;
}

bool load_token_trace(QuoteRequest& req, const std::string& base_dir,
                      const std::vector<std::string>& data_path, Diagnostics& diags) {
  if (!req.inference || req.inference->tokens_trace.empty()) return true;
  InferenceRequest& q = *req.inference;
  auto t = inference::load_token_trace(q.tokens_trace, base_dir, data_path,
                                       "/inference/tokens_trace", diags);
  if (!t) return false;
  q.tokens_in = t->mean_in;
  q.tokens_out = t->mean_out;
  q.lengths = std::make_shared<const inference::TokenLengths>(std::move(*t));
  return true;
}

std::optional<QuoteRequest> parse_request(const json& j, Diagnostics& diags) {
  const size_t before = diags.size();
  FieldReader r(diags);
  const Section s(r, j, "", request_keys());
  if (!s.is_object()) return std::nullopt;
  QuoteRequest q;
  q.source = j;
  set_if(s.read("name", [&](const json& v, const std::string& p) { return r.string(v, p); }),
         q.name);
  set_if(s.read("customer", [&](const json& v, const std::string& p) { return r.string(v, p); }),
         q.customer);
  if (!s.get("training") && !s.get("inference"))
    diags.error("", DiagCode::missing_key,
                "a quote request needs \"training\" (model, tokens, deadline or budget) or "
                "\"inference\" (model, request rate, latency target), or both");
  if (const json* t = s.get("training")) q.training = read_training(*t, diags);
  if (const json* i = s.get("inference")) q.inference = read_inference(*i, diags);
  if (const json* o = s.get("options")) read_options(*o, q.options, diags);
  if (diags.size() != before) return std::nullopt;
  return q;
}

std::optional<QuoteRequest> parse_request_text(std::string_view text, const std::string& file,
                                               Diagnostics& diags) {
  diags.set_file(file);
  auto doc = parse_jsonc(text, file, diags);
  if (!doc) return std::nullopt;
  const LinesAttached lines(diags, doc->lines);
  return parse_request(doc->value, diags);
}

}  // namespace gpuplan::quote
