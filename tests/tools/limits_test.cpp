//! The limits of docs/reliability.md through the real CLI: scenarios that used to spin forever or
//! run away are refused by validate and run in well under a second, exit 2 with
//! `file:line: /pointer: message`, and write nothing.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;

namespace {

using gpuplan_cli_test::CliRun;

//! Runs `gpuplan ARGS` (under a 60 s `timeout`, so a regression fails instead of hanging).
CliRun gpuplan(const std::string& args) {
  return gpuplan_cli_test::gpuplan(args, {}, 60);
}

// A small scenario; line 8 holds the duration the cases replace (`extra` lines come before it).
std::string scenario(const std::string& duration, const std::string& extra = "") {
  return "{\n"
         "  \"name\": \"limits\",\n"
         "  \"horizon\": \"7d\",\n" +
         extra +
         "  \"instances\": [{\"id\": \"lab.g1\", \"gpu\": \"a100-80gb\", \"gpus_per_node\": 1,\n"
         "                 \"price_per_hour\": {\"on_demand\": 2.0}}],\n"
         "  \"pools\": [{\"name\": \"main\", \"instance\": \"lab.g1\", \"count\": 8}],\n"
         "  \"workload\": [{\"name\": \"jobs\", \"arrival\": {\"poisson\": {\"rate\": \"4/h\"}},\n"
         "                \"gpus\": 1, \"duration\": " +
         duration + "}]\n}\n";
}

}  // namespace

TEST_CASE("tools::limits") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("limits");
  fs::create_directories(tmp);
  const fs::path file = tmp / "s.json";
  const fs::path out = tmp / "out";
  const auto write = [&](const std::string& text) { std::ofstream(file) << text; };

  SUBCASE("an overflowing lognormal exits 2 in validate, run, mc and sweep, writing nothing") {
    write(scenario(R"({"lognormal": {"median": "1e-300s", "p90": "12h"}})"));
    for (const std::string cmd :
         {"validate " + file.string(), "run " + file.string() + " --quiet --out " + out.string(),
          "mc " + file.string() + " --quiet --replications 4 --out " + out.string(),
          "sweep " + file.string() + " --quiet --vary seed=1,2 --out " + out.string()}) {
      CAPTURE(cmd);
      const CliRun r = gpuplan(cmd);
      CHECK(r.status == 2);
      // The duration is on line 8 of the file.
      CHECK(r.output.find(file.string() + ":8: /workload/0/duration: ") != std::string::npos);
      CHECK(r.output.find("limits.max_duration") != std::string::npos);
      CHECK(r.seconds < 5);
      CHECK_FALSE(fs::exists(out));
    }
  }
  SUBCASE("an exponential mean of 1e308 s exits 2 instead of spinning") {
    write(scenario(R"({"exponential": {"mean": 1e308}})"));
    const CliRun r = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    CHECK(r.status == 2);
    CHECK(r.output.find(":8: /workload/0/duration: ") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  SUBCASE("a horizon of 1e12 s exits 2 naming limits.max_events") {
    write(scenario(R"({"exponential": {"mean": "1h"}})"));
    const CliRun r = gpuplan("validate " + file.string() + " --set horizon=1e12");
    CHECK(r.status == 2);
    CHECK(r.output.find("/workload/0/arrival: one run would handle about") != std::string::npos);
    CHECK(r.output.find("raise limits.max_events") != std::string::npos);
  }
  SUBCASE("a seed of 1e41 is too large, with the range") {
    write(scenario("\"1h\"", "  \"seed\": 1e41,\n"));
    const CliRun r = gpuplan("validate " + file.string());
    CHECK(r.status == 2);
    CHECK(r.output.find(":4: /seed: too large: must be a whole number from 0 to "
                        "18446744073709551615, got 1e+41") != std::string::npos);
  }
  SUBCASE("a 2 MB unknown instance id is answered at once, shown cut") {
    std::string text = scenario("\"1h\"");
    // NOTE: in the file, not in --set: one command-line argument is capped at 128 KB.
    text.replace(text.find("\"lab.g1\", \"count\""), 8, "\"" + std::string(2'000'000, 'x') + "\"");
    write(text);
    const CliRun r = gpuplan("validate " + file.string());
    CHECK(r.status == 2);
    CHECK(r.output.find("(2000000 bytes)") != std::string::npos);
    CHECK(r.output.size() < 4000);
    CHECK(r.seconds < 2);
  }
  fs::remove_all(tmp);
}
