#include "study/summary.h"

namespace gpuplan::study {

Statistic statistic_of(const MetricSummary& m, bool has_spread) {
  Statistic s;
  s.n = m.n;
  s.mean = m.mean;
  if (has_spread) s.spread = Statistic::Spread{m.ci95_low, m.ci95_high, m.p05, m.p50, m.p95};
  return s;
}

Statistic Summary::stat(const std::string& path) const {
  return statistic_of(stats.at(path), info.replications > 1);
}

}  // namespace gpuplan::study
