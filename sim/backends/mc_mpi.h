#pragma once
//! Monte Carlo across the processes `mpirun` starts (docs/monte-carlo.md, "Many machines (MPI)"):
//! each process runs a contiguous slice of every round of replicas and rank 0 gathers them in
//! replica order. Without MPI compiled in, or without mpirun, there is one process and no MPI call.
#include <cstdint>
#include <string>
#include <vector>

#include "sim/mc_batch.h"

namespace gpuplan {

//! The processes a study is split across; {0, 1} is this process alone.
struct ProcessGroup {
  uint32_t rank = 0;  //!< this process, 0..size-1
  uint32_t size = 1;  //!< processes
  [[nodiscard]] bool root() const { return rank == 0; }
};

//! Processes an MPI launcher says it started (OMPI_COMM_WORLD_SIZE, PMI_SIZE, or 1 when only
//! PMIX_RANK is set); 0 when this process was not started by one.
[[nodiscard]] uint32_t launcher_process_count();

//! The processes of MPI_COMM_WORLD while an MpiSession is open, else {0, 1}.
[[nodiscard]] ProcessGroup mpi_world();

//! MPI for the life of one command. Initialises MPI only when a launcher started this process
//! (so a plain `gpuplan mc` pays nothing) and finalises it on destruction; leaving the scope by
//! an exception aborts every process, since the others would wait forever.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  //! Empty, or why this process cannot run as one of several (e.g. no MPI compiled in).
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  bool started_ = false;
  std::string error_;
};

//! First replica of `rank`'s slice when n replicas are split over `size` processes; slices are
//! contiguous, in rank order, and differ in length by at most one.
[[nodiscard]] inline uint32_t slice_begin(uint32_t n, uint32_t rank, uint32_t size) {
  return static_cast<uint32_t>(uint64_t(n) * rank / size);
}

// The collectives below must be called by every process of the group in the same order; with
// one process they do nothing.

//! True on every process when `ok` is true on every process.
[[nodiscard]] bool all_true(const ProcessGroup& g, bool ok);

//! Overwrites values[0..n) on every process with rank 0's.
void broadcast_from_root(const ProcessGroup& g, uint32_t* values, std::size_t n);

//! Overwrites values[0..n) on every process with rank 0's.
void broadcast_from_root(const ProcessGroup& g, double* values, std::size_t n);

//! Overwrites `text` on every process with rank 0's.
void broadcast_from_root(const ProcessGroup& g, std::string& text);

//! Every process's `value`, in rank order, on rank 0 (empty elsewhere).
[[nodiscard]] std::vector<uint32_t> gather_to_root(const ProcessGroup& g, uint32_t value);

//! Sums `values` element-wise into rank 0's copy (the others keep theirs).
void sum_to_root(const ProcessGroup& g, std::vector<uint64_t>& values);

//! Hands a round of n replicas to rank 0: this process ran the slice starting at
//! slice_begin(n, rank, size) into `mine`; on rank 0 every other slice is unpacked into
//! round[slice_begin(n, r, size)..] (round is unused elsewhere).
void gather_round(const ProcessGroup& g, uint32_t n, const ReplicaOutcome* mine,
                  ReplicaOutcome* round);

}  // namespace gpuplan
