#include "reports/serving_search_json.h"

#include "reports/serving_json.h"

namespace gpuplan::reports {

nlohmann::json serving_search_json(const ServingSearch& s) {
  using nlohmann::json;
  json rows = json::array();
  for (const SearchCandidate& c : s.candidates) {
    json r = {{"instance", c.config.instance},
              {"gpu", c.config.gpu_id},
              {"tp", c.config.tp},
              {"max_num_batched_tokens", c.config.max_num_batched_tokens},
              {"max_num_seqs", c.config.max_num_seqs},
              {"verdict", std::string(enum_name(c.verdict))}};
    if (c.verdict == SearchVerdict::does_not_fit) {
      r["reason"] = c.reason;
      rows.push_back(std::move(r));
      continue;
    }
    if (!c.reason.empty()) r["reason"] = c.reason;
    r["replicas"] = c.replicas;
    r["gpus"] = c.replicas * c.config.tp;
    r["usd_per_replica_hour"] = c.usd_per_replica_hour;
    r["usd_per_hour"] = c.usd_per_hour;
    if (c.verdict == SearchVerdict::cheapest || c.verdict == SearchVerdict::meets) {
      r["slo_attainment"] = interval_json(c.slo_attainment);
      r["ttft_p99_s"] = interval_json(c.ttft_p99);
      r["tpot_p99_s"] = interval_json(c.tpot_p99);
      r["usd_per_million_output_tokens"] = interval_json(c.usd_per_million_output_tokens);
      r["output_tokens_per_s"] = c.output_tokens_per_s;
    }
    json trials = json::array();
    for (const SearchTrial& t : c.trials)
      trials.push_back({{"replicas", t.replicas},
                        {"slo_attainment", t.slo_attainment},
                        {"saturated", t.saturated},
                        {"meets", t.meets}});
    r["trials"] = std::move(trials);
    rows.push_back(std::move(r));
  }
  return {{"attainment_goal", s.attainment}, {"max_replicas", s.max_replicas},
          {"exhaustive", s.exhaustive},      {"configurations", s.candidates.size()},
          {"simulations", s.simulations},    {"candidates", std::move(rows)}};
}

}  // namespace gpuplan::reports
