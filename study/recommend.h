#pragma once
//! `gpuplan recommend` as a library call (docs/recommend.md): for every candidate instance x
//! pricing of the scenario's `recommend` section, the fewest nodes meeting every SLO with the
//! required probability (bisection on the count, each probe a Monte Carlo study of a variant
//! loaded in memory with the scenario's seed), the candidates ranked by cost, and the full study
//! of the cheapest.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "models/scenario/scenario.h"
#include "study/count_search.h"
#include "study/monte_carlo.h"
#include "study/purchase_schedule.h"
#include "study/scenario_text.h"
#include "study/summary.h"

namespace gpuplan::study {

//! A pool of a candidate's configuration pinned beside the searched one (`with`).
struct PinnedPool {
  std::size_t pool_idx = 0;
  std::string pool, instance;
  Pricing pricing = Pricing::on_demand;
  uint32_t count = 0;  //!< nodes (0 = the pool left out)
  uint32_t gpus_per_node = 1;
  double price_per_node_hour = 0;  //!< [USD/h]
};

//! One instance x pricing of a candidate pool (with its `with` pools pinned), with what its
//! search found.
struct RecommendOption {
  std::size_t pool_idx = 0;
  std::string pool, instance;
  Pricing pricing = Pricing::on_demand;
  uint32_t count_min = 1, count_max = 1;  //!< count_min 0: the configuration without this pool
  uint32_t gpus_per_node = 1;
  double bf16_tflops = 0;          //!< [TFLOPS] dense BF16 of one GPU
  double price_per_node_hour = 0;  //!< [USD/h]
  std::vector<PinnedPool> with;    //!< the other pools of the configuration
  //! filled by recommend(): under slos_hold every_month, `count` is the last month's nodes and
  //! `at_count` the whole window's study of `schedule` (its p_met the least month's)
  CountSearch search;
  //! Under slos_hold every_month, the nodes of each month (filled by recommend()).
  std::optional<ScheduleSearch> schedule;
  //! Met the SLOs, but at a cost above the budget cap (filled by recommend()).
  bool over_budget = false;
};

//! [USD per 730 h] a window's cost `cost_usd` over `window_s` seconds, scaled to a month.
[[nodiscard]] double usd_per_month(double cost_usd, double window_s);

//! The pins setting `o`'s pool to its instance, pricing and `count` nodes, and its `with` pools to
//! theirs.
[[nodiscard]] std::vector<PoolPin> pinned(const RecommendOption& o, uint32_t count);

//! Every instance x pricing of `sc.recommend` (sc loaded from `t`), each checked by loading it at
//! its largest count; nullopt with `diags` filled when any is invalid (nothing should run then).
[[nodiscard]] std::optional<std::vector<RecommendOption>> recommend_options(const ScenarioText& t,
                                                                            const Scenario& sc,
                                                                            Diagnostics& diags);

//! How to run the searches.
struct RecommendRunOptions {
  uint32_t replications = 32;  //!< per probe and for the winner's study
  McBackend backend = McBackend::cpu;
  //! Called on the printing process before each option's search; may be empty.
  std::function<void(const RecommendOption&)> searching;
  //! Progress of the winner's full study (study::MonteCarloOptions::progress); may be empty.
  std::function<void(const McStudy&, uint32_t, uint32_t)> progress;
};

//! What recommend found. On MPI processes other than rank 0, `best` is not held.
struct Recommendation {
  std::vector<RecommendOption> options;  //!< with their searches
  //! Options that met the SLOs within the budget, cheapest first.
  std::vector<std::size_t> ranked;
  uint32_t replications = 0;
  double window_s = 0;  //!< [s] horizon - warmup: what a cost covers
  //! The months each SLO is judged on under slos_hold every_month (empty otherwise).
  std::vector<MonthWindow> months;
  std::optional<double> max_usd_per_month;  //!< the budget cap, when the scenario sets one
  //! The winner's scenario, compiled scenario and full study (absent when none met the SLOs).
  std::optional<Scenario> best_scenario;
  std::shared_ptr<const CompiledScenario> best_compiled;
  Summary best;
};

//! Searches every option (every MPI process must call it; probes are split as study::monte_carlo
//! and every process bisects alike), marks those over the budget cap, ranks the rest, and runs
//! the winner's study.
[[nodiscard]] Recommendation recommend(const ScenarioText& t, const Scenario& sc,
                                       std::vector<RecommendOption> options,
                                       const RecommendRunOptions& o);

}  // namespace gpuplan::study
