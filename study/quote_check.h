#pragma once
//! The quote's engine check of an inference sizing: the queue for batch slots is built as an
//! in-memory scenario (one pool of the option's load replicas, spares left out, each an engine
//! node with one server per batch slot; a Poisson class of 1-slot requests holding a slot for the
//! prefill and the generation, a fixed time as fixed token lengths imply) and run once
//! (study::run). The time to first token is the simulated wait plus the prefill and the step in
//! flight. Requests given as concurrent streams never wait for a slot and are not simulated.
#include <cstdint>
#include <optional>
#include <vector>

#include "models/quote/quote.h"

namespace gpuplan::quote {

//! What the engine measured for one inference option.
struct InferenceSimCheck {
  uint64_t requests = 0;   //!< requests completed in the statistics window
  double horizon_s = 0;    //!< [s] simulated time (10% of it warmup)
  double mean_wait_s = 0;  //!< [s] mean wait for a slot (Erlang C bounds it from above)
  double wait_p99_s = 0;   //!< [s] p99 wait for a slot
  double ttft_p99_s = 0;   //!< [s] p99 wait + prefill + one decode step
  double utilization = 0;  //!< busy slots / slots (compare with rho)
  bool saturated = false;  //!< the engine's queue overflowed: the sizing cannot keep up
};

//! Simulates about `n_requests` requests of `req` on the load replicas of `opt` with `seed`;
//! `opt` must be feasible and `req` a request rate.
[[nodiscard]] InferenceSimCheck simulate_inference(const InferenceRequest& req,
                                                   const InferenceOption& opt, uint64_t n_requests,
                                                   uint64_t seed);

}  // namespace gpuplan::quote

namespace gpuplan::quote {

//! Batch slots above which an option is not simulated: the engine holds state per slot, and a
//! queue this wide waits for nothing the closed form does not already say.
inline constexpr uint32_t MAX_CHECKED_SLOTS = 1u << 20;

//! Engine checks of the inference options a quote shows: the first `req.options.top` feasible
//! rows of `q.inference` (ranked order), each simulated once per (instance, replicas, batch) with
//! the request's `sim_requests` and `seed`; nullopt for every other row, for streams and past
//! MAX_CHECKED_SLOTS. The CLI
//! and `gpuplan serve` both call this, so their quotes agree figure for figure. Throws Stopped
//! before a run when `budget` (nullptr = none) has run out or was cancelled.
[[nodiscard]] std::vector<std::optional<InferenceSimCheck>> check_shown_inference(
    const QuoteRequest& req, const Quote& q, const ComputeBudget* budget = nullptr);

}  // namespace gpuplan::quote
