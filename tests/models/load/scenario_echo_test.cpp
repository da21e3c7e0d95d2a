//! The effective-scenario echo (models/load/scenario_echo.h): defaults filled in, loadable, and a
//! fixed point: echoing the echo gives the same JSON and the same simulation.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "models/compile/compile.h"
#include "models/input/field_reader.h"
#include "models/load/load.h"
#include "models/load/scenario_echo.h"
#include "reports/result_json.h"
#include "study/run.h"
#include "tests/data_files.h"

using namespace gpuplan;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

const fs::path SCENARIOS = fs::path(GPUPLAN_SOURCE_DIR) / "scenarios";

//! Loads `path`; fails the test with the diagnostics when the loader refuses it.
Scenario load_file(const fs::path& path) {
  Diagnostics d;
  auto sc = load_scenario(path.string(), {}, d);
  REQUIRE_MESSAGE(sc.has_value(), path.string() << ":\n" << d.to_text());
  return *sc;
}

Scenario load_text(const std::string& text) {
  Diagnostics d;
  auto sc = load_scenario_text(text, "scenario.json", "", {}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  return *sc;
}

//! One simulation's result.json without the echo (which names the file it came from).
json simulate(const Scenario& sc) {
  const CompiledScenario cs = compile(sc);
  json result = result_json(sc, cs, study::run(sc, cs));
  result.erase("scenario_echo");
  result.erase("generated_at");  // the clock, not the model
  return result;
}

//! JSON pointers where `a` and `b` differ (first few), for readable failures.
std::string differences(const json& a, const json& b) {
  std::string out;
  int n = 0;
  for (const json& op : json::diff(a, b)) {
    if (++n > 8) break;
    out += "\n  " + op.dump();
  }
  return out;
}

//! A scratch folder away from scenarios/, so relative paths could not resolve by accident.
struct TempDir {
  fs::path path = fs::temp_directory_path() / ("gpuplan-echo-" + std::to_string(getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

const std::string MINIMAL = R"({"horizon": "2d",
  "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 2}],
  "workload": [{"name": "w", "arrival": {"poisson": {"rate": "3/h"}}, "gpus": 8,
                "duration": {"lognormal": {"median": "20m", "p90": "3h"}}}]})";

}  // namespace

TEST_CASE("models::scenario_echo") {
  SUBCASE("an omitted field shows its default value") {
    const json e = effective_scenario_json(load_text(MINIMAL));
    // Defaults of models/scenario/scenario.h: seed 42, warmup 0, fifo queue, best_fit placement.
    CHECK(e["seed"] == 42);
    CHECK(e["warmup"] == 0);
    CHECK(e["scheduler"]["queue"] == "fifo");
    CHECK(e["scheduler"]["placement"] == "best_fit");
    // Limits: 65536 active jobs, 240 time bins.
    CHECK(e["limits"]["max_active_jobs"] == 65536);
    CHECK(e["limits"]["time_bins"] == 240);
    // Pricing on_demand, billed per second with no minimum; the class is not spot tolerant.
    CHECK(e["pools"][0]["pricing"] == "on_demand");
    CHECK(e["pools"][0]["billing"] == json{{"granularity", "second"}, {"minimum", 0}});
    CHECK(e["workload"][0]["spot_tolerant"] == false);
    // The name defaults to the file's stem ("scenario.json" here).
    CHECK(e["name"] == "scenario");
  }

  SUBCASE("durations are seconds and rates are per second") {
    const json e = effective_scenario_json(load_text(MINIMAL));
    // "2d" = 172800 s.
    CHECK(e["horizon"] == 172800.0);
    // "3/h" = 1/1200 per second, written with its unit.
    CHECK(e["workload"][0]["arrival"]["poisson"]["rate"] == fields::num(3.0 / 3600) + "/s");
    // The lognormal keeps its median and p90 as written, in seconds (20 min, 3 h).
    CHECK(e["workload"][0]["duration"]["lognormal"]["median"] == 1200.0);
    CHECK(e["workload"][0]["duration"]["lognormal"]["p90"] == 10800.0);
  }

  SUBCASE("the catalog instance a pool uses is written out with its prices, source and date") {
    const json e = effective_scenario_json(load_text(MINIMAL));
    REQUIRE(e["instances"].size() == 1);
    const json& it = e["instances"][0];
    CHECK(it["id"] == "p4d.24xlarge");
    CHECK(it["gpu"] == "A100-40GB");
    // Eight GPUs per node, as the catalog says.
    CHECK(it["gpus_per_node"] == 8);
    CHECK(it["price_per_hour"].contains("on_demand"));
    CHECK(!it["source"].get<std::string>().empty());
    CHECK(!it["as_of"].get<std::string>().empty());
    // The pool's resolved price is the instance's on-demand price.
    CHECK(e["pools"][0]["_price_per_node_hour"] == it["price_per_hour"]["on_demand"]);
  }

  SUBCASE("a spot pool and an auto checkpoint show what they resolve to") {
    const json e = effective_scenario_json(load_text(R"({"horizon": "2d",
      "pools": [{"name": "s", "instance": "p4d.24xlarge", "count": 4, "pricing": "spot",
                 "spot": {"advisor_band": "5-10%"}}],
      "workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 16,
                    "duration": "4h", "spot_tolerant": true,
                    "checkpoint": {"interval": "auto", "cost": "2m"}}]})"));
    const json& spot = e["pools"][0]["spot"];
    CHECK(spot["advisor_band"] == "5-10%");
    CHECK(spot["_interruptions_per_node_hour"].get<double>() > 0);
    // AWS gives two minutes' notice (120 s), the provider of p4d.24xlarge.
    CHECK(spot["notice"] == 120.0);
    const json& cp = e["workload"][0]["checkpoint"];
    CHECK(cp["interval"] == "auto");
    // 16 GPUs on 8-GPU nodes: a 2-node gang, with a positive Daly interval.
    CHECK(e["workload"][0]["_checkpoint_interval_s"]["s"]["2_nodes"].get<double>() > 0);
  }

  SUBCASE("--set overrides and the seed show in the echo") {
    Diagnostics d;
    LoadOptions opts;
    opts.overrides = {"scheduler.queue=backfill", "seed=7"};
    const auto sc = load_scenario_text(MINIMAL, "scenario.json", "", opts, d);
    REQUIRE_MESSAGE(sc, d.to_text());
    const json e = effective_scenario_json(*sc);
    CHECK(e["scheduler"]["queue"] == "backfill");
    // The seed given on the command line, not the default 42.
    CHECK(e["seed"] == 7);
  }

  SUBCASE("a trace class names its file by an absolute path, so the echo loads from anywhere") {
    if (gpuplan_test_data::data_file("tiresias_60_jobs.csv", "load::echo tiresias_60")) {
      const json e = effective_scenario_json(load_file(SCENARIOS / "tiresias_60.json"));
      const fs::path path = e["workload"][0]["trace"]["path"].get<std::string>();
      CHECK(path.is_absolute());
      CHECK(fs::exists(path));
      // The scenario's SHA-256 travels with the echo, so a reload checks the same file.
      CHECK(e["workload"][0]["trace"]["sha256"] ==
            "17575949a6e570960db42bc5576739de9c334ed4c664859841c4f01ede38bd1b");
    }
  }

  SUBCASE("an echo loads again, and a reload echoes the same JSON") {
    const json e1 = effective_scenario_json(load_text(MINIMAL));
    const json e2 = effective_scenario_json(load_text(e1.dump()));
    CHECK_MESSAGE(e1 == e2, differences(e1, e2));
  }

  SUBCASE("a statistics window echoes and reloads as written") {
    std::string text = MINIMAL;
    text.insert(1,
                R"("warmup": "6h", "statistics": {"arrivals_until": "1d", "job_ids": [3, 90]},)");
    const json e1 = effective_scenario_json(load_text(text));
    CHECK(e1["statistics"]["arrivals_until"] == 86400.0);
    CHECK(e1["statistics"]["job_ids"] == json::array({3, 90}));
    const json e2 = effective_scenario_json(load_text(e1.dump()));
    CHECK_MESSAGE(e1 == e2, differences(e1, e2));
  }

  SUBCASE("every bundled scenario round-trips: same echo, same simulated results") {
    const TempDir tmp;
    int n = 0;
    std::vector<fs::path> files;
    for (const fs::path& dir : {SCENARIOS, SCENARIOS / "reproduce"})
      for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path());
    for (const fs::path& p : files) {
      if (p.extension() != ".json" || p.stem().extension() == ".expected") continue;
      CAPTURE(p.filename().string());
      Diagnostics d;
      const auto loaded = load_scenario(p.string(), {}, d);
      if (!loaded && gpuplan_test_data::skipped_for_missing_data("echo of " + p.filename().string(),
                                                                 d.to_text()))
        continue;
      REQUIRE_MESSAGE(loaded.has_value(), p.string() << ":\n" << d.to_text());
      const Scenario& x = *loaded;
      const json e1 = effective_scenario_json(x);
      // Saved elsewhere, as `jq .scenario_echo result.json > again.json` would.
      const fs::path again = tmp.path / p.filename();
      std::ofstream(again) << e1.dump(2) << "\n";
      const Scenario y = load_file(again);
      const json e2 = effective_scenario_json(y);
      CHECK_MESSAGE(e1 == e2, p.filename().string() << " echo differs:" << differences(e1, e2));
      const json rx = simulate(x), ry = simulate(y);
      CHECK_MESSAGE(rx == ry, p.filename().string() << " results differ:" << differences(rx, ry));
      ++n;
    }
    // 16 bundled scenarios today; at least the quickstart.
    CHECK(n >= 1);
  }
}
