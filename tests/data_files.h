#pragma once
//! Tests that read public data files (traces, tables) find them as gpuplan does, on the default
//! data path (models/input/data_files.h), and report themselves skipped by name where a file is
//! absent (a fresh clone without ../shared/data); with GPUPLAN_REQUIRE_DATA=1 (CI) an absent file
//! fails.
#include <doctest/doctest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "models/input/data_files.h"

namespace gpuplan_test_data {

//! Whether an absent data file fails the test (CI sets GPUPLAN_REQUIRE_DATA=1) instead of
//! skipping it.
inline bool data_required() {
  const char* v = std::getenv("GPUPLAN_REQUIRE_DATA");
  return v != nullptr && std::string_view(v) == "1";
}

//! Reports `what` as skipped because data file `name` is absent, or fails it under
//! GPUPLAN_REQUIRE_DATA=1.
inline void skip_missing(const std::string& what, const std::string& name) {
  const std::string why = "skipped: " + what + ": " + name +
                          " not found on the data path (--data-dir, GPUPLAN_DATA, ../shared/data "
                          "next to the project)";
  if (data_required())
    FAIL(why << "; GPUPLAN_REQUIRE_DATA=1 requires it");
  else
    MESSAGE(why);
}

//! The path of public data file `name` on the default data path; nullopt after reporting the
//! calling test `what` as skipped (skip_missing) when it is absent.
inline std::optional<std::string> data_file(const std::string& name, const std::string& what) {
  auto path =
      gpuplan::resolve_data_file(name, "/nonexistent-scenario-dir", gpuplan::default_data_path());
  if (!path) skip_missing(what, name);
  return path;
}

//! The folder holding public data file `name` (with a trailing '/'), or nullopt after reporting
//! `what` as skipped.
inline std::optional<std::string> data_dir_of(const std::string& name, const std::string& what) {
  auto path = data_file(name, what);
  if (!path) return std::nullopt;
  return path->substr(0, path->size() - name.size());
}

//! Whether `output` (diagnostics or gpuplan's output) says a known public data file is not found
//! on the data path; if so reports `what` as skipped naming that file and returns true.
inline bool skipped_for_missing_data(const std::string& what, const std::string& output) {
  if (output.find("not found on the data path") == std::string::npos) return false;
  for (const gpuplan::KnownDataFile& f : gpuplan::known_data_files()) {
    if (output.find("\"" + std::string(f.name) + "\" not found") == std::string::npos) continue;
    skip_missing(what, std::string(f.name));
    return true;
  }
  return false;
}

}  // namespace gpuplan_test_data
