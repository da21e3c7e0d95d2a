#include "study/compare.h"

#include <algorithm>

namespace gpuplan::study {
namespace {

//! Replications in the statistics of both sides, in replica order; every replication when no
//! replication of either side kept up (as a lone study then covers all of them).
std::vector<std::size_t> paired_replications(const Summary& a, const Summary& b) {
  std::vector<std::size_t> both;
  std::set_intersection(a.stats.in_statistics.begin(), a.stats.in_statistics.end(),
                        b.stats.in_statistics.begin(), b.stats.in_statistics.end(),
                        std::back_inserter(both));
  if (!both.empty()) return both;
  const std::size_t n = std::min(a.stats.rows.size(), b.stats.rows.size());
  for (std::size_t k = 0; k < n; ++k) both.push_back(k);
  return both;
}

std::vector<double> column(const Summary& s, const std::string& path,
                           const std::vector<std::size_t>& replicas) {
  const std::size_t i = s.stats.index_of(path);
  std::vector<double> out;
  for (const std::size_t k : replicas) out.push_back(s.stats.rows[k][i]);
  return out;
}

//! A TCO figure's value in each of `replicas`, from s.tco_values (kept in the order of
//! s.stats.in_statistics); empty when `path` is not projected or some replica has no value.
std::vector<double> tco_column(const Summary& s, const std::string& path,
                               const std::vector<std::size_t>& replicas) {
  const auto it = std::find_if(s.tco_values.begin(), s.tco_values.end(),
                               [&](const auto& v) { return v.first == path; });
  if (it == s.tco_values.end()) return {};
  const std::vector<std::size_t>& kept = s.stats.in_statistics;
  std::vector<double> out;
  for (const std::size_t k : replicas) {
    const auto at = std::lower_bound(kept.begin(), kept.end(), k);
    if (at == kept.end() || *at != k || std::size_t(at - kept.begin()) >= it->second.size())
      return {};
    out.push_back(it->second[std::size_t(at - kept.begin())]);
  }
  return out;
}

Difference difference_of(std::string path, const std::vector<double>& va,
                         const std::vector<double>& vb) {
  Difference d;
  d.path = std::move(path);
  d.a_mean = summarize(va).mean;
  d.b_mean = summarize(vb).mean;
  d.paired = paired_difference(vb, va);
  d.unpaired = unpaired_difference(vb, va);
  // NOTE: with one pair there is no interval (it collapses onto the mean), so nothing is
  // significant.
  d.significant = d.paired.n > 1 && (d.paired.ci95_low > 0 || d.paired.ci95_high < 0);
  return d;
}

}  // namespace

std::vector<Difference> differences(const Summary& a, const Summary& b,
                                    const std::vector<std::size_t>& paired) {
  std::vector<Difference> out;
  for (const char* path : COMPARE_PATHS)
    out.push_back(difference_of(path, column(a, path, paired), column(b, path, paired)));
  // NOTE: every TCO option both sides project, in A's order, over the same pairs.
  for (const auto& [path, values] : a.tco_values) {
    const std::vector<double> va = tco_column(a, path, paired), vb = tco_column(b, path, paired);
    if (!va.empty() && va.size() == vb.size()) out.push_back(difference_of(path, va, vb));
  }
  return out;
}

Comparison compare(const Scenario& a, const CompiledScenario& ca, const Scenario& b,
                   const CompiledScenario& cb, MonteCarloOptions o) {
  // NOTE: a CI target would let the sides stop at different N; pairing needs the same replicas.
  o.target_ci_rel = 0;
  Comparison c;
  c.a = monte_carlo(a, ca, o);
  c.b = monte_carlo(b, cb, o);
  if (!c.held()) return c;
  c.paired = paired_replications(c.a, c.b);
  c.differences = differences(c.a, c.b, c.paired);
  return c;
}

}  // namespace gpuplan::study
