#include "models/loader.h"

namespace gpuplan::loading {

// The metric paths an SLO may name: those of sim/mc_metrics.h metric_paths() for this scenario.
std::vector<std::string> Loader::slo_metric_paths(const Scenario& sc) {
  static const char* const DURATION_KEYS[] = {"mean", "p50", "p90", "p99"};
  std::vector<std::string> p = {"metrics.jobs_completed",   "metrics.gpu_utilization",
                                "metrics.mean_queued_jobs", "metrics.mean_jobs_in_system",
                                "cost_usd.total",           "cost_usd.per_gpu_hour"};
  for (const char* k : DURATION_KEYS) {
    p.push_back(std::string("metrics.wait_s.") + k);
    p.push_back(std::string("metrics.jct_s.") + k);
  }
  for (const Pool& pool : sc.pools) p.push_back("per_pool." + pool.name + ".gpu_utilization");
  for (const JobClass& jc : sc.workload) {
    p.push_back("per_class." + jc.name + ".jobs_completed");
    for (const char* k : DURATION_KEYS) {
      p.push_back("per_class." + jc.name + ".wait_s." + k);
      p.push_back("per_class." + jc.name + ".jct_s." + k);
    }
  }
  return p;
}

void Loader::load_recommend(const json& o, Scenario& sc) {
  const std::string p = "/recommend";
  if (!object(o, p, "a recommendation request, e.g. {\"slos\": [...], \"candidates\": [...]}"))
    return;
  check_keys(o, p, {"slos", "probability", "candidates", "replications"});
  RecommendConfig r;
  const std::vector<std::string> metrics = slo_metric_paths(sc);
  if (const json* v = need(o, p, "slos",
                           "at least one SLO, e.g. {\"metric\": "
                           "\"metrics.wait_s.p90\", \"max\": \"2h\"}")) {
    if (!v->is_array() || v->empty()) {
      wrong_type(*v, p + "/slos", "a non-empty array of SLOs");
    } else {
      for (size_t i = 0; i < v->size(); ++i) load_slo((*v)[i], child(p + "/slos", i), metrics, r);
    }
  }
  if (auto x = opt_number(o, p, "probability", 1e-9, 1)) r.probability = *x;
  if (const json* v = get(o, "replications")) {
    if (auto n = integer(*v, p + "/replications", 1, 100000)) r.replications = uint32_t(*n);
  }
  if (const json* v = need(o, p, "candidates",
                           "pools to size, e.g. {\"pool\": \"main\", "
                           "\"instances\": [\"p4d.24xlarge\"]}")) {
    if (!v->is_array() || v->empty()) {
      wrong_type(*v, p + "/candidates", "a non-empty array of candidates");
    } else {
      for (size_t i = 0; i < v->size(); ++i)
        load_candidate((*v)[i], child(p + "/candidates", i), sc, r);
    }
  }
  sc.recommend = std::move(r);
}

void Loader::load_slo(const json& o, const std::string& p, const std::vector<std::string>& metrics,
                      RecommendConfig& r) {
  if (!object(o, p, "an SLO, e.g. {\"metric\": \"metrics.wait_s.p90\", \"max\": \"2h\"}")) return;
  check_keys(o, p, {"metric", "min", "max"});
  RecommendSlo slo;
  const json* m = need(o, p, "metric", "a metric path, e.g. \"metrics.wait_s.p90\"");
  if (m == nullptr) return;
  auto k = choice(*m, p + "/metric", "metric", metrics);
  if (!k) return;
  slo.metric = metrics[*k];
  // NOTE: *_s.* metrics are durations, so their bounds read like every duration ("2h").
  const bool is_duration = slo.metric.find("_s.") != std::string::npos;
  for (auto [key, field] : {std::pair{"min", &slo.min}, std::pair{"max", &slo.max}}) {
    if (const json* v = get(o, key)) {
      *field =
          is_duration ? duration(*v, child(p, key), false) : number(*v, child(p, key), -INF, INF);
    }
  }
  if (!o.contains("min") && !o.contains("max")) {
    d_.error(p, DiagCode::missing_key,
             "an SLO needs \"min\" or \"max\" (e.g. \"max\": \"2h\" or \"min\": 0.7)");
    return;
  }
  if (slo.min && slo.max && *slo.min > *slo.max) {
    d_.error(p + "/min", DiagCode::out_of_range,
             "min (" + num(*slo.min) + ") is above max (" + num(*slo.max) +
                 "), so no configuration can meet this SLO; swap them");
    return;
  }
  r.slos.push_back(std::move(slo));
}

void Loader::load_candidate(const json& o, const std::string& p, Scenario& sc, RecommendConfig& r) {
  if (!object(o, p, "a candidate, e.g. {\"pool\": \"main\", \"instances\": [...]}")) return;
  check_keys(o, p, {"pool", "instances", "pricing", "count"});
  RecommendCandidate c;
  std::vector<std::string> pools;
  for (const Pool& pool : sc.pools) pools.push_back(pool.name);
  const Pool* pool = nullptr;
  if (const json* v = need(o, p, "pool", "the pool to size, e.g. \"main\"")) {
    if (auto k = choice(*v, p + "/pool", "pool", pools)) {
      pool = &sc.pools[*k];
      c.pool_idx = static_cast<uint32_t>(*k);
    }
  }
  std::vector<std::string> instance_ids;
  for (const auto& it : catalog_.instances) instance_ids.push_back(it.id);
  std::vector<const InstanceType*> insts;
  if (const json* v = need(o, p, "instances", "instance type ids, e.g. [\"p4d.24xlarge\"]")) {
    if (!v->is_array() || v->empty()) {
      wrong_type(*v, p + "/instances", "a non-empty array of instance type ids");
    } else {
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string ip = child(p + "/instances", i);
        auto s = string((*v)[i], ip);
        if (!s) continue;
        const InstanceType* inst = catalog_.find_instance(*s);
        if (inst == nullptr) {
          d_.unknown_name(ip, "instance type", *s, instance_ids);
          continue;
        }
        insts.push_back(inst);
        c.instances.push_back(resolve_instance(*inst, sc));
      }
    }
  }
  if (const json* v = get(o, "pricing")) {
    if (!v->is_array() || v->empty()) {
      wrong_type(*v, p + "/pricing", "a non-empty array of pricings, e.g. [\"on_demand\"]");
    } else {
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string pp = child(p + "/pricing", i);
        auto k = choice((*v)[i], pp, "pricing", PRICINGS);
        if (!k) continue;
        for (const InstanceType* inst : insts) {
          if (!price_of(inst->price_per_hour, static_cast<Pricing>(*k))) {
            d_.error(pp, DiagCode::unknown_name,
                     "instance type " + in_quotes(inst->id) + " has no " + PRICINGS[*k] +
                         " price; drop it from this candidate or price it inline");
          }
        }
        c.pricing.push_back(static_cast<Pricing>(*k));
      }
    }
  } else if (pool != nullptr) {
    c.pricing.push_back(pool->pricing);
  }
  if (const json* v = get(o, "count")) {
    if (object(*v, p + "/count", "a node range, e.g. {\"min\": 1, \"max\": 64}")) {
      check_keys(*v, p + "/count", {"min", "max"});
      if (const json* x = get(*v, "min")) {
        if (auto n = integer(*x, p + "/count/min", 1, 1000000)) c.count_min = uint32_t(*n);
      }
      if (const json* x = get(*v, "max")) {
        if (auto n = integer(*x, p + "/count/max", 1, 1000000)) c.count_max = uint32_t(*n);
      }
      if (c.count_min > c.count_max) {
        d_.error(p + "/count/min", DiagCode::out_of_range,
                 "count.min (" + std::to_string(c.count_min) + ") is above count.max (" +
                     std::to_string(c.count_max) + "); make min <= max");
      }
    }
  }
  r.candidates.push_back(std::move(c));
}

}  // namespace gpuplan::loading
