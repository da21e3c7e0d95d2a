#pragma once
//! A Monte Carlo study: replicas 0..N-1 of one model run in batches on the CPU or CUDA backend,
//! optionally growing batch by batch until the headline confidence intervals are tight enough.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sim/mc_batch.h"
#include "sim/backends/mc_mpi.h"

namespace gpuplan {

//! Where replicas run.
enum class McBackend : uint8_t { cpu, cuda };

//! "cpu" or "cuda".
[[nodiscard]] const char* backend_name(McBackend b);

//! True when the CUDA module (sim/backends/mc_cuda.h) is built and loads, and a device is present.
[[nodiscard]] bool cuda_backend_available();

struct McStudy;

//! How to run a study.
struct McOptions {
  uint32_t replications = 100;        //!< replicas to run; the minimum when target_ci_rel > 0
  uint32_t max_replications = 10000;  //!< cap on replicas when target_ci_rel > 0
  uint32_t batch = 0;                 //!< replicas per batch; 0 = sized from memory
  uint32_t threads = 0;               //!< CPU threads; 0 = OpenMP default
  McBackend backend = McBackend::cpu;
  double target_ci_rel = 0;  //!< > 0: add batches until every headline CI half-width <= rel |mean|
  //! Processes the study is split across (sim/backends/mc_mpi.h); every one calls run_monte_carlo.
  ProcessGroup processes;
  //! Called on rank 0 before the first batch (done = 0) and after each round; may be empty.
  std::function<void(const McStudy& study, uint32_t done, uint32_t planned)> progress;
};

//! The replicas of a study and how they were run.
struct McStudy {
  //! index = replica index; histograms already pooled. Empty on MPI ranks other than 0, which
  //! hold nothing of the study once it returns.
  std::vector<ReplicaOutcome> replicas;
  //! Wait / JCT quantile sketches [n_classes * SKETCH_BINS] merged over the replicas that did not
  //! saturate, and over all replicas.
  std::vector<uint64_t> wait_hist_ok, jct_hist_ok, wait_hist_all, jct_hist_all;
  McBackend backend = McBackend::cpu;
  std::string device;                 //!< "2 threads", the GPU's name, "4 processes x 2 threads"
  uint32_t threads = 0;               //!< CPU worker threads of this process (0 on CUDA)
  uint32_t processes = 1;             //!< MPI processes the replicas were split across
  uint32_t batch_size = 0;            //!< replicas per batch (per process)
  uint32_t batches = 0;               //!< rounds run (a round is one batch per process)
  std::size_t bytes_per_replica = 0;  //!< [bytes] memory of one replica in a batch
  bool target_requested = false;      //!< a CI target was given
  bool target_met = false;            //!< every headline CI met it (false when not requested)
};

//! Runs the study. Replica k's outcome depends only on the model and k (never on threads, batch
//! size or backend within floating-point agreement), so a study of N replicas is the first N
//! replicas of any larger one. With several processes, each runs a slice of every round, rank 0
//! gathers them in replica order and decides --target-ci growth for all, so rank 0 returns the
//! study one process would. Throws std::runtime_error on a CUDA failure.
[[nodiscard]] McStudy run_monte_carlo(const ModelView& m, const McOptions& o);

//! Headline means are tight enough: every headline metric (wait and JCT means, utilization, total
//! cost) has a CI half-width <= rel |mean| over the replicas counted in statistics.
[[nodiscard]] bool headline_target_met(const ModelView& m,
                                       const std::vector<ReplicaOutcome>& replicas, double rel);

//! Indices of the replicas statistics are taken over: those that did not saturate, or all of them
//! when every replica saturated (docs/monte-carlo.md, "Saturated replicas").
[[nodiscard]] std::vector<std::size_t> replicas_in_statistics(
    const std::vector<ReplicaOutcome>& replicas);

}  // namespace gpuplan
