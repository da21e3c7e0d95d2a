//! `gpuplan run --jobs PATH` through the real CLI: the per-job CSV is written only when asked,
//! one row per finished job in completion order, and an unwritable PATH is an input error.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace fs = std::filesystem;

namespace {

struct CliRun {
  int status = -1;     //!< exit status
  std::string output;  //!< stdout and stderr together
};

//! Runs `gpuplan ARGS` and captures its output.
CliRun gpuplan(const std::string& args) {
  const std::string cmd =
      (fs::path(GPUPLAN_BINARY_DIR) / "gpuplan").string() + " " + args + " 2>&1";
  CliRun r;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::array<char, 4096> buf{};
  while (size_t n = std::fread(buf.data(), 1, buf.size(), p)) r.output.append(buf.data(), n);
  const int raw = ::pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  return r;
}

std::vector<std::string> lines_of(const fs::path& p) {
  std::ifstream f(p);
  std::vector<std::string> out;
  for (std::string line; std::getline(f, line);) out.push_back(line);
  return out;
}

}  // namespace

TEST_CASE("tools::run_jobs") {
  const fs::path tmp = fs::temp_directory_path() / ("gpuplan-jobs-" + std::to_string(getpid()));
  fs::remove_all(tmp);
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
  fs::remove_all(tmp);
}
