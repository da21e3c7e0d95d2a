#include <algorithm>
#include <cmath>

#include "models/scenario/scenario.h"

namespace gpuplan {

double Distribution::mean() const {
  switch (kind) {
    case DistKind::fixed:
    case DistKind::exponential:
      return a;
    case DistKind::uniform:
      return (a + b) / 2;
    case DistKind::lognormal:
      return std::exp(a + b * b / 2);
    case DistKind::loguniform:
      // E[X] for ln X ~ U(ln a, ln b) is (b - a) / (ln b - ln a); a == b degenerates to a.
      return b == a ? a : (b - a) / (std::log(b) - std::log(a));
    case DistKind::empirical: {
      if (values.empty()) return 0;
      double sum_w = 0, sum_vw = 0;
      for (size_t i = 0; i < values.size(); ++i) {
        const double w = i < weights.size() ? weights[i] : 1.0;
        sum_w += w;
        sum_vw += w * values[i];
      }
      return sum_w > 0 ? sum_vw / sum_w : 0;
    }
  }
  return 0;
}

double GpuChoice::mean() const {
  double m = 0;
  for (size_t i = 0; i < values.size() && i < probs.size(); ++i) m += values[i] * probs[i];
  return m;
}

uint32_t GpuChoice::max() const {
  return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

}  // namespace gpuplan
