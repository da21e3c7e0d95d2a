//! Every bundled scenario runs through the real CLI and matches its golden file.
//! scenarios/<name>.expected.json holds {"command": [...extra args], "expect": {subset of
//! result.json}}; every number in "expect" must match within 1e-9 relative, every string and bool
//! exactly. Regenerate after an intended change: GPUPLAN_UPDATE_GOLDEN=1 ctest -R tools (then
//! review the diff).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "tests/data_files.h"
#include "tests/tools/cli.h"
#include "tests/tools/verdict_properties.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::read_json;
using nlohmann::json;

namespace {

//! Appends to `diffs` every place where `got` differs from the `want` subset.
void compare(const json& want, const json& got, const std::string& path,
             std::vector<std::string>& diffs) {
  if (want.is_object()) {
    for (const auto& [k, v] : want.items()) {
      if (!got.is_object() || !got.contains(k))
        diffs.push_back(path + "/" + k + ": missing");
      else
        compare(v, got[k], path + "/" + k, diffs);
    }
  } else if (want.is_array()) {
    if (!got.is_array() || got.size() != want.size()) {
      diffs.push_back(path + ": array size differs");
      return;
    }
    for (size_t i = 0; i < want.size(); ++i)
      compare(want[i], got[i], path + "/" + std::to_string(i), diffs);
  } else if (want.is_number()) {
    const double a = want.get<double>(), b = got.is_number() ? got.get<double>() : NAN;
    if (!(std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(a))))
      diffs.push_back(path + ": expected " + want.dump() + ", got " + got.dump());
  } else if (want != got) {
    diffs.push_back(path + ": expected " + want.dump() + ", got " + got.dump());
  }
}

//! The golden subset of a result: headline metrics, cost, failures, per-pool and per-class figures.
json golden_subset(const json& r) {
  json e;
  for (const char* k : {"scenario", "seed", "replications", "metrics", "cost_usd", "failures"})
    if (r.contains(k)) e[k] = r[k];
  if (r.contains("per_class"))
    for (const auto& c : r["per_class"])
      e["per_class"].push_back({{"name", c["name"]},
                                {"jobs_completed", c["jobs_completed"]},
                                {"wait_s", c["wait_s"]},
                                {"jct_s", c["jct_s"]}});
  if (r.contains("summary")) e["summary"] = r["summary"];
  return e;
}

}  // namespace

TEST_CASE("tools::scenarios") {
  const fs::path src = GPUPLAN_SOURCE_DIR;
  const bool update = std::getenv("GPUPLAN_UPDATE_GOLDEN") != nullptr;
  int n = 0;
  // The reproductions of published figures (docs/reproductions.md) run as every other scenario.
  std::vector<fs::path> files;
  for (const char* dir : {"scenarios", "scenarios/reproduce"})
    for (const auto& entry : fs::directory_iterator(src / dir)) files.push_back(entry.path());
  for (const fs::path& p : files) {
    if (p.extension() != ".json" || p.stem().extension() == ".expected") continue;
    const fs::path golden = p.parent_path() / (p.stem().string() + ".expected.json");
    json expected = fs::exists(golden) ? read_json(golden) : json{{"command", {"run"}}};
    std::string args;
    for (const auto& a : expected["command"]) args += " " + a.get<std::string>();
    const fs::path out = fs::temp_directory_path() /
                         ("gpuplan-golden-" + std::to_string(getpid()) + "-" + p.stem().string());
    fs::remove_all(out);
    const std::string cmd = args + " " + p.string() + " --quiet --out " + out.string();
    // NOTE: CAPTURE names the scenario; a SUBCASE per scenario would make doctest rerun the
    // whole loop once per scenario.
    CAPTURE(cmd);
    const auto run = gpuplan_cli_test::gpuplan(cmd);
    CAPTURE(run.output);
    if (run.status == 2 &&
        gpuplan_test_data::skipped_for_missing_data(p.filename().string(), run.output))
      continue;
    REQUIRE(run.status == 0);
    const json result = read_json(out / "result.json");
    CHECK(fs::exists(out / "report.html"));
    // generated output cites public sources only
    CHECK(gpuplan_cli_test::internal_citation(gpuplan_cli_test::read_text(out / "result.json")) ==
          "");
    // Verdicts are properties of every bundled scenario, golden file or not.
    std::string broken;
    for (const std::string& v : gpuplan_cli_test::verdict_violations(result)) broken += "\n  " + v;
    CHECK_MESSAGE(broken.empty(), p.filename().string() << " breaks a verdict property:" << broken);
    if (update) {
      expected["expect"] = golden_subset(result);
      std::ofstream(golden) << expected.dump(2) << "\n";
    } else {
      REQUIRE_MESSAGE(fs::exists(golden),
                      "no golden file " << golden << "; create it with GPUPLAN_UPDATE_GOLDEN=1");
      std::vector<std::string> diffs;
      compare(expected["expect"], result, "", diffs);
      std::string all;
      for (const auto& d : diffs) all += "\n  " + d;
      CHECK_MESSAGE(diffs.empty(), p.filename().string()
                                       << " differs from its golden file:" << all);
    }
    fs::remove_all(out);
    ++n;
  }
  // the quickstart at least
  CHECK(n >= 1);
}

TEST_CASE("tools::determinism") {
  SUBCASE("the same scenario and seed give a byte-identical result.json, clock aside") {
    const fs::path scenario = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "quickstart.json";
    std::string bytes[2];
    for (int i = 0; i < 2; ++i) {
      const fs::path out =
          fs::temp_directory_path() /
          ("gpuplan-determinism-" + std::to_string(getpid()) + "-" + std::to_string(i));
      fs::remove_all(out);
      REQUIRE(
          gpuplan_cli_test::gpuplan("run " + scenario.string() + " --quiet --out " + out.string())
              .status == 0);
      std::ifstream f(out / "result.json", std::ios::binary);
      bytes[i].assign(std::istreambuf_iterator<char>(f), {});
      // The one line that may differ: when the run happened.
      const std::size_t at = bytes[i].find("\"generated_at\": \"");
      REQUIRE(at != std::string::npos);
      bytes[i].erase(at, bytes[i].find('\n', at) - at);
    }
    CHECK(!bytes[0].empty());
    CHECK(bytes[0] == bytes[1]);
  }
}

TEST_CASE("tools::verdict_properties") {
  SUBCASE("variants on both sides of every threshold keep the verdict properties") {
    // The quickstart (8 nodes, offered ~0.8 of 64 GPUs) scaled through its thresholds: hot,
    // right-sized, over-provisioned, past capacity, plus growth that outgrows it mid-run and one
    // gang that takes more than half the fleet.
    const fs::path scenario = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "quickstart.json";
    const std::vector<std::string> variants = {
        "--set pools.0.count=6",
        "--set pools.0.count=7",
        "--set pools.0.count=8",
        "--set pools.0.count=12",
        "--set pools.0.count=20",
        "--set demand.growth_per_month=0.15",
        "--set demand.growth_per_month=0.01",
        "--set workload.0.gpus=40 --set workload.0.arrival.poisson.rate=0.05/h",
        "--set workload.0.gpus=32 --set workload.0.arrival.poisson.rate=0.05/h"};
    for (const std::string& v : variants) {
      CAPTURE(v);
      const fs::path out =
          fs::temp_directory_path() / ("gpuplan-verdicts-" + std::to_string(getpid()));
      fs::remove_all(out);
      const auto run = gpuplan_cli_test::gpuplan("run " + scenario.string() + " " + v +
                                                 " --quiet --out " + out.string());
      CAPTURE(run.output);
      REQUIRE(run.status == 0);
      const json r = read_json(out / "result.json");
      std::string broken;
      for (const std::string& b : gpuplan_cli_test::verdict_violations(r)) broken += "\n  " + b;
      CHECK_MESSAGE(broken.empty(), "breaks a verdict property:" << broken);
      fs::remove_all(out);
    }
  }
}

TEST_CASE("tools::tco_option_properties") {
  // The growth case (32 owned servers, the planner's eight options, each simulated) over
  // variants drawn once from a fixed seed: growth, servers bought, reserved nodes, fill target.
  const fs::path scenario =
      fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "growth_buy_reserve_burst.json";
  const double growths[] = {0.03, 0.05, 0.08, 0.12};
  const int buys[] = {4, 8, 16}, reserved[] = {2, 4, 8};
  const double fills[] = {0.7, 0.8, 0.95};
  std::mt19937 rng(2026);
  // NOTE: two years keep the staged fleet of the fastest growth to seconds of simulation.
  for (int k = 0; k < 3; ++k) {
    const double g = growths[rng() % 4];
    const std::string v = "--set tco.years=2 --set demand.growth_per_month=" + std::to_string(g) +
                          " --set tco.demand_growth_per_month=" + std::to_string(g) +
                          " --set tco.buy_nodes=" + std::to_string(buys[rng() % 3]) +
                          " --set pools.1.count=" + std::to_string(reserved[rng() % 3]) +
                          " --set tco.fill_target=" + std::to_string(fills[rng() % 3]);
    CAPTURE(v);
    const fs::path out = fs::temp_directory_path() / ("gpuplan-tco-" + std::to_string(getpid()));
    fs::remove_all(out);
    const auto run = gpuplan_cli_test::gpuplan("run " + scenario.string() + " " + v +
                                               " --quiet --out " + out.string());
    CAPTURE(run.output);
    REQUIRE(run.status == 0);
    const json r = read_json(out / "result.json");
    std::string broken;
    for (const std::string& b : gpuplan_cli_test::verdict_violations(r)) broken += "\n  " + b;
    CHECK_MESSAGE(broken.empty(), "breaks a verdict property:" << broken);
    // Every option but cloud holds the owned servers: more capacity never runs out sooner.
    const json& o = r["tco"]["options"];
    const auto month = [](const json& opt, bool simulated) {
      const json m =
          simulated
              ? opt.value("simulation", json::object()).value("stops_keeping_up_month", json())
              : opt.value("stops_keeping_up_month", json());
      return m.is_number() ? m.get<double>() : 1e9;
    };
    for (const char* more : {"buy", "staged", "reserve_1y", "reserve_3y", "burst"}) {
      CAPTURE(more);
      CHECK(month(o[more], false) >= month(o["keep"], false));
      CHECK(month(o[more], true) >= month(o["keep"], true));
    }
    fs::remove_all(out);
  }
}
