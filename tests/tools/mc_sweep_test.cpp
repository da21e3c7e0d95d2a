//! `gpuplan sweep` through the real CLI: a sweep point is exactly the lone `mc` run of the same
//! configuration, and sweep.json / sweep.csv list every point with its Pareto marks.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::read_json;
using gpuplan_cli_test::read_text;
using nlohmann::json;

namespace {

//! Runs `gpuplan ARGS --quiet`; its exit status.
int gpuplan(const std::string& args) {
  return gpuplan_cli_test::gpuplan(args + " --quiet").status;
}

}  // namespace

TEST_CASE("tools::sweep") {
  const fs::path scenario = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "mc_quickstart.json";
  const fs::path out =
      fs::temp_directory_path() / ("gpuplan-mc-sweep-test-" + std::to_string(getpid()));
  fs::remove_all(out);
  REQUIRE(gpuplan("sweep " + scenario.string() + " --vary pools.0.count=7,9 --vary seed=42 " +
                  "--replications 6 --batch 4 --out " + (out / "sweep").string()) == 0);
  REQUIRE(gpuplan("mc " + scenario.string() +
                  " --set pools.0.count=9 --replications 6 --batch 4 --out " +
                  (out / "lone").string()) == 0);

  SUBCASE("a sweep point equals the same configuration run alone with mc") {
    json point = read_json(out / "sweep" / "point-1" / "result.json");
    json lone = read_json(out / "lone" / "result.json");
    point.erase("generated_at");
    lone.erase("generated_at");
    CHECK(point == lone);
    CHECK(fs::exists(out / "sweep" / "point-1" / "report.html"));
    CHECK(fs::exists(out / "sweep" / "point-1" / "replicas.csv"));
  }

  SUBCASE("sweep.json lists every point with its values, headline CIs and Pareto marks") {
    const json sweep = read_json(out / "sweep" / "sweep.json");
    // 2 x 1 combinations
    REQUIRE(sweep["points"].size() == 2);
    CHECK(sweep["points"][1]["values"]["pools.0.count"] == 9);
    CHECK(sweep["points"][1]["dir"] == "point-1");
    for (const auto& p : sweep["points"]) {
      CHECK(p["summary"].contains("cost_usd.total"));
      CHECK(p["summary"].contains("metrics.wait_s.p90"));
      CHECK(p["pareto"]["cost_vs_wait_p90"].is_boolean());
      CHECK(p["pareto"]["cost_vs_useful_work"].is_boolean());
    }
    // the cheaper 7-node cluster is on the cost-vs-utilization front (cheaper and busier)
    CHECK(sweep["points"][0]["pareto"]["cost_vs_useful_work"] == true);
  }

  SUBCASE("sweep.csv has a header and one row per point") {
    const std::string csv = read_text(out / "sweep" / "sweep.csv");
    CHECK(csv.rfind("point,pools.0.count,seed,replications,saturated_share,wait_mean_s,", 0) == 0);
    // header + 2 rows
    CHECK(std::count(csv.begin(), csv.end(), '\n') == 3);
  }

  SUBCASE("an invalid value in any point writes nothing and exits 2") {
    const fs::path bad = out / "bad";
    CHECK(gpuplan("sweep " + scenario.string() +
                  " --vary pools.0.count=8,-1 --replications 2 --out " + bad.string()) != 0);
    CHECK_FALSE(fs::exists(bad));
  }
}
