#pragma once
//! Sizing by simulation (docs/recommend.md): the smallest node count of each candidate whose
//! replicas meet every SLO with a required probability, found by bisection on the count, and the
//! candidates ranked by mean cost.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "sim/mc_run.h"

namespace gpuplan {

//! One SLO on a metric row (sim/mc_metrics.h): met when `min <= row[metric_idx] <= max`.
struct SloBound {
  std::size_t metric_idx = 0;
  double min = 0;  //!< lower bound; -inf when there is none
  double max = 0;  //!< upper bound; +inf when there is none
};

//! What one probe (an MC study of one configuration) tells the search.
struct ProbeOutcome {
  double p_met = 0;  //!< share of replicas meeting every SLO, [0, 1]
  //! [USD] what the option commits its buyer to: mean cost_usd.total over all replicas, plus
  //! (added by recommend) every reservation's term beyond the window; options rank by it.
  double cost_usd = 0;
  double window_cost_usd = 0;  //!< [USD] mean cost_usd.total: the spend inside the window
  double jobs_completed = 0;   //!< mean metrics.jobs_completed over all replicas
};

//! The outcome of a study against `slos`. A saturated replica meets no SLO (its cluster cannot
//! keep up, so its finite wait figures understate the queue). All zero for an empty study.
[[nodiscard]] ProbeOutcome probe_outcome(const ModelView& m, const McStudy& st,
                                         const std::vector<SloBound>& slos);

//! The search over one candidate's counts.
struct CountSearch {
  std::optional<uint32_t> count;            //!< smallest count meeting the SLOs; none if unmet
  ProbeOutcome at_count;                    //!< outcome at `count`, or at count_max when unmet
  std::map<uint32_t, ProbeOutcome> probes;  //!< every count probed
};

//! Smallest count in [count_min, count_max] with `probe(count).p_met >= probability`, by bisection.
//! Assumes the predicate is monotone in count (false, then true): so it is for upper bounds on
//! wait or JCT under common random numbers, since more nodes never delay a FIFO job stream much;
//! a lower bound on utilization is monotone the other way and should be paired with a wait SLO
//! only as a sanity bound. Probes count_max first, so an unmeetable SLO costs one probe.
[[nodiscard]] CountSearch smallest_count(uint32_t count_min, uint32_t count_max, double probability,
                                         const std::function<ProbeOutcome(uint32_t)>& probe);

//! Indices of the searches that met the SLOs with a window spend of at most `max_cost_usd` [USD],
//! cheapest commitment first (ties: lower index); those above the cap are over budget and never
//! ranked.
[[nodiscard]] std::vector<std::size_t> rank_by_cost(
    const std::vector<CountSearch>& searches,
    double max_cost_usd = std::numeric_limits<double>::infinity());

}  // namespace gpuplan
