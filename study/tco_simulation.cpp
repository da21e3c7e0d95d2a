#include "study/tco_simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "models/compile/compile.h"
#include "models/compile/offered_load.h"
#include "models/economics/run_out.h"
#include "models/input/names.h"
#include "models/scenario/demand_profile.h"
#include "sim/mc_run.h"
#include "study/tco.h"

namespace gpuplan::study {
namespace {

//! The pools an option runs on, with their node counts and purchases as the option buys them.
struct OptionPools {
  std::vector<uint32_t> pools;  //!< indices into Scenario::pools, ascending
  bool holds = true;            //!< false: the engine cannot run this option
  std::string why_not;          //!< when !holds
};

//! The owned servers' pool sized to `nodes_by_month` (installed per month; the first month's
//! from t = 0, each rise bought at its month's start).
void size_server_pool(Pool& pool, const std::vector<double>& nodes_by_month) {
  pool.purchases.clear();
  double held = nodes_by_month.empty() ? 0 : nodes_by_month.front();
  for (std::size_t m = 1; m < nodes_by_month.size(); ++m) {
    if (nodes_by_month[m] > held)
      pool.purchases.push_back({double(m) * PROFILE_MONTH_S, uint32_t(nodes_by_month[m] - held)});
    held = std::max(held, nodes_by_month[m]);
  }
  pool.count = uint32_t(held);
}

OptionPools option_pools(Scenario& v, TcoOption option, const TcoOptionResult& o, uint32_t months) {
  const TcoConfig& t = *v.tco;
  OptionPools out;
  const std::optional<uint32_t> server = t.server_pool_idx;
  std::vector<double> nodes;
  if (o.fleet) nodes = o.fleet->nodes_by_month;
  nodes.resize(std::min<std::size_t>(nodes.size(), months));
  // NOTE: the owned servers run in every option that keeps them; a fleet of none leaves the pool.
  if (server && !nodes.empty() && *std::max_element(nodes.begin(), nodes.end()) > 0) {
    size_server_pool(v.pools[*server], nodes);
    out.pools.push_back(*server);
  }
  switch (option) {
    case TcoOption::cloud:
    case TcoOption::hybrid:
      out.holds = false;
      out.why_not = "it buys cloud GPU-hours without limit, so it keeps up by construction";
      return out;
    case TcoOption::keep:
    case TcoOption::buy:
    case TcoOption::staged:
    case TcoOption::on_prem:
      break;
    case TcoOption::reserve_1y:
    case TcoOption::reserve_3y: {
      bool found = false;
      for (uint32_t p = 0; p < v.pools.size(); ++p) {
        Pool& pool = v.pools[p];
        if (found || !pool.econ.reserved || !t.reserve || pool.instance != t.reserve->type.id)
          continue;
        pool.count = t.reserve->nodes;
        pool.purchases.clear();
        out.pools.push_back(p);
        found = true;
      }
      if (!found) {
        out.holds = false;
        out.why_not = "no reserved pool of its instance runs in the scenario";
      }
      break;
    }
    case TcoOption::burst:
      for (uint32_t p = 0; p < v.pools.size(); ++p) {
        const Pool& pool = v.pools[p];
        if (pool.pricing != Pricing::on_prem && !pool.econ.reserved && pool.econ.elastic)
          out.pools.push_back(p);
      }
      break;
  }
  std::sort(out.pools.begin(), out.pools.end());
  if (out.holds && out.pools.empty()) {
    out.holds = false;
    out.why_not = "it holds no pool";
  }
  return out;
}

}  // namespace

std::optional<uint32_t> first_short_month(const std::vector<double>& offered,
                                          const std::vector<double>& served) {
  const std::size_t n = std::min(offered.size(), served.size());
  std::size_t m = n;
  while (m > 0 && served[m - 1] < (1 - SHORTFALL) * offered[m - 1]) --m;
  if (n - m < 2) return std::nullopt;
  return uint32_t(m);
}

double simulated_run_out(const std::vector<double>& offered, const std::vector<double>& served,
                         uint32_t first_short) {
  // NOTE: once behind, a fleet serves all it can, so the median of what it serves from its
  // first short month on is its capacity as simulated (fragmentation, failures, placement).
  std::vector<double> behind(served.begin() + first_short, served.end());
  std::nth_element(behind.begin(), behind.begin() + behind.size() / 2, behind.end());
  const double capacity = behind[behind.size() / 2];
  uint32_t m = 0;
  while (m < first_short && offered[m] <= capacity) ++m;
  return economics::run_out_month(offered, m, capacity);
}

std::optional<Scenario> option_scenario(const Scenario& sc, const TcoOptionResult& projected,
                                        uint32_t months, std::string* why_not) {
  Scenario v = sc;
  const OptionPools chosen = option_pools(v, projected.option, projected, months);
  if (!chosen.holds) {
    if (why_not != nullptr) *why_not = chosen.why_not;
    return std::nullopt;
  }
  // Every class on the option's pools (those of them it may use, when it names some).
  for (JobClass& jc : v.workload) {
    std::vector<uint32_t> allowed;
    for (const uint32_t p : chosen.pools)
      if (jc.pool_indices.empty() ||
          std::find(jc.pool_indices.begin(), jc.pool_indices.end(), p) != jc.pool_indices.end())
        allowed.push_back(p);
    jc.pool_indices = allowed.empty() ? chosen.pools : allowed;
  }
  v.horizon_s = months * PROFILE_MONTH_S;
  v.warmup_s = std::min(v.warmup_s, v.horizon_s / 2);
  v.limits.time_bins = months;
  v.demand.profile.growth_per_month = v.tco->demand_growth_per_month;
  v.tco.reset();
  return v;
}

void simulate_tco_options(const Scenario& sc, Summary& s, uint32_t replications, uint32_t threads) {
  if (!sc.tco || !s.tco || !s.tco->projected()) return;
  TcoProjection& tco = *s.tco;
  const uint32_t all_months = sc.tco->years * 12;
  for (TcoOptionResult& o : tco.options) {
    // NOTE: past the projected run-out month the queue only grows; 3 months show it.
    const uint32_t months = o.stops_keeping_up_month
                                ? std::min(all_months, uint32_t(*o.stops_keeping_up_month) + 3)
                                : all_months;
    TcoSimulation sim;
    const std::optional<Scenario> v = option_scenario(sc, o, months, &sim.why_not);
    if (!v) {
      o.simulation = sim;
      continue;
    }
    const CompiledScenario cs = compile(*v);
    std::vector<double> offered(months);
    for (uint32_t m = 0; m < months; ++m)
      offered[m] =
          offered_work_rate(*v, m * PROFILE_MONTH_S, (m + 1) * PROFILE_MONTH_S) * PROFILE_MONTH_S;
    // NOTE: "never" sorts last, so the median is a month only when most replications run out.
    std::vector<double> months_out, runs_out;
    std::vector<double> served_share(months, 0.0);
    McOptions mo;
    mo.replications = replications;
    mo.threads = threads;
    const McStudy runs = run_monte_carlo(cs.view(), mo);
    for (const ReplicaOutcome& r : runs.replicas) {
      std::vector<double> served(months);
      for (uint32_t m = 0; m < months; ++m) {
        // (every bin is one month long: the horizon is a whole number of them)
        served[m] = r.busy_gpus[m] * PROFILE_MONTH_S;
        served_share[m] += offered[m] > 0 ? served[m] / offered[m] / replications : 0.0;
      }
      const auto m = first_short_month(offered, served);
      months_out.push_back(m ? double(*m) : std::numeric_limits<double>::infinity());
      runs_out.push_back(m ? simulated_run_out(offered, served, *m)
                           : std::numeric_limits<double>::infinity());
    }
    std::sort(months_out.begin(), months_out.end());
    std::sort(runs_out.begin(), runs_out.end());
    const auto month = [](double m) {
      return std::isinf(m) ? std::nullopt : std::optional<double>(m);
    };
    sim.simulated = true;
    sim.months = months;
    sim.replications = replications;
    sim.stops_keeping_up_month = month(months_out[(months_out.size() - 1) / 2]);
    sim.runs_out_month = month(runs_out[(runs_out.size() - 1) / 2]);
    sim.earliest_month = month(months_out.front());
    sim.served_share_by_month = std::move(served_share);
    o.simulation = sim;
    // NOTE: an option the projection says keeps up but the engine shows falling behind does not
    // serve the demand: its queue, not its bill, is the answer.
    if (sim.stops_keeping_up_month && o.serves_demand) {
      o.serves_demand = false;
      o.stops_keeping_up_month = sim.stops_keeping_up_month;
      std::erase_if(tco.break_even, [&](const TcoBreakEven& b) { return b.option == o.option; });
    }
  }
  choose_cheapest(tco);
}

}  // namespace gpuplan::study
