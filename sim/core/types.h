#pragma once
//! The vocabulary the portable core shares with the scenario: time, "none" and "never", queue
//! policies, placements, distribution kinds, failure scopes. It includes nothing of the engine, so
//! the stages that only read scenarios do not recompile when the engine changes.
#include <cstdint>
#include <limits>

namespace gpuplan {

using SimTime = double;  //!< [s] simulated time since the scenario start

inline constexpr uint32_t NONE = 0xffffffffu;                              //!< "no index"
inline constexpr SimTime NEVER = std::numeric_limits<double>::infinity();  //!< empty-heap time

//! How queued jobs are ordered and started (enum dispatch, no virtuals: the core runs on device).
enum class QueuePolicy : uint8_t {
  fifo,      //!< strict submission order; the first job that does not fit blocks the rest
  backfill,  //!< submission order, but later jobs that fit now may start (no reservation)
  sjf,       //!< shortest declared duration first; jobs that fit start, the rest wait (no
             //!< preemption by the policy)
  srtf,      //!< shortest declared remaining time first; a shorter queued job preempts
  las,       //!< Tiresias 2D-LAS: least attained GPU-time queues, preemption between queues
  //! weighted fair share across teams: lowest weighted dominant share first, FIFO within a
  //! team, no preemption (sim/core/fair_share.h)
  fair_share,
  // GPU-type-aware policies (Gavel, Narayanan et al. OSDI'20; sim/core/type_aware.h)
  fifo_perf,  //!< strict FIFO; each job starts on the fastest GPU type for its class with room
  max_min_fairness_perf,  //!< least normalized attained service first, fastest type with room,
                          //!< preemption at the end of a job's round
};

//! Where a job's GPUs are taken from.
enum class Placement : uint8_t {
  best_fit,  //!< single node: fewest free GPUs that fit, lowest index; multi-node: lowest free
             //!< nodes
  pack,      //!< as best_fit, but a gang goes under the first leaf that holds it whole
  spread,    //!< single node: most free GPUs; gangs take one free node per leaf in turn
  topology_aware,  //!< gangs go to the smallest switch group that holds them (lowest level)
};

//! Shape of a random duration.
enum class DistKind : uint8_t {
  fixed,        //!< a
  exponential,  //!< mean a
  uniform,      //!< [a, b)
  lognormal,    //!< ln X ~ Normal(mu = a, sigma = b)
  loguniform,   //!< ln X ~ Uniform(ln a, ln b)
  empirical,    //!< step inverse CDF over a table of values
};

//! What one failure takes down (docs/failures.md).
enum class FailureScope : uint8_t {
  node,         //!< the node: its jobs are interrupted and it is out until repaired or replaced
  job,          //!< the jobs on the node (software, timeouts): the node stays up
  switch_leaf,  //!< every node below one leaf switch, until the switch is repaired
};

//! Why a replica stopped early or cannot be trusted.
enum class SaturationCause : uint8_t { none, queue_overflow, event_overflow, bad_event_time };

}  // namespace gpuplan
