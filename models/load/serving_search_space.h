#pragma once
//! `search` in a serving scenario: the configurations to try (instance types, tensor parallelism,
//! token budgets, sequence caps) and the share of requests that must meet both SLOs. The search
//! itself, fewest replicas per configuration and the cheapest overall, is study/serving_search.h.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/catalog/catalog.h"
#include "models/input/field_reader.h"

namespace gpuplan {

//! Configurations a search tries at most (the product of its lists).
inline constexpr size_t MAX_SEARCH_CONFIGURATIONS = 256;

//! What `search` asks for; a list left out keeps the scenario's own value.
struct ServingSearchSpace {
  std::vector<std::string> instances;  //!< catalog instance types, each priced by `pricing`
  std::vector<uint32_t> tp, max_num_batched_tokens, max_num_seqs;
  //! Share of counted requests that must meet both the TTFT and the TPOT SLO (mean over the
  //! Monte Carlo replicas), and no replica saturated.
  double attainment = 0.99;
  uint32_t max_replicas = 64;  //!< most replicas a configuration may take
  //! Find every configuration's fewest replicas, not stopping one where it cannot be cheapest.
  bool exhaustive = false;

  //! Configurations the lists span.
  [[nodiscard]] size_t size() const {
    return instances.size() * tp.size() * max_num_batched_tokens.size() * max_num_seqs.size();
  }
};

//! The scenario's own values a search starts from: its priced instance type ("" when it names
//! none), pricing, tp, budget and sequence cap.
struct SearchDefaults {
  std::string instance;
  Pricing pricing = Pricing::on_demand;
  uint32_t tp = 1, max_num_batched_tokens = 0, max_num_seqs = 0;
};

//! Reads `search` (`x`, member of `root`) after the rest of the scenario is loaded, filling the
//! lists it leaves out from `own`. Refused, each at its pointer: no `slo`, no price to rank by,
//! autoscaling or disaggregated pools, an instance type without `own.pricing`'s price, a value
//! listed twice, more than MAX_SEARCH_CONFIGURATIONS configurations.
[[nodiscard]] std::optional<ServingSearchSpace> load_search_space(const nlohmann::json& x,
                                                                  const nlohmann::json& root,
                                                                  FieldReader& f, Diagnostics& d,
                                                                  const SearchDefaults& own);

}  // namespace gpuplan
