#pragma once
//! The verdicts a report page shows, computed once in C++ and stored as `assessment` in
//! result.json, sweep.json and quote.json (docs/outputs.md), so tests pin them without a browser
//! and the pages' scripts only display them.
//!
//! Sentences are "rich text": a JSON array of runs, each a plain string, `{"code": s}` (a
//! command or name in monospace), `{"strong": s}` (emphasis) or `{"link": "#id", "text": s}` (a
//! link inside the page). The pages render runs with textContent only.
#include <nlohmann/json.hpp>

#include <string>

#include "reports/result_facts.h"
#include "study/summary.h"

namespace gpuplan::reports {

//! Thresholds of the sizing verdict; docs/outputs.md states them for readers.
inline constexpr double UTIL_LOW = 0.5;           //!< below: over-provisioned
inline constexpr double UTIL_HIGH = 0.9;          //!< at or above: running hot
inline constexpr double UTIL_TARGET = 0.8;        //!< sizing suggestions aim at this utilization
inline constexpr double LONG_WAIT_RATIO = 0.5;    //!< p90 wait above this share of mean run: long
inline constexpr double PRICING_HINT_UTIL = 0.6;  //!< steady enough to suggest reserved pricing
//! Effective training time at or above this reads "ok": Llama 3 405B kept more than 90 % on
//! 16,384 H100s through 419 interruptions (Dubey et al., arXiv 2407.21783, §3.3.4).
inline constexpr double EFFECTIVE_TRAINING_GOOD = 0.9;
//! A sweep point busy this much (5 percentage points) longer than it does useful work is named as
//! one whose extra busy time is lost work.
inline constexpr double LOST_WORK_GAP = 0.05;
//! A shared pool whose allocation exceeds its compute used by this much (10 percentage points)
//! is named as holding GPU time it does not use.
inline constexpr double ALLOCATION_GAP = 0.1;

//! The assessment of a run or Monte Carlo study (result.json's `assessment`): sizing verdict and
//! reason, saturation banner, cost sentence, what to change, how sure, the cheapest TCO option,
//! failures, shared pools and the warnings. A figure absent from `facts` is left out of the
//! sentences that would use it. Never throws.
[[nodiscard]] nlohmann::json assess(const ResultFacts& facts);

//! The failures of a study with a failure model (docs/failures.md) as the report's Failures
//! section and the console say them: `tone` (`ok` when the effective training time is at least
//! EFFECTIVE_TRAINING_GOOD, `warn` below, `info` without it) and `items` (sentences: failures by
//! cause, interruptions and lost work, effective training time, spares). Null without a failure
//! model.
[[nodiscard]] nlohmann::json assess_failures(const ResultFacts& facts);

//! Allocation beside compute used of a study whose pools share GPUs (docs/sharing.md): `tone`
//! (`warn` when some pool's allocation exceeds its compute used by ALLOCATION_GAP or more, else
//! `ok`) and `items` (the two definitions, then one sentence per pool). Null without shared pools.
[[nodiscard]] nlohmann::json assess_sharing(const ResultFacts& facts);

//! The recommendation of `gpuplan recommend` (recommendation.json, docs/recommend.md) as
//! report.html shows it: `items` (the recommended configuration, its cost and P(SLOs met); the
//! budget cap and how many configurations were over it), `slos` (each SLO's metric, target, and
//! the winner's achieved mean, 95% CI and whether the mean is `within` the target, from the
//! winner's study `winner`) and `runners_up` (one sentence each). Null when `recommendation`
//! recommends nothing. Reads `recommendation` defensively: absent or mistyped keys read as
//! absent; never throws.
[[nodiscard]] nlohmann::json assess_recommendation(const nlohmann::json& recommendation,
                                                   const study::Summary& winner);

//! The assessment of a sweep (sweep.json): the takeaway (cheapest point meeting the target, or
//! the front's ends), the cost-vs-p90-wait and cost-vs-useful-work fronts (saturated points
//! removed), the saturated points, utilization (busy beside useful work, naming points busy
//! LOST_WORK_GAP or more longer than they do useful work) and confidence sentences. Never throws.
[[nodiscard]] nlohmann::json assess_sweep(const nlohmann::json& sweep);

//! The assessment of a quote (quote.json): the recommended (first runnable) option of each part
//! with the reason, and the flags of every option. Never throws.
[[nodiscard]] nlohmann::json assess_quote(const nlohmann::json& quote);

//! The runs of a rich-text sentence joined as plain text (code and emphasis unmarked); a plain
//! string is returned as it is, anything else as "".
[[nodiscard]] std::string plain_text(const nlohmann::json& runs);

}  // namespace gpuplan::reports
