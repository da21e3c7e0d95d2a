#pragma once
//! What a reserved pool is committed to: every node's whole term (the nodes it starts with from
//! t = 0, each staged purchase from its own time) and the share inside a window. The one place
//! run, mc, recommend (result.json per_pool[].reserved) read reserved terms from; quote applies
//! the same rule (models/economics/billing.h, reserved_commitment) to its clusters.
#include <optional>

#include "models/economics/billing.h"
#include "models/scenario/scenario.h"

namespace gpuplan {

//! The reserved commitment of `pool` and its share inside [window_start_s, window_end_s) [s];
//! nullopt when the pool is not reserved (or its offer is invalid).
[[nodiscard]] std::optional<economics::ReservedCommitment> pool_commitment(const Pool& pool,
                                                                           double window_start_s,
                                                                           double window_end_s);

//! What the reserved pools of `sc` owe outside its window [warmup, horizon) [USD]: the part of
//! their whole commitments the window's cost does not carry (0 without reservations). The
//! window's cost plus this is what a plan commits its buyer to (`cost_usd.commitment_total`).
[[nodiscard]] double reserved_beyond_window_usd(const Scenario& sc);

}  // namespace gpuplan
