//! The fuzz dictionary of scenario keys stays in step with the schema: a key the dictionary lacks
//! is one libFuzzer must find byte by byte, so a new scenario section would go almost unfuzzed.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

//! Every property name and string enumerator anywhere in the schema.
void schema_words(const nlohmann::json& n, std::set<std::string>& out) {
  if (n.is_object()) {
    for (const auto& [k, v] : n.items()) {
      if (k == "properties" && v.is_object())
        for (const auto& [name, _] : v.items()) out.insert(name);
      if (k == "enum" && v.is_array())
        for (const auto& e : v)
          if (e.is_string()) out.insert(e.get<std::string>());
      schema_words(v, out);
    }
  } else if (n.is_array()) {
    for (const auto& e : n) schema_words(e, out);
  }
}

}  // namespace

TEST_CASE("tools::fuzz_dict") {
  SUBCASE("the scenario dictionary holds every key and enumerator of the scenario schema") {
    const fs::path src = GPUPLAN_SOURCE_DIR;
    std::ifstream schema_file(src / "docs" / "scenario.schema.json");
    REQUIRE(schema_file);
    std::set<std::string> words;
    schema_words(nlohmann::json::parse(schema_file), words);
    std::ifstream dict_file(src / "tools" / "fuzz" / "scenario.dict");
    REQUIRE(dict_file);
    std::stringstream dict;
    dict << dict_file.rdbuf();
    // The schema has some 300 words (keys and enumerators); each must appear quoted, as libFuzzer
    // dictionary entries write a JSON string: "\"key\"".
    CHECK(words.size() > 200);
    for (const std::string& w : words) {
      INFO("missing from tools/fuzz/scenario.dict: " << w);
      CHECK(dict.str().find("\"\\\"" + w + "\\\"\"") != std::string::npos);
    }
  }
}
