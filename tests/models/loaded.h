#pragma once
//! One scenario loaded from text in a test, with its sorted diagnostics and load time.
#include <doctest/doctest.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "models/load/load.h"

namespace gpuplan_models_test {

//! A scenario loaded from text; keeps the diagnostics for inspection.
struct Loaded {
  std::optional<gpuplan::Scenario> sc;
  gpuplan::Diagnostics d;
  std::vector<gpuplan::Diagnostic> all;  //!< d, sorted
  double seconds = 0;                    //!< [s] wall time of the load

  //! True when a diagnostic names `pointer`.
  [[nodiscard]] bool has(const std::string& pointer) const {
    for (const auto& x : all)
      if (x.pointer == pointer) return true;
    return false;
  }

  //! The diagnostic at `pointer` (fails the test when there is none).
  gpuplan::Diagnostic at(const std::string& pointer) const {
    for (const auto& x : all)
      if (x.pointer == pointer) return x;
    FAIL("no diagnostic at " << pointer << "; got:\n" << d.to_text());
    return {};
  }
};

//! Loads `text` as "scenario.json" with traces relative to `data_dir` and `--set` `overrides`.
inline Loaded load_text(const std::string& text, const std::string& data_dir,
                        std::vector<std::string> overrides = {}) {
  Loaded r;
  gpuplan::LoadOptions opts;
  opts.overrides = std::move(overrides);
  const auto t0 = std::chrono::steady_clock::now();
  r.sc = gpuplan::load_scenario_text(text, "scenario.json", data_dir, opts, r.d);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.all = r.d.sorted();
  return r;
}

}  // namespace gpuplan_models_test
