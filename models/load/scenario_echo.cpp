#include "models/load/scenario_echo.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>

#include "models/compile/compile_economics.h"
#include "models/input/field_reader.h"
#include "models/compile/network_plan.h"
#include "sim/core/checkpointing.h"
#include "topologies/builders.h"

namespace gpuplan {
namespace {

using json = nlohmann::json;

//! The scenario's word for `e` (models/input/names.h).
template <class E>
std::string name(E e) {
  return std::string(enum_name(e));
}

//! The scenario's words for `es`, in order.
template <class E>
json names(const std::vector<E>& es) {
  json out = json::array();
  for (E e : es) out.push_back(name(e));
  return out;
}

//! z of the standard normal's 90th percentile, as the loader uses it for lognormal p90.
constexpr double Z90 = 1.2815515655446004;
//! Seconds per year of an on-prem template's "life" (the loader's 365-day year).
constexpr double YEAR_S = 365 * 86400.0;

json distribution_json(DistKind kind, double a, double b, const std::vector<double>& values,
                       const std::vector<double>& weights, double median_s, double p90_s) {
  switch (kind) {
    case DistKind::fixed:
      return {{name(kind), a}};
    case DistKind::exponential:
      return {{name(kind), {{"mean", a}}}};
    case DistKind::uniform:
      return {{name(kind), {{"low", a}, {"high", b}}}};
    case DistKind::loguniform:
      return {{name(kind), {{"low", a}, {"high", b}}}};
    case DistKind::lognormal:
      // NOTE: the median and p90 as written, so a reload computes the same mu and sigma bit for
      // bit; scenarios built in memory (no median) fall back to the inverse of the loader's map.
      if (median_s > 0) return {{name(kind), {{"median", median_s}, {"p90", p90_s}}}};
      return {{name(kind), {{"median", std::exp(a)}, {"p90", std::exp(a + Z90 * b)}}}};
    case DistKind::empirical:
      return {{name(kind), {{"values", values}, {"weights", weights}}}};
  }
  return nullptr;
}

json distribution_json(const Distribution& d) {
  return distribution_json(d.kind, d.a, d.b, d.values, d.weights, d.median_s, d.p90_s);
}

json distribution_json(const DelaySpec& d) {
  return distribution_json(d.kind, d.a, d.b, d.values, d.weights, d.median_s, d.p90_s);
}

json instance_json(const InstanceType& it) {
  json prices = json::object();
  for (auto [key, price] : {std::pair{"on_demand", it.price_per_hour.on_demand},
                            std::pair{"reserved_1y", it.price_per_hour.reserved_1y},
                            std::pair{"reserved_3y", it.price_per_hour.reserved_3y},
                            std::pair{"spot", it.price_per_hour.spot},
                            std::pair{"on_prem", it.price_per_hour.on_prem}}) {
    if (price) prices[key] = *price;
  }
  json j = {{"id", it.id},
            {"provider", it.provider},
            {"gpu", it.gpu},
            {"gpus_per_node", it.gpus_per_node},
            {"nics", it.nics},
            {"nic_gbps", it.nic_gbps},
            {"price_per_hour", prices}};
  // NOTE: empty strings stay out: the loader's defaults (fabric "pcie") or nothing at all.
  for (auto [key, value] : {std::pair{"intra_node_fabric", &it.intra_node_fabric},
                            std::pair{"region", &it.region}, std::pair{"source", &it.source},
                            std::pair{"as_of", &it.as_of}, std::pair{"notes", &it.notes}}) {
    if (!value->empty()) j[key] = *value;
  }
  return j;
}

//! Inline instance types first, then every catalog type a pool or a recommendation names, so
//! the echo prices the run the same under a later catalog.
json instances_json(const Scenario& sc) {
  json out = json::array();
  std::set<std::string> written;
  for (const InstanceType& it : sc.instances)
    if (written.insert(it.id).second) out.push_back(instance_json(it));
  return out;
}

json on_prem_json(const economics::OnPremNode& n, std::optional<double> life_s) {
  return {{"server_capex", n.server_capex_usd},
          {"life", life_s.value_or(n.depreciation_years * YEAR_S)},
          {"idle_power_kw", n.idle_power_kw},
          {"max_power_kw", n.max_power_kw},
          {"pue", n.pue},
          {"usd_per_kwh", n.electricity_usd_per_kwh},
          {"colo_usd_per_kw_month", n.colo_usd_per_kw_month},
          {"network_capex_fraction", n.network_capex_fraction},
          {"staff_usd_per_node_year", n.staff_usd_per_node_year},
          {"utilization", n.utilization}};
}

json spot_json(const SpotConfig& sp, const Pool& pool) {
  json s = json::object();
  if (sp.discount) s["discount"] = *sp.discount;
  if (!sp.price_series.empty()) {
    json series = json::array();
    for (const economics::PricePoint& pt : sp.price_series)
      series.push_back({{"at", pt.t_s}, {"usd_per_hour", pt.usd_per_hour}});
    s["price_series"] = series;
  }
  if (sp.advisor_band) {
    s["advisor_band"] = name(*sp.advisor_band);
    s["_interruptions_per_node_hour"] = sp.hazard_per_node_hour;
  } else {
    s["interruptions_per_node_hour"] = sp.hazard_per_node_hour;
  }
  if (sp.wave_rate_per_hour > 0) {
    const double per_s = sp.wave_rate_per_s > 0 ? sp.wave_rate_per_s : sp.wave_rate_per_hour / 3600;
    s["waves"] = {{"rate", fields::num(per_s) + "/s"},
                  {"share", {{"beta", {sp.wave_alpha, sp.wave_beta}}}}};
  }
  s["notice"] = sp.notice_s.value_or(economics::preemption_notice_s(pool.econ.spot_rules));
  s["return_delay"] = distribution_json(sp.return_delay);
  return s;
}

json elastic_json(const ElasticConfig& el) {
  return {{"min", el.min_nodes},
          {"max", el.max_nodes},
          {"scale_out",
           {{"provisioning_delay", distribution_json(el.provisioning_delay)},
            {"when_queued_gpus_exceed", el.scale_out_queued_gpus}}},
          {"scale_in", {{"idle_timeout", el.idle_timeout_s}}}};
}

// "HH:MM" of a minute after midnight (1440 = "24:00").
std::string clock_text(uint32_t minute) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%02u:%02u", minute / 60, minute % 60);
  return buf;
}

json off_peak_json(const economics::OffPeakSchedule& s) {
  static const char* const DAYS[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
  json j = {{"discount", s.discount}};
  if (!s.hours.empty()) {
    json hours = json::array();
    for (const economics::OffPeakWindow& w : s.hours)
      hours.push_back(clock_text(w.from_min) + "-" + clock_text(w.to_min));
    j["hours"] = hours;
  }
  if (s.days != 0) {
    json days = json::array();
    for (uint32_t d = 0; d < 7; ++d)
      if ((s.days >> d) & 1u) days.push_back(DAYS[d]);
    j["days"] = days;
  }
  j["run_starts"] =
      std::string(DAYS[s.run_starts_min / 1440]) + " " + clock_text(s.run_starts_min % 1440);
  return j;
}

json maintenance_json(const std::vector<MaintenanceConfig>& windows) {
  json a = json::array();
  for (const MaintenanceConfig& w : windows) {
    json j = {{"start", w.start_s}, {"duration", w.duration_s}, {"first", w.first},
              {"nodes", w.nodes},   {"batch", w.batch},         {"drain", name(w.drain)}};
    if (w.every_s) j["every"] = *w.every_s;
    if (w.drain == DrainPolicy::wait) j["drain_ahead"] = w.drain_ahead_s;
    a.push_back(j);
  }
  return a;
}

json pool_json(const Pool& pool) {
  const PoolEconomics& e = pool.econ;
  json j = {{"name", pool.name},
            {"instance", pool.instance},
            {"pricing", name(pool.pricing)},
            {"billing", {{"granularity", name(e.granularity)}, {"minimum", e.billing_minimum_s}}},
            {"_price_per_node_hour", pool.price_per_node_hour}};
  // NOTE: an elastic pool's "count" is the nodes it starts with; its slots are "max".
  // A pool with purchases starts with "count" nodes; its slots are count + every purchase.
  const uint32_t count = e.elastic ? e.elastic->initial_nodes : pool.initial_count();
  if (count > 0) j["count"] = count;
  if (!pool.purchases.empty()) {
    json purchases = json::array();
    for (const PoolPurchase& b : pool.purchases)
      purchases.push_back({{"at", b.at_s}, {"add", b.add}});
    j["purchases"] = purchases;
  }
  if (pool.pricing == Pricing::reserved_1y || pool.pricing == Pricing::reserved_3y)
    j["upfront"] = name(e.upfront);
  if (e.on_prem) j["on_prem"] = on_prem_json(*e.on_prem, e.on_prem_life_s);
  if (e.spot && pool.pricing == Pricing::spot) j["spot"] = spot_json(*e.spot, pool);
  if (e.elastic) j["elastic"] = elastic_json(*e.elastic);
  if (e.off_peak) j["off_peak"] = off_peak_json(*e.off_peak);
  if (pool.spares > 0) j["spares"] = pool.spares;
  if (!pool.maintenance.empty()) j["maintenance"] = maintenance_json(pool.maintenance);
  const PoolSharing& ps = pool.sharing;  // docs/sharing.md, "In the engine"
  if (ps.kind == ShareKind::mig && ps.mig != nullptr) {
    json layout = json::array();
    for (uint32_t i = 0; i < ps.layout.n; ++i)
      layout.push_back(ps.mig->profiles[ps.layout.instances[i].profile_idx].name);
    j["mig"] = layout;
  } else if (ps.kind == ShareKind::time_sliced) {
    j["time_slicing"] = {{"replicas", ps.replicas}, {"interference", ps.interference}};
  } else if (ps.kind == ShareKind::fractional) {
    j["fractional"] = {{"packing", ps.packing == PackPolicy::worst_fit ? "worst_fit" : "best_fit"}};
  }
  return j;
}

json trace_json(const TraceFormat& t) {
  namespace fs = std::filesystem;
  // NOTE: absolute, because the echo is read from wherever it is saved (not the scenario's
  // folder); the loader resolves relative trace paths against the file's own folder.
  std::error_code ec;
  fs::path path = fs::absolute(t.path, ec);
  if (ec) path = t.path;
  json j = {
      {"path", path.lexically_normal().string()},
      {"columns",
       {{"submit", t.submit_column}, {"gpus", t.gpus_column}, {"duration", t.duration_column}}},
      {"time_format", name(t.time_format)},
      {"time_unit", t.time_scale},
      {"rebase", t.rebase},
      {"offset", t.offset_s}};
  if (t.limit) j["limit"] = *t.limit;
  if (!t.sha256.empty()) j["sha256"] = t.sha256;
  return j;
}

json training_json(const TrainingSpec& t) {
  json j = {
      {"params", t.params}, {"batch_tokens", t.batch_tokens},   {"precision", name(t.precision)},
      {"mfu", t.mfu},       {"data_parallel", t.data_parallel}, {"overlap", t.overlap}};
  if (t.tokens) j["tokens"] = *t.tokens;
  if (t.step_time_s) j["step_time"] = *t.step_time_s;
  return j;
}

json gpus_json(const GpuChoice& g) {
  if (g.values.size() == 1) return g.values[0];
  json choice = json::object();
  for (size_t k = 0; k < g.values.size(); ++k) choice[std::to_string(g.values[k])] = g.probs[k];
  return {{"choice", choice}};
}

//! The Young/Daly interval an "auto" checkpoint resolves to, per pool the class may use and
//! per gang size in nodes, as the engine computes it (sim/core/checkpointing.h); pools that
//! nothing interrupts are left out (they never checkpoint).
json auto_intervals_json(const Scenario& sc, const JobClass& jc) {
  json out = json::object();
  std::set<uint32_t> gpu_counts(jc.gpus.values.begin(), jc.gpus.values.end());
  for (const TraceRow& r : jc.trace_rows) gpu_counts.insert(r.gpus);
  ClassRunSpec ce;
  ce.checkpoints = true;
  ce.auto_interval = true;
  ce.checkpoint_s = jc.econ.checkpoint_s;
  for (size_t pool_idx = 0; pool_idx < sc.pools.size(); ++pool_idx) {
    const Pool& pool = sc.pools[pool_idx];
    if (!jc.may_use(pool_idx)) continue;
    const bool spot = pool.econ.spot && !(jc.pool_indices.empty() && !jc.econ.spot_tolerant);
    const double fail_per_gpu_s = sc.failures ? sc.failures->rate_per_gpu_s() : 0.0;
    if (!spot && !(fail_per_gpu_s > 0)) continue;
    const InstanceType* inst = &sc.instance_of(pool);
    if (inst->gpus_per_node == 0) continue;
    const SpotConfig sp = spot ? *pool.econ.spot : SpotConfig{};
    PoolSupplySpec pe;
    pe.hazard_per_node_s = spot ? sp.hazard_per_node_hour / 3600.0 : 0.0;
    if (spot && sp.wave_rate_per_hour > 0) {
      pe.wave_q_n = 1;
      pe.wave_rate_per_s = sp.wave_rate_per_hour / 3600.0;
      pe.wave_mean_fraction = sp.wave_alpha / (sp.wave_alpha + sp.wave_beta);
    }
    json per_gang = json::object();
    std::set<uint32_t> gangs;
    for (uint32_t g : gpu_counts) gangs.insert((g + inst->gpus_per_node - 1) / inst->gpus_per_node);
    for (uint32_t n : gangs) {
      const double interval =
          checkpoint_interval(ce, pe, n, fail_per_gpu_s * inst->gpus_per_node * n);
      if (interval < NEVER) per_gang[std::to_string(n) + (n == 1 ? "_node" : "_nodes")] = interval;
    }
    if (!per_gang.empty()) out[pool.name] = per_gang;
  }
  return out;
}

//! A rate profile's set parts; a CSV schedule is written inline (seconds), so the echo stands
//! alone.
json profile_json(const RateProfile& p, json out) {
  if (p.growth_per_month != 0) out["growth_per_month"] = p.growth_per_month;
  if (!p.weekly.empty()) out["weekly"] = p.weekly;
  if (!p.schedule.empty()) {
    json points = json::array();
    for (const ProfilePoint& pt : p.schedule)
      points.push_back({{"at", pt.at_s}, {"multiplier", pt.multiplier}});
    out["schedule"] = points;
  }
  return out;
}

json class_json(const Scenario& sc, const JobClass& jc) {
  json j = {{"name", jc.name}};
  if (!jc.description.empty()) j["description"] = jc.description;
  for (const uint32_t pool_idx : jc.pool_indices) j["pools"].push_back(sc.pools[pool_idx].name);
  if (jc.reference_gpu != nullptr) j["reference_gpu"] = jc.reference_gpu->id;
  // NOTE: speeds read from a Gavel file are echoed inline, so the echo runs without the file.
  for (const auto& [gpu, speed] : jc.gpu_speeds) j["speed"][gpu->id] = speed;
  if (jc.trace) {
    j["trace"] = trace_json(*jc.trace);
  } else {
    // With its unit, so a saved echo does not read as a bare number someone meant per hour.
    j["arrival"] = {{"poisson", {{"rate", fields::num(jc.rate_per_s) + "/s"}}}};
    if (!jc.profile.empty()) j["arrival"]["profile"] = profile_json(jc.profile, json::object());
    if (jc.share.kind == ShareKind::whole) j["gpus"] = gpus_json(jc.gpus);
    if (jc.share.kind == ShareKind::mig) j["mig"] = jc.share.mig_profile;
    if (jc.share.kind == ShareKind::time_sliced) j["gpu_share"] = "time_sliced";
    if (jc.share.kind == ShareKind::fractional) j["gpu_milli"] = jc.share.milli;
    if (jc.share.mem_mib > 0) j["gpu_memory"] = std::to_string(jc.share.mem_mib) + "MiB";
    if (jc.share.fraction != 1) j["gpu_fraction"] = jc.share.fraction;
    // NOTE: with training.tokens the speed model sets the duration, and "duration" is refused.
    if (!(jc.training && jc.training->tokens)) j["duration"] = distribution_json(jc.duration);
  }
  if (jc.training) j["training"] = training_json(*jc.training);
  if (jc.comm_fraction && !jc.training) j["comm_fraction"] = *jc.comm_fraction;
  const ClassEconomics& e = jc.econ;
  if (e.checkpoints) {
    json cp = {{"cost", e.checkpoint_s}, {"restart", e.restart_s}};
    cp["interval"] = e.auto_interval ? json("auto") : json(e.interval_s);
    j["checkpoint"] = cp;
    // NOTE: beside "checkpoint", not in it: the schema lets comment keys into a class, not there.
    if (e.auto_interval) j["_checkpoint_interval_s"] = auto_intervals_json(sc, jc);
  }
  if (jc.priority > 0) j["priority"] = jc.priority;
  if (!jc.team_name.empty()) j["team"] = jc.team_name;
  j["spot_tolerant"] = e.spot_tolerant;
  if (e.has_fallback) {
    j["spot_fallback"] = e.fallback_after_s
                             ? json{{"after", *e.fallback_after_s}, {"to", "on_demand"}}
                             : json("wait");
  }
  return j;
}

json scheduler_json(const SchedulerConfig& s) {
  json j = {{"queue", name(s.queue)}, {"placement", name(s.placement)}};
  // NOTE: the ranking keys are written only where they act, so echoes of older files stay as
  // they were.
  if (s.queue == QueuePolicy::las) {
    j["las"] = {{"thresholds", s.las_thresholds_gpu_s}, {"promote_knob", s.las_promote_knob}};
  }
  if (s.queue == QueuePolicy::max_min_fairness_perf) j["round"] = s.round_s;
  if (s.estimate_sigma > 0) j["estimate_error"] = s.estimate_sigma;
  if (!s.priority_preemption) j["priority_preemption"] = false;
  if (s.preemption_grace_s > 0) j["preemption_grace"] = s.preemption_grace_s;
  if (s.reclaim != ReclaimPolicy::any) j["reclaim"] = name(s.reclaim);
  return j;
}

//! The topology with the link bandwidth and latency the builder would default to written out;
//! sizes the builder derives from the cluster (spines and scalable units of a rail-optimized
//! fabric, one leaf for all nodes) stay unwritten, so they still follow the cluster.
json topology_json(const Scenario& sc) {
  const TopologyConfig& t = sc.topology;
  json j = {{"kind", name(t.kind)},
            {"latency", t.latency_s.value_or(topologies::NIC_LATENCY_S)},
            {"comm_fraction", t.comm_fraction}};
  const InstanceType* first = sc.pools.empty() ? nullptr : &sc.instance_of(sc.pools[0]);
  double link_default = first ? node_link_gbps(*first) : 100.0;
  if (t.kind == TopologyKind::rail_optimized) link_default = 400;
  if (t.kind == TopologyKind::tree_ring_hybrid) link_default = 100;
  if (t.link_gbps || t.kind != TopologyKind::custom) j["link"] = t.link_gbps.value_or(link_default);
  if (t.uplink_gbps) j["uplink"] = *t.uplink_gbps;
  switch (t.kind) {
    case TopologyKind::two_level_tree:
    case TopologyKind::leaf_spine:
      if (t.nodes_per_leaf > 0) j["nodes_per_leaf"] = t.nodes_per_leaf;
      if (!t.uplink_gbps) j["oversubscription"] = t.oversubscription;
      if (t.kind == TopologyKind::leaf_spine) j["spines"] = t.spines ? t.spines : 4;
      break;
    case TopologyKind::fat_tree:
      if (t.k > 0) j["k"] = t.k;
      break;
    case TopologyKind::rail_optimized:
      if (t.su > 0) j["su"] = t.su;
      if (t.spines > 0) j["spines"] = t.spines;
      j["nodes_per_su"] = t.nodes_per_su;
      break;
    case TopologyKind::tree_ring_hybrid:
      j["groups_per_switch"] = t.groups_per_switch;
      j["workers_per_group"] = t.workers_per_group;
      j["uplink"] = t.uplink_gbps.value_or(400);
      break;
    case TopologyKind::custom: {
      json vertices = json::array(), links = json::array();
      for (const CustomVertexSpec& v : t.vertices)
        vertices.push_back({{"name", v.name}, {"kind", v.kind}, {"level", v.level}});
      for (const CustomLinkSpec& l : t.links)
        links.push_back(
            {{"a", l.a}, {"b", l.b}, {"bandwidth", l.bandwidth_gbps}, {"latency", l.latency_s}});
      j["vertices"] = vertices;
      j["links"] = links;
      break;
    }
    case TopologyKind::none:
    case TopologyKind::single_switch:
      break;
  }
  return j;
}

json tco_json(const Scenario& sc, const TcoConfig& t) {
  json j = {
      {"years", t.years},
      {"demand_growth_per_month", t.demand_growth_per_month},
      {"discount_rate", t.discount_rate},
      {"compare", names(t.compare)},
      {"basis", name(t.accrual ? economics::CostBasis::accrual : economics::CostBasis::cash)}};
  if (t.on_prem_nodes) j["on_prem_nodes"] = *t.on_prem_nodes;
  if (t.hybrid_nodes) j["hybrid_nodes"] = *t.hybrid_nodes;
  if (t.owned_nodes > 0) j["owned_nodes"] = t.owned_nodes;
  if (t.buy_nodes) j["buy_nodes"] = *t.buy_nodes;
  if (t.reserve) j["reserve_nodes"] = t.reserve->nodes;
  j["fill_target"] = t.fill_target;
  if (t.server_pool_idx) j["server"] = sc.pools[*t.server_pool_idx].name;
  if (t.cloud) j["cloud"] = {{"instance", t.cloud->type.id}, {"pricing", name(t.cloud->pricing)}};
  return j;
}

json recommend_json(const Scenario& sc, const RecommendConfig& r) {
  json slos = json::array(), candidates = json::array();
  for (const RecommendSlo& s : r.slos) {
    json o = {{"metric", s.metric}};
    if (s.min) o["min"] = *s.min;
    if (s.max) o["max"] = *s.max;
    slos.push_back(o);
  }
  const auto pool_json = [&](const RecommendPool& c) {
    json instances = json::array();
    for (uint32_t k : c.instances) instances.push_back(sc.instances.at(k).id);
    return json{{"pool", sc.pools.at(c.pool_idx).name},
                {"instances", instances},
                {"pricing", names(c.pricing)},
                {"count", {{"min", c.count_min}, {"max", c.count_max}}}};
  };
  for (const RecommendCandidate& c : r.candidates) {
    json j = pool_json(c);
    if (!c.with.empty()) {
      j["with"] = json::array();
      for (const RecommendPool& w : c.with) j["with"].push_back(pool_json(w));
    }
    candidates.push_back(std::move(j));
  }
  json j = {{"slos", slos},
            {"probability", r.probability},
            {"replications", r.replications},
            {"candidates", candidates},
            {"slos_hold", std::string(enum_name(r.slos_hold))},
            {"purchases", r.purchases}};
  if (r.max_usd_per_month) j["max_usd_per_month"] = *r.max_usd_per_month;
  return j;
}

}  // namespace

//! The failure model as the engine runs it: the named table, or every cause with its rate per
//! GPU-hour (written "<number>/h" in shortest round-trip form, so a reload reads the same doubles)
//! and scope.
json failures_json(const FailureConfig& f) {
  json rates = json::object();
  for (const FailureCauseConfig& c : f.causes)
    rates[c.name] = {{"rate", fields::num(c.rate_per_gpu_hour) + "/h"}, {"scope", name(c.scope)}};
  return {{"rates", f.table.empty() ? rates : json(f.table)},
          {"scale", f.scale},
          {"repair", distribution_json(f.repair)}};
}

namespace {

//! The teams as written: quotas with their limits where set.
json teams_json(const std::vector<Team>& teams) {
  json out = json::array();
  for (const Team& t : teams) {
    json quota = json::object();
    for (const TeamFlavorQuota& q : t.quota) {
      json x = {{"nominal", q.nominal}};
      if (q.borrowing_limit) x["borrowing_limit"] = *q.borrowing_limit;
      if (q.lending_limit) x["lending_limit"] = *q.lending_limit;
      quota[q.flavor] = x;
    }
    json j = {{"name", t.name}, {"quota", quota}};
    if (!t.cohort.empty()) j["cohort"] = t.cohort;
    if (t.weight != 1) j["weight"] = t.weight;
    out.push_back(j);
  }
  return out;
}

}  // namespace

json effective_scenario_json(const Scenario& sc) {
  // NOTE: the version that wrote the echo travels with it (a comment key to the loader), so an
  // echo saved on its own still says which gpuplan to rerun it with.
  json j = {{"_gpuplan_version", GPUPLAN_VERSION},
            {"name", sc.name},
            {"seed", sc.seed},
            {"horizon", sc.horizon_s},
            {"warmup", sc.warmup_s},
            {"scheduler", scheduler_json(sc.scheduler)},
            {"limits",
             {{"max_active_jobs", sc.limits.max_active_jobs}, {"time_bins", sc.limits.time_bins}}}};
  if (!sc.description.empty()) j["description"] = sc.description;
  if (sc.statistics.arrivals_until_s > 0)
    j["statistics"]["arrivals_until"] = sc.statistics.arrivals_until_s;
  if (sc.statistics.end_job > 0)
    j["statistics"]["job_ids"] = {sc.statistics.first_job, sc.statistics.end_job};
  // NOTE: the work limits appear only where the scenario raised or lowered them.
  const Limits defaults;
  json& lim = j["limits"];
  if (sc.limits.max_events != defaults.max_events) lim["max_events"] = sc.limits.max_events;
  if (sc.limits.max_duration_s != defaults.max_duration_s)
    lim["max_duration"] = sc.limits.max_duration_s;
  if (sc.limits.max_topology_size != defaults.max_topology_size)
    lim["max_topology_size"] = sc.limits.max_topology_size;
  if (sc.limits.max_memory_bytes != defaults.max_memory_bytes)
    lim["max_memory"] = sc.limits.max_memory_bytes;
  if (sc.limits.max_profile_segments != defaults.max_profile_segments)
    lim["max_profile_segments"] = sc.limits.max_profile_segments;
  if (json inst = instances_json(sc); !inst.empty()) j["instances"] = inst;
  json pools = json::array(), workload = json::array();
  for (const Pool& pool : sc.pools) pools.push_back(pool_json(pool));
  for (const JobClass& jc : sc.workload) workload.push_back(class_json(sc, jc));
  j["pools"] = pools;
  j["workload"] = workload;
  if (sc.demand.load_scale != 1 || !sc.demand.profile.empty())
    j["demand"] = profile_json(sc.demand.profile, {{"load_scale", sc.demand.load_scale}});
  if (sc.topology.kind != TopologyKind::none) j["topology"] = topology_json(sc);
  if (sc.tco) j["tco"] = tco_json(sc, *sc.tco);
  if (sc.recommend) j["recommend"] = recommend_json(sc, *sc.recommend);
  if (sc.failures) j["failures"] = failures_json(*sc.failures);
  if (!sc.teams.empty()) j["teams"] = teams_json(sc.teams);
  // NOTE: the energy section as written (after --set), with the grid series at its resolved path
  // so the echo reloads from any folder; the staleness threshold only when it is not the default.
  if (sc.source.is_object() && sc.source.contains("energy")) {
    j["energy"] = sc.source["energy"];
    if (!sc.energy.grid_series_file.empty())
      j["energy"]["grid_series"] = sc.energy.grid_series_file;
  }
  if (sc.stale_after_months != 12) j["catalog"]["stale_after_months"] = sc.stale_after_months;
  return j;
}

}  // namespace gpuplan
