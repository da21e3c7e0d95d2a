#pragma once
//! `gpuplan mc` as a library call: replications 0..N-1 of a compiled scenario on the CPU or CUDA
//! backend, split across the MPI processes of the command (sim/backends/mc_mpi.h), summarised.
#include <cstdint>
#include <functional>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/summary.h"

namespace gpuplan::study {

//! How to run a Monte Carlo study.
struct MonteCarloOptions {
  uint32_t replications = 100;        //!< replications; the minimum with a CI target
  uint32_t max_replications = 10000;  //!< cap on replications with a CI target
  uint32_t batch = 0;                 //!< replications per batch; 0 = sized from memory
  uint32_t threads = 0;               //!< CPU threads; 0 = OpenMP default
  McBackend backend = McBackend::cpu;
  double target_ci_rel = 0;  //!< > 0: add batches until every headline CI half-width <= rel |mean|
  //! Called on the process that holds the study before the first batch (done = 0) and after each
  //! round; may be empty.
  std::function<void(const McStudy& study, uint32_t done, uint32_t planned)> progress;
};

//! Runs the study of `cs` (compiled from `sc`). Inside an MPI session every process must call it:
//! the replications are split across them and rank 0 returns the Summary one process would
//! (info.processes says how many ran); the others return one with `held` false.
//! Throws std::runtime_error on a CUDA failure.
[[nodiscard]] Summary monte_carlo(const Scenario& sc, const CompiledScenario& cs,
                                  const MonteCarloOptions& o);

}  // namespace gpuplan::study
