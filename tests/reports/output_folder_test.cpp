//! The one output writer (reports/output_folder.h): a command's files appear together or not at
//! all, an existing output folder is replaced whole, and nothing is written outside it.
#include "reports/output_folder.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;
using gpuplan::reports::output_folder_problem;
using gpuplan::reports::OutputFolder;

namespace {

std::string read(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

size_t entries(const fs::path& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir)) ++n;
  return n;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("reports::output_folder") {
  const fs::path tmp = fs::temp_directory_path() / ("gpuplan-outdir-" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  const fs::path target = tmp / "out" / "run1";
  std::string error;

  SUBCASE("files appear only at commit, together, subfolders included") {
    auto out = OutputFolder::stage(target, error);
    REQUIRE(out);
    REQUIRE(out->write("result.json", "{}\n"));
    REQUIRE(out->write("point-0/result.json", "{\"p\":0}\n"));
    CHECK_FALSE(fs::exists(target));
    REQUIRE(out->commit());
    CHECK(read(target / "result.json") == "{}\n");
    CHECK(read(target / "point-0" / "result.json") == "{\"p\":0}\n");
    // Only the target is left in out/: no staging folder remains.
    CHECK(entries(tmp / "out") == 1);
  }
  SUBCASE("many files: each flushed at commit, while at most a few stay open meanwhile") {
    // A sweep writes a result per point; the files whose flush commit() waits for are capped, so
    // a thousand points never hold a thousand descriptors.
    const auto open_files = [] { return entries("/proc/self/fd"); };
    const size_t before = open_files();
    auto out = OutputFolder::stage(target, error);
    REQUIRE(out);
    size_t most = 0;
    for (int k = 0; k < 40; ++k) {
      REQUIRE(out->write("point-" + std::to_string(k) + "/result.json", std::to_string(k)));
      most = std::max(most, open_files());
    }
    CHECK(most <= before + 9);  // the cap of 8, and the listing's own descriptor
    REQUIRE(out->commit());
    CHECK(open_files() == before);
    for (int k = 0; k < 40; ++k)
      CHECK(read(target / ("point-" + std::to_string(k)) / "result.json") == std::to_string(k));
  }
  SUBCASE("an existing output folder is replaced whole: no file of the old set remains") {
    {
      auto out = OutputFolder::stage(target, error);
      REQUIRE(out);
      REQUIRE(out->write("result.json", "old"));
      REQUIRE(out->write("quote.pdf", "old pdf"));
      REQUIRE(out->commit());
    }
    auto out = OutputFolder::stage(target, error);
    REQUIRE(out);
    REQUIRE(out->write("result.json", "new"));
    REQUIRE(out->commit());
    CHECK(read(target / "result.json") == "new");
    CHECK_FALSE(fs::exists(target / "quote.pdf"));
    CHECK(entries(tmp / "out") == 1);
  }
  SUBCASE("an uncommitted folder leaves the target as it was and no staging files") {
    fs::create_directories(target);
    std::ofstream(target / "result.json") << "kept";
    {
      auto out = OutputFolder::stage(target, error);
      REQUIRE(out);
      REQUIRE(out->write("result.json", "lost"));
    }
    CHECK(read(target / "result.json") == "kept");
    CHECK(entries(tmp / "out") == 1);
  }
  SUBCASE("result.json being a folder (or a planted symlink) refuses the target, untouched") {
    fs::create_directories(target / "result.json");
    CHECK(contains(output_folder_problem(target), "holds \"result.json\""));
    CHECK_FALSE(OutputFolder::stage(target, error));
    CHECK(fs::is_directory(target / "result.json"));
    fs::remove(target / "result.json");
    fs::create_symlink(tmp / "victim", target / "report.html");
    CHECK(contains(output_folder_problem(target), "holds \"report.html\""));
    CHECK_FALSE(fs::exists(tmp / "victim"));
  }
  SUBCASE("a folder holding files gpuplan did not write is refused, so they are never lost") {
    fs::create_directories(target / "point-2");
    std::ofstream(target / "point-2" / "notes.txt") << "mine";
    CHECK(contains(output_folder_problem(target), "point-2/notes.txt"));
    CHECK(contains(output_folder_problem(target, {"notes.txt"}), "point-2/notes.txt"));
    fs::remove_all(target / "point-2");
    std::ofstream(target / "jobs.csv") << "rows";
    CHECK(contains(output_folder_problem(target), "jobs.csv"));
    // A --jobs file named by the command is one of its own files.
    CHECK(output_folder_problem(target, {"jobs.csv"}).empty());
  }
  SUBCASE("every file a run writes is its own, so the same command can run again into it") {
    // Why: teams.csv and the --openmetrics files were missing from the list, so a second run of
    // a scenario with teams (or with --openmetrics) into the same folder was refused.
    fs::create_directories(target);
    for (const char* f :
         {"result.json", "report.html", "timeseries.csv", "classes.csv", "replicas.csv",
          "teams.csv", "metrics.om", "grafana_dashboard.json", "prometheus_rules.yml"})
      std::ofstream(target / f) << "x";
    CHECK(output_folder_problem(target).empty());
  }
  SUBCASE("a file the command names itself (its --jobs file) is replaced, also at commit") {
    fs::create_directories(target);
    std::ofstream(target / "jobs.csv") << "old rows";
    auto out = OutputFolder::stage(target, error, {"jobs.csv"});
    REQUIRE(out);
    REQUIRE(out->write("jobs.csv", "new rows"));
    REQUIRE(out->commit());
    CHECK(read(target / "jobs.csv") == "new rows");
  }
  SUBCASE("a target that is a file, the current folder or one above it is refused") {
    fs::create_directories(tmp / "out");
    std::ofstream(tmp / "out" / "file") << "x";
    CHECK(contains(output_folder_problem(tmp / "out" / "file"), "not a folder"));
    CHECK(contains(output_folder_problem("."), "current folder"));
    CHECK(contains(output_folder_problem(".."), "current folder"));
    CHECK(contains(output_folder_problem("/"), "current folder"));
  }
  SUBCASE("names that would leave the folder are refused") {
    auto out = OutputFolder::stage(target, error);
    REQUIRE(out);
    for (const char* bad : {"..", "../escape.json", "a/../../x", "a/b/c", "", "/etc/x", "./"}) {
      CHECK_FALSE(out->write(bad, "x"));
    }
    CHECK_FALSE(fs::exists(tmp / "out" / "escape.json"));
    CHECK_FALSE(fs::exists(tmp / "escape.json"));
  }
  SUBCASE("the same name twice is an error, not a silent overwrite") {
    auto out = OutputFolder::stage(target, error);
    REQUIRE(out);
    REQUIRE(out->write("result.json", "1"));
    CHECK_FALSE(out->write("result.json", "2"));
    CHECK(contains(out->error(), "result.json"));
  }
  fs::remove_all(tmp);
}
