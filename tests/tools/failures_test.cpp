//! Hardware failures through the real CLI (docs/failures.md): the bundled Llama 3 scenario against
//! the paper's 419 interruptions and > 90 % effective training time, and bad failure input as
//! `file:line: /pointer: message` with exit 2 and nothing written.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::gpuplan;
using gpuplan_cli_test::read_json;

TEST_CASE("tools::failures") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("failures");
  fs::create_directories(tmp);

  SUBCASE("the Llama 3 scenario sees the paper's 419 failures within the Poisson CI") {
    const std::string scenario =
        (fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "llama3_failures.json").string();
    const fs::path out = tmp / "llama3";
    REQUIRE(gpuplan("run " + scenario + " --quiet --out " + out.string()).status == 0);
    const nlohmann::json r = read_json(out / "result.json");
    const nlohmann::json& f = r["failures"];
    // the table's rate x 16,384 serving GPUs x 54 days is the paper's 419 by construction
    CHECK(f["expected_failures"].get<double>() == doctest::Approx(419).epsilon(1e-9));
    // one run's count is Poisson(419): within 3 sigma (sqrt(419) = 20.5) with p = 0.997
    CHECK(std::abs(f["failures"].get<double>() - 419) < 3 * std::sqrt(419.0));
    // the paper kept "more than 90 % effective training time"
    CHECK(f["effective_training_time"].get<double>() > 0.9);
    CHECK(f["effective_training_time"].get<double>() < 1.0);
    // the 48-day job finishes inside the 54 days despite the failures
    CHECK(r["metrics"]["jobs_completed"] == 1);
    uint64_t by_cause = 0;
    for (const auto& [cause, n] : f["by_cause"].items()) by_cause += n.get<uint64_t>();
    CHECK(by_cause == f["failures"].get<uint64_t>());
  }

  SUBCASE("a negative rate and too many spares are file:line errors, exit 2, nothing written") {
    const fs::path bad = tmp / "bad.json";
    std::ofstream(bad) << "{\"horizon\": \"1d\",\n"
                          "\"pools\": [{\"name\": \"p\", \"instance\": \"p5.48xlarge\", "
                          "\"count\": 2,\n \"spares\": 2}],\n"
                          "\"workload\": [{\"name\": \"w\", \"arrival\": {\"poisson\": {\"rate\": "
                          "\"1/h\"}}, \"gpus\": 8, \"duration\": \"1h\"}],\n"
                          "\"failures\": {\"rates\": {\"gpu\": \"-3e-6/h\"}}}\n";
    const fs::path out = tmp / "bad_out";
    const CliRun run = gpuplan("run " + bad.string() + " --out " + out.string());
    CHECK(run.status == 2);
    CHECK(run.output.find("bad.json:3: /pools/0/spares: spares (2) must be fewer") !=
          std::string::npos);
    CHECK(run.output.find("bad.json:5: /failures/rates/gpu: a failure rate must be finite") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}
