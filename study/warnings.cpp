#include "study/warnings.h"

#include "models/catalog/catalog_age.h"
#include "models/scenario/price_origin.h"
#include "study/load_check.h"
#include "study/number_text.h"
#include "models/compile/compile_teams.h"
#include "models/scenario/pool_commitment.h"

namespace gpuplan::study {
namespace {

std::string percent(double share) {
  return grouped_number(100 * share, 1) + "%";
}

std::string usd(double x) {
  return "$" + grouped_number(x, 2);
}

//! Saturation of a single replication: when it stopped, and why.
std::string replica_saturated(const Scenario& sc, const ReplicaMetrics& m) {
  return "This configuration cannot keep up: the replica stopped at t = " +
         grouped_number(m.saturated_at_s, 1) + " s when " +
         (m.saturation == SaturationCause::queue_overflow
              ? "the queue exceeded limits.max_active_jobs (" +
                    grouped_number(sc.limits.max_active_jobs, 0) + " jobs)"
          : m.saturation == SaturationCause::bad_event_time
              ? std::string("an event time was not a finite time after the clock (a duration "
                            "or delay overflowed; check the distributions)")
              : std::string("the event calendar overflowed")) +
         "; waits and completion times are not meaningful.";
}

//! Saturation across replications: how many, and which ones the figures cover.
std::string replicas_saturated(const McSummary& s) {
  const std::string k = grouped_number(s.n_saturated, 0), n = grouped_number(s.n_replicas, 0);
  if (s.statistics_over_all) {
    return "This configuration cannot keep up: all " + n + " replications saturated (" +
           s.saturation_cause +
           ") and stopped early; every figure is over those truncated runs and is not meaningful.";
  }
  return "This configuration cannot keep up in " + k + " of " + n + " replications (" +
         percent(double(s.n_saturated) / s.n_replicas) + ", " + s.saturation_cause +
         "): those runs stopped early and are left out of every figure except "
         "metrics.saturated; means and intervals are over the " +
         grouped_number(double(s.in_statistics.size()), 0) +
         " replications that kept up, so they understate waits.";
}

}  // namespace

std::vector<std::string> study_warnings(const Scenario& sc, const CompiledScenario& cs,
                                        const Summary& s) {
  std::vector<std::string> w;
  const ReplicaMetrics* one = s.single ? &s.single->metrics : nullptr;
  // NOTE: the load check of the scenario (study/load_check.h) comes first and names the class
  // that drives each overloaded pool; the cluster-wide estimate only speaks when it finds none
  // and the run did not stop. Across replications the saturated share comes after the prices.
  const std::vector<std::string> loads = load_warnings(sc);
  w.insert(w.end(), loads.begin(), loads.end());
  if (one != nullptr && one->saturated()) {
    w.push_back(replica_saturated(sc, *one));
  } else if (loads.empty() && overloaded(cs.offered_load)) {
    w.push_back("Offered load is " + percent(cs.offered_load) +
                " of capacity (>= 1): the queue grows without bound, so waits depend on the "
                "horizon and are not steady-state figures.");
  }
  for (const Pool& p : sc.pools) {
    const InstanceType* inst = &sc.instance_of(p);
    if (price_stale(sc, p, today_utc())) {
      w.push_back("Pool " + p.name + ": the price of " + p.instance + " dates from " +
                  (inst->as_of.empty() ? std::string("an unknown date") : inst->as_of) +
                  (sc.stale_after_months == 12
                       ? std::string(", over a year ago")
                       : ", more than " + std::to_string(sc.stale_after_months) + " months ago") +
                  "; re-check it before relying on the cost figures (source: " + inst->source +
                  ").");
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
  for (const FlavorCapacity& f : flavor_capacities(sc, cs)) {
    if (f.nominal_gpus <= f.cluster_gpus) continue;
    w.push_back("The teams' nominal quotas of " + f.flavor + " add up to " +
                grouped_number(double(f.nominal_gpus), 0) + " GPUs, more than the cluster's " +
                grouped_number(double(f.cluster_gpus), 0) +
                ": a team within its quota may still wait for GPUs that no one can reclaim.");
  }
  if (one == nullptr && s.stats.n_saturated > 0) w.push_back(replicas_saturated(s.stats));
  // NOTE: a followed arrival window (the scenario's `statistics`) also bounds the mean below.
  std::string bound;
  if (follows_arrivals(cs.scalars)) {
    const double b = one ? one->jct_mean_lower_bound_s : s.mean("metrics.jct_mean_lower_bound_s");
    bound = " The followed jobs' mean completion time is at least " + grouped_number(b / 3600, 1) +
            " h (metrics.jct_mean_lower_bound_s: the unfinished ones at their age at the "
            "horizon); a longer horizon follows them to the end.";
  }
  if (one != nullptr && one->jobs_unfinished > 0) {
    w.push_back(grouped_number(double(one->jobs_unfinished), 0) +
                " counted job(s) were still waiting or running at the horizon; they count in "
                "jobs_unfinished and in no wait or completion-time percentile." +
                bound);
  } else if (const double unfinished = s.mean("metrics.jobs_unfinished");
             one == nullptr && unfinished > 0) {
    w.push_back("On average " + grouped_number(unfinished, 1) +
                " counted job(s) per replication were still waiting or running at the horizon; "
                "they count in jobs_unfinished and in no wait or completion-time percentile." +
                bound);
  }
  if (s.info.target_requested && !s.info.target_met) {
    w.push_back("The --target-ci of " + percent(s.info.target_ci_rel) + " was not met within " +
                grouped_number(s.info.replications, 0) +
                " replications (--max-replications); see summary for the intervals reached.");
  }
  return w;
}

}  // namespace gpuplan::study
