#include "models/economics/run_out.h"

#include <algorithm>

namespace gpuplan::economics {

double run_out_month(const std::vector<double>& demand, uint32_t first_short, double capacity) {
  if (first_short == 0) return 0.0;
  if (first_short >= demand.size()) return first_short;
  const double before = demand[first_short - 1], after = demand[first_short];
  // NOTE: the clamp keeps noisy months (a simulated demand that fell into the short month, or
  // a month before it already above the capacity) inside the month's own interval.
  const double rise = after - before;
  const double share = rise > 0 ? std::clamp((capacity - before) / rise, 0.0, 1.0) : 0.0;
  return first_short - 0.5 + share;
}

}  // namespace gpuplan::economics
