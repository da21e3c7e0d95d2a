#pragma once
//! The quote's iteration-level check of an inference sizing: the option's load replicas (spares
//! left out) simulated step by step (sim/serving/, run_serving_study) with vLLM's scheduler at
//! the sized batch (max_num_seqs = batch, chunked prefill, asynchronous scheduling, vLLM's default
//! token budget for the GPU or the batch if larger), the request's lengths and arrivals (Poisson at
//! its rate, or its concurrent streams as closed loops without a pause), a least-outstanding-tokens
//! router, and the request's TTFT and TPOT targets as each request's SLO. Monte Carlo over
//! SERVING_CHECK_REPLICATIONS independent runs; each p99 and the SLO attainment with its 95 %
//! interval across them. Where the Erlang sizing bounds a queue of slots, this measures what the
//! batches do: steps that stretch with their mix of prefill chunks and decodes, the KV cache
//! filling and preempting.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/quote/compute_budget.h"
#include "models/quote/quote.h"
#include "study/serving_study.h"

namespace gpuplan::quote {

//! Monte Carlo runs of one iteration-level check; the request's sim_requests are split among
//! them.
inline constexpr uint32_t SERVING_CHECK_REPLICATIONS = 4;

//! What the iteration-level simulation measured for one inference option.
struct ServingCheck {
  uint32_t replications = 0;
  uint64_t requests = 0;  //!< requests counted (after each run's 10 % warmup), all runs
  uint32_t max_num_seqs = 0, max_num_batched_tokens = 0;  //!< the scheduler simulated
  Estimate slo_attainment;  //!< share of requests within both the TTFT and the TPOT target
  Estimate ttft_p99, tpot_p99, e2e_p99;  //!< [s]
  double output_tokens_per_s = 0;        //!< [tokens/s] of the load replicas, mean of the runs
  double kv_occupancy_peak = 0;          //!< most KV blocks in use in one replica / its blocks
  double preemptions_per_1k = 0;         //!< KV-full preemptions per 1,000 completed requests
  bool saturated = false;                //!< a run's wait kept growing or its queue overflowed
  //! Not saturated, and each p99 target the request gives at least the simulated p99 (the mean
  //! of the runs' p99s).
  bool meets_targets = false;
};

//! Whether `c` meets `req`'s p99 targets (ServingCheck::meets_targets).
[[nodiscard]] bool serving_meets_targets(const InferenceRequest& req, const ServingCheck& c);

//! Simulates about `n_requests` requests of `req` on the load replicas of `opt` (feasible) with
//! `seed`; nullopt when the option is past what one run holds in memory
//! (MAX_SERVING_RECORDS), its longest request does not fit a replica's KV cache, or its
//! streams are more than a run takes.
[[nodiscard]] std::optional<ServingCheck> simulate_serving(const InferenceRequest& req,
                                                           const InferenceOption& opt,
                                                           uint64_t n_requests, uint64_t seed);

//! Iteration-level checks of the inference options a quote shows: the first `req.options.top`
//! feasible rows of `q.inference` (ranked order), each (instance, TP, replicas, batch) simulated
//! once with the request's `sim_requests` and `seed`; nullopt for every other row. The CLI and
//! `gpuplan serve` both call this. Throws Stopped before a run when `budget` (nullptr = none) has
//! run out or was cancelled.
[[nodiscard]] std::vector<std::optional<ServingCheck>> check_shown_serving(
    const QuoteRequest& req, const Quote& q, const ComputeBudget* budget = nullptr);

}  // namespace gpuplan::quote
