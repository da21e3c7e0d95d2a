#pragma once
//! The quote's engine check of an inference sizing: the option's M/M/c queue is built as an
//! in-memory scenario (one pool of the option's serving nodes, each with one server per decode
//! slot; a Poisson class of 1-slot requests with exponential service) and run once (study::run).
#include <cstdint>
#include <optional>
#include <vector>

#include "models/quote.h"

namespace gpuplan::quote {

//! What the engine measured for one inference option.
struct InferenceSimCheck {
  uint64_t requests = 0;     //!< requests completed in the statistics window
  double horizon_s = 0;      //!< [s] simulated time (10% of it warmup)
  double mean_wait_s = 0;    //!< [s] mean queue wait (compare with Erlang C)
  double p99_latency_s = 0;  //!< [s] p99 of wait + service (compare with the M/M/c p99)
  double utilization = 0;    //!< busy slots / slots (compare with rho)
  bool saturated = false;    //!< the engine's queue overflowed: the sizing cannot keep up
};

//! Simulates about `n_requests` requests of `req` on the serving nodes of `opt` with `seed`;
//! `opt` must be feasible.
[[nodiscard]] InferenceSimCheck simulate_inference(const InferenceRequest& req,
                                                   const InferenceOption& opt, uint64_t n_requests,
                                                   uint64_t seed);

}  // namespace gpuplan::quote

namespace gpuplan::quote {

//! Engine checks of the inference options a quote shows: the first `req.options.top` feasible
//! rows of `q.inference` (ranked order), each simulated once per (instance, serving nodes, slots)
//! with the request's `sim_requests` and `seed`; nullopt for every other row. The CLI and
//! `gpuplan serve` both call this, so their quotes agree figure for figure.
[[nodiscard]] std::vector<std::optional<InferenceSimCheck>> check_shown_inference(
    const QuoteRequest& req, const Quote& q);

}  // namespace gpuplan::quote
