#pragma once
//! Sizing LLM serving by tokens: how many replicas, of how many GPUs each (tensor parallel within
//! a node), at what batch, serve a token load within its time-to-first-token (TTFT) and
//! time-per-output-token (TPOT) targets.
//!
//! A replica runs continuous batching with chunked prefill (vLLM; TensorRT-LLM's in-flight
//! batching): it holds `batch` slots; a request takes a slot, its prompt is prefilled inside the
//! decode steps, then it generates one token per step (Yu et al., Orca, OSDI 2022; Agrawal et al.,
//! Sarathi-Serve, OSDI 2024). With O output tokens, prompt P_in tokens, and per replica:
//! - T(b), one decode step at b sequences: the roofline of models/perf/inference/roofline.h;
//! - P, one prompt's prefill: its forward FLOPs at the prefill efficiency plus its tensor-parallel
//!   all-reduces, compute-bound since the step reads the weights for the decoding slots anyway;
//! - at λ_r requests/s per replica, prefills take λ_r·P of the replica's time, so a decode step
//!   stretches on average to T / (1 − λ_r·P), and a request holds its slot for
//!   S = P + O·T / (1 − λ_r·P);
//! - requests queue for a slot across all replicas (one router queue): M/M/c with c = replicas ×
//!   batch and mean service S. For fixed lengths the service is nearly constant and M/M/c's wait
//!   tail is above M/D/c's, so the sizing errs on the safe side; the quote's engine check
//!   simulates the queue with the service the lengths imply (study/quote_check.h);
//! - TTFT = wait + P + T (the step in flight when the request is admitted); with a length
//!   distribution, its p99 takes the p99 prompt's prefill (a sum of quantiles: conservative);
//! - a request's TPOT = T + k·P / O, k the prefills of other requests during its O steps,
//!   Poisson with mean λ_r·O·T / (1 − λ_r·P);
//! - end-to-end = TTFT + O × TPOT.
//!
//! Concurrent streams (a closed loop without think time): R replicas hold N / R streams each, no
//! one waits for a slot, and λ = N / S by Little's law.
//!
//! With every slot busy (TensorRT-LLM's perf-overview "max throughput" runs) a replica delivers
//! B·O / (B·P + O·T(B)) output tokens/s: each round of B requests costs B prefills and O steps.
#include <cstdint>
#include <optional>
#include <string>

#include "models/catalog/catalog.h"
#include "models/perf/inference/roofline.h"
#include "models/perf/training/model_shape.h"

namespace gpuplan::inference {

//! Largest batch a replica is sized with (TensorRT-LLM's default max_batch_size is 2,048).
inline constexpr uint32_t DEFAULT_MAX_BATCH = 2048;

//! The load: either an open Poisson arrival rate or a number of concurrent streams.
struct TokenLoad {
  double requests_per_s = 0;      //!< [1/s] Poisson arrivals (0 when streams are given)
  double concurrent_streams = 0;  //!< closed-loop streams (0 when a rate is given)
  double tokens_in = 0;           //!< prompt tokens per request (mean)
  double tokens_out = 1;          //!< generated tokens per request (mean)
  //! Prompt length quantiles for TTFT p50 and p99 (0 = tokens_in: every prompt alike).
  double tokens_in_p50 = 0, tokens_in_p99 = 0;
};

//! The service-level objectives; 0 = no target.
struct TokenSlo {
  double ttft_p99_s = 0;  //!< [s] p99 time to first token
  double tpot_p99_s = 0;  //!< [s] p99 over requests of the mean time per output token
  double e2e_p99_s = 0;   //!< [s] p99 of the whole request
};

//! The replica hardware and the knobs that do not depend on the load.
struct ReplicaHardware {
  const training::ModelShape* model = nullptr;
  const GpuSpec* gpu = nullptr;
  std::string fabric;          //!< the node's GPU interconnect (nvlink4, pcie, ...)
  uint32_t gpus_per_node = 1;  //!< a replica's tensor-parallel group stays within one node
  ServingRequest roofline;     //!< precision and efficiency overrides (tp, batch, lengths unused)
};

//! Limits of the search.
struct SizingLimits {
  uint32_t max_batch = DEFAULT_MAX_BATCH;  //!< slots per replica at most
  uint32_t max_replicas = 1u << 16;        //!< serving replicas at most
  uint32_t spares = 1;                     //!< replicas added for redundancy (N + spares)
  //! Busiest share of the load replicas' slots a plan may use: headroom for bursts, since a
  //! queue over millions of slots meets a wait target at 99.9% busy and then overflows on the
  //! first surge.
  double max_utilization = 0.85;
};

//! One configuration at one load.
struct ServingPlan {
  uint32_t tp = 0;                                  //!< GPUs per replica
  uint32_t batch = 0;                               //!< slots per replica
  uint32_t replicas = 0;                            //!< serving replicas, spares not included
  uint32_t nodes = 0;                               //!< nodes holding replicas + spares
  double weight_bytes = 0, kv_bytes_per_token = 0;  //!< [B]
  uint64_t max_batch_by_memory = 0;                 //!< sequences whose KV cache fits a replica
  double prefill_s = 0;                             //!< [s] P, one prompt
  double step_s = 0;                                //!< [s] T, one decode step at the batch in use
  double loaded_step_s = 0;   //!< [s] T / (1 − λ_r·P), a step with its share of prefills
  double slot_s = 0;          //!< [s] S, the time a request holds its slot
  double requests_per_s = 0;  //!< [1/s] λ, given or by Little's law from the streams
  double utilization = 0;     //!< busy slots / slots of the serving replicas
  double p_wait = 0;          //!< probability that a request waits for a slot (Erlang C)
  double wait_mean_s = 0, wait_p99_s = 0;  //!< [s]
  double ttft_p50_s = 0, ttft_p99_s = 0;   //!< [s]
  double tpot_p50_s = 0, tpot_p99_s = 0;   //!< [s]
  double e2e_p99_s = 0;                    //!< [s]
  double capacity_tokens_per_s = 0;        //!< [tokens/s] serving replicas with every slot busy
  double demand_tokens_per_s = 0;          //!< [tokens/s] λ × O
  bool stable = false;                     //!< the replicas keep up with the load
  bool meets = false;                      //!< stable and every target met
  std::string miss;       //!< the worst-missed target, e.g. "TTFT p99 0.41 s > 0.2 s"
  std::string miss_key;   //!< its request key: ttft_p99, tpot_p99 or p99_latency
  double miss_ratio = 0;  //!< worst achieved / target (> 1 when missed)
};

//! The plan of `replicas` replicas of `tp` GPUs with `batch` slots each under `load`.
[[nodiscard]] ServingPlan evaluate_plan(const ReplicaHardware& hw, uint32_t tp, uint32_t batch,
                                        uint32_t replicas, const TokenLoad& load,
                                        const TokenSlo& slo, const SizingLimits& limits);

//! One prompt's prefill of `tokens_in` tokens on a replica of `tp` GPUs, chunked into the decode
//! steps: its forward FLOPs at the prefill efficiency plus its all-reduces [s].
[[nodiscard]] double prefill_s(const ReplicaHardware& hw, uint32_t tp, double tokens_in);

//! Output tokens/s of one replica of `tp` GPUs with every one of `batch` slots busy (`batch` 0 =
//! the largest the KV cache and limits allow); 0 when the model does not fit.
[[nodiscard]] double saturated_tokens_per_s(const ReplicaHardware& hw, uint32_t tp, uint32_t batch,
                                            double tokens_in, double tokens_out,
                                            const SizingLimits& limits = {});

//! The sizing: over tensor-parallel groups (powers of two within a node) and batches, the plan
//! meeting every target on the fewest nodes (then the most headroom, then the smaller group).
struct SizingResult {
  std::optional<ServingPlan> best;
  std::optional<ServingPlan> nearest_miss;  //!< when none meets: the smallest worst-miss ratio
  std::string reason;                       //!< when none meets: why, with the nearest miss
};
[[nodiscard]] SizingResult size_serving(const ReplicaHardware& hw, const TokenLoad& load,
                                        const TokenSlo& slo, const SizingLimits& limits);

}  // namespace gpuplan::inference
