//! The load check on the command line (issue 11, item 5): `validate`, `run` and `mc` warn, exit 0,
//! about a demand at or above capacity before simulating, naming the class, and spell out a bare
//! rate; result.json carries the same sentence.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::fresh_dir;
using gpuplan_cli_test::gpuplan;
using gpuplan_cli_test::read_json;

namespace {

const std::string SCENARIO =
    std::string(GPUPLAN_SOURCE_DIR) + "/tests/acceptance/scenarios/bare_rate.json";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("tools::load_check") {
  SUBCASE("validate accepts the scenario and warns, naming the class and the rate's unit") {
    const auto r = gpuplan("validate " + SCENARIO);
    // A load above capacity is a valid scenario: exit 0, "ok", and the warning on the console.
    CHECK(r.status == 0);
    CHECK(contains(r.output, "bare_rate.json: ok"));
    CHECK(contains(r.output, "bare_rate: warning: Pool h100 (64 GPUs) is offered"));
    CHECK(contains(r.output, "class pretrain drives it"));
    CHECK(contains(r.output, "0.3 per second = 1,080 per hour"));
  }
  SUBCASE("a rate with a unit gets the warning without the note") {
    const auto r =
        gpuplan("validate " + SCENARIO + " --set workload.0.arrival.poisson.rate=1080/h");
    CHECK(r.status == 0);
    CHECK(contains(r.output, "class pretrain drives it"));
    CHECK_FALSE(contains(r.output, "per second"));
  }
  SUBCASE("a scenario that keeps up validates without a warning") {
    const auto r = gpuplan("validate " + std::string(GPUPLAN_SOURCE_DIR) +
                           "/tests/acceptance/scenarios/fixed_fleet.json");
    CHECK(r.status == 0);
    CHECK_FALSE(contains(r.output, "warning"));
  }
  SUBCASE("run warns, says SATURATED on its line and writes the warning into result.json") {
    const fs::path out = fresh_dir("load_check_run");
    const auto r = gpuplan("run " + SCENARIO + " --out " + out.string());
    CHECK(r.status == 0);
    CHECK(contains(r.output, "bare_rate: warning: Pool h100"));
    CHECK(contains(r.output, "SATURATED"));
    CHECK_FALSE(contains(r.output, "mean wait"));
    const auto result = read_json(out / "result.json");
    REQUIRE(result["warnings"].size() >= 1);
    CHECK(contains(result["warnings"][0].get<std::string>(), "0.3 per second = 1,080 per hour"));
    fs::remove_all(out);
  }
  SUBCASE("mc warns the same way") {
    const fs::path out = fresh_dir("load_check_mc");
    const auto r = gpuplan("mc " + SCENARIO + " --replications 2 --out " + out.string());
    CHECK(r.status == 0);
    CHECK(contains(r.output, "bare_rate: warning: Pool h100"));
    CHECK(contains(r.output, "SATURATED"));
    fs::remove_all(out);
  }
}
