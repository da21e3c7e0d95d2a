#include "study/serving_search.h"

#include <algorithm>
#include <cmath>

#include "models/catalog/catalog.h"
#include "models/input/jsonc.h"
#include "models/load/scenario_override.h"

namespace gpuplan {
namespace {

using json = nlohmann::json;

//! The scenario document with the overrides applied and `search` removed; every configuration
//! starts from it.
std::optional<json> base_document(std::string_view text, const std::string& file,
                                  const std::vector<std::string>& overrides) {
  Diagnostics d;
  auto doc = parse_jsonc(text, file, d);
  if (!doc) return std::nullopt;
  for (const std::string& spec : overrides) apply_override(doc->value, spec, d);
  if (!d.ok()) return std::nullopt;
  doc->value.erase("search");
  return std::move(doc->value);
}

//! Loads the scenario of `c` at `replicas`; on a refusal, its first message in `why`.
struct ConfigurationLoader {
  const json& base;
  const ServingScenario& sc;
  const std::string& file;
  const std::string& base_dir;
  const std::vector<std::string>& data_path;
  const ScenarioAdjust& adjust;

  std::optional<ServingScenario> operator()(const SearchConfiguration& c, uint32_t replicas,
                                            std::string& why) const {
    json j = base;
    j["instance"] = c.instance;
    j["gpu"] = c.gpu_id;
    // NOTE: a fabric named for the scenario's GPU would not be another GPU's.
    if (c.gpu_id != sc.gpu_id) j.erase("fabric");
    j["tp"] = c.tp;
    j["replicas"] = replicas;
    json& s = j["scheduler"];
    if (!s.is_object()) s = json::object();
    s["max_num_batched_tokens"] = c.max_num_batched_tokens;
    s["max_num_seqs"] = c.max_num_seqs;
    Diagnostics d;
    auto out = load_serving_scenario(j.dump(), file, base_dir, data_path, d, {});
    if (!out) {
      const Diagnostic& first = d.recorded().front();
      why = first.pointer.empty() ? first.message : first.pointer + ": " + first.message;
      return std::nullopt;
    }
    out->name = sc.name;
    if (adjust) adjust(*out);
    return out;
  }
};

//! [USD/h] `n` replicas of `c`, exact for whole cents and below.
double cost(const SearchCandidate& c, uint32_t n) {
  return n * c.usd_per_replica_hour;
}

//! Rank of a verdict in the table (meeting first); ties by cost, then the search's order.
int rank(SearchVerdict v) {
  switch (v) {
    case SearchVerdict::cheapest:
      return 0;
    case SearchVerdict::meets:
      return 0;
    case SearchVerdict::costlier:
      return 1;
    case SearchVerdict::misses:
      return 2;
    case SearchVerdict::does_not_fit:
      return 3;
  }
  return 3;
}

}  // namespace

ServingSearch search_serving(const ServingScenario& sc, std::string_view text,
                             const std::string& file, const std::string& base_dir,
                             const std::vector<std::string>& data_path,
                             const std::vector<std::string>& overrides,
                             const ScenarioAdjust& adjust, uint32_t threads) {
  const ServingSearchSpace& space = *sc.search;
  ServingSearch out;
  out.attainment = space.attainment;
  out.max_replicas = space.max_replicas;
  out.exhaustive = space.exhaustive;
  const auto doc = base_document(text, file, overrides);
  if (!doc) return out;  // NOTE: unreachable: `sc` was loaded from the same text
  const ConfigurationLoader load{*doc, sc, file, base_dir, data_path, adjust};

  std::vector<SearchCandidate> all;
  for (const std::string& id : space.instances)
    for (uint32_t tp : space.tp)
      for (uint32_t budget : space.max_num_batched_tokens)
        for (uint32_t seqs : space.max_num_seqs) {
          SearchCandidate c;
          c.config = {id, builtin_catalog().find_instance(id)->gpu, tp, budget, seqs};
          all.push_back(std::move(c));
        }

  std::optional<double> best_cost;
  size_t best = all.size();
  for (size_t k = 0; k < all.size(); ++k) {
    SearchCandidate& c = all[k];
    const InstanceType& it = *builtin_catalog().find_instance(c.config.instance);
    if (c.config.tp > it.gpus_per_node) {
      c.reason = "/tp: tp " + std::to_string(c.config.tp) + " is more GPUs than a " + it.id +
                 " node holds (" + std::to_string(it.gpus_per_node) + ")";
      continue;
    }
    // The most replicas whose cost stays below the cheapest so far (none past it can win).
    const auto cap_of = [&](const SearchCandidate& cand) {
      uint32_t cap = space.max_replicas;
      if (best_cost && !space.exhaustive) {
        const double n = std::ceil(*best_cost / cand.usd_per_replica_hour) - 1;
        cap = static_cast<uint32_t>(std::clamp(n, 0.0, double(cap)));
        while (cap > 0 && !(cost(cand, cap) < *best_cost)) --cap;
      }
      return cap;
    };
    std::optional<ServingStudy> at_hi;
    uint32_t lo = 0, hi = 0;  // the most shown to miss, the fewest shown to meet (0: none)
    uint32_t n = std::max(1u, sc.view.n_replicas);
    bool fits = true;
    while (true) {
      std::string why;
      auto run = load(c.config, n, why);
      if (!run) {
        // NOTE: the replica's own limits do not depend on their number; a count the loader
        // refuses (records in memory) ends the search of this configuration as a miss.
        if (c.trials.empty() && n == 1) {
          c.reason = why;
          fits = false;
        } else if (c.trials.empty()) {
          n = 1;
          continue;
        } else {
          c.reason = why;
        }
        break;
      }
      c.usd_per_replica_hour = run->price->usd_per_gpu_hour * c.config.tp;
      const uint32_t cap = cap_of(c);
      if (n > cap) {
        if (cap <= lo) break;
        n = cap;
        continue;
      }
      ServingStudy st = run_serving_study(*run, threads);
      ++out.simulations;
      SearchTrial t;
      t.replicas = n;
      t.slo_attainment = st.slo_attainment.mean;
      t.saturated = st.pooled.saturated;
      t.meets = !t.saturated && t.slo_attainment >= space.attainment;
      c.trials.push_back(t);
      if (t.meets) {
        hi = n;
        at_hi = std::move(st);
      } else {
        lo = n;
      }
      if (hi == 0) {  // none meets yet: grow
        if (n >= cap) break;
        n = std::min(cap, 2 * n);
      } else {  // bisect between the most missing and the fewest meeting
        if (hi - lo <= 1) break;
        n = lo + (hi - lo) / 2;
      }
    }
    if (!fits) continue;
    if (hi > 0) {
      c.verdict = SearchVerdict::meets;
      c.replicas = hi;
      c.usd_per_hour = cost(c, hi);
      c.slo_attainment = at_hi->slo_attainment;
      c.ttft_p99 = at_hi->ttft_p99;
      c.tpot_p99 = at_hi->tpot_p99;
      c.usd_per_million_output_tokens = at_hi->usd_per_million_output_tokens;
      c.output_tokens_per_s = at_hi->pooled.output_tokens_per_s;
      if (!best_cost || c.usd_per_hour < *best_cost) {
        best_cost = c.usd_per_hour;
        best = k;
        out.best_study = std::move(at_hi);
      }
    } else if (lo >= space.max_replicas || !best_cost) {
      c.verdict = SearchVerdict::misses;
      c.replicas = lo;
      c.usd_per_hour = cost(c, lo);
    } else {
      c.verdict = SearchVerdict::costlier;
      c.replicas = lo + 1;
      c.usd_per_hour = cost(c, lo + 1);
    }
  }
  if (best < all.size()) {
    all[best].verdict = SearchVerdict::cheapest;
    std::string why;
    out.best = load(all[best].config, all[best].replicas, why);
  }
  out.candidates = std::move(all);
  std::stable_sort(out.candidates.begin(), out.candidates.end(),
                   [](const SearchCandidate& a, const SearchCandidate& b) {
                     if (rank(a.verdict) != rank(b.verdict))
                       return rank(a.verdict) < rank(b.verdict);
                     if (a.verdict == SearchVerdict::does_not_fit) return false;
                     return a.usd_per_hour < b.usd_per_hour;
                   });
  return out;
}

}  // namespace gpuplan
