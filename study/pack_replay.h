#pragma once
//! Replays the Alibaba openb workload onto its cluster under one packing policy, as the FGD
//! paper's experiment does (Weng et al., USENIX ATC'23, §6; artifact
//! hkust-adsl/kubernetes-scheduler-simulator): pods arrive one by one and never leave until the
//! GPU demand that has arrived reaches `load` × the cluster's GPU capacity (pods beyond the trace
//! are drawn from it with replacement, as the artifact's workload tuning does), recording the GPU
//! allocation ratio against the arrived load; or, with departures, each pod arrives at its
//! creation time and leaves at its deletion time.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/trace/openb_trace.h"
#include "sim/sharing/pack_policy.h"

namespace gpuplan {

//! The order in which pods arrive in the arrive-only replay.
enum class PodOrder : uint8_t {
  trace,     //!< file order (creation order)
  shuffled,  //!< a seeded permutation (the artifact's --shuffle-pod)
};

//! What to replay.
struct PackReplayOptions {
  sharing::PackPolicy policy = sharing::PackPolicy::fgd;
  uint64_t seed = 42;  //!< keys the random policy, the shuffle and the resampling
  double load = 1.0;   //!< arrive-only: stop when arrived GPU demand reaches this × capacity
  PodOrder order = PodOrder::trace;
  bool departures = false;   //!< pods arrive at creation and leave at deletion time
  double popularity = 0.95;  //!< typical shapes cover this share of pods (sharing/typical_shapes.h)
};

//! One point of a replay's curve.
struct PackCurvePoint {
  double x = 0;  //!< arrived load (arrived GPU-milli ÷ total) or time [s] with departures
  double allocation_ratio = 0;    //!< allocated ÷ total GPU-milli
  double fragmented_gpus = 0;     //!< [GPUs] Σ node fragmentation ÷ 1000
  uint32_t pods_unplaceable = 0;  //!< pods that found no node so far
};

//! The outcome of one replay.
struct PackReplayResult {
  PackReplayOptions options;
  uint32_t n_nodes = 0, n_gpus = 0, n_typical_shapes = 0;
  uint32_t pods_arrived = 0, pods_placed = 0, pods_unplaceable = 0;
  uint64_t gpu_milli_unplaceable = 0;  //!< [milli-GPU] asked by pods that found no node
  double arrived_load = 0;             //!< arrived GPU-milli ÷ total at the end (arrive-only)
  double allocation_ratio = 0;  //!< at the end (arrive-only) or time-weighted mean (departures)
  double fragmented_gpus = 0;   //!< [GPUs] at the end (arrive-only) or at the peak allocation
  std::vector<PackCurvePoint> curve;  //!< every 1 % of arrived load, or 200 times with departures
};

//! Replays `trace` under `opt` (opt must be valid: load in (0, 4], popularity in (0, 1]).
[[nodiscard]] PackReplayResult replay_openb(const OpenbTrace& trace, const PackReplayOptions& opt);

//! The CLI and result name of a policy: "best-fit", "worst-fit", "random", "fgd".
[[nodiscard]] const char* pack_policy_name(sharing::PackPolicy p);

//! The policy called `name` (as pack_policy_name gives it), or nullopt.
[[nodiscard]] std::optional<sharing::PackPolicy> find_pack_policy(std::string_view name);

}  // namespace gpuplan
