#pragma once
//! Loads the sample results in tests/reports/fixtures/ for the report tests.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

namespace gpuplan::reports::testing {

//! Parses tests/reports/fixtures/`name`; fails the test when the file is missing.
inline nlohmann::json load_fixture(const std::string& name) {
  std::ifstream in(std::string(GPUPLAN_SOURCE_DIR) + "/tests/reports/fixtures/" + name);
  REQUIRE_MESSAGE(in.good(), "missing fixture " << name);
  return nlohmann::json::parse(in);
}

}  // namespace gpuplan::reports::testing
