#include "models/load/serving_scenario.h"

#include <algorithm>
#include <cmath>

#include "models/input/field_reader.h"
#include "models/input/jsonc.h"
#include "models/load/scenario_override.h"

namespace gpuplan {
namespace {

using fields::num;
using nlohmann::json;

constexpr uint32_t MAX_REPLICAS = 4096;
//! [Gb/s] a GPU's link to another node when the scenario does not say: one 400 Gb/s NIC per GPU,
//! as the NVIDIA DGX H100 has (8 ConnectX-7 400 Gb/s ports for its 8 GPUs, DGX H100 User Guide).
constexpr double DEFAULT_KV_LINK_GBPS = 400;
constexpr double MIN_KV_LINK_GBPS = 1e-3;  //!< [Gb/s] 1 Mb/s
constexpr double MAX_KV_LATENCY_S = 60;    //!< [s]
constexpr uint32_t MAX_SEQS = 4096;
constexpr uint64_t MAX_CACHE_ENTRIES = 1u << 22;  //!< replicas x cache groups (17 B each)
constexpr uint32_t MAX_QUEUE = 1u << 20;
constexpr double MIN_SCALER_INTERVAL_S = 1;   //!< [s] the scaler's evaluations at most this often
constexpr double MAX_SCALER_DELAY_S = 86400;  //!< [s] a scaler's interval and delays at most
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

const std::vector<std::string>& serving_keys_at(const std::string& ptr) {
  static const std::vector<std::string> none;
  for (const auto& [at, keys] : serving_scenario_keys())
    if (at == ptr) return keys;
  return none;
}

const std::vector<std::pair<std::string, std::vector<std::string>>>& serving_scenario_keys() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> keys = {
      {"", {"$schema",        "name",        "seed",        "replications",
            "model",          "gpu",         "instance",    "pricing",
            "fabric",         "tp",          "precision",   "replicas",
            "disaggregated",  "router",      "cache_aware", "memory_share",
            "efficiency",     "scheduler",   "workload",    "slo",
            "queue_capacity", "autoscaling", "search",      "custom_all_reduce"}},
      {"/disaggregated", {"prefill_replicas", "decode_replicas", "kv_transfer", "decode"}},
      {"/disaggregated/decode", {"gpu", "tp", "fabric"}},
      {"/disaggregated/kv_transfer", {"bandwidth", "latency"}},
      {"/cache_aware", {"cache_threshold", "balance_abs_threshold", "balance_rel_threshold"}},
      {"/efficiency",
       {"prefill_compute", "decode_bandwidth", "step_overhead", "sequence_overhead",
        "request_overhead"}},
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

namespace {
// `roofline`, a replica's step model, with the overheads the scenario set in `scenario`.
serving::StepModel with_overheads(serving::StepModel roofline, const serving::StepModel& scenario) {
  roofline.overhead_s = scenario.overhead_s;
  roofline.sequence_s = scenario.sequence_s;
  return roofline;
}
}  // namespace

void set_default_overheads(serving::ServingView& v) {
  v.step.overhead_s = inference::VLLM_STEP_OVERHEAD_S;
  v.request_overhead_s = inference::VLLM_REQUEST_OVERHEAD_S;
}

bool model_replica(ServingScenario& sc, inference::ServingRequest rq) {
  serving::ServingView& v = sc.view;
  rq.tp = sc.tp;
  rq.precision = sc.precision;
  rq = inference::with_simulator_efficiency(sc.gpu, rq);
  sc.request = rq;
  sc.replica =
      inference::serving_replica_model(sc.model, sc.gpu, sc.fabric, rq, v.sched.block_tokens);
  v.step = with_overheads(sc.replica.step, v.step);
  if (sc.custom_all_reduce)
    inference::add_custom_allreduce(v.step, sc.model, sc.gpu, sc.precision, sc.tp, sc.fabric);
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
  set_default_overheads(v);  // unless the scenario sets its own (0 to leave them out)
  if (const json* x = f.get(root, "memory_share"))
    if (auto s = f.number(*x, "/memory_share", 0.05, 1)) rq.memory_share = *s;
  if (const json* x = f.get(root, "custom_all_reduce"))
    if (auto b = f.boolean(*x, "/custom_all_reduce")) sc.custom_all_reduce = *b;
  if (const json* e = f.get(root, "efficiency"); e && f.object(*e, "/efficiency")) {
    f.check_keys(*e, "/efficiency", serving_keys_at("/efficiency"));
    if (auto s = f.opt_number(*e, "/efficiency", "prefill_compute", 0.01, 1))
      rq.prefill_compute = *s;
    if (auto s = f.opt_number(*e, "/efficiency", "decode_bandwidth", 0.01, 1))
      rq.decode_bandwidth = *s;
    if (const json* o = f.get(*e, "step_overhead"))
      if (auto s = f.duration(*o, "/efficiency/step_overhead", false)) v.step.overhead_s = *s;
    // An overhead read as a duration up to `most` seconds into `out`; above it, refused with
    // `why` (docs/serving-simulation.md, "Validation against measured runs").
    const auto overhead = [&](const char* key, double most, const char* limit, const char* why,
                              double& out) {
      const json* o = f.get(*e, key);
      if (!o) return;
      const std::string path = std::string("/efficiency/") + key;
      if (auto s = f.duration(*o, path, false)) {
        if (*s <= most)
          out = *s;
        else
          d.error(path, DiagCode::out_of_range,
                  std::string(key) + " " + num(*s) + " s is above " + limit + "; " + why +
                      " (docs/serving-simulation.md, \"Validation against measured runs\")");
      }
    };
    overhead("sequence_overhead", 0.01, "10 ms",
             "a decoding sequence adds well under a millisecond to a step", v.step.sequence_s);
    overhead("request_overhead", 1, "1 s", "an API server adds milliseconds", v.request_overhead_s);
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
  std::string lengths_ptr = load_serving_workload(root, f, d, sc, base_dir, data_path);
  serving::Workload& w = v.load;
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
    DecodeShape& dec = *sc.decode;
    // NOTE: from the scenario's own efficiencies, the defaults being the decode GPU's.
    inference::ServingRequest rqd = inference::with_simulator_efficiency(dec.gpu, rq);
    rqd.tp = dec.tp;
    rqd.precision = sc.precision;
    dec.request = rqd;
    dec.replica =
        inference::serving_replica_model(sc.model, dec.gpu, dec.fabric, rqd, s.block_tokens);
    if (!dec.replica.fits) {
      no_room("/disaggregated/decode/tp", dec.replica, dec.gpu, dec.gpu_id, dec.tp);
      return std::nullopt;
    }
    v.decode_shape = true;
    v.decode_step = with_overheads(dec.replica.step, sc.view.step);
    if (sc.custom_all_reduce)
      inference::add_custom_allreduce(v.decode_step, sc.model, dec.gpu, sc.precision, dec.tp,
                                      dec.fabric);
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
