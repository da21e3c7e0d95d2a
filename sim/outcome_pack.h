#pragma once
//! Replica outcomes as flat bytes, so MPI processes can hand their replicas to rank 0
//! (sim/backends/mc_mpi.h). Host only; the bytes never leave one build of gpuplan.
#include <cstddef>
#include <vector>

#include "sim/mc_batch.h"

namespace gpuplan {

//! Appends outcomes[0..n) to `out`: every field, vectors with their lengths.
void pack_outcomes(const ReplicaOutcome* outcomes, std::size_t n, std::vector<std::byte>& out);

//! Reads exactly n outcomes from bytes[0..size) into out[0..n), replacing what was there. Throws
//! std::runtime_error when the bytes are not exactly n packed outcomes.
void unpack_outcomes(const std::byte* bytes, std::size_t size, ReplicaOutcome* out, std::size_t n);

}  // namespace gpuplan
