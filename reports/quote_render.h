#pragma once
//! Outputs of `gpuplan quote`: the ranked text table for the terminal, quote.json, and the
//! one-page self-contained quote.html (printed to quote.pdf by the CLI).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/quote/quote.h"
#include "study/quote_check.h"
#include "study/quote_serving_check.h"

namespace gpuplan::quote {

//! A sized quote with the engine's checks of the inference options shown.
struct QuoteReport {
  const QuoteRequest* request = nullptr;
  const Quote* quote = nullptr;
  //! Engine check of inference option i (ranked order); nullopt for rows not simulated.
  std::vector<std::optional<InferenceSimCheck>> inference_checks;
  //! Iteration-level check of inference option i (ranked order); nullopt for rows not simulated.
  std::vector<std::optional<ServingCheck>> serving_checks;
  std::string version;  //!< gpuplan version printed in the footer
  //! Adds the internal appendix (price sources, confidence tags, data references); the customer
  //! view (false) carries none of them.
  bool internal = false;
};

//! One stated assumption: what it is about, the statement with its value, and its source.
struct Assumption {
  std::string topic;
  std::string text;
  std::string source;
};

//! Every assumption the quote rests on (MFU, memory, network, preemption, checkpoint, queueing,
//! billing), with the request's values filled in.
[[nodiscard]] std::vector<Assumption> quote_assumptions(const QuoteRequest& req);

//! Relative gap |sim - model| / model that the engine check accepts for the p99 latency; the
//! mean wait is compared against the larger of this and 5% of the mean service time.
inline constexpr double SIM_CHECK_TOLERANCE = 0.10;

//! True when the engine's figures agree with the M/M/c model within SIM_CHECK_TOLERANCE.
[[nodiscard]] bool sim_check_agrees(const InferenceOption& opt, const InferenceSimCheck& check);

//! Why no spot training option meets the deadline, with the checkpoint interval it assumed.
struct SpotDeadlineNote {
  std::string text;                  //!< one paragraph for the customer
  double checkpoint_interval_s = 0;  //!< [s] the Daly interval of the option described
  double interruption_every_s = 0;   //!< [s] mean time between interruptions of that option
  uint32_t spot_nodes = 0;           //!< spot nodes of that option
};

//! The note for a training request with a deadline whose spot options all miss it (or cannot
//! finish): it describes the closest spot option (smallest P90, else the smallest cluster that
//! fits); nullopt when there is no deadline, no spot option, or a spot option meets it.
[[nodiscard]] std::optional<SpotDeadlineNote> spot_deadline_note(const QuoteRequest& req,
                                                                 const Quote& q);

//! The ranked table(s) for the terminal: top `options.top` rows of each part, then the options
//! that cannot run with their reasons, and the main assumptions.
[[nodiscard]] std::string format_quote_table(const QuoteReport& r);

//! quote.json: the request (as given and in words), assumptions, every option (including those
//! that cannot run), the prices of the instances used and the `assessment` (assess_quote).
[[nodiscard]] nlohmann::json quote_json(const QuoteReport& r);

//! quote.html: one printable page built from reports/assets/quote.html with quote_json(r) as the
//! data island; quote.js builds the DOM with textContent only. Self-contained: a strict CSP
//! allows only the page's own inline scripts and style, by hash, and no network request.
[[nodiscard]] std::string render_quote_html(const QuoteReport& r);

}  // namespace gpuplan::quote
