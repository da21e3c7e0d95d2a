#pragma once
//! The inference rows a quote shows, each size checked once: the engine's checks (the slot queue,
//! study/quote_check.h; step by step, study/quote_serving_check.h) run on these rows only.
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "models/quote/compute_budget.h"
#include "models/quote/quote.h"

namespace gpuplan::quote {

//! `check(option)` (an std::optional<R>) for the first `req.options.top` feasible rows of
//! `q.inference` in ranked order, once per (instance, TP, replicas, batch): rows that differ
//! only in pricing share one run. nullopt for every other row. Throws Stopped before a run when
//! `budget` (nullptr = none) has run out or was cancelled.
template <class R, class Check>
[[nodiscard]] std::vector<std::optional<R>> check_shown_options(const QuoteRequest& req,
                                                                const Quote& q,
                                                                const ComputeBudget* budget,
                                                                Check check) {
  std::vector<std::optional<R>> checks(q.inference.size());
  std::map<std::tuple<std::string, uint32_t, uint32_t, uint32_t>, std::optional<R>> runs;
  uint32_t shown = 0;
  for (size_t i = 0; i < q.inference.size() && shown < req.options.top; ++i) {
    const InferenceOption& o = q.inference[i];
    if (!o.feasible) continue;
    ++shown;
    const auto key =
        std::make_tuple(o.instance->id, o.sizing.tp, o.sizing.replicas, o.sizing.batch);
    auto it = runs.find(key);
    if (it == runs.end()) {
      check_budget(budget);
      it = runs.emplace(key, check(o)).first;
    }
    checks[i] = it->second;
  }
  return checks;
}

}  // namespace gpuplan::quote
