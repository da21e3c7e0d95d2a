#include "study/recommend.h"

#include <algorithm>
#include <iterator>
#include <limits>

#include "models/economics/billing.h"
#include "models/scenario/pool_commitment.h"
#include "sim/mc_metrics.h"
#include "sim/backends/mc_mpi.h"

namespace gpuplan::study {
namespace {

//! The SLOs as bounds on metric rows of a model with these pools and classes.
std::vector<SloBound> slo_bounds(const RecommendConfig& r, const CompiledScenario& cs) {
  const std::vector<std::string> paths = metric_paths(
      {cs.pool_names, cs.class_names, cs.cause_names, cs.team_names}, metric_features(cs.view()));
  constexpr double INF = std::numeric_limits<double>::infinity();
  std::vector<SloBound> b;
  for (const RecommendSlo& s : r.slos) {
    const auto it = std::find(paths.begin(), paths.end(), s.metric);
    b.push_back({std::size_t(it - paths.begin()), s.min.value_or(-INF), s.max.value_or(INF)});
  }
  return b;
}

//! The study of a configuration against the SLOs, the same on every process.
ProbeOutcome probe(const RecommendConfig& rc, const std::optional<Scenario>& sc,
                   const McOptions& mo) {
  // NOTE: too few nodes for the largest job is a load error, and such a pool meets no SLO.
  if (!sc) return ProbeOutcome{};
  const CompiledScenario cs = compile(*sc);
  const ModelView view = cs.view();
  ProbeOutcome out = probe_outcome(view, run_monte_carlo(view, mo), slo_bounds(rc, cs));
  // NOTE: a reservation is billed its whole commitment, as quote bills it: the window's cost
  // carries only its share (models/scenario/pool_commitment.h).
  out.cost_usd += reserved_beyond_window_usd(*sc);
  // NOTE: demand at or above capacity has no steady state (waits grow with the horizon), so such
  // a pool meets no SLO even where no replica was stopped for saturating; under growth the SLOs
  // must hold in the horizon's last week too, so a fleet the demand outgrows meets none.
  if (cs.cannot_keep_up()) out.p_met = 0;
  // Under MPI rank 0 holds the study: every process takes its outcome, so all of them bisect
  // alike.
  double figures[] = {out.p_met, out.cost_usd, out.window_cost_usd, out.jobs_completed};
  broadcast_from_root(mo.processes, figures, std::size(figures));
  return ProbeOutcome{figures[0], figures[1], figures[2], figures[3]};
}

//! `opt` at `count` nodes, as the scenario's file and pins load it (nullopt when that fails).
std::optional<Scenario> variant(const ScenarioText& t, const RecommendOption& opt, uint32_t count) {
  Diagnostics quiet;
  return load_variant(t, pinned(opt, count), quiet, true);
}

//! `opt` holding `nodes[w]` nodes in month window w (each rise bought at its window's start),
//! run up to the end of window `nodes.size() - 1` and measured on it; with `whole`, run and
//! measured over the scenario's own window instead.
std::optional<Scenario> schedule_variant(const ScenarioText& t, const RecommendOption& opt,
                                         const std::vector<uint32_t>& nodes,
                                         const std::vector<MonthWindow>& months, bool whole) {
  std::optional<Scenario> sc = variant(t, opt, *std::max_element(nodes.begin(), nodes.end()));
  if (!sc) return sc;
  Pool& pool = sc->pools[opt.pool_idx];
  pool.purchases.clear();
  for (std::size_t w = 1; w < nodes.size(); ++w)
    if (nodes[w] > nodes[w - 1])
      pool.purchases.push_back({months[w].start_s, nodes[w] - nodes[w - 1]});
  if (whole) return sc;
  const MonthWindow& last = months[nodes.size() - 1];
  sc->warmup_s = last.start_s;
  sc->horizon_s = last.end_s;
  // NOTE: what the scenario buys after the shortened horizon is not yet bought.
  for (Pool& p : sc->pools) {
    while (!p.purchases.empty() && p.purchases.back().at_s >= sc->horizon_s) {
      p.count -= p.purchases.back().add;
      p.purchases.pop_back();
    }
  }
  return sc;
}

//! Every instance x pricing x count of the `with` pools from `k` on, each appended to `prefix`.
void expand_with(const Scenario& sc, const RecommendCandidate& c, std::size_t k,
                 std::vector<PinnedPool>& prefix, std::vector<std::vector<PinnedPool>>& out) {
  if (k == c.with.size()) {
    out.push_back(prefix);
    return;
  }
  const RecommendPool& w = c.with[k];
  for (const uint32_t inst_idx : w.instances) {
    for (const Pricing pricing : w.pricing) {
      for (uint32_t n = w.count_min; n <= w.count_max; ++n) {
        prefix.push_back(PinnedPool{w.pool_idx, sc.pools[w.pool_idx].name,
                                    sc.instances.at(inst_idx).id, pricing, n, 1, 0});
        expand_with(sc, c, k + 1, prefix, out);
        prefix.pop_back();
      }
    }
  }
}

//! The fewest nodes of each month meeting its SLOs (one count, or a purchase schedule), and the
//! whole window's study of that schedule for its cost.
void search_months(const ScenarioText& t, const RecommendConfig& rc, RecommendOption& opt,
                   const std::vector<MonthWindow>& months, const McOptions& mo) {
  opt.schedule =
      cheapest_schedule(opt.count_min, opt.count_max, uint32_t(months.size()), rc.probability,
                        !rc.purchases, [&](const std::vector<uint32_t>& nodes) {
                          return probe(rc, schedule_variant(t, opt, nodes, months, false), mo);
                        });
  opt.search = CountSearch{};
  if (opt.schedule->nodes_by_month.empty()) {
    opt.search.at_count.p_met = opt.schedule->p_met();
    return;
  }
  opt.search.count = opt.schedule->nodes_by_month.back();
  opt.search.at_count =
      probe(rc, schedule_variant(t, opt, opt.schedule->nodes_by_month, months, true), mo);
  opt.search.at_count.p_met = opt.schedule->p_met();
}

}  // namespace

double usd_per_month(double cost_usd, double window_s) {
  return window_s > 0 ? cost_usd / (window_s / 3600.0) * economics::HOURS_PER_MONTH : 0;
}

std::vector<PoolPin> pinned(const RecommendOption& o, uint32_t count) {
  std::vector<PoolPin> out;
  for (const PinnedPool& w : o.with) out.push_back({w.pool_idx, w.instance, w.pricing, w.count});
  out.push_back({o.pool_idx, o.instance, o.pricing, count});
  return out;
}

std::optional<std::vector<RecommendOption>> recommend_options(const ScenarioText& t,
                                                              const Scenario& sc,
                                                              Diagnostics& diags) {
  std::vector<RecommendOption> options;
  for (const RecommendCandidate& c : sc.recommend->candidates) {
    std::vector<std::vector<PinnedPool>> withs;
    std::vector<PinnedPool> prefix;
    expand_with(sc, c, 0, prefix, withs);
    for (const std::vector<PinnedPool>& with : withs) {
      for (const uint32_t inst_idx : c.instances) {
        const std::string& inst = sc.instances.at(inst_idx).id;
        for (const Pricing pricing : c.pricing) {
          RecommendOption opt;
          opt.pool_idx = c.pool_idx;
          opt.pool = sc.pools[c.pool_idx].name;
          opt.instance = inst;
          opt.pricing = pricing;
          opt.count_min = c.count_min;
          opt.count_max = c.count_max;
          opt.with = with;
          const auto probe_sc = load_variant(t, pinned(opt, c.count_max), diags, true);
          if (!probe_sc) return std::nullopt;
          const Pool& probe_pool = probe_sc->pools[opt.pool_idx];
          opt.gpus_per_node = probe_sc->instance_of(probe_pool).gpus_per_node;
          opt.bf16_tflops = probe_sc->gpu_of(probe_pool).bf16_tflops;
          opt.price_per_node_hour = probe_pool.price_per_node_hour;
          for (PinnedPool& w : opt.with) {
            const Pool& wp = probe_sc->pools[w.pool_idx];
            w.gpus_per_node = probe_sc->instance_of(wp).gpus_per_node;
            w.price_per_node_hour = wp.price_per_node_hour;
          }
          options.push_back(std::move(opt));
        }
      }
    }
  }
  return options;
}

Recommendation recommend(const ScenarioText& t, const Scenario& sc,
                         std::vector<RecommendOption> options, const RecommendRunOptions& o) {
  const RecommendConfig& rc = *sc.recommend;
  McOptions mo;
  mo.replications = o.replications;
  mo.backend = o.backend;
  mo.processes = mpi_world();
  Recommendation r;
  r.replications = o.replications;
  r.window_s = sc.horizon_s - sc.warmup_s;
  r.max_usd_per_month = rc.max_usd_per_month;
  if (rc.slos_hold == SloPeriod::every_month) r.months = month_windows(sc.warmup_s, sc.horizon_s);
  for (RecommendOption& opt : options) {
    if (o.searching && mo.processes.root()) o.searching(opt);
    // NOTE: every probe keeps the scenario's seed, so replica k sees the same job stream at every
    // count and on every instance (common random numbers): differences are the configuration's.
    if (rc.slos_hold == SloPeriod::every_month)
      search_months(t, rc, opt, r.months, mo);
    else
      opt.search = smallest_count(opt.count_min, opt.count_max, rc.probability,
                                  [&](uint32_t n) { return probe(rc, variant(t, opt, n), mo); });
  }
  // The cap on a window's cost that the monthly budget implies.
  const double max_cost = rc.max_usd_per_month ? *rc.max_usd_per_month * r.window_s / 3600.0 /
                                                     economics::HOURS_PER_MONTH
                                               : std::numeric_limits<double>::infinity();
  std::vector<CountSearch> searches;
  for (RecommendOption& opt : options) {
    searches.push_back(opt.search);
    opt.over_budget = opt.search.count && opt.search.at_count.window_cost_usd > max_cost;
  }
  r.ranked = rank_by_cost(searches, max_cost);
  r.options = std::move(options);
  if (r.ranked.empty()) return r;

  // The winner's full study, as `mc` runs it, carries the recommendation for reports.
  const RecommendOption& best = r.options[r.ranked.front()];
  Diagnostics diags;
  r.best_scenario = best.schedule
                        ? schedule_variant(t, best, best.schedule->nodes_by_month, r.months, true)
                        : load_variant(t, pinned(best, *best.search.count), diags, true);
  r.best_compiled = std::make_shared<const CompiledScenario>(compile(*r.best_scenario));
  MonteCarloOptions mc;
  mc.replications = o.replications;
  mc.backend = o.backend;
  mc.progress = o.progress;
  r.best = monte_carlo(*r.best_scenario, *r.best_compiled, mc);
  return r;
}

}  // namespace gpuplan::study
