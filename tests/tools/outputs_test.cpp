//! Issue 16 through the real CLI: outputs appear whole or not at all and never outside their
//! folder; input files that are not regular text files fail fast with exit 2.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;

namespace {

using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::gpuplan;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("tools::outputs") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("outputs");
  fs::create_directories(tmp / "work");
  const fs::path work = tmp / "work";
  const std::string quickstart =
      (fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "quickstart.json").string();

  SUBCASE("result.json being a folder is refused before the run (exit 2), not skipped (exit 0)") {
    fs::create_directories(work / "out" / "result.json");
    const CliRun r = gpuplan("run " + quickstart + " --quiet --out out", work);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "holds \"result.json\""));
    CHECK(fs::is_directory(work / "out" / "result.json"));
  }
  SUBCASE("a rerun replaces the output folder whole and leaves no staging folder") {
    REQUIRE(gpuplan("run " + quickstart + " --quiet --out out/q", work).status == 0);
    std::ofstream(work / "out" / "q" / "quote.pdf") << "stale";
    REQUIRE(gpuplan("run " + quickstart + " --quiet --out out/q", work).status == 0);
    CHECK(fs::exists(work / "out" / "q" / "result.json"));
    CHECK_FALSE(fs::exists(work / "out" / "q" / "quote.pdf"));
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(work / "out")) ++n;
    CHECK(n == 1);
  }
  SUBCASE("a --jobs file inside the output folder is one of its files, on every rerun") {
    for (int i = 0; i < 2; ++i) {
      const CliRun r =
          gpuplan("run " + quickstart + " --quiet --out out/j --jobs out/j/jobs.csv", work);
      CHECK(r.status == 0);
      CHECK(fs::exists(work / "out" / "j" / "jobs.csv"));
      CHECK(fs::exists(work / "out" / "j" / "result.json"));
    }
  }
  SUBCASE("\"name\": \"..\" is refused, and nothing is written outside out/") {
    const CliRun r = gpuplan("run " + quickstart + " --quiet --set name=..", work);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "/name"));
    CHECK_FALSE(fs::exists(work / "result.json"));
    CHECK_FALSE(fs::exists(tmp / "result.json"));
  }
  SUBCASE("--out naming the current folder is refused (exit 2)") {
    std::ofstream(work / "notes.txt") << "mine";
    const CliRun r = gpuplan("run " + quickstart + " --quiet --out .", work);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "current folder"));
    CHECK(fs::exists(work / "notes.txt"));
  }
  SUBCASE("a scenario that is a FIFO fails at once with exit 2") {
    REQUIRE(::mkfifo((work / "s.json").c_str(), 0600) == 0);
    const CliRun r = gpuplan("validate s.json", work);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "not a regular file"));
  }
  SUBCASE("a number beyond double range is exit 2 with file:line: /pointer") {
    std::ofstream(work / "big.json") << "{\n  \"horizon\": 1e400\n}\n";
    const CliRun r = gpuplan("validate big.json", work);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "big.json:2: /horizon: the number 1e400 is beyond the range"));
  }
  SUBCASE("a scenario folder whose name is not UTF-8 is refused on input (exit 2)") {
    const fs::path odd = work / "caf\xE9";
    fs::create_directories(odd);
    fs::copy_file(quickstart, odd / "quickstart.json");
    const CliRun r = gpuplan("run 'caf\xE9/quickstart.json' --quiet --out out/u", work);
    CHECK(r.status == 2);
    CHECK(contains(r.output, "not UTF-8"));
    CHECK_FALSE(fs::exists(work / "out" / "u"));
  }
  fs::remove_all(tmp);
}
