//! `gpuplan run --jobs PATH` through the real CLI: the per-job CSV is written only when asked,
//! one row per finished job in completion order, an unwritable PATH is an input error, and a
//! failed disk write is reported and leaves nothing behind.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::gpuplan;

namespace {

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> out;
  for (std::string line; std::getline(f, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("tools::run_jobs") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("jobs");
  fs::create_directories(tmp);
  const std::string scenario =
      (fs::path(GPUPLAN_SOURCE_DIR) / "scenarios" / "quickstart.json").string();
  const fs::path out = tmp / "out";

  SUBCASE("without --jobs no per-job file is written") {
    REQUIRE(gpuplan("run " + scenario + " --quiet --out " + out.string()).status == 0);
    CHECK(fs::exists(out / "result.json"));
    CHECK_FALSE(fs::exists(out / "jobs.csv"));
  }

  SUBCASE("--jobs writes one row per finished job, in completion order") {
    const fs::path jobs = tmp / "jobs.csv";
    const CliRun r =
        gpuplan("run " + scenario + " --out " + out.string() + " --jobs " + jobs.string());
    REQUIRE(r.status == 0);
    CHECK(r.output.find("job rows to " + jobs.string()) != std::string::npos);
    const std::vector<std::string> rows = lines_of(jobs);
    REQUIRE(rows.size() > 1);
    CHECK(rows[0] == "job,class,class_job,pool,gpus,submit_s,start_s,finish_s,wait_s,jct_s");
    // no temp file is left beside it
    for (const auto& e : fs::directory_iterator(tmp))
      CHECK_FALSE(e.path().filename().string().starts_with(".jobs.csv"));
    double last_finish = 0;
    uint64_t counted = 0;
    const nlohmann::json result = nlohmann::json::parse(std::ifstream(out / "result.json"));
    const double warmup = result["warmup_s"].get<double>();
    for (std::size_t i = 1; i < rows.size(); ++i) {
      std::vector<std::string> cells;
      std::stringstream row(rows[i]);
      for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
      REQUIRE(cells.size() == 10);
      // `job` numbers rows from 0
      CHECK(cells[0] == std::to_string(i - 1));
      const double submit = std::stod(cells[5]), finish = std::stod(cells[7]);
      CHECK(finish >= last_finish);
      last_finish = finish;
      if (submit >= warmup) ++counted;
    }
    // the rows of jobs submitted after the warmup are the completed jobs of result.json
    CHECK(counted == result["metrics"]["jobs_completed"].get<uint64_t>());
  }

  SUBCASE("--jobs into a missing folder, a folder or below a file exits 2 and writes nothing") {
    fs::create_directories(tmp / "a_folder");
    std::ofstream(tmp / "a_file") << "x";
    for (const fs::path& bad :
         {tmp / "missing" / "jobs.csv", tmp / "a_folder", tmp / "a_file" / "j.csv"}) {
      CAPTURE(bad);
      const CliRun r =
          gpuplan("run " + scenario + " --quiet --out " + out.string() + " --jobs " + bad.string());
      CHECK(r.status == 2);
      CHECK(r.output.find("--jobs " + bad.string() + ": ") != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
    CHECK(fs::is_empty(tmp / "a_folder"));
  }
  SUBCASE("a disk write that fails mid-run exits 1 naming the reason, and writes nothing") {
    // NOTE: a 1 KiB file size limit makes write() fail with EFBIG, as a full disk fails with
    // ENOSPC; SIGXFSZ is ignored (and stays ignored across exec) so gpuplan sees the error.
    const fs::path jobs = tmp / "jobs.csv";
    const std::string binary = gpuplan_cli_test::gpuplan_binary();
    const std::string cmd = "sh -c \"trap '' XFSZ; ulimit -f 1; exec " + binary + " run " +
                            scenario + " --quiet --out " + out.string() + " --jobs " +
                            jobs.string() + "\" 2>&1";
    const CliRun r = gpuplan_cli_test::run_shell(cmd);
    const std::string& output = r.output;
    // exit 1: the input was fine, the disk was not
    CHECK(r.status == 1);
    CHECK(output.find("--jobs " + jobs.string() + ": cannot write: File too large") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(jobs));
    // no mkstemp temp file ".jobs.csv.XXXXXX" is left behind
    for (const auto& e : fs::directory_iterator(tmp))
      CHECK(e.path().filename().string().rfind(".jobs.csv.", 0) != 0);
    CHECK_FALSE(fs::exists(out));
  }
  fs::remove_all(tmp);
}
