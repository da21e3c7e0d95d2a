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

//! Checks that tools/fuzz/`dict` holds every word of docs/`schema`, at least `at_least` of them.
void check_dictionary(const std::string& schema, const std::string& dict_name,
                      std::size_t at_least) {
  const fs::path src = GPUPLAN_SOURCE_DIR;
  std::ifstream schema_file(src / "docs" / schema);
  REQUIRE(schema_file);
  std::set<std::string> words;
  schema_words(nlohmann::json::parse(schema_file), words);
  std::ifstream dict_file(src / "tools" / "fuzz" / dict_name);
  REQUIRE(dict_file);
  std::stringstream dict;
  dict << dict_file.rdbuf();
  // Each word must appear quoted, as libFuzzer dictionary entries write a JSON string: "\"key\"".
  CHECK(words.size() > at_least);
  for (const std::string& w : words) {
    INFO("missing from tools/fuzz/" << dict_name << ": " << w);
    CHECK(dict.str().find("\"\\\"" + w + "\\\"\"") != std::string::npos);
  }
}

}  // namespace

TEST_CASE("tools::fuzz_dict") {
  SUBCASE("the scenario dictionary holds every key and enumerator of the scenario schema") {
    check_dictionary("scenario.schema.json", "scenario.dict", 200);  // some 300 words
  }
  SUBCASE("the serving dictionary holds every key and enumerator of the serving schema") {
    check_dictionary("serving-scenario.schema.json", "serving.dict", 50);  // some 70 words
  }
}
