#include "models/scenario/pool_commitment.h"

namespace gpuplan {

std::optional<economics::ReservedCommitment> pool_commitment(const Pool& pool,
                                                             double window_start_s,
                                                             double window_end_s) {
  if (!pool.econ.reserved) return std::nullopt;
  const economics::ReservedOffer& offer = *pool.econ.reserved;
  auto total = economics::reserved_commitment(offer, pool.initial_count(), 0.0, window_start_s,
                                              window_end_s);
  for (const PoolPurchase& b : pool.purchases) {
    const auto tranche =
        economics::reserved_commitment(offer, b.add, b.at_s, window_start_s, window_end_s);
    if (!total || !tranche) return std::nullopt;
    total->total_usd += tranche->total_usd;
    total->in_window_usd += tranche->in_window_usd;
  }
  return total;
}

double reserved_beyond_window_usd(const Scenario& sc) {
  double usd = 0;
  for (const Pool& pool : sc.pools)
    if (const auto c = pool_commitment(pool, sc.warmup_s, sc.horizon_s))
      usd += c->total_usd - c->in_window_usd;
  return usd;
}

}  // namespace gpuplan
