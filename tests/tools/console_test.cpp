//! What `run` and `mc` print on the console: figures written as reports/quantity.h writes them,
//! and a saturated configuration says SATURATED instead of printing waits as if meaningful.
#include <doctest/doctest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::fresh_dir;
using gpuplan_cli_test::gpuplan;

namespace {

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("tools::console") {
  const std::string scenario =
      (fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "quickstart.json").string();
  // one p4d node (8 GPUs) under the quickstart's ~40-GPU load cannot keep up
  const std::string overload = " --set pools.0.count=1";

  SUBCASE("run prints counts, waits and money with separators and fixed decimals") {
    const fs::path out = fresh_dir("console-run");
    const auto r = gpuplan("run " + scenario + " --out " + out.string());
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    CHECK(std::regex_search(r.output, std::regex(R"(\d{1,3}(,\d{3})+ jobs submitted)")));
    CHECK(
        std::regex_search(r.output, std::regex(R"(mean wait [\d,]+\.\d s \(p90 [\d,]+\.\d s\))")));
    CHECK(std::regex_search(r.output, std::regex(R"(cost \$\d{1,3}(,\d{3})+\.\d\d\b)")));
    CHECK_FALSE(contains(r.output, "SATURATED"));
    fs::remove_all(out);
  }
  SUBCASE("a saturated run says SATURATED and prints no wait") {
    const fs::path out = fresh_dir("console-run-saturated");
    const auto r = gpuplan("run " + scenario + overload + " --out " + out.string());
    CAPTURE(r.output);
    REQUIRE(r.status == 0);
    // offered load 566%: the engine keeps running, yet the queue grows for the whole horizon
    CHECK(contains(r.output,
                   "quickstart: SATURATED: this configuration cannot keep up "
                   "(offered load 566.0% of capacity)"));
    CHECK_FALSE(contains(r.output, "mean wait"));
    CHECK(std::regex_search(r.output, std::regex(R"(cost \$[\d,]+\.\d\d\b)")));
    fs::remove_all(out);
  }
  SUBCASE("mc prints each mean and CI as its quantity, and SATURATED instead of waits") {
    const fs::path out = fresh_dir("console-mc");
    const auto ok = gpuplan("mc " + scenario + " -n 4 --out " + out.string());
    CAPTURE(ok.output);
    REQUIRE(ok.status == 0);
    CHECK(std::regex_search(
        ok.output, std::regex(R"(cost \$[\d,]+\.\d\d \[\$[\d,]+\.\d\d, \$[\d,]+\.\d\d\])")));
    CHECK(std::regex_search(ok.output, std::regex(R"(mean wait [\d,]+\.\d s \[)")));
    const auto sat = gpuplan("mc " + scenario + overload + " -n 4 --out " + out.string());
    CAPTURE(sat.output);
    REQUIRE(sat.status == 0);
    CHECK(contains(sat.output,
                   "quickstart: 4 replications; SATURATED: this configuration cannot "
                   "keep up (offered load"));
    CHECK_FALSE(contains(sat.output, "mean wait"));
    fs::remove_all(out);
  }
}
