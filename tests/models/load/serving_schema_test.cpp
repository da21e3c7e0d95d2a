//! docs/serving-scenario.schema.json and the serving-scenario loader agree: every object the
//! loader reads lists the same keys in the schema and refuses others, the unit patterns are the
//! main scenario schema's (whose agreement with the parsers load::schema checks), and every
//! bundled serving scenario names the schema.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/input/embedded.h"
#include "models/load/serving_scenario.h"

namespace {

using nlohmann::json;

json read_json(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream text;
  text << in.rdbuf();
  return json::parse(text.str(), nullptr, true, true);  // JSONC: comments allowed
}

//! The schema of the object at JSON pointer `ptr` ("" = the root).
const json& object_at(const json& schema, const std::string& ptr) {
  const json* at = &schema;
  std::size_t from = 1;
  while (from <= ptr.size() && !ptr.empty()) {
    const std::size_t to = std::min(ptr.find('/', from), ptr.size());
    const std::string part = ptr.substr(from, to - from);
    at = part == "*" ? &(*at)["items"] : &(*at)["properties"][part];  // "*": an array's items
    from = to + 1;
  }
  return *at;
}

}  // namespace

TEST_CASE("load::serving_schema") {
  const std::filesystem::path src(GPUPLAN_SOURCE_DIR);
  const json schema = read_json(src / "docs" / "serving-scenario.schema.json");
  CHECK(schema["$schema"] == "https://json-schema.org/draft/2020-12/schema");

  SUBCASE("every object lists the keys the loader accepts, and no other") {
    // NOTE: named, not bound: clang 14 cannot capture a structured binding in CAPTURE.
    for (const auto& entry : gpuplan::serving_scenario_keys()) {
      const std::string& ptr = entry.first;
      const std::vector<std::string>& keys = entry.second;
      CAPTURE(ptr);
      const json& o = object_at(schema, ptr);
      REQUIRE(o.contains("properties"));
      std::vector<std::string> listed, accepted = keys;
      for (const auto& [k, v] : o["properties"].items()) listed.push_back(k);
      std::sort(listed.begin(), listed.end());
      std::sort(accepted.begin(), accepted.end());
      CHECK(listed == accepted);
      CHECK(o["additionalProperties"] == false);
    }
  }

  SUBCASE("durations, rates, bandwidths and pricings are the main scenario schema's") {
    const json main = json::parse(gpuplan::embedded::scenario_schema());
    for (const auto& item : schema["$defs"].items()) {
      const std::string name = item.key();
      CAPTURE(name);
      CHECK(item.value() == main["$defs"][name]);
    }
  }

  SUBCASE("every bundled serving scenario names the schema") {
    for (const auto& e : std::filesystem::directory_iterator(src / "scenarios" / "serving")) {
      const std::string file = e.path().filename().string();
      if (e.path().extension() != ".json" || file.find(".expected.") != std::string::npos) continue;
      CAPTURE(file);
      CHECK(read_json(e.path()).value("$schema", "") == "../../docs/serving-scenario.schema.json");
    }
  }
}
