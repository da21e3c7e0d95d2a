#include "study/count_search.h"

#include <algorithm>

#include "sim/mc_metrics.h"

namespace gpuplan {

ProbeOutcome probe_outcome(const ModelView& m, const McStudy& st,
                           const std::vector<SloBound>& slos) {
  ProbeOutcome o;
  if (st.replicas.empty()) return o;
  std::size_t n_met = 0;
  for (const ReplicaOutcome& r : st.replicas) {
    const std::vector<double> row = metric_row(m, r.metrics);
    o.cost_usd += row[HeadlineIndex::COST_TOTAL];
    o.jobs_completed += double(r.metrics.jobs_completed);
    const bool met = !r.metrics.saturated() && std::all_of(slos.begin(), slos.end(), [&](auto& s) {
      return row[s.metric_idx] >= s.min && row[s.metric_idx] <= s.max;
    });
    n_met += met ? 1 : 0;
  }
  const double n = double(st.replicas.size());
  o.p_met = double(n_met) / n;
  o.cost_usd /= n;
  o.window_cost_usd = o.cost_usd;
  o.jobs_completed /= n;
  return o;
}

CountSearch smallest_count(uint32_t count_min, uint32_t count_max, double probability,
                           const std::function<ProbeOutcome(uint32_t)>& probe) {
  CountSearch s;
  const auto at = [&](uint32_t n) -> const ProbeOutcome& {
    auto it = s.probes.find(n);
    if (it == s.probes.end()) it = s.probes.emplace(n, probe(n)).first;
    return it->second;
  };
  if (at(count_max).p_met < probability) {
    s.at_count = at(count_max);
    return s;
  }
  // Invariant: hi meets the SLOs; every count below lo does not.
  uint32_t lo = count_min, hi = count_max;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (at(mid).p_met >= probability)
      hi = mid;
    else
      lo = mid + 1;
  }
  s.count = hi;
  s.at_count = at(hi);
  return s;
}

std::vector<std::size_t> rank_by_cost(const std::vector<CountSearch>& searches,
                                      double max_cost_usd) {
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < searches.size(); ++i)
    if (searches[i].count && searches[i].at_count.window_cost_usd <= max_cost_usd) idx.push_back(i);
  std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) {
    return searches[a].at_count.cost_usd < searches[b].at_count.cost_usd;
  });
  return idx;
}

}  // namespace gpuplan
