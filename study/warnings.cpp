#include "study/warnings.h"

#include <cstdio>

#include "models/catalog_age.h"
#include "models/pool_commitment.h"

namespace gpuplan::study {
namespace {

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * share);
  return buf;
}

std::string usd(double x) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "$%.2f", x);
  return buf;
}

//! Saturation of a single replication: when it stopped, and why.
std::string replica_saturated(const Scenario& sc, const ReplicaMetrics& m) {
  return "This configuration cannot keep up: the replica stopped at t = " +
         std::to_string(m.saturated_at_s) + " s when " +
         (m.saturation == SaturationCause::queue_overflow
              ? "the queue exceeded limits.max_active_jobs (" +
                    std::to_string(sc.limits.max_active_jobs) + " jobs)"
          : m.saturation == SaturationCause::bad_event_time
              ? std::string("an event time was not a finite time after the clock (a duration "
                            "or delay overflowed; check the distributions)")
              : std::string("the event calendar overflowed")) +
         "; waits and completion times are not meaningful.";
}

//! Saturation across replications: how many, and which ones the figures cover.
std::string replicas_saturated(const McSummary& s) {
  const std::string k = std::to_string(s.n_saturated), n = std::to_string(s.n_replicas);
  if (s.statistics_over_all) {
    return "This configuration cannot keep up: all " + n + " replications saturated (" +
           s.saturation_cause +
           ") and stopped early; every figure is over those truncated runs and is not meaningful.";
  }
  return "This configuration cannot keep up in " + k + " of " + n + " replications (" +
         percent(double(s.n_saturated) / s.n_replicas) + ", " + s.saturation_cause +
         "): those runs stopped early and are left out of every figure except "
         "metrics.saturated; means and intervals are over the " +
         std::to_string(s.in_statistics.size()) +
         " replications that kept up, so they understate waits.";
}

}  // namespace

std::vector<std::string> study_warnings(const Scenario& sc, const CompiledScenario& cs,
                                        const Summary& s) {
  std::vector<std::string> w;
  const ReplicaMetrics* one = s.single ? &s.single->metrics : nullptr;
  // NOTE: a replication that stopped says so instead of the load; across replications the load
  // comes first and the saturated share after the prices.
  if (one != nullptr && one->saturated()) {
    w.push_back(replica_saturated(sc, *one));
  } else if (overloaded(cs.offered_load)) {
    w.push_back("Offered load is " + std::to_string(cs.offered_load) +
                " of capacity (>= 1): the queue grows without bound, so waits depend on the "
                "horizon and are not steady-state figures.");
  }
  for (const Pool& p : sc.pools) {
    const InstanceType* inst = &sc.instance_of(p);
    if (inst && is_stale(inst->as_of, today_utc())) {
      w.push_back("Pool " + p.name + ": the price of " + p.instance + " dates from " +
                  (inst->as_of.empty() ? std::string("an unknown date") : inst->as_of) +
                  ", over a year ago; re-check it before relying on the cost figures (source: " +
                  inst->source + ").");
    }
    // NOTE: cost_usd carries a reservation's share inside the window; the commitment is owed
    // whole, so a window shorter than the term must not read as the price of the reservation.
    if (const auto c = pool_commitment(p, sc.warmup_s, sc.horizon_s);
        c && c->in_window_usd < c->total_usd) {
      w.push_back("Pool " + p.name + " is reserved: its whole commitment is " + usd(c->total_usd) +
                  ", of which the window's cost carries " + usd(c->in_window_usd) + " (" +
                  percent(c->in_window_usd / c->total_usd) +
                  "); the reservation pays off only if the load lasts the whole term.");
    }
  }
  if (one == nullptr && s.stats.n_saturated > 0) w.push_back(replicas_saturated(s.stats));
  if (one != nullptr && one->jobs_unfinished > 0) {
    w.push_back(std::to_string(one->jobs_unfinished) +
                " counted job(s) were still waiting or running at the horizon; they count in "
                "jobs_unfinished and in no wait or completion-time percentile.");
  } else if (const double unfinished = s.mean("metrics.jobs_unfinished");
             one == nullptr && unfinished > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.1f", unfinished);
    w.push_back(std::string("On average ") + buf +
                " counted job(s) per replication were still waiting or running at the horizon; "
                "they count in jobs_unfinished and in no wait or completion-time percentile.");
  }
  if (s.info.target_requested && !s.info.target_met) {
    w.push_back("The --target-ci of " + percent(s.info.target_ci_rel) + " was not met within " +
                std::to_string(s.info.replications) +
                " replications (--max-replications); see summary for the intervals reached.");
  }
  return w;
}

}  // namespace gpuplan::study
