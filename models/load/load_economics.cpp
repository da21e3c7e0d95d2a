#include "models/load/loader.h"

#include <algorithm>
#include <cmath>

namespace gpuplan::loading {

// True when the pool's own keys price it, so the instance type needs no such catalog price.
bool Loader::priced_by_keys(const json& o, Pricing pricing) {
  if (pricing == Pricing::on_prem) return o.contains("on_prem");
  if (pricing != Pricing::spot) return false;
  const json* spot = get(o, "spot");
  return spot != nullptr && spot->is_object() &&
         (spot->contains("discount") || spot->contains("price_series"));
}

// A delay distribution (any duration distribution) into `out`.
bool Loader::delay(const json& v, const std::string& p, DelaySpec& out) {
  Distribution d;
  if (!load_distribution(v, p, d)) return false;
  out = DelaySpec{d.kind, d.a, d.b, d.values, d.weights, d.median_s, d.p90_s};
  return true;
}

// Reads a pool's economics keys; may set its price (spot discount or series, on-prem
// template) and, for an elastic pool, its node count (the maximum).
void Loader::load_pool_economics(const json& o, const std::string& p, Pricing pricing,
                                 const InstanceType* inst, std::optional<uint64_t>& count,
                                 Pool& pool) {
  PoolEconomics& e = pool.econ;
  if (inst != nullptr) {
    e.spot_rules =
        parse_enum<economics::SpotProvider>(inst->provider).value_or(economics::SpotProvider::aws);
    e.on_demand_per_node_hour = inst->price_per_hour.on_demand.value_or(0);
  }
  if (const json* v = get(o, "billing")) load_billing(*v, p + "/billing", e);
  const bool reserved = pricing == Pricing::reserved_1y || pricing == Pricing::reserved_3y;
  if (const json* v = get(o, "upfront")) {
    if (!reserved) {
      d_.error(p + "/upfront", DiagCode::out_of_range,
               "\"upfront\" applies to reserved pools; set \"pricing\" to \"reserved_1y\" or "
               "\"reserved_3y\", or remove it");
    } else if (auto u = enumerator<Upfront>(*v, p + "/upfront")) {
      e.upfront = *u;
    }
  }
  if (reserved) {
    // NOTE: the catalog gives one effective reserved rate per node-hour; the upfront option
    // splits it into upfront and hourly parts with the same effective rate (cash timing in TCO).
    const double term_years = pricing == Pricing::reserved_1y ? 1.0 : 3.0;
    const double eff = pool.price_per_node_hour;
    const double share = e.upfront == Upfront::all       ? 1.0
                         : e.upfront == Upfront::partial ? 0.5
                                                         : 0.0;
    e.reserved = economics::ReservedOffer{
        term_years, eff * share * term_years * economics::HOURS_PER_YEAR, eff * (1.0 - share)};
  }
  if (const json* v = get(o, "on_prem")) {
    if (pricing != Pricing::on_prem) {
      d_.error(p + "/on_prem", DiagCode::out_of_range,
               "an \"on_prem\" server template needs \"pricing\": \"on_prem\"");
    } else {
      load_on_prem(*v, p + "/on_prem", inst, pool);
    }
  }
  if (const json* v = get(o, "spot")) {
    if (pricing != Pricing::spot) {
      d_.error(p + "/spot", DiagCode::out_of_range, "\"spot\" settings need \"pricing\": \"spot\"");
    } else {
      load_spot(*v, p + "/spot", pool);
    }
  } else if (pricing == Pricing::spot) {
    e.spot = SpotConfig{};
    e.spot->hazard_per_node_hour = 0;
  }
  if (const json* v = get(o, "elastic")) {
    if (pricing != Pricing::on_demand && pricing != Pricing::spot) {
      d_.error(p + "/elastic", DiagCode::out_of_range,
               "a " + std::string(enum_name(pricing)) +
                   " pool is paid for whether used or not, so it cannot scale; elastic pools "
                   "use \"on_demand\" or \"spot\" pricing");
    } else {
      load_elastic(*v, p + "/elastic", count, pool);
    }
  }
}

void Loader::load_billing(const json& o, const std::string& p, PoolEconomics& e) {
  if (!object(o, p, "{\"granularity\": \"second\", \"minimum\": \"60s\"}")) return;
  check_keys(o, p, {"granularity", "minimum"});
  if (const json* v = get(o, "granularity")) {
    if (auto g = enumerator<economics::BillingGranularity>(*v, p + "/granularity"))
      e.granularity = *g;
  }
  if (const json* v = get(o, "minimum")) {
    if (auto d = duration(*v, p + "/minimum", false)) e.billing_minimum_s = *d;
  }
}

void Loader::load_on_prem(const json& o, const std::string& p, const InstanceType* inst,
                          Pool& pool) {
  if (!object(o, p, "a server template, e.g. {\"server_capex\": 300000, \"max_power_kw\": 10.2}"))
    return;
  check_keys(o, p,
             {"server_capex", "life", "idle_power_kw", "max_power_kw", "pue", "usd_per_kwh",
              "colo_usd_per_kw_month", "network_capex_fraction", "staff_usd_per_node_year",
              "utilization"});
  economics::OnPremNode n;
  bool ok = true;
  if (const json* v = need(o, p, "server_capex", "purchase price of one server [USD]")) {
    auto x = number(*v, p + "/server_capex", 0, INF);
    ok = ok && x.has_value();
    n.server_capex_usd = x.value_or(0);
  } else {
    ok = false;
  }
  if (const json* v = need(o, p, "max_power_kw", "IT power of one server at full load [kW]")) {
    auto x = number(*v, p + "/max_power_kw", 0, 1000);
    ok = ok && x.has_value();
    n.max_power_kw = x.value_or(0);
  } else {
    ok = false;
  }
  if (const json* v = get(o, "life")) {
    auto d = duration(*v, p + "/life", true);
    ok = ok && d.has_value();
    if (d) {
      n.depreciation_years = *d / (365 * 86400.0);
      pool.econ.on_prem_life_s = *d;
    }
  }
  const struct {
    const char* key;
    double* field;
    double lo, hi;
  } fields[] = {{"idle_power_kw", &n.idle_power_kw, 0, 1000},
                {"pue", &n.pue, 1, 5},
                {"usd_per_kwh", &n.electricity_usd_per_kwh, 0, 10},
                {"colo_usd_per_kw_month", &n.colo_usd_per_kw_month, 0, 10000},
                {"network_capex_fraction", &n.network_capex_fraction, 0, 10},
                {"staff_usd_per_node_year", &n.staff_usd_per_node_year, 0, INF},
                {"utilization", &n.utilization, 0, 1}};
  for (const auto& f : fields) {
    if (!o.contains(f.key)) continue;
    auto x = opt_number(o, p, f.key, f.lo, f.hi);
    ok = ok && x.has_value();
    if (x) *f.field = *x;
  }
  if (ok && n.idle_power_kw > n.max_power_kw) {
    d_.error(p + "/idle_power_kw", DiagCode::out_of_range,
             "idle power (" + num(n.idle_power_kw) + " kW) exceeds max_power_kw (" +
                 num(n.max_power_kw) + " kW)");
    ok = false;
  }
  if (!ok || inst == nullptr) return;
  n.gpus_per_node = inst->gpus_per_node;
  pool.econ.on_prem = n;
  if (auto c = economics::on_prem_cost_per_node_hour(n)) pool.price_per_node_hour = c->total_usd;
}

void Loader::load_spot(const json& o, const std::string& p, Pool& pool) {
  if (!object(o, p, "spot settings, e.g. {\"interruptions_per_node_hour\": 0.3}")) return;
  check_keys(o, p,
             {"discount", "price_series", "interruptions_per_node_hour", "advisor_band", "waves",
              "notice", "return_delay"});
  SpotConfig sp;
  const double od = pool.econ.on_demand_per_node_hour;
  if (const json* v = get(o, "discount")) {
    if (auto x = number(*v, p + "/discount", 0, 1)) {
      if (od <= 0) {
        d_.error(p + "/discount", DiagCode::out_of_range,
                 "instance type " + in_quotes(pool.instance) +
                     " has no on-demand price to discount; give a \"price_series\" instead");
      } else {
        sp.discount = *x;
        pool.price_per_node_hour = od * (1 - *x);
      }
    }
  }
  if (const json* v = get(o, "price_series")) {
    const std::string sp_ptr = p + "/price_series";
    if (sp.discount) {
      d_.error(sp_ptr, DiagCode::out_of_range,
               "give either \"discount\" or \"price_series\", not both");
    } else if (!v->is_array() || v->empty()) {
      wrong_type(*v, sp_ptr, "a non-empty array of {\"at\": \"0h\", \"usd_per_hour\": 9.5}");
    } else {
      for (size_t k = 0; k < v->size(); ++k) {
        const std::string ip = child(sp_ptr, k);
        const json& pt = (*v)[k];
        if (!object(pt, ip)) continue;
        check_keys(pt, ip, {"at", "usd_per_hour"});
        const json* at = need(pt, ip, "at", "when this price starts, e.g. \"12h\"");
        const json* usd = need(pt, ip, "usd_per_hour", "USD per node-hour");
        std::optional<double> t, x;
        if (at != nullptr) t = duration(*at, ip + "/at", false);
        if (usd != nullptr) x = number(*usd, ip + "/usd_per_hour", 0, INF);
        if (!t || !x) continue;
        const economics::PricePoint point{*t, *x};
        if (!sp.price_series.empty() && !(point.t_s > sp.price_series.back().t_s)) {
          d_.error(ip + "/at", DiagCode::out_of_range,
                   "price points must be in increasing time order; " + num(point.t_s) +
                       " s is not after " + num(sp.price_series.back().t_s) + " s");
          continue;
        }
        sp.price_series.push_back(point);
      }
      if (!sp.price_series.empty()) pool.price_per_node_hour = sp.price_series.front().usd_per_hour;
    }
  }
  const json* rate_v = get(o, "interruptions_per_node_hour");
  const json* band_v = get(o, "advisor_band");
  if (rate_v && band_v) {
    d_.error(p + "/advisor_band", DiagCode::out_of_range,
             "give either \"interruptions_per_node_hour\" or \"advisor_band\", not both");
  } else if (rate_v) {
    if (auto x = number(*rate_v, p + "/interruptions_per_node_hour", 0, 3600))
      sp.hazard_per_node_hour = *x;
  } else if (band_v) {
    if (auto band = enumerator<economics::SpotAdvisorBand>(*band_v, p + "/advisor_band")) {
      sp.advisor_band = *band;
      sp.hazard_per_node_hour = economics::advisor_band_hazard_per_node_hour(*band);
    }
  }
  if (const json* v = get(o, "waves")) {
    const std::string wp = p + "/waves";
    if (object(*v, wp, "{\"rate\": \"6.95/h\", \"share\": {\"beta\": [2.68, 28.09]}}")) {
      check_keys(*v, wp, {"rate", "share"});
      if (const json* r = need(*v, wp, "rate", "waves per time, e.g. \"6.95/h\"")) {
        if (auto x = rate(*r, wp + "/rate")) {
          sp.wave_rate_per_s = *x;
          sp.wave_rate_per_hour = *x * 3600;
        }
      }
      if (const json* sh = get(*v, "share")) {
        const std::string shp = wp + "/share";
        if (object(*sh, shp, "{\"beta\": [alpha, beta]}")) {
          check_keys(*sh, shp, {"beta"});
          const json* b = need(*sh, shp, "beta", "[alpha, beta], e.g. [2.68, 28.09]");
          if (b && (!b->is_array() || b->size() != 2)) {
            wrong_type(*b, shp + "/beta", "[alpha, beta], two positive numbers");
          } else if (b) {
            auto a = number((*b)[0], shp + "/beta/0", 1e-6, 1e6);
            auto bb = number((*b)[1], shp + "/beta/1", 1e-6, 1e6);
            if (a && bb) {
              sp.wave_alpha = *a;
              sp.wave_beta = *bb;
            }
          }
        }
      }
    }
  }
  if (const json* v = get(o, "notice")) {
    if (auto d = duration(*v, p + "/notice", false)) sp.notice_s = *d;
  }
  if (const json* v = get(o, "return_delay")) delay(*v, p + "/return_delay", sp.return_delay);
  pool.econ.spot = std::move(sp);
}

void Loader::load_elastic(const json& o, const std::string& p, std::optional<uint64_t>& count,
                          Pool& pool) {
  if (!object(o, p, "{\"min\": 1, \"max\": 32, ...}")) return;
  check_keys(o, p, {"min", "max", "scale_out", "scale_in"});
  ElasticConfig el;
  const json* mn = need(o, p, "min", "nodes kept provisioned, e.g. 1");
  const json* mx = need(o, p, "max", "most nodes ever provisioned, e.g. 32");
  std::optional<uint64_t> min_read, max_read;
  if (mn != nullptr) min_read = integer(*mn, p + "/min", 0, 1000000);
  if (mx != nullptr) max_read = integer(*mx, p + "/max", 1, 1000000);
  if (!min_read || !max_read) {
    count.reset();
    return;
  }
  const uint64_t lo = *min_read, hi = *max_read;
  if (lo > hi) {
    d_.error(p + "/min", DiagCode::out_of_range,
             "min (" + std::to_string(lo) + ") exceeds max (" + std::to_string(hi) + ")");
    count.reset();
    return;
  }
  el.min_nodes = static_cast<uint32_t>(lo);
  el.max_nodes = static_cast<uint32_t>(hi);
  el.initial_nodes = el.min_nodes;
  if (count) {
    if (*count < lo || *count > hi) {
      d_.error(p.substr(0, p.rfind('/')) + "/count", DiagCode::out_of_range,
               "an elastic pool starts with \"count\" nodes, which must lie in [min, max] = [" +
                   std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                   std::to_string(*count));
    }
    el.initial_nodes = static_cast<uint32_t>(*count);
  }
  if (const json* v = get(o, "scale_out")) {
    const std::string sp = p + "/scale_out";
    if (object(*v, sp)) {
      check_keys(*v, sp, {"provisioning_delay", "when_queued_gpus_exceed"});
      if (const json* d = get(*v, "provisioning_delay"))
        delay(*d, sp + "/provisioning_delay", el.provisioning_delay);
      if (const json* n = get(*v, "when_queued_gpus_exceed")) {
        if (auto x = integer(*n, sp + "/when_queued_gpus_exceed", 0, 1u << 30))
          el.scale_out_queued_gpus = static_cast<uint32_t>(*x);
      }
    }
  }
  if (const json* v = get(o, "scale_in")) {
    const std::string sp = p + "/scale_in";
    if (object(*v, sp)) {
      check_keys(*v, sp, {"idle_timeout"});
      if (const json* d = get(*v, "idle_timeout")) {
        if (auto x = duration(*d, sp + "/idle_timeout", false)) el.idle_timeout_s = *x;
      }
    }
  }
  count = el.max_nodes;  // the pool's node slots: its maximum
  pool.econ.elastic = el;
}

// Reads a class's checkpoint and spot keys.
void Loader::load_class_economics(const json& o, const std::string& p, JobClass& jc) {
  ClassEconomics& e = jc.econ;
  if (const json* v = get(o, "checkpoint")) {
    const std::string cp = p + "/checkpoint";
    if (object(*v, cp,
               "{\"interval\": \"30m\" or \"auto\", \"cost\": \"2m\", \"restart\": \"5m\"}")) {
      check_keys(*v, cp, {"interval", "cost", "restart"});
      e.checkpoints = true;
      if (const json* iv = need(*v, cp, "interval", "compute between checkpoints, or \"auto\"")) {
        if (iv->is_string() && iv->get<std::string>() == "auto") {
          e.auto_interval = true;
        } else if (auto d = duration(*iv, cp + "/interval", true)) {
          e.interval_s = *d;
        }
      }
      if (const json* c = get(*v, "cost"))
        e.checkpoint_s = duration(*c, cp + "/cost", false).value_or(0);
      if (const json* r = get(*v, "restart"))
        e.restart_s = duration(*r, cp + "/restart", false).value_or(0);
      if (e.auto_interval && !(e.checkpoint_s > 0)) {
        d_.error(cp + "/cost", DiagCode::missing_key,
                 "\"interval\": \"auto\" (Young/Daly) needs the checkpoint write time "
                 "\"cost\" > 0, e.g. \"2m\"");
      }
    }
  }
  if (const json* v = get(o, "spot_tolerant"))
    e.spot_tolerant = boolean(*v, p + "/spot_tolerant").value_or(false);
  if (const json* v = get(o, "spot_fallback")) {
    const std::string fp = p + "/spot_fallback";
    if (!e.spot_tolerant) {
      d_.error(fp, DiagCode::out_of_range,
               "\"spot_fallback\" applies to classes with \"spot_tolerant\": true");
    } else if (v->is_string() && v->get<std::string>() == "wait") {
      e.has_fallback = true;
    } else if (v->is_object()) {
      check_keys(*v, fp, {"after", "to"});
      if (const json* a = need(*v, fp, "after", "wait on spot this long, e.g. \"1h\"")) {
        if (auto d = duration(*a, fp + "/after", false)) {
          e.has_fallback = true;
          e.fallback_after_s = *d;
        }
      }
      if (const json* t = get(*v, "to")) {
        (void)enumerator<FallbackTarget>(*t, fp + "/to");
      }
    } else {
      wrong_type(*v, fp, "\"wait\" or {\"after\": \"1h\", \"to\": \"on_demand\"}");
    }
  }
}

// A class that is not spot-tolerant and names no pools never runs on spot (naming a spot pool
// in "pools" is consent), so it needs a non-spot pool.
void Loader::check_spot_eligibility(const Scenario& sc) {
  for (const JobClass& jc : sc.workload) {
    if (jc.econ.spot_tolerant || !jc.pool_indices.empty()) continue;
    bool any = false, spot_only = false;
    for (const Pool& pool : sc.pools) {
      if (pool.pricing == Pricing::spot)
        spot_only = true;
      else
        any = true;
    }
    if (spot_only && !any) {
      d_.error(jc.pointer, DiagCode::infeasible,
               "class " + in_quotes(jc.name) +
                   " may only use spot pools but is not \"spot_tolerant\"; set "
                   "\"spot_tolerant\": true or allow a non-spot pool");
    }
  }
}

}  // namespace gpuplan::loading
