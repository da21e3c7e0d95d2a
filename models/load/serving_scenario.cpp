#include "models/load/serving_scenario.h"

#include <algorithm>
#include <cmath>

#include "models/input/field_reader.h"
#include "models/input/jsonc.h"
#include "models/load/length_reader.h"
#include "models/load/scenario_override.h"
#include "models/perf/inference/token_trace.h"

namespace gpuplan {
namespace {

using fields::num;
using nlohmann::json;

constexpr uint64_t MAX_REQUESTS = 100'000'000;
constexpr uint32_t MAX_REPLICAS = 4096;
//! [Gb/s] a GPU's link to another node when the scenario does not say: one 400 Gb/s NIC per GPU,
//! as the NVIDIA DGX H100 has (8 ConnectX-7 400 Gb/s ports for its 8 GPUs, DGX H100 User Guide).
constexpr double DEFAULT_KV_LINK_GBPS = 400;
constexpr double MIN_KV_LINK_GBPS = 1e-3;  //!< [Gb/s] 1 Mb/s
constexpr double MAX_KV_LATENCY_S = 60;    //!< [s]
constexpr uint32_t MAX_SEQS = 4096;
constexpr uint32_t MAX_GROUPS = 65536;
constexpr uint64_t MAX_CACHE_ENTRIES = 1u << 22;  //!< replicas x cache groups (17 B each)
constexpr uint32_t MAX_QUEUE = 1u << 20;
constexpr double MIN_SCALER_INTERVAL_S = 1;   //!< [s] the scaler's evaluations at most this often
constexpr double MAX_SCALER_DELAY_S = 86400;  //!< [s] a scaler's interval and delays at most
constexpr size_t MAX_STAGES = 10000;
constexpr uint64_t MAX_STREAMS = 1'000'000;
constexpr double MAX_TOKENS = 1u << 20;        //!< a length's largest count, prompt or output
constexpr double MAX_CYCLE_S = 366 * 86400.0;  //!< [s] a year: a longer cycle never repeats
constexpr double GB = 1e9;

//! The fabric of a node of `gpu` when the scenario names none.
std::string default_fabric(const GpuSpec& gpu) {
  if (gpu.nvlink_gbps <= 0) return "pcie";
  if (gpu.architecture == "hopper") return "nvlink4";
  if (gpu.architecture == "blackwell") return "nvlink5";
  if (gpu.architecture == "volta") return "nvlink2";
  if (gpu.architecture == "cdna3") return "infinity_fabric";
  return "nvlink3";
}

//! The catalog's GPU named by `x` at `ptr`; null (with a diagnostic) when there is none.
const GpuSpec* gpu_named(FieldReader& f, Diagnostics& d, const json& x, const std::string& ptr) {
  const auto s = f.string(x, ptr);
  if (!s) return nullptr;
  if (const GpuSpec* g = builtin_catalog().find_gpu(*s)) return g;
  std::vector<std::string> known;
  for (const auto& g2 : builtin_catalog().gpus) known.push_back(g2.id);
  d.unknown_name(ptr, "GPU type", *s, known);
  return nullptr;
}

//! The fabric named by `x` at `ptr` (a diagnostic when unknown).
std::optional<std::string> fabric_named(FieldReader& f, Diagnostics& d, const json& x,
                                        const std::string& ptr) {
  const auto s = f.string(x, ptr);
  if (!s) return std::nullopt;
  if (parse_fabric(*s)) return *s;
  d.unknown_name(ptr, "fabric", *s,
                 {"pcie", "nvlink2", "nvlink3", "nvlink4", "nvlink5", "infinity_fabric"});
  return std::nullopt;
}

//! The arrivals of a replayed trace `t` at `rate_scale` times its pace: every row, or the first
//! `requests` (`given`), which must not be more than it has.
void replay_arrivals(const inference::TokenLengths& t, double rate_scale, bool given,
                     ServingScenario& sc, Diagnostics& d) {
  serving::Workload& w = sc.view.load;
  if (!given) w.n_requests = t.at_s.size();
  if (w.n_requests > t.at_s.size()) {
    d.error("/workload/requests", DiagCode::out_of_range,
            "the trace replayed has " + num(double(t.at_s.size())) + " requests, fewer than the " +
                num(double(w.n_requests)) + " asked for; drop \"requests\" to replay them all");
    return;
  }
  sc.arrival_times.reserve(w.n_requests);
  for (uint64_t k = 0; k < w.n_requests; ++k) sc.arrival_times.push_back(t.at_s[k] / rate_scale);
  // NOTE: the mean rate of what is replayed, for the figures that read one (offered load).
  const double span_s = sc.arrival_times.back();
  w.rate_per_s = span_s > 0 ? double(w.n_requests - 1) / span_s : double(w.n_requests);
  sc.rate_scale = rate_scale;
}

//! The keys of the object at `ptr` (serving_scenario_keys); none for an unknown pointer.
const std::vector<std::string>& serving_keys_at(const std::string& ptr) {
  static const std::vector<std::string> none;
  for (const auto& [at, keys] : serving_scenario_keys())
    if (at == ptr) return keys;
  return none;
}

//! `stages`: the staged constant rates of Poisson arrivals, one cycle of them, repeating
//! (sim/serving/rate_stages.h), each rate `rate_scale` times as given; the workload's mean rate is
//! theirs over the cycle.
void load_stages(const json& x, double rate_scale, FieldReader& f, Diagnostics& d,
                 ServingScenario& sc) {
  if (!x.is_array() || x.empty() || x.size() > MAX_STAGES) {
    d.error("/workload/stages", DiagCode::wrong_type,
            "give an array of 1 to " + num(double(MAX_STAGES)) +
                " stages, each {\"rate\": \"20/s\", \"duration\": \"10m\"}");
    return;
  }
  double end_s = 0;
  bool ok = true;
  for (size_t i = 0; i < x.size(); ++i) {
    const std::string p = "/workload/stages/" + std::to_string(i);
    if (!f.object(x[i], p)) {
      ok = false;
      continue;
    }
    f.check_keys(x[i], p, serving_keys_at("/workload/stages/*"));
    std::optional<double> rate, length;
    if (const json* y = f.need(x[i], p, "rate", "requests per second, e.g. \"20/s\""))
      rate = f.rate(*y, p + "/rate");
    if (const json* y = f.need(x[i], p, "duration", "how long the rate holds, e.g. \"10m\""))
      length = f.duration(*y, p + "/duration", true);
    if (!rate || !length) {
      ok = false;
      continue;
    }
    end_s += *length;
    sc.stages.push_back({end_s, *rate * rate_scale});
  }
  if (ok && end_s > MAX_CYCLE_S) {
    d.error("/workload/stages", DiagCode::out_of_range,
            "the stages last " + num(end_s / 86400) + " days together; a cycle of at most " +
                num(MAX_CYCLE_S / 86400) + " days repeats, so give one cycle (a day, a week)");
    ok = false;
  }
  if (!ok) {
    sc.stages.clear();
    return;
  }
  sc.rate_scale = rate_scale;
  sc.view.load.rate_per_s =
      serving::mean_stage_rate({sc.stages.data(), uint32_t(sc.stages.size())});
}

//! Multi-turn conversations (`workload.conversation`): each closed-loop stream talks in
//! conversations of `turns` turns (a count, or {"mean": m}: geometric, the user ending after each
//! answer with probability 1/m), a turn passing `max_context` tokens opening a new one.
void load_conversation(const json& x, const json& workload, const json& root, FieldReader& f,
                       Diagnostics& d, ServingScenario& sc) {
  serving::Workload& w = sc.view.load;
  f.check_keys(x, "/workload/conversation", serving_keys_at("/workload/conversation"));
  if (!f.get(workload, "streams"))
    d.error("/workload/conversation", DiagCode::infeasible,
            "conversations are held by closed-loop users: give \"streams\" (and \"think\", the "
            "pause before each next turn)");
  if (f.get(workload, "prefix"))
    d.error("/workload/prefix", DiagCode::infeasible,
            "a conversation's turns share their history, not a system prompt: drop \"prefix\" "
            "(a system prompt is part of the first turn's length)");
  if (f.get(root, "disaggregated"))
    d.error("/workload/conversation", DiagCode::infeasible,
            "conversations keep their history in the replica that answered: not modelled with "
            "disaggregated prefill and decode yet");
  if (const json* t = f.need(x, "/workload/conversation", "turns",
                             "turns per conversation: a count, or {\"mean\": 4} (geometric)")) {
    if (t->is_object()) {
      f.check_keys(*t, "/workload/conversation/turns", {"mean"});
      if (const json* m = f.need(*t, "/workload/conversation/turns", "mean", "turns on average"))
        if (auto a = f.number(*m, "/workload/conversation/turns/mean", 1, 1e6)) {
          w.turns_kind = serving::LengthKind::geometric;
          w.turns_a = *a;
        }
    } else if (auto n = f.integer(*t, "/workload/conversation/turns", 1, 1'000'000)) {
      w.turns_kind = serving::LengthKind::fixed;
      w.turns_a = double(*n);
    }
  }
  w.max_context = sc.model.seq_len;
  if (const json* y = f.get(x, "max_context"))
    if (auto n = f.integer(*y, "/workload/conversation/max_context", 1, MAX_TOKENS))
      w.max_context = uint32_t(*n);
}

//! Autoscaling on concurrency (`autoscaling`): the cluster holds max_replicas, min_replicas
//! serving from the start.
void load_autoscaling(const json& x, const json& root, FieldReader& f, Diagnostics& d,
                      serving::ServingView& v) {
  f.check_keys(x, "/autoscaling", serving_keys_at("/autoscaling"));
  serving::Autoscale& a = v.autoscale;
  if (f.get(root, "replicas"))
    d.error("/replicas", DiagCode::infeasible,
            "replicas and autoscaling both size the cluster: with autoscaling, give min_replicas "
            "and max_replicas only");
  if (f.get(root, "disaggregated"))
    d.error("/disaggregated", DiagCode::infeasible,
            "autoscaling a disaggregated cluster is not modelled yet; drop autoscaling or give "
            "colocated replicas");
  uint32_t bounds[2] = {0, 0};
  const char* keys[2] = {"min_replicas", "max_replicas"};
  for (int k = 0; k < 2; ++k)
    if (const json* y = f.need(x, "/autoscaling", keys[k], "replicas serving at least / most"))
      if (auto n = f.integer(*y, std::string("/autoscaling/") + keys[k], 1, MAX_REPLICAS))
        bounds[k] = uint32_t(*n);
  if (bounds[0] > bounds[1] && bounds[1] > 0)
    d.error("/autoscaling/min_replicas", DiagCode::infeasible,
            "min_replicas " + num(bounds[0]) + " is above max_replicas " + num(bounds[1]));
  else if (bounds[0] > 0 && bounds[1] > 0) {
    a.min_replicas = bounds[0];
    a.max_replicas = v.n_replicas = bounds[1];
  }
  if (const json* y = f.need(x, "/autoscaling", "target_requests",
                             "requests in a replica (running and waiting) to scale on, e.g. 64"))
    if (auto t = f.number(*y, "/autoscaling/target_requests", 0.1, 1e6)) a.target_requests = *t;
  // NOTE: each delay at most a day (a typo's "5d" would hold every replica for the run).
  const auto delay = [&](const json* y, const char* key, double lo, double& into) {
    const std::string ptr = std::string("/autoscaling/") + key;
    if (auto t = y ? f.duration(*y, ptr, lo > 0) : std::nullopt) {
      if (*t >= lo && *t <= MAX_SCALER_DELAY_S)
        into = *t;
      else
        d.error(ptr, DiagCode::out_of_range,
                std::string(key) + " " + num(*t) + " s is outside " + num(lo) +
                    " s to a day (86,400 s); Kubernetes evaluates every 15 s and replicas start "
                    "in minutes");
    }
  };
  delay(f.need(x, "/autoscaling", "provisioning",
               "time from asking for a replica to its first request, e.g. \"5min\""),
        "provisioning", 0, a.provision_s);
  delay(f.get(x, "interval"), "interval", MIN_SCALER_INTERVAL_S, a.interval_s);
  delay(f.get(x, "scale_down_delay"), "scale_down_delay", 0, a.scale_down_delay_s);
}

//! `instance` and `pricing`: the catalog row that prices the cluster's GPUs, which must be those
//! of the scenario (and of a disaggregated decode pool).
void load_price(FieldReader& f, Diagnostics& d, const json& root, ServingScenario& sc) {
  const json* x = f.get(root, "instance");
  const json* y = f.get(root, "pricing");
  if (!x) {
    if (y)
      d.error("/pricing", DiagCode::missing_key,
              "a pricing needs the \"instance\" it prices, e.g. \"instance\": \"p5.48xlarge\"");
    return;
  }
  const auto id = f.string(*x, "/instance");
  if (!id) return;
  const InstanceType* it = builtin_catalog().find_instance(*id);
  if (!it) {
    std::vector<std::string> known;
    for (const InstanceType& t : builtin_catalog().instances)
      if (t.gpu == sc.gpu_id) known.push_back(t.id);
    d.unknown_name("/instance", "instance type with " + sc.gpu_id + " GPUs", *id, known);
    return;
  }
  if (it->gpu != sc.gpu_id) {
    d.error("/instance", DiagCode::infeasible,
            *id + " holds " + it->gpu + " GPUs, not the scenario's " + sc.gpu_id +
                "; name an instance type of " + sc.gpu_id);
    return;
  }
  if (sc.decode && sc.decode->gpu_id != sc.gpu_id) {
    d.error("/instance", DiagCode::infeasible,
            "the decode pool runs on " + sc.decode->gpu_id + " and " + *id +
                " prices only the scenario's " + sc.gpu_id +
                "; pricing two GPU types in one serving scenario is not supported");
    return;
  }
  ServingPrice price;
  price.instance = *id;
  if (y) {
    const auto k = f.enumerator<Pricing>(*y, "/pricing");
    if (!k) return;
    price.pricing = *k;
  }
  const auto node = price_of(it->price_per_hour, price.pricing);
  if (!node) {
    d.error(y ? "/pricing" : "/instance", DiagCode::infeasible,
            *id + " has no " + std::string(enum_name(price.pricing)) +
                " price in the catalog; choose a pricing it has (gpuplan catalog --gpu " +
                sc.gpu_id + ")");
    return;
  }
  price.usd_per_gpu_hour = *node / it->gpus_held();
  price.derived = it->derived_rule(price.pricing) != nullptr;
  price.as_of = it->as_of;
  price.source = it->source;
  sc.price = price;
}

}  // namespace

const std::vector<std::pair<std::string, std::vector<std::string>>>& serving_scenario_keys() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> keys = {
      {"", {"$schema",       "name",    "seed",           "replications", "model",      "gpu",
            "instance",      "pricing", "fabric",         "tp",           "precision",  "replicas",
            "disaggregated", "router",  "cache_aware",    "memory_share", "efficiency", "scheduler",
            "workload",      "slo",     "queue_capacity", "autoscaling",  "search"}},
      {"/disaggregated", {"prefill_replicas", "decode_replicas", "kv_transfer", "decode"}},
      {"/disaggregated/decode", {"gpu", "tp", "fabric"}},
      {"/disaggregated/kv_transfer", {"bandwidth", "latency"}},
      {"/cache_aware", {"cache_threshold", "balance_abs_threshold", "balance_rel_threshold"}},
      {"/efficiency", {"prefill_compute", "decode_bandwidth", "step_overhead", "request_overhead"}},
      {"/scheduler",
       {"max_num_batched_tokens", "max_num_seqs", "block_size", "chunked_prefill", "prefix_caching",
        "async_scheduling"}},
      {"/workload",
       {"rate", "stages", "streams", "think", "ramp", "arrivals", "rate_scale", "requests",
        "warmup_requests", "tokens_in", "tokens_out", "trace", "prefix", "conversation"}},
      {"/workload/stages/*", {"rate", "duration"}},
      {"/autoscaling",
       {"min_replicas", "max_replicas", "target_requests", "interval", "provisioning",
        "scale_down_delay"}},
      {"/workload/prefix", {"share", "groups", "tokens"}},
      {"/workload/conversation", {"turns", "max_context"}},
      {"/slo", {"ttft", "tpot"}},
      {"/search",
       {"instances", "tp", "max_num_batched_tokens", "max_num_seqs", "attainment", "max_replicas",
        "exhaustive"}}};
  return keys;
}

bool model_replica(ServingScenario& sc, inference::ServingRequest rq) {
  serving::ServingView& v = sc.view;
  rq.tp = sc.tp;
  rq.precision = sc.precision;
  sc.request = rq;
  sc.replica =
      inference::serving_replica_model(sc.model, sc.gpu, sc.fabric, rq, v.sched.block_tokens);
  const double overhead_s = v.step.overhead_s;
  v.step = sc.replica.step;
  v.step.overhead_s = overhead_s;
  v.gpus_per_replica = sc.tp;
  v.seed = sc.seed;
  v.sched.kv_blocks = static_cast<uint32_t>(std::min<uint64_t>(sc.replica.kv_blocks, 0xFFFFFFF0u));
  return sc.replica.fits;
}

serving::ServingView serving_view(const ServingScenario& sc) {
  serving::ServingView v = sc.view;
  if (!sc.stages.empty())
    v.load.stages = {sc.stages.data(), static_cast<uint32_t>(sc.stages.size())};
  if (!sc.lengths.empty()) {
    v.load.prompt_kind = serving::LengthKind::table;
    v.load.table = {sc.lengths.data(), static_cast<uint32_t>(sc.lengths.size())};
  }
  if (!sc.arrival_times.empty())
    v.load.arrival_s = {sc.arrival_times.data(), static_cast<uint32_t>(sc.arrival_times.size())};
  return v;
}

std::optional<ServingScenario> load_serving_scenario(std::string_view text, const std::string& file,
                                                     const std::string& base_dir,
                                                     const std::vector<std::string>& data_path,
                                                     Diagnostics& d,
                                                     const std::vector<std::string>& overrides) {
  auto doc = parse_jsonc(text, file, d);
  if (!doc) return std::nullopt;
  for (const std::string& spec : overrides) apply_override(doc->value, spec, d);
  if (!d.ok()) return std::nullopt;
  LinesAttached lines(d, doc->lines);
  FieldReader f(d);
  const json& root = doc->value;
  if (!f.object(root, "")) return std::nullopt;
  f.check_keys(root, "", serving_keys_at(""));
  ServingScenario sc;
  serving::ServingView& v = sc.view;
  if (const json* x = f.need(root, "", "name", "a name for the output folder"))
    if (auto s = f.name(*x, "/name")) sc.name = *s;
  if (const json* x = f.get(root, "seed"))
    if (auto s = f.integer(*x, "/seed", 0, uint64_t(1) << 53)) sc.seed = *s;
  if (const json* x = f.get(root, "replications"))
    if (auto s = f.integer(*x, "/replications", 1, 1000)) sc.replications = uint32_t(*s);
  if (const json* x = f.get(root, "queue_capacity"))
    if (auto s = f.integer(*x, "/queue_capacity", 1, MAX_QUEUE)) sc.queue_capacity = uint32_t(*s);

  // The replica: model, GPU, tensor parallelism, precision.
  bool hw_ok = true;
  if (const json* x = f.need(root, "", "model", "a model preset, e.g. \"llama-3-8b\"")) {
    if (auto s = f.string(*x, "/model")) {
      if (const auto* m = training::find_model_preset(*s)) {
        sc.model = *m;
        sc.model_id = *s;
      } else {
        std::vector<std::string> known;
        for (const auto& p : training::model_presets()) known.push_back(p.name);
        d.unknown_name("/model", "model", *s, known);
        hw_ok = false;
      }
    } else {
      hw_ok = false;
    }
  } else {
    hw_ok = false;
  }
  if (const json* x = f.need(root, "", "gpu", "a GPU type, e.g. \"H100-SXM\"")) {
    if (const GpuSpec* g = gpu_named(f, d, *x, "/gpu")) {
      sc.gpu = *g;
      sc.gpu_id = g->id;
    } else {
      hw_ok = false;
    }
  } else {
    hw_ok = false;
  }
  if (const json* x = f.get(root, "tp")) {
    if (auto s = f.integer(*x, "/tp", 1, 16))
      sc.tp = uint32_t(*s);
    else
      hw_ok = false;
  }
  if (const json* x = f.get(root, "precision")) {
    if (auto p = f.enumerator<Precision>(*x, "/precision"))
      sc.precision = *p;
    else
      hw_ok = false;
  }
  if (hw_ok) sc.fabric = default_fabric(sc.gpu);
  if (const json* x = f.get(root, "fabric")) {
    if (auto s = fabric_named(f, d, *x, "/fabric"))
      sc.fabric = *s;
    else
      hw_ok = false;
  }
  if (const json* x = f.get(root, "replicas"))
    if (auto s = f.integer(*x, "/replicas", 1, MAX_REPLICAS)) v.n_replicas = uint32_t(*s);
  // Disaggregated prefill and decode: two pools, the KV cache sent between; the decode pool has
  // the replica's hardware unless `decode` gives its own.
  double kv_link_gbps = DEFAULT_KV_LINK_GBPS;
  if (const json* x = f.get(root, "disaggregated"); x && f.object(*x, "/disaggregated")) {
    f.check_keys(*x, "/disaggregated", serving_keys_at("/disaggregated"));
    if (f.get(root, "replicas"))
      d.error("/replicas", DiagCode::infeasible,
              "replicas and disaggregated both size the cluster: with disaggregated, give "
              "prefill_replicas and decode_replicas only");
    uint32_t pools[2] = {0, 0};
    const char* keys[2] = {"prefill_replicas", "decode_replicas"};
    for (int k = 0; k < 2; ++k) {
      if (const json* y = f.need(*x, "/disaggregated", keys[k], "replicas of that pool"))
        if (auto n = f.integer(*y, std::string("/disaggregated/") + keys[k], 1, MAX_REPLICAS / 2))
          pools[k] = uint32_t(*n);
    }
    if (pools[0] > 0 && pools[1] > 0) {
      v.n_prefill = pools[0];
      v.n_replicas = pools[0] + pools[1];
    }
    // The decode pool's own GPU, tensor parallelism and fabric (each defaults to the replica's).
    if (const json* y = f.get(*x, "decode"); y && f.object(*y, "/disaggregated/decode")) {
      f.check_keys(*y, "/disaggregated/decode", serving_keys_at("/disaggregated/decode"));
      DecodeShape dec;
      dec.gpu = sc.gpu;
      dec.gpu_id = sc.gpu_id;
      dec.tp = sc.tp;
      dec.fabric = sc.fabric;
      if (const json* z = f.get(*y, "gpu")) {
        if (const GpuSpec* g = gpu_named(f, d, *z, "/disaggregated/decode/gpu")) {
          dec.gpu = *g;
          dec.gpu_id = g->id;
          if (!f.get(*y, "fabric")) dec.fabric = default_fabric(*g);
        } else {
          hw_ok = false;
        }
      }
      if (const json* z = f.get(*y, "tp")) {
        if (auto n = f.integer(*z, "/disaggregated/decode/tp", 1, 16))
          dec.tp = uint32_t(*n);
        else
          hw_ok = false;
      }
      if (const json* z = f.get(*y, "fabric")) {
        if (auto s = fabric_named(f, d, *z, "/disaggregated/decode/fabric"))
          dec.fabric = *s;
        else
          hw_ok = false;
      }
      sc.decode = dec;
    }
    if (const json* y = f.get(*x, "kv_transfer"); y && f.object(*y, "/disaggregated/kv_transfer")) {
      f.check_keys(*y, "/disaggregated/kv_transfer", serving_keys_at("/disaggregated/kv_transfer"));
      // NOTE: bounded so that a transfer ends within minutes, not at 1e300 s (a typo's cost).
      if (const json* z = f.get(*y, "bandwidth"))
        if (auto b = f.bandwidth(*z, "/disaggregated/kv_transfer/bandwidth")) {
          if (*b >= MIN_KV_LINK_GBPS)
            kv_link_gbps = *b;
          else
            d.error("/disaggregated/kv_transfer/bandwidth", DiagCode::out_of_range,
                    "a KV transfer link of " + num(*b) + " Gb/s is below " + num(MIN_KV_LINK_GBPS) +
                        " Gb/s (1 Mb/s); give the GPU's link to another "
                        "node, e.g. \"400Gbps\"");
        }
      if (const json* z = f.get(*y, "latency"))
        if (auto t = f.duration(*z, "/disaggregated/kv_transfer/latency", false)) {
          if (*t <= MAX_KV_LATENCY_S)
            v.kv_transfer_latency_s = *t;
          else
            d.error("/disaggregated/kv_transfer/latency", DiagCode::out_of_range,
                    "a KV transfer latency of " + num(*t) + " s is above " + num(MAX_KV_LATENCY_S) +
                        " s; networks take microseconds");
        }
    }
  }
  if (const json* x = f.get(root, "autoscaling"); x && f.object(*x, "/autoscaling"))
    load_autoscaling(*x, root, f, d, v);
  if (const json* x = f.get(root, "router")) {
    if (auto k = f.choice(*x, "/router", "router",
                          {"round_robin", "least_outstanding_tokens", "cache_aware"}))
      v.router = static_cast<serving::Router>(*k);
  }
  if (v.autoscale.max_replicas > 0 && v.router == serving::Router::cache_aware)
    d.error("/router", DiagCode::infeasible,
            "the cache-aware router with autoscaling is not modelled yet (its picture of the "
            "replicas' caches would outlive a drained replica); use least_outstanding_tokens or "
            "round_robin");
  // SGLang's names for the cache-aware router's thresholds.
  if (const json* x = f.get(root, "cache_aware"); x && f.object(*x, "/cache_aware")) {
    f.check_keys(*x, "/cache_aware", serving_keys_at("/cache_aware"));
    serving::CacheAware& k = v.cache_aware;
    if (auto s = f.opt_number(*x, "/cache_aware", "cache_threshold", 0, 1)) k.cache_threshold = *s;
    if (const json* y = f.get(*x, "balance_abs_threshold"))
      if (auto s = f.integer(*y, "/cache_aware/balance_abs_threshold", 0, 1u << 20))
        k.balance_abs = uint32_t(*s);
    if (auto s = f.opt_number(*x, "/cache_aware", "balance_rel_threshold", 1, 1e6))
      k.balance_rel = *s;
  }
  inference::ServingRequest rq;
  if (const json* x = f.get(root, "memory_share"))
    if (auto s = f.number(*x, "/memory_share", 0.05, 1)) rq.memory_share = *s;
  if (const json* e = f.get(root, "efficiency"); e && f.object(*e, "/efficiency")) {
    f.check_keys(*e, "/efficiency", serving_keys_at("/efficiency"));
    if (auto s = f.opt_number(*e, "/efficiency", "prefill_compute", 0.01, 1))
      rq.prefill_compute = *s;
    if (auto s = f.opt_number(*e, "/efficiency", "decode_bandwidth", 0.01, 1))
      rq.decode_bandwidth = *s;
    if (const json* o = f.get(*e, "step_overhead"))
      if (auto s = f.duration(*o, "/efficiency/step_overhead", false)) v.step.overhead_s = *s;
    if (const json* o = f.get(*e, "request_overhead"))
      if (auto s = f.duration(*o, "/efficiency/request_overhead", false)) {
        if (*s <= 1)
          v.request_overhead_s = *s;
        else
          d.error(
              "/efficiency/request_overhead", DiagCode::out_of_range,
              "request_overhead " + num(*s) +
                  " s is above 1 s; an API server adds milliseconds (docs/serving-simulation.md, "
                  "\"Validation against measured runs\")");
      }
  }

  // The scheduler (vLLM's names and defaults of its V1 engine, chunked prefill on).
  serving::SchedulerConfig& s = v.sched;
  s.max_num_batched_tokens = 2048;
  s.max_num_seqs = 256;
  s.async_scheduling = true;  // vLLM's default since vllm-project/vllm#27614
  if (const json* x = f.get(root, "scheduler"); x && f.object(*x, "/scheduler")) {
    f.check_keys(*x, "/scheduler", serving_keys_at("/scheduler"));
    if (const json* y = f.get(*x, "max_num_batched_tokens"))
      if (auto n = f.integer(*y, "/scheduler/max_num_batched_tokens", 1, 1u << 20))
        s.max_num_batched_tokens = uint32_t(*n);
    if (const json* y = f.get(*x, "max_num_seqs"))
      if (auto n = f.integer(*y, "/scheduler/max_num_seqs", 1, MAX_SEQS))
        s.max_num_seqs = uint32_t(*n);
    if (const json* y = f.get(*x, "block_size"))
      if (auto n = f.integer(*y, "/scheduler/block_size", 1, 256)) s.block_tokens = uint32_t(*n);
    if (const json* y = f.get(*x, "chunked_prefill"))
      if (auto b = f.boolean(*y, "/scheduler/chunked_prefill")) s.chunked_prefill = *b;
    if (const json* y = f.get(*x, "prefix_caching"))
      if (auto b = f.boolean(*y, "/scheduler/prefix_caching")) s.prefix_caching = *b;
    if (const json* y = f.get(*x, "async_scheduling"))
      if (auto b = f.boolean(*y, "/scheduler/async_scheduling")) s.async_scheduling = *b;
  }

  // The workload.
  serving::Workload& w = v.load;
  w.n_requests = 10000;
  w.prompt_a = 0;
  w.output_a = 0;
  std::string lengths_ptr = "/workload";
  if (const json* x = f.need(root, "", "workload", "arrivals and lengths");
      x && f.object(*x, "/workload")) {
    f.check_keys(*x, "/workload", serving_keys_at("/workload"));
    // Arrivals: Poisson at `rate`, or the trace's own timestamps replayed (`rate_scale` times as
    // fast), each request with its row's lengths.
    bool replay = false;
    if (const json* y = f.get(*x, "arrivals")) {
      if (auto a = f.string(*y, "/workload/arrivals")) {
        if (*a == "trace") {
          replay = true;
        } else if (*a != "poisson") {
          d.unknown_name("/workload/arrivals", "arrival process", *a, {"poisson", "trace"});
        }
      }
    }
    const json* stages = f.get(*x, "stages");
    double rate_scale = 1;
    if (const json* y = f.get(*x, "rate_scale")) {
      if (!replay && !stages)
        d.error("/workload/rate_scale", DiagCode::infeasible,
                "rate_scale speeds up a replayed trace (\"arrivals\": \"trace\") or scales "
                "\"stages\" (a recorded day's rates for a smaller service); Poisson arrivals "
                "take their \"rate\" directly");
      else if (auto r = f.number(*y, "/workload/rate_scale", 1e-6, 1e6))
        rate_scale = *r;
    }
    for (const char* key : {"stages", "streams"})
      if (replay && f.get(*x, key))
        d.error(
            std::string("/workload/") + key, DiagCode::infeasible,
            "a replayed trace's timestamps give the arrivals; drop \"" + std::string(key) + "\"");
    for (const char* key : {"think", "ramp"})
      if (f.get(*x, key) && !f.get(*x, "streams"))
        d.error(std::string("/workload/") + key, DiagCode::infeasible,
                "\"" + std::string(key) +
                    "\" shapes the requests of closed-loop \"streams\"; "
                    "give streams or drop it");
    if (replay) {
      if (f.get(*x, "rate"))
        d.error("/workload/rate", DiagCode::infeasible,
                "a replayed trace's timestamps give the arrivals; drop \"rate\" (scale them with "
                "\"rate_scale\")");
      if (!f.get(*x, "trace"))
        d.error("/workload", DiagCode::missing_key,
                "\"arrivals\": \"trace\" replays a trace's timestamps; name it in \"trace\"");
    } else if (const json* n = f.get(*x, "streams")) {
      for (const char* key : {"rate", "stages"})
        if (f.get(*x, key))
          d.error(std::string("/workload/") + key, DiagCode::infeasible,
                  "closed-loop \"streams\" send a request when their previous one completes; "
                  "drop \"" +
                      std::string(key) + "\"");
      if (auto k = f.integer(*n, "/workload/streams", 1, MAX_STREAMS)) w.streams = uint32_t(*k);
      if (const json* y = f.get(*x, "think"))
        if (auto t = f.duration(*y, "/workload/think", false)) w.think_s = *t;
      if (const json* y = f.get(*x, "ramp"))
        if (auto t = f.duration(*y, "/workload/ramp", false)) w.ramp_s = *t;
      // NOTE: only a first guess of the rate (the series' first width, refined as it runs):
      // every stream sending once per think time, or per millisecond without one.
      w.rate_per_s = w.streams / std::max(w.think_s, 1e-3);
      sc.queue_capacity = static_cast<uint32_t>(std::max<uint64_t>(
          sc.queue_capacity, streams_queue_per_replica(w.streams, v.n_replicas)));
    } else if (stages) {
      if (f.get(*x, "rate"))
        d.error("/workload/rate", DiagCode::infeasible, "\"stages\" give the rates; drop \"rate\"");
      load_stages(*stages, rate_scale, f, d, sc);
    } else if (const json* y =
                   f.need(*x, "/workload", "rate", "requests per second, e.g. \"20/s\"")) {
      if (auto r = f.rate(*y, "/workload/rate")) w.rate_per_s = *r;
    }
    if (const json* y = f.get(*x, "requests")) {
      if (auto n = f.integer(*y, "/workload/requests", 1, MAX_REQUESTS)) w.n_requests = *n;
    } else if (!sc.stages.empty()) {  // one cycle's expected arrivals
      w.n_requests = static_cast<uint64_t>(
          std::clamp(std::round(w.rate_per_s * sc.stages.back().end_s), 1.0, double(MAX_REQUESTS)));
    }
    if (const json* y = f.get(*x, "warmup_requests"))
      if (auto n = f.integer(*y, "/workload/warmup_requests", 0, MAX_REQUESTS))
        w.warmup_requests = *n;
    const json* trace = f.get(*x, "trace");
    const json* tin = f.get(*x, "tokens_in");
    const json* tout = f.get(*x, "tokens_out");
    if (trace) {
      lengths_ptr = "/workload/trace";
      if (tin || tout)
        d.error(tin ? "/workload/tokens_in" : "/workload/tokens_out", DiagCode::infeasible,
                "the trace gives the lengths; drop tokens_in and tokens_out");
      if (auto ref = f.string(*trace, "/workload/trace"))
        if (auto t = inference::load_token_trace(*ref, base_dir, data_path, "/workload/trace", d,
                                                 replay)) {
          sc.lengths_source = *ref;
          sc.lengths.reserve(t->in.size());
          for (size_t i = 0; i < t->in.size(); ++i)
            sc.lengths.push_back({static_cast<uint32_t>(std::max(1.0, std::round(t->in[i]))),
                                  static_cast<uint32_t>(std::max(1.0, std::round(t->out[i])))});
          if (replay) replay_arrivals(*t, rate_scale, f.get(*x, "requests") != nullptr, sc, d);
        }
    } else {
      sc.lengths_source = "fixed";
      std::optional<inference::LengthDistribution> in, out;
      if (tin) {
        in = read_length_distribution(f, d, *tin, "/workload/tokens_in", 1, MAX_TOKENS);
      } else {
        d.error("/workload", DiagCode::missing_key,
                "missing \"tokens_in\": give lengths (tokens_in, tokens_out) or a \"trace\"");
      }
      if (tout) {
        out = read_length_distribution(f, d, *tout, "/workload/tokens_out", 1, MAX_TOKENS);
      } else {
        d.error("/workload", DiagCode::missing_key,
                "missing \"tokens_out\": give lengths (tokens_in, tokens_out) or a \"trace\"");
      }
      using Kind = inference::LengthDistribution::Kind;
      if (in && out && in->kind == Kind::fixed && out->kind == Kind::fixed) {
        w.prompt_a = std::round(in->a);
        w.output_a = std::round(out->a);
      } else if (in && out) {
        // NOTE: the quote's stratified sample (models/perf/inference/length_distribution.h) as
        // the rows requests draw from, so a distribution means what it means in a quote.
        const inference::TokenLengths t = inference::stratified_lengths(*in, *out);
        lengths_ptr = "/workload/tokens_in";
        sc.lengths_source = "prompt " + in->text() + ", output " + out->text() + " tokens";
        sc.lengths.reserve(t.in.size());
        for (size_t i = 0; i < t.in.size(); ++i)
          sc.lengths.push_back({static_cast<uint32_t>(std::max(1.0, std::round(t.in[i]))),
                                static_cast<uint32_t>(std::max(1.0, std::round(t.out[i])))});
      }
    }
    // NOTE: after the trace, whose length a replay takes as its number of requests.
    if (w.warmup_requests >= w.n_requests)
      d.error("/workload/warmup_requests", DiagCode::out_of_range,
              "warmup_requests " + num(double(w.warmup_requests)) +
                  " leaves no request counted of the " + num(double(w.n_requests)) +
                  " requests; use fewer");
    if (const json* p = f.get(*x, "prefix"); p && f.object(*p, "/workload/prefix")) {
      f.check_keys(*p, "/workload/prefix", serving_keys_at("/workload/prefix"));
      if (auto r = f.opt_number(*p, "/workload/prefix", "share", 0, 1)) w.prefix_share = *r;
      w.prefix_groups = 1;
      if (const json* y = f.get(*p, "groups"))
        if (auto n = f.integer(*y, "/workload/prefix/groups", 1, MAX_GROUPS))
          w.prefix_groups = uint32_t(*n);
      if (const json* y = f.need(*p, "/workload/prefix", "tokens", "tokens of each shared prefix"))
        if (auto n = f.integer(*y, "/workload/prefix/tokens", 1, 1u << 20))
          w.prefix_tokens = uint32_t(*n);
    }
    if (const json* p = f.get(*x, "conversation"); p && f.object(*p, "/workload/conversation"))
      load_conversation(*p, *x, root, f, d, sc);
  }
  if (const json* x = f.get(root, "slo"); x && f.object(*x, "/slo")) {
    f.check_keys(*x, "/slo", serving_keys_at("/slo"));
    if (const json* y = f.get(*x, "ttft"))
      if (auto t = f.duration(*y, "/slo/ttft", true)) w.ttft_slo_s = *t;
    if (const json* y = f.get(*x, "tpot"))
      if (auto t = f.duration(*y, "/slo/tpot", true)) w.tpot_slo_s = *t;
  }
  if (!d.ok() || !hw_ok) return std::nullopt;

  // In context: the replica's memory, the budget and the KV cache.
  const bool fits = model_replica(sc, rq);
  v.kv_transfer_bandwidth = double(kv_transfer_links(sc)) * kv_link_gbps * 1e9 / 8;
  const auto no_room = [&](const std::string& ptr, const inference::ServingReplicaModel& m,
                           const GpuSpec& gpu, const std::string& gpu_id, uint32_t tp) {
    d.error(ptr, DiagCode::infeasible,
            sc.model_id + " needs " + num(std::round(m.weight_bytes / GB * 10) / 10) +
                " GB of weights at " + std::string(enum_names<Precision>()[size_t(sc.precision)]) +
                " but " + num(tp) + " x " + gpu_id + " hold " +
                num(std::round(m.memory_bytes / GB * 10) / 10) + " GB (" + num(gpu.mem_gb) +
                " GB x " + num(tp) + " x memory_share " + num(rq.memory_share) +
                ") with no room for a KV block; use a larger tp, fp8 or a "
                "larger GPU");
  };
  if (!fits) {
    no_room("/tp", sc.replica, sc.gpu, sc.gpu_id, sc.tp);
    return std::nullopt;
  }
  if (sc.decode) {
    inference::ServingRequest rqd = sc.request;
    rqd.tp = sc.decode->tp;
    DecodeShape& dec = *sc.decode;
    dec.replica =
        inference::serving_replica_model(sc.model, dec.gpu, dec.fabric, rqd, s.block_tokens);
    if (!dec.replica.fits) {
      no_room("/disaggregated/decode/tp", dec.replica, dec.gpu, dec.gpu_id, dec.tp);
      return std::nullopt;
    }
    v.decode_shape = true;
    v.decode_step = dec.replica.step;
    v.decode_step.overhead_s = sc.view.step.overhead_s;
    v.decode_kv_blocks =
        static_cast<uint32_t>(std::min<uint64_t>(dec.replica.kv_blocks, 0xFFFFFFF0u));
    v.decode_gpus_per_replica = dec.tp;
  }
  if (s.max_num_batched_tokens < s.max_num_seqs)
    d.error("/scheduler/max_num_batched_tokens", DiagCode::infeasible,
            "max_num_batched_tokens " + num(s.max_num_batched_tokens) + " is below max_num_seqs " +
                num(s.max_num_seqs) +
                ": a step could not hold one token of every running sequence (vLLM refuses it "
                "too); raise it or lower max_num_seqs");
  uint32_t longest_prompt = 0, longest_request = 0;
  if (sc.lengths.empty()) {
    longest_prompt = uint32_t(w.prompt_a);
    longest_request = uint32_t(w.prompt_a + w.output_a);
  }
  for (const auto& row : sc.lengths) {
    longest_prompt = std::max(longest_prompt, row.prompt);
    longest_request = std::max(longest_request, row.prompt + row.output);
  }
  if (w.prefix_share > 0) {
    longest_prompt += w.prefix_tokens;
    longest_request += w.prefix_tokens;
  }
  std::string shorter = "shorter requests";
  // A conversation's later turns may reach its context limit.
  if (serving::conversations(w) && w.max_context > longest_request) {
    longest_prompt = longest_request = w.max_context;
    lengths_ptr = "/workload/conversation/max_context";
    shorter = "a smaller max_context (by default the model's context window, " +
              num(sc.model.seq_len) + " tokens)";
  }
  // NOTE: without chunked prefill a prompt runs in one step, and a preempted sequence recomputes
  // its prompt and output in one step: the budget must hold the longest request.
  if (!s.chunked_prefill && longest_request > s.max_num_batched_tokens)
    d.error("/scheduler/max_num_batched_tokens", DiagCode::infeasible,
            "max_num_batched_tokens " + num(s.max_num_batched_tokens) +
                " is below the longest chunk: without chunked prefill a request of " +
                num(longest_prompt) + " prompt tokens (" + num(longest_request) +
                " with its output, when recomputed) must run in one step; raise it to " +
                num(longest_request) + " or turn chunked_prefill on");
  const uint64_t blocks = (uint64_t(longest_request) + s.block_tokens - 1) / s.block_tokens;
  if (blocks > s.kv_blocks)
    d.error(lengths_ptr, DiagCode::infeasible,
            "the longest request (" + num(longest_request) + " tokens, " + num(double(blocks)) +
                " blocks of " + num(s.block_tokens) + ") does not fit the replica's KV cache of " +
                num(double(s.kv_blocks)) + " blocks (" + num(double(s.kv_blocks) * s.block_tokens) +
                " tokens after " + num(std::round(sc.replica.weight_bytes / GB * 10) / 10) +
                " GB of weights); use a larger tp or " + shorter);
  if (v.decode_shape && blocks > v.decode_kv_blocks)
    d.error("/disaggregated/decode/tp", DiagCode::infeasible,
            "the longest request (" + num(longest_request) + " tokens, " + num(double(blocks)) +
                " blocks of " + num(s.block_tokens) +
                ") does not fit a decode replica's KV cache of " + num(double(v.decode_kv_blocks)) +
                " blocks (" + num(double(v.decode_kv_blocks) * s.block_tokens) + " tokens after " +
                num(std::round(sc.decode->replica.weight_bytes / GB * 10) / 10) +
                " GB of weights); use a larger tp for the decode pool or shorter requests");
  // NOTE: every replica holds a record per running and waiting request, allocated up front.
  const uint64_t records =
      uint64_t(std::max(v.n_replicas, 1u)) * (uint64_t(s.max_num_seqs) + sc.queue_capacity);
  if (records > MAX_SERVING_RECORDS)
    d.error(
        f.get(root, "queue_capacity") ? "/queue_capacity" : "/replicas", DiagCode::out_of_range,
        num(double(std::max(v.n_replicas, 1u))) + " replicas x (max_num_seqs " +
            num(s.max_num_seqs) + " + " + num(double(sc.queue_capacity)) + " waiting) is " +
            num(double(records)) + " request records, more than the " +
            num(double(MAX_SERVING_RECORDS)) +
            " a run holds in memory; use fewer replicas or a smaller queue_capacity (closed-loop "
            "streams keep twice their share per replica)");
  // NOTE: and an entry per replica and cache group (a shared prefix or a stream's conversation),
  // each scanned when the cache evicts.
  const uint64_t entries = uint64_t(std::max(v.n_replicas, 1u)) * serving::cache_groups(w);
  if (entries > MAX_CACHE_ENTRIES)
    d.error(serving::conversations(w) ? "/workload/streams" : "/workload/prefix/groups",
            DiagCode::out_of_range,
            num(double(std::max(v.n_replicas, 1u))) + " replicas x " +
                num(double(serving::cache_groups(w))) +
                (serving::conversations(w) ? " conversations (one a stream)" : " shared prefixes") +
                " is " + num(double(entries)) + " prefix cache entries, more than the " +
                num(double(MAX_CACHE_ENTRIES)) + " a run holds; use fewer replicas or " +
                (serving::conversations(w) ? "streams" : "groups"));
  load_price(f, d, root, sc);
  if (!d.ok()) return std::nullopt;
  if (const json* x = f.get(root, "search"); x && f.object(*x, "/search")) {
    f.check_keys(*x, "/search", serving_keys_at("/search"));
    SearchDefaults own;
    if (sc.price) {
      own.instance = sc.price->instance;
      own.pricing = sc.price->pricing;
    }
    own.tp = sc.tp;
    own.max_num_batched_tokens = s.max_num_batched_tokens;
    own.max_num_seqs = s.max_num_seqs;
    sc.search = load_search_space(*x, root, f, d, own);
  }
  if (!d.ok()) return std::nullopt;
  return sc;
}

}  // namespace gpuplan
