#pragma once
//! When capital and commitments count as cost in a TCO projection (models/economics/tco.h).
#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gpuplan::economics {

//! When capital and commitments count as cost.
enum class CostBasis : uint8_t {
  cash,     //!< upfront payments and server purchases fall in the month they are paid (for NPV)
  accrual,  //!< spread evenly: reservation upfronts over the term, servers over their life
};

//! Whole months in a term or life of `years` (rounded, at least one): the months between two
//! purchases of the same reservation or server generation on the cash basis.
[[nodiscard]] inline long term_months(double years) {
  return std::max(1L, std::lround(years * 12.0));
}

}  // namespace gpuplan::economics
