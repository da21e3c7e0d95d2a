#pragma once
//! The planner as the acceptance suite asks it: a scenario of tests/acceptance/scenarios/ loaded
//! with --set overrides, compiled, and studied through the study layer (no binary spawned).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "models/load/load.h"
#include "study/monte_carlo.h"
#include "study/summary.h"

namespace gpuplan_acceptance {

//! A planning question asked once: the scenario, what it compiled to and the study's answer.
struct Answer {
  gpuplan::Scenario sc;
  gpuplan::CompiledScenario cs;
  gpuplan::study::Summary s;

  //! Mean of a metric path across the replications.
  [[nodiscard]] double mean(const std::string& path) const { return s.mean(path); }
  //! Low and high end of its 95% CI (the mean itself for one replication).
  [[nodiscard]] double low(const std::string& path) const { return s.stats.at(path).ci95_low; }
  [[nodiscard]] double high(const std::string& path) const { return s.stats.at(path).ci95_high; }
  //! Replication k's value of a metric path.
  [[nodiscard]] double row(std::size_t k, const std::string& path) const {
    return s.stats.rows.at(k).at(s.stats.index_of(path));
  }
};

//! tests/acceptance/scenarios/`name`.json with `overrides` ("pools.0.count=6"); fails the test
//! on any diagnostic.
inline gpuplan::Scenario scenario(const std::string& name,
                                  const std::vector<std::string>& overrides = {}) {
  gpuplan::Diagnostics d;
  gpuplan::LoadOptions lo;
  lo.overrides = overrides;
  auto sc = gpuplan::load_scenario(
      std::string(GPUPLAN_SOURCE_DIR) + "/tests/acceptance/scenarios/" + name + ".json", lo, d);
  REQUIRE_MESSAGE((sc && d.ok()), name << ": " << d.to_text());
  return *sc;
}

//! The Monte Carlo study of `sc` over `replications` replications (common random numbers: the
//! same replication of two scenarios with one seed shares its random numbers).
inline Answer ask(gpuplan::Scenario sc, uint32_t replications) {
  Answer a{std::move(sc), {}, {}};
  a.cs = gpuplan::compile(a.sc);
  gpuplan::study::MonteCarloOptions o;
  o.replications = replications;
  a.s = gpuplan::study::monte_carlo(a.sc, a.cs, o);
  return a;
}

//! Shorthand: the study of scenario `name` with `overrides`.
inline Answer ask(const std::string& name, uint32_t replications,
                  const std::vector<std::string>& overrides = {}) {
  return ask(scenario(name, overrides), replications);
}

//! Hours of the statistics window [warmup, horizon) of `sc` [h].
inline double window_hours(const gpuplan::Scenario& sc) {
  return (sc.horizon_s - sc.warmup_s) / 3600.0;
}

//! The names of every scenario of the suite (the file names without .json), sorted.
inline std::vector<std::string> scenario_names() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(std::string(GPUPLAN_SOURCE_DIR) +
                                                           "/tests/acceptance/scenarios"))
    if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace gpuplan_acceptance
