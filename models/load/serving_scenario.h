#pragma once
//! A serving scenario (`gpuplan serve-sim FILE`): one model on replicas of tensor-parallel GPUs,
//! vLLM's scheduler settings, a workload of Poisson arrivals with fixed lengths or the lengths of
//! a token trace, shared prefixes and TTFT/TPOT SLOs (docs/serving-simulation.md). Loaded and
//! checked here; every bad value is a diagnostic at its JSON pointer (exit 2), including a model
//! that does not fit the replica's memory, a token budget below the longest prompt without
//! chunked prefill or below max_num_seqs, and a request larger than the replica's KV cache.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "models/catalog/catalog.h"
#include "models/input/diagnostic.h"
#include "models/load/serving_search_space.h"
#include "models/perf/inference/serving_step.h"
#include "models/perf/training/model_shape.h"
#include "sim/serving/replica.h"

namespace gpuplan {

//! Request records a serving run holds, all replicas (about 0.5 GB): each replica holds one per
//! running and waiting request, allocated up front.
inline constexpr uint64_t MAX_SERVING_RECORDS = 1u << 22;

//! The decode pool's own hardware in a disaggregated cluster (`disaggregated.decode`): the model
//! and precision stay those of the prefill pool.
struct DecodeShape {
  std::string gpu_id, fabric;
  GpuSpec gpu;
  uint32_t tp = 1;
  inference::ServingReplicaModel replica;  //!< step model and KV blocks of one decode replica
  inference::ServingRequest request;       //!< its tp and efficiencies (defaults: its GPU's)
};

//! What the cluster's GPUs cost (`instance` and `pricing`): the catalog's price of the instance
//! type, per GPU-hour, with the row's date and source.
struct ServingPrice {
  std::string instance;  //!< catalog id, e.g. "p5.48xlarge"
  Pricing pricing = Pricing::on_demand;
  double usd_per_gpu_hour = 0;  //!< [USD per GPU-hour] node price / GPUs per node
  bool derived = false;         //!< the catalog derived this price; the provider publishes none
  std::string as_of, source;
};

//! A loaded serving scenario.
struct ServingScenario {
  std::string name;
  uint64_t seed = 42;
  uint32_t replications = 1;
  std::string model_id, gpu_id, fabric;
  training::ModelShape model;
  GpuSpec gpu;
  Precision precision = Precision::bf16;
  uint32_t tp = 1;
  inference::ServingRequest request;       //!< tp, precision, efficiencies, memory share
  inference::ServingReplicaModel replica;  //!< step model and KV blocks of one replica
  //! vLLM's custom all-reduce where it runs (models/perf/inference/serving_step.h); false as
  //! vLLM's --disable-custom-all-reduce
  bool custom_all_reduce = true;
  //! The decode pool's hardware when `disaggregated.decode` gives it (else the replica's above).
  std::optional<DecodeShape> decode;
  //! The simulator's settings; its workload's `table` is empty here (serving_view points it at
  //! `lengths`, so a copied scenario never points into another one's rows).
  serving::ServingView view;
  std::vector<serving::LengthRow> lengths;  //!< rows of the trace (empty: fixed lengths)
  std::string lengths_source;               //!< the trace file, or "fixed"
  //! [s] A replayed trace's arrival times (`"arrivals": "trace"`), its timestamps after the first
  //! over `rate_scale`; empty: Poisson arrivals.
  std::vector<double> arrival_times;
  //! How many times faster than recorded the trace is replayed, or the stages' rates over theirs
  //! as given.
  double rate_scale = 1;
  //! `"stages"`: Poisson arrivals at staged constant rates, the cycle repeating; empty: one rate.
  std::vector<serving::RateStage> stages;
  uint32_t queue_capacity = 4096;  //!< waiting requests per replica before saturation
  //! The GPUs' price when the scenario names an `instance`; the cost figures need it.
  std::optional<ServingPrice> price;
  //! `search`: the configurations to try instead of simulating this one alone.
  std::optional<ServingSearchSpace> search;
};

//! Links a KV transfer of `sc` uses: each GPU of a group sends its shard on its own link, and with
//! a decode pool of other tensor parallelism, as many as the smaller group has GPUs.
[[nodiscard]] inline uint32_t kv_transfer_links(const ServingScenario& sc) {
  return sc.decode && sc.decode->tp < sc.tp ? sc.decode->tp : sc.tp;
}

//! Waiting requests a replica must hold for `streams` closed-loop streams behind a router that
//! spreads them: about streams / replicas each, and twice that before it is reported saturated.
[[nodiscard]] inline uint64_t streams_queue_per_replica(uint32_t streams, uint32_t replicas) {
  const uint64_t r = std::max(replicas, 1u);
  return 2 * ((uint64_t(streams) + r - 1) / r);
}

//! The keys each object of a serving scenario may hold, by the object's JSON pointer ("" is the
//! root); docs/serving-scenario.schema.json lists the same (tests/models/load).
[[nodiscard]] const std::vector<std::pair<std::string, std::vector<std::string>>>&
serving_scenario_keys();

//! The keys of the object at `ptr` (serving_scenario_keys); none for an unknown pointer.
[[nodiscard]] const std::vector<std::string>& serving_keys_at(const std::string& ptr);

class FieldReader;

//! Part of load_serving_scenario (models/load/serving_workload.cpp): reads `workload` of `root`
//! (arrivals, lengths, shared prefixes, conversations) into sc; returns the pointer an error
//! about the longest request names.
std::string load_serving_workload(const nlohmann::json& root, FieldReader& f, Diagnostics& d,
                                  ServingScenario& sc, const std::string& base_dir,
                                  const std::vector<std::string>& data_path);

//! Sets `v`'s step and request overheads to the serving software's fitted ones, the defaults
//! a scenario's `efficiency` overrides (models/perf/inference/serving_step.h).
void set_default_overheads(serving::ServingView& v);

//! Sizes the replica of `sc` from its model, GPU, fabric, tp, precision and block size with `rq`'s
//! efficiencies and memory share (the simulator's defaults for the GPU where `rq` leaves them at
//! 0): sets `sc.request`, `sc.replica`, the view's step model (keeping its step and sequence
//! overheads, with vLLM's custom all-reduce where it runs unless `sc` turns it off), GPUs per
//! replica, seed and KV blocks. False when the weights leave no room for a KV block.
bool model_replica(ServingScenario& sc, inference::ServingRequest rq);

//! The simulator's view of `sc`, its length table pointing into `sc.lengths`.
[[nodiscard]] serving::ServingView serving_view(const ServingScenario& sc);

//! Loads the serving scenario in `text` (`file` labels messages; traces are found beside
//! `base_dir` or on `data_path`) with the `--set PATH=VALUE` overrides `overrides` applied first
//! (models/load/scenario_override.h); nullopt when any value is bad, each problem in `d`.
[[nodiscard]] std::optional<ServingScenario> load_serving_scenario(
    std::string_view text, const std::string& file, const std::string& base_dir,
    const std::vector<std::string>& data_path, Diagnostics& d,
    const std::vector<std::string>& overrides = {});

}  // namespace gpuplan
