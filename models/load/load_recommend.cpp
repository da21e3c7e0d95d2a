#include "models/load/loader.h"

#include <algorithm>

#include "sim/mc_metrics.h"

namespace gpuplan::loading {

Loader::SloMetrics Loader::slo_metrics(const Scenario& sc) {
  MetricNames names;
  for (const Pool& pool : sc.pools) names.pools.push_back(pool.name);
  for (const JobClass& jc : sc.workload) names.classes.push_back(jc.name);
  if (sc.failures) {
    for (const FailureCauseConfig& c : sc.failures->causes) names.causes.push_back(c.name);
  }
  for (const Team& t : sc.teams) names.teams.push_back(t.name);
  SloMetrics out;
  for (MetricColumn& c : metric_columns(names)) {
    out.duration.push_back(c.unit == MetricUnit::seconds);
    out.paths.push_back(std::move(c.path));
  }
  return out;
}

void Loader::load_recommend(const json& o, Scenario& sc) {
  const std::string p = "/recommend";
  if (!object(o, p, "a recommendation request, e.g. {\"slos\": [...], \"candidates\": [...]}"))
    return;
  check_keys(o, p,
             {"slos", "probability", "candidates", "replications", "max_usd_per_month", "slos_hold",
              "purchases"});
  RecommendConfig r;
  const SloMetrics metrics = slo_metrics(sc);
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
  if (auto x = opt_number(o, p, "max_usd_per_month", 0, INF)) r.max_usd_per_month = *x;
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
  load_recommend_period(o, p, sc, r);
  sc.recommend = std::move(r);
}

void Loader::load_recommend_period(const json& o, const std::string& p, const Scenario& sc,
                                   RecommendConfig& r) {
  // NOTE: under growth a whole-window figure hides the last months, where the fleet runs out.
  const bool grows = sc.demand.profile.growth_per_month > 0 ||
                     std::any_of(sc.workload.begin(), sc.workload.end(),
                                 [](const JobClass& c) { return c.profile.growth_per_month > 0; });
  r.slos_hold = grows ? SloPeriod::every_month : SloPeriod::over_window;
  if (const json* v = get(o, "slos_hold")) {
    if (auto k = enumerator<SloPeriod>(*v, p + "/slos_hold")) r.slos_hold = *k;
  }
  r.purchases = r.slos_hold == SloPeriod::every_month;
  if (const json* v = get(o, "purchases")) {
    if (auto b = boolean(*v, p + "/purchases")) r.purchases = *b;
    if (r.purchases && r.slos_hold != SloPeriod::every_month)
      d_.error(p + "/purchases", DiagCode::out_of_range,
               "a purchase schedule is sized month by month; set \"slos_hold\": \"every_month\" "
               "or drop \"purchases\"");
  }
  if (!r.purchases) return;
  for (std::size_t i = 0; i < r.candidates.size(); ++i) {
    if (r.candidates[i].pool_idx >= sc.pools.size()) continue;
    const Pool& pool = sc.pools[r.candidates[i].pool_idx];
    if (pool.econ.elastic)
      d_.error(child(p + "/candidates", i) + "/pool", DiagCode::out_of_range,
               "pool " + in_quotes(pool.name) +
                   " is elastic: it scales by itself, so it has no purchase schedule; size a "
                   "fixed pool or set \"purchases\": false");
  }
}

void Loader::load_slo(const json& o, const std::string& p, const SloMetrics& metrics,
                      RecommendConfig& r) {
  if (!object(o, p, "an SLO, e.g. {\"metric\": \"metrics.wait_s.p90\", \"max\": \"2h\"}")) return;
  check_keys(o, p, {"metric", "min", "max"});
  RecommendSlo slo;
  const json* m = need(o, p, "metric", "a metric path, e.g. \"metrics.wait_s.p90\"");
  if (m == nullptr) return;
  auto k = choice(*m, p + "/metric", "metric", metrics.paths);
  if (!k) return;
  slo.metric = metrics.paths[*k];
  // NOTE: the bounds of a duration read like every duration ("2h").
  const bool is_duration = metrics.duration[*k];
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
  check_keys(o, p, {"pool", "instances", "pricing", "count", "with"});
  RecommendCandidate c;
  load_recommend_pool(o, p, sc, c);
  if (const json* v = get(o, "with")) {
    if (!v->is_array()) {
      wrong_type(*v, p + "/with",
                 "an array of pools sized with this one, e.g. [{\"pool\": \"onprem\", "
                 "\"count\": {\"min\": 32, \"max\": 40}}]");
    } else {
      for (size_t i = 0; i < v->size(); ++i) {
        const std::string wp = child(p + "/with", i);
        if (!object((*v)[i], wp, "a pool sized with the candidate, e.g. {\"pool\": \"onprem\"}"))
          continue;
        check_keys((*v)[i], wp, {"pool", "instances", "pricing", "count"});
        RecommendPool w;
        // NOTE: a "with" pool without "count" keeps the scenario's count: a fixed part.
        if (!(*v)[i].contains("count")) w.count_min = w.count_max = UINT32_MAX;
        load_recommend_pool((*v)[i], wp, sc, w);
        if (w.count_min == UINT32_MAX)
          w.count_min = w.count_max = w.pool_idx < sc.pools.size() ? sc.pools[w.pool_idx].count : 1;
        const bool repeated =
            w.pool_idx == c.pool_idx ||
            std::any_of(c.with.begin(), c.with.end(),
                        [&](const RecommendPool& x) { return x.pool_idx == w.pool_idx; });
        if (repeated) {
          d_.error(wp + "/pool", DiagCode::out_of_range,
                   "pool " + in_quotes(sc.pools[w.pool_idx].name) +
                       " is already sized by this candidate; name each pool once");
          continue;
        }
        c.with.push_back(std::move(w));
      }
    }
  }
  double combos = double(c.instances.size() * c.pricing.size());
  for (const RecommendPool& w : c.with)
    combos *= double(w.instances.size() * w.pricing.size()) *
              (w.count_max >= w.count_min ? w.count_max - w.count_min + 1.0 : 1.0);
  if (combos > MAX_RECOMMEND_OPTIONS) {
    d_.error(p + "/with", DiagCode::out_of_range,
             "this candidate makes " + num(combos) + " configurations to search (instances x " +
                 "pricings x every count of each \"with\" pool), more than " +
                 num(MAX_RECOMMEND_OPTIONS) + "; narrow the \"with\" count ranges");
  }
  r.candidates.push_back(std::move(c));
}

void Loader::load_recommend_pool(const json& o, const std::string& p, Scenario& sc,
                                 RecommendPool& c) {
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
  if (const json* v = get(o, "instances")) {
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
        if (!inst->gpu_fraction.empty()) {
          d_.error(ip, DiagCode::infeasible,
                   "instance type " + in_quotes(inst->id) + " holds " + inst->gpu_fraction +
                       " of one " + inst->gpu + " (a fractional vGPU); candidates need whole GPUs");
          continue;
        }
        insts.push_back(inst);
        c.instances.push_back(resolve_instance(*inst, sc));
      }
    }
  } else if (pool != nullptr) {
    // NOTE: no "instances": the pool's own type (e.g. an on-prem pool sized beside a cloud one).
    c.instances.push_back(pool->instance_idx);
    if (const InstanceType* inst = catalog_.find_instance(pool->instance)) insts.push_back(inst);
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
                     "instance type " + in_quotes(inst->id) + " has no " + PRICINGS[*k] + " price" +
                         (inst->priced() ? std::string()
                                         : " (the catalog has no dated public price for it)") +
                         "; drop it from this candidate or supply the price: {\"id\": " +
                         in_quotes(inst->id) + ", \"price_per_hour\": {\"" + PRICINGS[*k] +
                         "\": ...}} in the scenario's \"instances\", or a catalog overlay");
          }
        }
        c.pricing.push_back(static_cast<Pricing>(*k));
      }
    }
  } else if (pool != nullptr) {
    c.pricing.push_back(pool->pricing);
  }
  if (const json* v = get(o, "count")) {
    if (object(*v, p + "/count", "a node range, e.g. {\"min\": 0, \"max\": 64}")) {
      check_keys(*v, p + "/count", {"min", "max"});
      // NOTE: count.min 0 tries the configuration without this pool ("add nothing").
      if (const json* x = get(*v, "min")) {
        if (auto n = integer(*x, p + "/count/min", 0, 1000000)) c.count_min = uint32_t(*n);
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
}

}  // namespace gpuplan::loading
