//! `gpuplan compare` through the real CLI: each side named with its own overrides, its warnings
//! kept, and a side whose demand passes its capacity named in the warnings.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::read_json;
using nlohmann::json;

TEST_CASE("tools::compare") {
  const fs::path scenario = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "mc_quickstart.json";
  const fs::path out =
      fs::temp_directory_path() / ("gpuplan-compare-test-" + std::to_string(getpid()));
  fs::remove_all(out);

  SUBCASE("a scenario against a variant of itself: both sides named, overrides kept") {
    const auto r =
        gpuplan_cli_test::gpuplan("compare " + scenario.string() + " " + scenario.string() +
                                  " --replications 4 --set seed=7 --set-b "
                                  "pools.0.count=10 --out " +
                                  (out / "variant").string());
    REQUIRE(r.status == 0);
    const json c = read_json(out / "variant" / "compare.json");
    // the same scenario name on both sides: A by its letter, B by its own override
    CHECK(c["a"]["label"] == "mc_quickstart (A)");
    CHECK(c["b"]["label"] == "mc_quickstart (pools.0.count=10)");
    CHECK(c["a"]["overrides"]["shared"] == json::array({"seed=7"}));
    CHECK(c["a"]["overrides"]["own"] == json::array());
    CHECK(c["b"]["overrides"]["own"] == json::array({"pools.0.count=10"}));
    CHECK(c["a"]["keeps_up"] == true);
    CHECK(c["a"]["warnings"].is_array());
    // the console names both sides and writes every interval as "(95% CI low to high)"
    CHECK(r.output.find("B: mc_quickstart (pools.0.count=10)") != std::string::npos);
    CHECK(r.output.find("--set-b pools.0.count=10") != std::string::npos);
    CHECK(r.output.find("(95% CI ") != std::string::npos);
  }

  SUBCASE("a side offered more than its capacity is named in the warnings; one that keeps up not") {
    // 2 nodes of 8 GPUs cannot serve mc_quickstart's demand (it needs about 7 nodes)
    const auto r = gpuplan_cli_test::gpuplan(
        "compare " + scenario.string() + " " + scenario.string() +
        " --replications 2 --set-a pools.0.count=2 --set limits.max_active_jobs=1000 --out " +
        (out / "behind").string());
    REQUIRE(r.status == 0);
    const json c = read_json(out / "behind" / "compare.json");
    CHECK(c["a"]["keeps_up"] == false);
    CHECK(c["a"]["falls_behind"].get<std::string>().find("of its capacity") != std::string::npos);
    CHECK(c["b"]["keeps_up"] == true);
    CHECK(c["b"]["falls_behind"].is_null());
    bool named = false;
    for (const json& w : c["warnings"])
      named |= w.get<std::string>().rfind("A does not keep up with its demand", 0) == 0;
    CHECK(named);
  }
  fs::remove_all(out);
}
