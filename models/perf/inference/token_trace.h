#pragma once
//! Prompt and output lengths of LLM requests from a trace: a CSV file with a header naming
//! `ContextTokens` (prompt) and `GeneratedTokens` (output) columns, in any position among
//! others, as the Azure LLM inference traces have them (Patel et al., "Splitwise", ISCA 2024;
//! github.com/Azure/AzurePublicDataset). The quote sizes with their means and the prompt's
//! median and 99th percentile, and its engine check draws slot times from the rows.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "models/input/diagnostic.h"

namespace gpuplan::inference {

//! [tokens] The longest prompt or output a trace row may hold: longer than any served model's
//! context is a broken row, not a request (and where a fitted length distribution is cut).
inline constexpr double MAX_TRACE_TOKENS = 1e7;

//! The lengths of a trace's requests and the figures the sizing uses.
struct TokenLengths {
  std::string path;             //!< where the file was found
  std::vector<double> in, out;  //!< per request: prompt and output tokens
  //! [s] per request: its `TIMESTAMP` after the first row's, when the reader was asked for them
  //! (a replay of the trace's arrivals); else empty.
  std::vector<double> at_s;
  double mean_in = 0, mean_out = 0;
  double p50_in = 0, p99_in = 0;  //!< prompt length quantiles
  double p99_out = 0;
};

//! Fills the means and quantiles of `t` from its `in` and `out` (which must not be empty).
void summarize_lengths(TokenLengths& t);

//! Reads a trace's text (`file` and `pointer` label messages): each bad row is an error at
//! file:line; nullopt when any row is bad, a column is missing or no request has lengths. With
//! `times`, each row also needs a `TIMESTAMP` ("2023-11-16 18:15:46.6805900", as the Azure traces
//! write it, UTC), none before the row above it.
[[nodiscard]] std::optional<TokenLengths> read_token_trace(std::string_view text,
                                                           const std::string& file,
                                                           const std::string& pointer,
                                                           Diagnostics& d, bool times = false);

//! Finds `ref` beside `base_dir` or on `data_path` (models/input/data_files.h) and reads it.
[[nodiscard]] std::optional<TokenLengths> load_token_trace(
    const std::string& ref, const std::string& base_dir, const std::vector<std::string>& data_path,
    const std::string& pointer, Diagnostics& d, bool times = false);

}  // namespace gpuplan::inference
