#include "models/load/load.h"

#include <algorithm>
#include <filesystem>

#include "models/input/input_file.h"
#include "models/input/jsonc.h"
#include "models/load/loader.h"
#include "models/load/scenario_override.h"
#include "sim/core/scheduler_spec.h"

namespace gpuplan {
namespace loading {

const std::vector<std::string> TOP_KEYS = {
    "$schema", "name",     "description", "seed",   "horizon", "warmup",      "instances",
    "pools",   "workload", "scheduler",   "limits", "tco",     "topology",    "recommend",
    "demand",  "catalog",  "failures",    "teams",  "energy",  "throughputs", "statistics"};

Scenario Loader::load(const json& root, const std::string& default_name) {
  Scenario sc;
  const size_t errors_before = d_.size() + d_.dropped();
  if (!root.is_object()) {
    d_.error("", DiagCode::wrong_type, "a scenario is a JSON object, got " + describe(root));
    return sc;
  }
  check_keys(root, "", TOP_KEYS);
  sc.name = default_name;
  if (const json* v = get(root, "name")) {
    if (auto s = string(*v, "/name")) {
      const bool control = std::any_of(s->begin(), s->end(),
                                       [](char c) { return static_cast<unsigned char>(c) < 0x20; });
      if (s->size() > MAX_NAME_BYTES) {
        (void)name(*v, "/name");  // records the length limit
      } else if (s->empty() || *s == "." || *s == ".." || control ||
                 s->find_first_of("/\\") != std::string::npos) {
        d_.error("/name", DiagCode::out_of_range,
                 "name " + in_quotes(escape_for_message(*s)) +
                     " names the output folder out/<name>/, so it must be non-empty, not \".\" "
                     "or \"..\", and contain no '/', '\\' or control characters");
      } else {
        sc.name = *s;
      }
    }
  }
  if (const json* v = get(root, "description"))
    sc.description = string(*v, "/description").value_or("");
  if (const json* v = get(root, "seed")) {
    if (auto s = integer(*v, "/seed", 0, std::numeric_limits<uint64_t>::max())) sc.seed = *s;
  }
  std::optional<double> horizon;
  if (const json* v = need(root, "", "horizon", "the simulated time, e.g. \"30d\"")) {
    horizon = duration(*v, "/horizon", true);
    if (horizon) sc.horizon_s = *horizon;
  }
  if (const json* v = get(root, "warmup")) {
    if (auto w = duration(*v, "/warmup", false)) {
      if (horizon && *w >= *horizon) {
        d_.error("/warmup", DiagCode::out_of_range,
                 "warmup (" + num(*w) + " s) must be shorter than the horizon (" + num(*horizon) +
                     " s), or no job would be counted");
      } else {
        sc.warmup_s = *w;
      }
    }
  }
  if (const json* v = get(root, "statistics")) load_statistics(*v, sc);  // after horizon, warmup
  catalog_ = builtin_catalog();
  if (const json* v = get(root, "catalog")) load_catalog(*v);
  sc.stale_after_months = stale_after_months_;
  if (const json* v = get(root, "instances")) load_instances(*v, sc);
  if (const json* v = need(root, "", "pools", "at least one pool of nodes")) load_pools(*v, sc);
  if (const json* v = need(root, "", "workload", "at least one job class")) {
    load_workload(*v, sc);
  }
  load_throughputs(get(root, "throughputs"), sc);  // after pools and workload
  if (const json* v = get(root, "demand")) load_demand(*v, sc);
  if (const json* v = get(root, "scheduler")) load_scheduler(*v, sc);
  check_spot_eligibility(sc);
  if (const json* v = get(root, "tco")) load_tco(*v, sc);
  if (const json* v = get(root, "limits")) load_limits(*v, sc);
  if (const json* v = get(root, "topology")) load_topology(*v, sc);
  // Before recommend: SLOs may name per-team and per-cause metrics.
  load_teams(get(root, "teams"), sc);
  load_failures(get(root, "failures"), sc);
  if (sc.scheduler.queue == QueuePolicy::fair_share && sc.teams.empty()) {
    const json* sched = get(root, "scheduler");
    d_.error(sched && get(*sched, "policy") ? "/scheduler/policy" : "/scheduler/queue",
             DiagCode::out_of_range,
             "\"fair_share\" shares the cluster between teams; add a \"teams\" section with each "
             "class's \"team\" (docs/teams.md), or choose another policy");
  }
  if (const json* v = get(root, "recommend")) load_recommend(*v, sc);
  check_sharing(sc);  // after pools, classes, scheduler, teams and failures (load_sharing.cpp)
  if (const json* v = get(root, "energy")) load_energy(*v, sc);
  // NOTE: the derived limits read finished values, so they are checked only when all are valid.
  if (d_.size() + d_.dropped() == errors_before) check_limits(sc);
  return sc;
}

void Loader::load_scheduler(const json& o, Scenario& sc) {
  if (!object(o, "/scheduler")) return;
  check_keys(o, "/scheduler",
             {"queue", "policy", "placement", "las", "estimate_error", "priority_preemption",
              "reclaim", "preemption_grace", "round"});
  SchedulerConfig& s = sc.scheduler;
  if (const json* v = get(o, "queue")) {
    if (auto q = enumerator<QueuePolicy>(*v, "/scheduler/queue")) s.queue = *q;
  }
  // NOTE: `policy` wins over `queue`, so `--set scheduler.policy=...` (and sweeps over it) work
  // on any file, whichever of the two it spells.
  if (const json* v = get(o, "policy")) {
    if (auto q = enumerator<QueuePolicy>(*v, "/scheduler/policy")) s.queue = *q;
  }
  if (const json* v = get(o, "placement")) {
    if (auto pl = enumerator<Placement>(*v, "/scheduler/placement")) s.placement = *pl;
  }
  if (const json* v = get(o, "estimate_error"))
    s.estimate_sigma = number(*v, "/scheduler/estimate_error", 0, 5).value_or(0);
  if (const json* v = get(o, "priority_preemption"))
    s.priority_preemption = boolean(*v, "/scheduler/priority_preemption").value_or(true);
  if (const json* v = get(o, "preemption_grace"))
    s.preemption_grace_s = duration(*v, "/scheduler/preemption_grace", false).value_or(0);
  if (const json* v = get(o, "las")) load_las(*v, s);
  if (const json* v = get(o, "round"))  // max_min_fairness_perf's round (Gavel: 6 min)
    s.round_s = duration(*v, "/scheduler/round", true).value_or(s.round_s);
  if (const json* v = get(o, "reclaim")) {
    if (auto r = enumerator<ReclaimPolicy>(*v, "/scheduler/reclaim")) s.reclaim = *r;
  }
}

void Loader::load_las(const json& o, SchedulerConfig& s) {
  const std::string p = "/scheduler/las";
  if (!object(o, p)) return;
  check_keys(o, p, {"thresholds", "promote_knob"});
  if (const json* v = get(o, "promote_knob"))
    s.las_promote_knob = number(*v, p + "/promote_knob", 0, 1e6).value_or(0);
  const json* th = get(o, "thresholds");
  if (!th) return;
  const std::string tp = p + "/thresholds";
  if (!th->is_array() || th->empty() || th->size() >= MAX_LAS_QUEUES) {
    d_.error(tp, DiagCode::out_of_range,
             "expected 1 to " + std::to_string(MAX_LAS_QUEUES - 1) +
                 " attained GPU-time thresholds, e.g. [\"1h\", \"10h\"] (GPU-hours)");
    return;
  }
  s.las_thresholds_gpu_s.clear();
  for (size_t i = 0; i < th->size(); ++i) {
    const std::string ip = tp + "/" + std::to_string(i);
    const std::optional<double> d = duration((*th)[i], ip, true);
    if (!d) continue;
    if (!s.las_thresholds_gpu_s.empty() && *d <= s.las_thresholds_gpu_s.back()) {
      d_.error(ip, DiagCode::out_of_range,
               "thresholds must increase; " + num(*d) + " GPU-s is not above the one before");
      continue;
    }
    s.las_thresholds_gpu_s.push_back(*d);
  }
}

}  // namespace loading

namespace {

namespace fs = std::filesystem;

}  // namespace

const std::vector<std::string>& scenario_keys() {
  return loading::TOP_KEYS;
}

std::optional<std::string> read_scenario_file(const std::string& path, Diagnostics& diags) {
  return read_input_file(path, MAX_DOCUMENT_BYTES, "scenario file", "", diags);
}

std::optional<Scenario> load_scenario(const std::string& path, const LoadOptions& opts,
                                      Diagnostics& diags) {
  const auto text = read_scenario_file(path, diags);
  if (!text) return std::nullopt;
  return load_scenario_text(*text, path, fs::path(path).parent_path().string(), opts, diags);
}

std::optional<Scenario> load_scenario_text(std::string_view text, const std::string& file,
                                           const std::string& base_dir, const LoadOptions& opts,
                                           Diagnostics& diags) {
  const size_t errors_before = diags.size() + diags.dropped();
  diags.set_file(file);
  auto doc = parse_jsonc(text, file, diags);
  if (!doc) return std::nullopt;
  // NOTE: the line table lives in `doc`; detach it from `diags` on every way out.
  struct Detach {
    Diagnostics& d;
    ~Detach() { d.set_lines(nullptr); }
  } detach{diags};
  diags.set_lines(&doc->lines);

  for (const auto& spec : opts.overrides) apply_override(doc->value, spec, diags);

  std::string default_name = fs::path(file).stem().string();
  if (default_name.empty()) default_name = "scenario";
  Scenario sc;
  try {
    sc = loading::Loader(diags, base_dir, opts).load(doc->value, default_name);
  } catch (const std::bad_alloc&) {
    throw;  // not a fault of one value: the CLI reports it as out of memory (exit 3)
  } catch (const std::exception& e) {
    // NOTE: every value is type-checked before use, so this is a safety net, not a path.
    diags.error("", DiagCode::wrong_type, std::string("unexpected value: ") + e.what());
  }
  if (diags.size() + diags.dropped() > errors_before) return std::nullopt;
  sc.file = file;
  sc.source = std::move(doc->value);
  return sc;
}

}  // namespace gpuplan
