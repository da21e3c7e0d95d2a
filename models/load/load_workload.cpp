#include "models/load/loader.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "models/trace/trace.h"

namespace gpuplan::loading {

void Loader::load_workload(const json& arr, Scenario& sc) {
  if (!arr.is_array()) return wrong_type(arr, "/workload", "an array of job classes");
  if (arr.empty()) {
    d_.error("/workload", DiagCode::missing_key, "needs at least one job class");
    return;
  }
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < arr.size(); ++i) {
    const std::string p = child("/workload", i);
    const json& o = arr[i];
    if (!object(o, p)) continue;
    check_keys(o, p,
               {"name",          "description",    "arrival",       "gpus",       "duration",
                "trace",         "pools",          "reference_gpu", "checkpoint", "spot_tolerant",
                "spot_fallback", "training",       "comm_fraction", "priority",   "team",
                "speed",         "gavel_job_type", "mig",           "gpu_share",  "gpu_fraction",
                "gpu_milli",     "gpu_memory"});
    JobClass jc;
    jc.pointer = p;
    if (const json* v = need(o, p, "name", "names the class in results, e.g. \"training\"")) {
      if (auto s = name(*v, p + "/name")) {
        if (auto [at, fresh] = seen.try_emplace(*s, i); !fresh) {
          d_.error(p + "/name", DiagCode::out_of_range,
                   "duplicate job class name " + in_quotes(*s) + " (also /workload/" +
                       std::to_string(at->second) + "); class names must be unique");
        }
        jc.name = *s;
      }
    }
    if (const json* v = get(o, "description"))
      jc.description = string(*v, p + "/description").value_or("");
    load_class_economics(o, p, jc);
    if (const json* v = get(o, "priority"))
      jc.priority = static_cast<uint32_t>(integer(*v, p + "/priority", 0, 1000000).value_or(0));
    if (const json* v = get(o, "team")) jc.team_name = name(*v, p + "/team").value_or("");
    bool pools_ok = true;
    if (const json* v = get(o, "pools")) pools_ok = load_class_pools(*v, p + "/pools", jc);
    if (const json* v = get(o, "reference_gpu")) {
      if (auto g = gpu_id(*v, p + "/reference_gpu"))
        jc.reference_gpu = builtin_catalog().find_gpu(*g);
    }
    load_class_network(o, p, jc);
    load_class_speed(o, p, jc);    // load_throughputs.cpp
    load_class_sharing(o, p, jc);  // load_sharing.cpp
    if (const json* t = get(o, "trace")) {
      for (const char* key : {"arrival", "gpus", "duration"}) {
        if (o.contains(key)) {
          d_.error(child(p, key), DiagCode::unknown_key,
                   in_quotes(key) +
                       " cannot be used with \"trace\": a class either replays a "
                       "trace or draws arrivals, sizes and durations");
        }
      }
      load_trace(*t, p + "/trace", jc, pools_ok);
    } else {
      load_synthetic(o, p, jc, pools_ok);
    }
    sc.workload.push_back(std::move(jc));
  }
}

bool Loader::load_class_pools(const json& v, const std::string& p, JobClass& jc) {
  if (!v.is_array()) {
    wrong_type(v, p, "an array of pool names");
    return false;
  }
  if (v.empty()) {
    d_.error(p, DiagCode::out_of_range,
             "names no pool; list at least one, or leave \"pools\" out to allow every pool");
    return false;
  }
  std::vector<std::string> names;
  for (const auto& info : pool_infos_)
    if (!info.name.empty()) names.push_back(info.name);
  bool ok = true;
  for (size_t k = 0; k < v.size(); ++k) {
    const auto s = string(v[k], child(p, k));
    // NOTE: pool_infos_[i] is /pools/i, so its index is the pool's index in a loaded scenario.
    const auto at = std::find_if(pool_infos_.begin(), pool_infos_.end(),
                                 [&](const PoolInfo& info) { return s && info.name == *s; });
    if (s && at == pool_infos_.end()) d_.unknown_name(child(p, k), "pool", *s, names);
    if (s && at != pool_infos_.end()) {
      jc.pool_indices.push_back(static_cast<uint32_t>(at - pool_infos_.begin()));
    } else {
      ok = false;
    }
  }
  return ok;
}

void Loader::load_synthetic(const json& o, const std::string& p, JobClass& jc, bool pools_ok) {
  if (const json* v = need(o, p, "arrival", "e.g. {\"poisson\": {\"rate\": \"12/h\"}}")) {
    load_arrival(*v, p + "/arrival", jc);
  }
  // NOTE: a shared-GPU class takes one MIG instance or time-sliced replica instead of "gpus".
  if (jc.share.kind == ShareKind::whole) {
    if (const json* v = need(o, p, "gpus", "GPUs per job, e.g. 8 or {\"choice\": {...}}")) {
      if (load_gpus(*v, p + "/gpus", jc.gpus) && pools_ok)
        check_fits(jc, jc.gpus.max(), p + "/gpus");
    }
  }
  if (jc.training && jc.training->tokens) {
    check_trained_class(o, p, jc);
  } else if (const json* v = need(o, p, "duration", "run time per job, e.g. \"2h\"")) {
    load_distribution(*v, p + "/duration", jc.duration);
  }
}

void Loader::load_arrival(const json& v, const std::string& p, JobClass& jc) {
  if (!object(v, p, "an arrival process, e.g. {\"poisson\": {\"rate\": \"12/h\"}}")) return;
  check_keys(v, p, {"poisson", "profile"});
  if (const json* x = get(v, "profile")) {
    if (object(*x, p + "/profile", "a rate profile, e.g. {\"growth_per_month\": 0.08}")) {
      check_keys(*x, p + "/profile", {"growth_per_month", "weekly", "schedule"});
      load_profile(*x, p + "/profile", jc.profile);
    }
  }
  const json* poisson = need(v, p, "poisson", "e.g. {\"rate\": \"12/h\"}");
  if (poisson == nullptr || !object(*poisson, p + "/poisson")) return;
  check_keys(*poisson, p + "/poisson", {"rate"});
  if (const json* r = need(*poisson, p + "/poisson", "rate", "jobs per time, e.g. \"12/h\"")) {
    if (auto x = rate(*r, p + "/poisson/rate")) jc.rate_per_s = *x;
  }
}

bool Loader::load_gpus(const json& v, const std::string& p, GpuChoice& out) {
  if (v.is_number()) {
    auto n = integer(v, p, 1, 1u << 20);
    if (n) out = GpuChoice{{static_cast<uint32_t>(*n)}, {1.0}};
    return n.has_value();
  }
  if (!v.is_object()) {
    wrong_type(v, p, "a GPU count or {\"choice\": {\"1\": 0.7, \"8\": 0.3}}");
    return false;
  }
  check_keys(v, p, {"choice"});
  const json* c = need(v, p, "choice", "GPU count -> probability, e.g. {\"1\": 0.7, \"8\": 0.3}");
  const std::string cp = p + "/choice";
  if (c == nullptr || !object(*c, cp)) return false;
  if (c->empty()) {
    d_.error(cp, DiagCode::out_of_range, "lists no GPU counts; give at least one");
    return false;
  }
  bool ok = true;
  std::vector<std::pair<uint32_t, double>> entries;
  double sum = 0;
  for (const auto& [key, prob] : c->items()) {
    const std::string kp = child(cp, key);
    uint32_t n = 0;
    const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), n);
    const bool digits = !key.empty() && key.find_first_not_of("0123456789") == std::string::npos;
    if (digits && (ec == std::errc::result_out_of_range || n > (1u << 20))) {
      d_.error(kp, DiagCode::out_of_range,
               "GPU count " + in_quotes(key) + " is too large; a job asks for 1 to 1048576 GPUs");
      ok = false;
      continue;
    }
    if (ec != std::errc() || end != key.data() + key.size() || n == 0) {
      d_.error(kp, DiagCode::out_of_range,
               "GPU count " + in_quotes(key) + " must be a positive whole number, e.g. \"8\"");
      ok = false;
      continue;
    }
    if (std::any_of(entries.begin(), entries.end(), [&](auto& e) { return e.first == n; })) {
      d_.error(kp, DiagCode::out_of_range, "GPU count " + std::to_string(n) + " is listed twice");
      ok = false;
      continue;
    }
    if (!prob.is_number()) {
      wrong_type(prob, kp, "a probability (a number in (0, 1])");
      ok = false;
      continue;
    }
    const double x = prob.get<double>();
    if (!(x > 0 && x <= 1)) {
      d_.error(kp, DiagCode::out_of_range,
               "probability must be greater than 0 and at most 1, got " + num(x));
      ok = false;
      continue;
    }
    sum += x;
    entries.emplace_back(n, x);
  }
  if (!ok) return false;
  if (std::abs(sum - 1) > 1e-6) {
    d_.error(cp, DiagCode::out_of_range,
             "probabilities sum to " + num(sum) + "; they must sum to 1");
    return false;
  }
  std::sort(entries.begin(), entries.end());
  out = GpuChoice{};
  for (const auto& [n, x] : entries) {
    out.values.push_back(n);
    out.probs.push_back(x);
  }
  return true;
}

// Reads {"key": D} members of a distribution; false when any is missing or bad.
bool Loader::durations(const json& o, const std::string& p, std::initializer_list<const char*> keys,
                       std::initializer_list<double*> out, bool positive) {
  if (!object(o, p)) return false;
  std::vector<std::string> allowed(keys.begin(), keys.end());
  check_keys(o, p, allowed);
  bool ok = true;
  auto slot = out.begin();
  for (const char* key : keys) {
    std::optional<double> d;
    if (const json* v = need(o, p, key, "a duration, e.g. \"30m\"")) {
      d = duration(*v, child(p, key), positive);
    }
    if (d) **slot = *d;
    ok = ok && d.has_value();
    ++slot;
  }
  return ok;
}

bool Loader::load_distribution(const json& v, const std::string& p, Distribution& dist) {
  if (v.is_number() || v.is_string()) {
    auto d = duration(v, p, true);
    if (d) dist = Distribution{DistKind::fixed, *d, 0, {}, {}, 0, 0};
    return d.has_value();
  }
  const std::vector<std::string>& KINDS = enum_names<DistKind>();
  if (!v.is_object() || v.size() != 1) {
    wrong_type(v, p, "a duration or an object with one distribution (" + list_names(KINDS) + ")");
    return false;
  }
  const std::string& kind = v.begin().key();
  const json& body = v.begin().value();
  const std::string bp = child(p, kind);
  dist = Distribution{};
  if (kind == "fixed") {
    auto d = duration(body, bp, true);
    if (d) dist = Distribution{DistKind::fixed, *d, 0, {}, {}, 0, 0};
    return d.has_value();
  }
  if (kind == "exponential") {
    dist.kind = DistKind::exponential;
    return durations(body, bp, {"mean"}, {&dist.a}, true);
  }
  if (kind == "uniform" || kind == "loguniform") {
    const bool log = kind == "loguniform";
    dist.kind = log ? DistKind::loguniform : DistKind::uniform;
    if (!durations(body, bp, {"low", "high"}, {&dist.a, &dist.b}, log)) return false;
    if (!(dist.b > dist.a)) {
      d_.error(bp + "/high", DiagCode::out_of_range,
               "high (" + num(dist.b) + " s) must be greater than low (" + num(dist.a) + " s)");
      return false;
    }
    return true;
  }
  if (kind == "lognormal") {
    double median = 0, p90 = 0;
    if (!durations(body, bp, {"median", "p90"}, {&median, &p90}, true)) return false;
    if (!(p90 > median)) {
      d_.error(bp + "/p90", DiagCode::out_of_range,
               "p90 (" + num(p90) + " s) must be greater than the median (" + num(median) + " s)");
      return false;
    }
    // z of the 90th percentile of the standard normal: p90 = median * exp(1.2815515655446004 s).
    dist.kind = DistKind::lognormal;
    dist.median_s = median;
    dist.p90_s = p90;
    dist.a = std::log(median);
    dist.b = (std::log(p90) - std::log(median)) / 1.2815515655446004;
    return true;
  }
  if (kind == "empirical") return load_empirical(body, bp, dist);
  d_.unknown_name(bp, "distribution", kind, KINDS);
  return false;
}

bool Loader::load_empirical(const json& o, const std::string& p, Distribution& dist) {
  if (!object(o, p)) return false;
  check_keys(o, p, {"values", "weights"});
  const json* values = need(o, p, "values", "an array of durations");
  if (values == nullptr) return false;
  if (!values->is_array() || values->empty()) {
    wrong_type(*values, p + "/values", "a non-empty array of durations");
    return false;
  }
  bool ok = true;
  std::vector<std::pair<double, double>> vw;
  for (size_t k = 0; k < values->size(); ++k) {
    auto d = duration((*values)[k], child(p + "/values", k), true);
    ok = ok && d.has_value();
    vw.emplace_back(d.value_or(0), 1.0);
  }
  if (const json* w = get(o, "weights")) {
    if (!w->is_array() || w->size() != values->size()) {
      wrong_type(*w, p + "/weights",
                 "an array of " + std::to_string(values->size()) + " weights, one per value");
      return false;
    }
    double sum = 0;
    for (size_t k = 0; k < w->size(); ++k) {
      auto x = number((*w)[k], child(p + "/weights", k), 0, INF);
      ok = ok && x.has_value();
      vw[k].second = x.value_or(0);
      sum += x.value_or(0);
    }
    if (ok && !(sum > 0)) {
      d_.error(p + "/weights", DiagCode::out_of_range, "weights sum to 0; give some weight > 0");
      return false;
    }
  }
  if (!ok) return false;
  std::stable_sort(vw.begin(), vw.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  dist.kind = DistKind::empirical;
  for (const auto& [v, w] : vw) {
    dist.values.push_back(v);
    dist.weights.push_back(w);
  }
  return true;
}

void Loader::load_trace(const json& v, const std::string& p, JobClass& jc, bool pools_ok) {
  TraceFormat fmt;
  bool ok = true;
  std::string path_ptr = p;
  if (v.is_string()) {
    fmt.path = v.get<std::string>();
  } else if (v.is_object()) {
    check_keys(
        v, p,
        {"path", "sha256", "columns", "time_format", "time_unit", "rebase", "offset", "limit"});
    path_ptr = p + "/path";
    if (const json* x = need(v, p, "path",
                             "the CSV file: a name found on the data path, or a path relative "
                             "to the scenario file")) {
      auto s = string(*x, p + "/path");
      ok = s.has_value();
      if (s) fmt.path = *s;
    } else {
      ok = false;
    }
    if (const json* x = get(v, "sha256")) {
      auto s = string(*x, p + "/sha256");
      if (s && !is_sha256_hex(*s)) {
        d_.error(p + "/sha256", DiagCode::bad_unit,
                 "a SHA-256 is 64 hex digits (as `sha256sum FILE` prints), got " + describe(*x));
        s.reset();
      }
      ok = ok && s.has_value();
      if (s) fmt.sha256 = *s;
    }
    if (const json* c = get(v, "columns")) {
      if (object(*c, p + "/columns")) {
        check_keys(*c, p + "/columns", {"submit", "gpus", "duration"});
        for (auto [key, field] :
             {std::pair{"submit", &fmt.submit_column}, std::pair{"gpus", &fmt.gpus_column},
              std::pair{"duration", &fmt.duration_column}}) {
          if (const json* x = get(*c, key)) {
            auto s = name(*x, child(p + "/columns", key));
            ok = ok && s.has_value();
            if (s) *field = *s;
          }
        }
      } else {
        ok = false;
      }
    }
    if (const json* x = get(v, "time_format")) {
      auto k = enumerator<TimeFormat>(*x, p + "/time_format");
      ok = ok && k.has_value();
      if (k) fmt.time_format = *k;
    }
    if (const json* x = get(v, "time_unit")) {
      auto d = duration(*x, p + "/time_unit", true);
      ok = ok && d.has_value();
      if (d) fmt.time_scale = *d;
    }
    if (const json* x = get(v, "rebase")) {
      auto b = boolean(*x, p + "/rebase");
      ok = ok && b.has_value();
      if (b) fmt.rebase = *b;
    }
    if (const json* x = get(v, "offset")) {
      auto d = duration(*x, p + "/offset", false);
      ok = ok && d.has_value();
      if (d) fmt.offset_s = *d;
    }
    if (const json* x = get(v, "limit")) {
      auto n = integer(*x, p + "/limit", 1, std::numeric_limits<uint64_t>::max());
      ok = ok && n.has_value();
      if (n) fmt.limit = *n;
    }
  } else {
    wrong_type(v, p, "a CSV path or {\"path\": ..., \"columns\": {...}}");
    return;
  }
  if (ok && fmt.path.empty()) {
    d_.error(path_ptr, DiagCode::out_of_range, "the trace path must not be empty");
    ok = false;
  }
  if (!ok) return;
  const auto found = find_data_file(fmt.path, base_dir_, opts_.data_path, "trace file", p, d_);
  if (!found) return;
  fmt.path = *found;
  jc.trace = fmt;
  if (!opts_.read_traces) return;
  auto data = read_trace(fmt, p, d_);
  if (!data) return;
  jc.trace_rows = std::move(data->rows);
  jc.skipped_rows = data->skipped_rows;
  if (!pools_ok) return;
  const auto [cap, pool] = capacity(jc);
  if (pool == NONE) return;
  // Report the first offending row in file order, and how many there are.
  const TraceRow* first = nullptr;
  uint64_t n_bad = 0;
  for (const auto& r : jc.trace_rows) {
    if (r.gpus <= cap) continue;
    ++n_bad;
    if (first == nullptr || r.line < first->line) first = &r;
  }
  if (first != nullptr) {
    d_.add(Diagnostic{fmt.path,
                      static_cast<int>(first->line),
                      p,
                      DiagCode::infeasible,
                      "a job asks for " + std::to_string(first->gpus) + " GPUs, but " +
                          pool_text(cap, pool) + "; " + std::to_string(n_bad) +
                          " row(s) ask for more; add nodes, allow a larger pool, or set a "
                          "\"limit\"",
                      {}});
  }
}

void Loader::load_class_network(const json& o, const std::string& p, JobClass& jc) {
  if (const json* v = get(o, "comm_fraction")) {
    if (auto f = number(*v, p + "/comm_fraction", 0, 0.99)) jc.comm_fraction = *f;
  }
  const json* v = get(o, "training");
  if (v == nullptr) return;
  const std::string tp = p + "/training";
  if (!object(*v, tp, "a training description, e.g. {\"params\": \"70B\", \"step_time\": \"8s\"}"))
    return;
  check_keys(*v, tp,
             {"params", "tokens", "step_time", "batch_tokens", "precision", "mfu", "data_parallel",
              "overlap"});
  if (o.contains("comm_fraction"))
    d_.error(p + "/comm_fraction", DiagCode::out_of_range,
             "\"comm_fraction\" is for classes without \"training\"; the training description "
             "sets the communication share");
  TrainingSpec t;
  bool ok = true;
  if (const json* x = need(*v, tp, "params", "model parameters, e.g. \"70B\"")) {
    auto n = count_si(*x, tp + "/params");
    ok = ok && n.has_value();
    if (n) t.params = *n;
  } else {
    ok = false;
  }
  if (const json* x = get(*v, "tokens"); x != nullptr && !x->is_null()) {
    t.tokens = count_si(*x, tp + "/tokens");
    ok = ok && t.tokens.has_value();
  }
  if (const json* x = get(*v, "step_time")) {
    t.step_time_s = duration(*x, tp + "/step_time", true);
    ok = ok && t.step_time_s.has_value();
  }
  if (const json* x = get(*v, "batch_tokens")) {
    auto n = count_si(*x, tp + "/batch_tokens");
    ok = ok && n.has_value();
    if (n) t.batch_tokens = *n;
  }
  if (const json* x = get(*v, "precision")) {
    auto k = enumerator<Precision>(*x, tp + "/precision");
    ok = ok && k.has_value();
    if (k) t.precision = *k;
  }
  if (const json* x = get(*v, "mfu")) {
    auto f = number(*x, tp + "/mfu", 1e-3, 1);
    ok = ok && f.has_value();
    if (f) t.mfu = *f;
  }
  if (const json* x = get(*v, "data_parallel")) {
    auto b = boolean(*x, tp + "/data_parallel");
    ok = ok && b.has_value();
    if (b) t.data_parallel = *b;
  }
  if (const json* x = get(*v, "overlap")) {
    auto f = number(*x, tp + "/overlap", 0, 1);
    ok = ok && f.has_value();
    if (f) t.overlap = *f;
  }
  if (ok) jc.training = t;
}

// A class whose training sets tokens: its duration comes from the speed model, so it has no
// "duration" and exactly one GPU count.
void Loader::check_trained_class(const json& o, const std::string& p, const JobClass& jc) {
  if (o.contains("duration"))
    d_.error(p + "/duration", DiagCode::out_of_range,
             "\"duration\" cannot be used with \"training.tokens\": the speed model computes "
             "the duration; drop one of them");
  if (jc.gpus.values.size() > 1)
    d_.error(p + "/gpus", DiagCode::out_of_range,
             "a class with \"training.tokens\" trains one model on a fixed number of GPUs; "
             "give \"gpus\" as one number");
}

}  // namespace gpuplan::loading
