#include "study/sweep.h"

#include "study/sweep_grid.h"

namespace gpuplan::study {

MetricSummary useful_utilization(const Summary& s) {
  const std::size_t useful = s.stats.index_of("gpu_hours.useful");
  const std::size_t provisioned = s.stats.index_of("gpu_hours.provisioned");
  std::vector<double> shares;
  for (const std::size_t k : s.stats.in_statistics) {
    const std::vector<double>& row = s.stats.rows[k];
    shares.push_back(row[provisioned] > 0 ? row[useful] / row[provisioned] : 0.0);
  }
  return summarize(shares);
}

void mark_pareto(std::vector<SweepPoint>& points) {
  std::vector<double> cost, wait_p90, useful;
  std::vector<bool> eligible;
  for (const SweepPoint& p : points) {
    cost.push_back(p.summary.mean("cost_usd.total"));
    wait_p90.push_back(p.summary.mean("metrics.wait_s.p90"));
    useful.push_back(useful_utilization(p.summary).mean);
    eligible.push_back(p.eligible);
  }
  // NOTE: a point that cannot keep up (a replica saturated, or offered load >= 100%) is on no
  // front.
  const std::vector<bool> front_wait = pareto_front(cost, wait_p90, false, eligible);
  const std::vector<bool> front_useful = pareto_front(cost, useful, true, eligible);
  for (std::size_t i = 0; i < points.size(); ++i) {
    points[i].front_cost_wait = front_wait[i];
    points[i].front_cost_useful_work = front_useful[i];
  }
}

Sweep sweep(const std::vector<Scenario>& scenarios, const std::vector<MonteCarloOptions>& options,
            const SweepPointDone& done) {
  Sweep out;
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    const CompiledScenario cs = compile(scenarios[i]);
    SweepPoint p;
    p.summary = monte_carlo(scenarios[i], cs, options[i]);
    if (!p.summary.held) {
      out.held = false;
      continue;
    }
    p.offered_load = cs.offered_load;
    for (std::size_t k = 0; k < cs.pools.size(); ++k)
      p.gpus += double(scenarios[i].pools[k].count) * cs.pools[k].gpus_per_node;
    p.window_s = scenarios[i].horizon_s - scenarios[i].warmup_s;
    // NOTE: demand at or above capacity (over the window or in a later week) has no steady state
    // even when no replica was stopped.
    p.eligible = p.summary.stats.n_saturated == 0 && !cs.cannot_keep_up();
    out.points.push_back(std::move(p));
    if (done && !done(i, scenarios[i], cs, out.points.back().summary)) {
      out.stopped = true;
      return out;
    }
  }
  if (out.held) mark_pareto(out.points);
  return out;
}

}  // namespace gpuplan::study
