#include "sim/sharing/typical_shapes.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace gpuplan::sharing {

std::vector<TypicalShape> typical_shapes(const std::vector<PodShape>& pods, double popularity,
                                         uint32_t step) {
  using Key = std::tuple<uint32_t, uint8_t, uint16_t, uint32_t>;
  std::map<Key, uint32_t> counts;
  for (const PodShape& p : pods) ++counts[Key{p.cpu_milli, p.n_gpus, p.gpu_milli, p.gpu_types}];
  std::vector<std::pair<Key, uint32_t>> ranked(counts.begin(), counts.end());
  // Most frequent first; the map's key order breaks ties, so the set is reproducible.
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  const double total = static_cast<double>(pods.size());
  const double wanted = popularity * total;
  size_t taken = 0;
  double covered = 0;
  while (covered < wanted && taken < ranked.size()) {
    const size_t until = std::min(ranked.size(), taken + std::max<uint32_t>(step, 1));
    for (; taken < until; ++taken) covered += ranked[taken].second;
  }
  std::vector<TypicalShape> out;
  out.reserve(taken);
  for (size_t i = 0; i < taken; ++i) {
    const auto& [key, count] = ranked[i];
    TypicalShape s;
    s.shape.cpu_milli = std::get<0>(key);
    s.shape.n_gpus = std::get<1>(key);
    s.shape.gpu_milli = std::get<2>(key);
    s.shape.gpu_types = std::get<3>(key);
    s.p = count / covered;
    out.push_back(s);
  }
  return out;
}

}  // namespace gpuplan::sharing
