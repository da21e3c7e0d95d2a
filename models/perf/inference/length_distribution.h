#pragma once
//! Prompt or output lengths given as a distribution in a quote request
//! (`"tokens_in": {"lognormal": {"median": 1000, "p90": 3000}}`), and the stratified sample of
//! requests the sizing and its engine check use in place of a trace: request k of n takes the
//! quantile (k + 1/2) / n of each length, the output's in a shuffled order so the two are
//! independent. No random numbers, so the same request gives the same quote everywhere.
#include <cstddef>
#include <string>

#include "models/perf/inference/token_trace.h"

namespace gpuplan::inference {

//! A distribution of token counts.
struct LengthDistribution {
  enum class Kind { fixed, uniform, exponential, lognormal };
  Kind kind = Kind::fixed;
  double a = 0;  //!< fixed value, uniform low, exponential mean, lognormal median
  double b = 0;  //!< uniform high, lognormal 90th percentile
  //! The p-quantile, p in (0, 1) [tokens].
  [[nodiscard]] double quantile(double p) const;
  //! How the quote states it: "lognormal (median 1,000, p90 3,000)".
  [[nodiscard]] std::string text() const;
};

//! Requests in a stratified sample of a distribution.
inline constexpr std::size_t LENGTH_SAMPLE = 10000;

//! `n` requests whose prompt and output lengths follow `in` and `out`, rounded to whole tokens
//! (prompts >= 0, outputs >= 1); the figures of TokenLengths computed as for a trace.
[[nodiscard]] TokenLengths stratified_lengths(const LengthDistribution& in,
                                              const LengthDistribution& out,
                                              std::size_t n = LENGTH_SAMPLE);

}  // namespace gpuplan::inference
