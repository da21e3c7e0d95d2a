//! Issue 15 items 1 and 4 through the real CLI: GPU specs in `gpuplan catalog --gpus`, the
//! staleness threshold, energy and carbon in result.json, and bad energy input refused.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::gpuplan;

TEST_CASE("tools::energy") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("energy");
  const std::string quickstart =
      (fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "quickstart.json").string();
  SUBCASE("catalog --gpus --json lists each GPU's TDP, BF16 TFLOPS and memory bandwidth") {
    const auto r = gpuplan("catalog --gpus --json");
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(r.output);
    bool found = false;
    for (const auto& g : j) {
      if (g["id"] != "H100-SXM") continue;
      found = true;
      // H100 SXM datasheet: 700 W, 989 dense BF16 TFLOPS, 3.35 TB/s.
      CHECK(g["tdp_w"] == 700);
      CHECK(g["bf16_tflops"] == 989);
      CHECK(g["mem_bw_tbps"] == doctest::Approx(3.35));
    }
    CHECK(found);
  }
  SUBCASE("--stale-after sets the threshold: 1200 months flags no dated row, 0 is refused") {
    const auto r = gpuplan("catalog --json --stale-after 1200");
    REQUIRE(r.status == 0);
    for (const auto& row : nlohmann::json::parse(r.output))
      if (!row["as_of"].get<std::string>().empty()) CHECK(row["stale"] == false);
    CHECK(gpuplan("catalog --stale-after 0").status == 2);
  }
  SUBCASE("a run reports kWh and tCO2e per pool and class, with summary statistics") {
    const auto r = gpuplan("run " + quickstart + " --quiet --out " + (tmp / "ok").string());
    REQUIRE(r.status == 0);
    const auto j = gpuplan_cli_test::read_json(tmp / "ok" / "result.json");
    // A cluster that runs for the window draws energy and emits carbon.
    CHECK(j["energy"]["kwh"].get<double>() > 0);
    CHECK(j["energy"]["tco2e"].get<double>() > 0);
    CHECK(j["summary"].contains("energy.kwh"));
    CHECK(j["energy"]["per_pool"].size() == j["per_pool"].size());
    CHECK(j["energy"]["per_class"].size() == j["per_class"].size());
  }
  SUBCASE("a PUE below 1 exits 2 naming the pointer and writes nothing") {
    const fs::path out = tmp / "bad";
    const auto r = gpuplan("run " + quickstart + " --set energy.pue=0.9 --out " + out.string());
    CHECK(r.status == 2);
    CHECK(r.output.find("/energy/pue") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}
