//! Staged purchases and reserved commitments through the real CLI: a bad schedule exits 2 with
//! `file:line: /pointer: message` and writes nothing; a good one shows its schedule, and a
//! reserved pool its whole commitment beside the window's share, in result.json.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::read_json;

namespace {

//! Runs `gpuplan ARGS` under a 120 s timeout.
CliRun gpuplan(const std::string& args) {
  return gpuplan_cli_test::gpuplan(args, {}, 120);
}

// A 30-day scenario whose pool (line 6) has `pool_keys`.
std::string scenario(const std::string& pool_keys) {
  return "{\n"
         "  \"name\": \"staged\",\n"
         "  \"horizon\": \"30d\",\n"
         "  \"instances\": [{\"id\": \"lab.g8\", \"gpu\": \"H100-SXM\", \"gpus_per_node\": 8,\n"
         "                 \"price_per_hour\": {\"on_demand\": 20.0, \"reserved_3y\": 10.0}}],\n"
         "  \"pools\": [{\"name\": \"main\", \"instance\": \"lab.g8\", \"count\": 4, " +
         pool_keys +
         "}],\n"
         "  \"workload\": [{\"name\": \"jobs\", \"arrival\": {\"poisson\": {\"rate\": \"2/h\"}},\n"
         "                \"gpus\": 8, \"duration\": {\"exponential\": {\"mean\": \"1h\"}}}]\n"
         "}\n";
}

}  // namespace

TEST_CASE("tools::purchases") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("purchases");
  fs::create_directories(tmp);
  const fs::path file = tmp / "s.json";
  const fs::path out = tmp / "out";
  const auto write = [&](const std::string& text) { std::ofstream(file) << text; };

  SUBCASE("a purchase after the horizon exits 2 in validate and run, naming line and pointer") {
    write(scenario(R"("purchases": [{"at": "45d", "add": 4}])"));
    for (const std::string cmd :
         {"validate " + file.string(), "run " + file.string() + " --quiet --out " + out.string()}) {
      CAPTURE(cmd);
      const CliRun r = gpuplan(cmd);
      CHECK(r.status == 2);
      // The pool is on line 6 of the file.
      CHECK(r.output.find(file.string() + ":6: /pools/0/purchases/0/at: ") != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
  }
  SUBCASE("purchases out of order exit 2 and write nothing") {
    write(scenario(R"("purchases": [{"at": "20d", "add": 4}, {"at": "10d", "add": 4}])"));
    const CliRun r = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    CHECK(r.status == 2);
    CHECK(r.output.find(":6: /pools/0/purchases/1/at: ") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE("a negative count exits 2 and writes nothing") {
    write(scenario(R"("purchases": [{"at": "10d", "add": -4}])"));
    const CliRun r = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    CHECK(r.status == 2);
    CHECK(r.output.find(":6: /pools/0/purchases/0/add: ") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE("a reserved pool with a purchase shows its schedule and its whole commitment") {
    write(scenario(R"("pricing": "reserved_3y", "purchases": [{"at": "15d", "add": 4}])"));
    const CliRun r = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto j = read_json(out / "result.json");
    const auto& pool = j["per_pool"][0];
    // 8 node slots, 4 of them from t = 0, 4 more at day 15 (1,296,000 s).
    CHECK(pool["nodes"] == 8);
    CHECK(pool["initial_nodes"] == 4);
    CHECK(pool["purchases"][0]["at_s"] == 15 * 86400.0);
    // Commitment: 8 nodes x $10/h x 26,280 h = $2,102,400.
    CHECK(pool["reserved"]["commitment_usd"].get<double>() ==
          doctest::Approx(8 * 10.0 * 26280).epsilon(1e-12));
    // The window's share: (4 x 720 h + 4 x 360 h) x $10/h = $43,200, which is also the cost.
    CHECK(pool["reserved"]["in_window_usd"].get<double>() ==
          doctest::Approx(43200.0).epsilon(1e-9));
    CHECK(j["cost_usd"]["total"].get<double>() == doctest::Approx(43200.0).epsilon(1e-9));
    // Time-average nodes: (4 x 30 d + 4 x 15 d) / 30 d = 6.
    CHECK(pool["mean_nodes"].get<double>() == doctest::Approx(6.0).epsilon(1e-12));
    // The warnings say the commitment is owed whole.
    CHECK(j["warnings"].dump().find("whole commitment") != std::string::npos);
  }
}
