#pragma once
//! The configuration search of a serving scenario's `search` (models/load/serving_search_space.h):
//! for each instance type x tensor parallelism x token budget x sequence cap, the fewest replicas
//! whose simulated SLO attainment reaches the goal, and the cheapest configuration overall, as
//! Vidur's configuration search asks (Agrawal et al., MLSys 2024) but sized for the workload's
//! own rate rather than each configuration's capacity.
//!
//! Each configuration is loaded as the scenario with its values set (so every check the loader
//! makes holds for it), then simulated at a growing number of replicas until one meets the goal,
//! and bisected down to the fewest. A configuration is abandoned, branch-and-bound, as soon as
//! the replicas it is shown to need cost at least the cheapest found so far: its cost is then a
//! proven lower bound, not a guess (`exhaustive` searches each to its fewest instead). The search
//! assumes attainment does not fall as replicas are added (the same seeds, the load spread over
//! more of them).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/names.h"
#include "models/load/serving_scenario.h"
#include "study/serving_study.h"

namespace gpuplan {

//! One point of the search space.
struct SearchConfiguration {
  std::string instance, gpu_id;
  uint32_t tp = 1, max_num_batched_tokens = 0, max_num_seqs = 0;
};

//! One simulation of a configuration at `replicas`.
struct SearchTrial {
  uint32_t replicas = 0;
  double slo_attainment = 0;  //!< mean over the Monte Carlo replicas
  bool saturated = false;
  bool meets = false;  //!< not saturated and slo_attainment at least the goal
};

//! What the search found for a configuration.
enum class SearchVerdict : uint8_t {
  cheapest,      //!< meets the goal at the lowest cost of all
  meets,         //!< meets the goal, at a higher cost
  costlier,      //!< needs more replicas than the cheapest's cost buys (a proven lower bound)
  misses,        //!< misses the goal even at the most replicas the search allows
  does_not_fit,  //!< the loader refuses it (weights, KV cache, budget) or tp exceeds a node
};

GPUPLAN_ENUM_NAMES(SearchVerdict, "search verdict", "cheapest", "meets", "costlier", "misses",
                   "does_not_fit");

struct SearchCandidate {
  SearchConfiguration config;
  SearchVerdict verdict = SearchVerdict::does_not_fit;
  //! does_not_fit: the loader's message; misses: why a larger count was not tried, if the
  //! loader refused it (the request records of a run)
  std::string reason;
  double usd_per_replica_hour = 0;  //!< tp GPUs at the instance's price
  //! cheapest/meets: the fewest replicas meeting the goal; costlier: the fewest it could need
  //! (one more than the most shown to miss); misses: the most tried
  uint32_t replicas = 0;
  double usd_per_hour = 0;  //!< replicas x usd_per_replica_hour (a lower bound when costlier)
  std::vector<SearchTrial> trials;  //!< in the order simulated
  //! At `replicas`, cheapest/meets only (the same figures serve-sim reports).
  Estimate slo_attainment, ttft_p99, tpot_p99, usd_per_million_output_tokens;
  double output_tokens_per_s = 0;
};

struct ServingSearch {
  double attainment = 0;  //!< the goal
  uint32_t max_replicas = 0;
  bool exhaustive = false;                  //!< every configuration searched to its fewest replicas
  std::vector<SearchCandidate> candidates;  //!< ranked: meeting by cost, costlier, misses, rest
  //! The cheapest configuration at its fewest replicas and its study (candidates[0]); empty when
  //! none meets the goal.
  std::optional<ServingScenario> best;
  std::optional<ServingStudy> best_study;
  uint32_t simulations = 0;  //!< studies run
};

//! Applied to every configuration's scenario after loading (the CLI's --seed, --requests, ...).
using ScenarioAdjust = std::function<void(ServingScenario&)>;

//! Searches `sc.search` (which must be set) over the scenario in `text` (loaded from `file` with
//! `overrides`, as `sc` was), each study on `threads` threads. Deterministic: the same
//! scenario and seed give the same answer on any thread count.
[[nodiscard]] ServingSearch search_serving(const ServingScenario& sc, std::string_view text,
                                           const std::string& file, const std::string& base_dir,
                                           const std::vector<std::string>& data_path,
                                           const std::vector<std::string>& overrides,
                                           const ScenarioAdjust& adjust, uint32_t threads = 0);

}  // namespace gpuplan
