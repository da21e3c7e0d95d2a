//! Data files found by name through the real CLI (docs/data-files.md): --data-dir and
//! GPUPLAN_DATA point at folders holding them; a missing file or a different SHA-256 exits 2,
//! names the file and writes nothing; the README names only files inside the repository.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "models/input/data_files.h"
#include "tests/tools/cli.h"

namespace fs = std::filesystem;

namespace {

using gpuplan_cli_test::CliRun;

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A scenario replaying trace `trace` (the JSON of its "trace" value) on one 8-GPU node.
std::string scenario(const std::string& trace) {
  return "{\"name\": \"named\", \"horizon\": \"1h\",\n"
         " \"pools\": [{\"name\": \"p\", \"instance\": \"p4d.24xlarge\", \"count\": 1}],\n"
         " \"workload\": [{\"name\": \"t\",\n  \"trace\": " +
         trace + "}]}\n";
}

const std::string TRACE = "submit_time,num_gpus,duration\n0,1,60\n30,2,120\n";

}  // namespace

TEST_CASE("tools::data_dir") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("data-dir");
  const fs::path scenarios = tmp / "scenarios", data = tmp / "data", other = tmp / "other";
  for (const auto& d : {scenarios, data, other}) fs::create_directories(d);
  std::ofstream(data / "jobs.csv") << TRACE;
  const fs::path file = scenarios / "s.json";
  const fs::path out = tmp / "out";
  const std::string bin = gpuplan_cli_test::gpuplan_binary();

  SUBCASE("--data-dir finds a named trace for run, mc and validate") {
    std::ofstream(file) << scenario("\"jobs.csv\"");
    const CliRun v = gpuplan_cli_test::gpuplan("validate " + file.string() + " --data-dir " +
                                               other.string() + " --data-dir " + data.string());
    CHECK_MESSAGE(v.status == 0, v.output);
    const CliRun r = gpuplan_cli_test::gpuplan("run " + file.string() + " --quiet --data-dir " +
                                               data.string() + " --out " + out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto result = gpuplan_cli_test::read_json(out / "result.json");
    // The trace's 2 jobs.
    CHECK(result["metrics"]["jobs_submitted"] == 2);
    const CliRun m =
        gpuplan_cli_test::gpuplan("mc " + file.string() + " --quiet --replications 2 --data-dir " +
                                  data.string() + " --out " + (tmp / "mc").string());
    CHECK_MESSAGE(m.status == 0, m.output);
  }

  SUBCASE("GPUPLAN_DATA lists folders separated by ':'") {
    std::ofstream(file) << scenario("\"jobs.csv\"");
    const CliRun r = gpuplan_cli_test::run_shell(
        "GPUPLAN_DATA='" + other.string() + ":" + data.string() + "' timeout 120 " + bin + " run " +
        file.string() + " --quiet --out " + out.string() + " 2>&1");
    CHECK_MESSAGE(r.status == 0, r.output);
    CHECK(fs::exists(out / "result.json"));
  }

  SUBCASE(
      "a missing file exits 2 naming it, the folders searched and --data-dir, writing nothing") {
    // NOTE: the public files are on the project's data path here; their origin in the message is
    // checked in tests/models/input/data_files_test.cpp.
    std::ofstream(file) << scenario("\"my_jobs.csv\"");
    const CliRun r = gpuplan_cli_test::run_shell(
        "GPUPLAN_DATA= timeout 120 " + bin + " run " + file.string() + " --quiet --data-dir " +
        other.string() + " --out " + out.string() + " 2>&1");
    CHECK(r.status == 2);
    // file:line: /pointer: message, the trace value on line 4.
    CHECK(contains(r.output, file.string() + ":4: /workload/0/trace: trace file \"my_jobs.csv\""
                                             " not found on the data path"));
    CHECK(contains(r.output, "the scenario's folder \"" + scenarios.string() + "\", \"" +
                                 other.string() + "\""));
    CHECK(contains(r.output, "--data-dir FOLDER or GPUPLAN_DATA=FOLDER"));
    CHECK_FALSE(fs::exists(out));
  }

  SUBCASE("a SHA-256 mismatch exits 2 naming the file and both hashes, writing nothing") {
    const std::string want = gpuplan::sha256_hex("something else");
    std::ofstream(file) << scenario(R"({"path": "jobs.csv", "sha256": ")" + want + "\"}");
    const CliRun r = gpuplan_cli_test::gpuplan("run " + file.string() + " --quiet --data-dir " +
                                               data.string() + " --out " + out.string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "/workload/0/trace/sha256: the file \"" +
                                 (data / "jobs.csv").string() + "\" has SHA-256 " +
                                 gpuplan::sha256_hex(TRACE) + ", but the scenario expects " +
                                 want));
    CHECK_FALSE(fs::exists(out));
  }

  SUBCASE("a --data-dir that is not a folder is a usage error") {
    std::ofstream(file) << scenario("\"jobs.csv\"");
    const CliRun r = gpuplan_cli_test::gpuplan("run " + file.string() + " --data-dir " +
                                               (tmp / "nope").string() + " --out " + out.string());
    CHECK(r.status == 2);
    CHECK(contains(r.output, "--data-dir"));
    CHECK_FALSE(fs::exists(out));
  }
  fs::remove_all(tmp);
}

TEST_CASE("tools::readme_links") {
  SUBCASE("every file the README names is inside the repository and exists") {
    const fs::path src = GPUPLAN_SOURCE_DIR;
    const std::string readme = gpuplan_cli_test::read_text(src / "README.md");
    REQUIRE(!readme.empty());
    // Markdown links [text](target) and `code` spans that look like paths.
    const std::regex link(R"(\]\(([^)#\s]+)[^)]*\))"),
        code(R"(`([A-Za-z0-9_./-]+/[A-Za-z0-9_.*-]+)`)");
    int n = 0;
    for (const std::regex& re : {link, code}) {
      for (auto it = std::sregex_iterator(readme.begin(), readme.end(), re);
           it != std::sregex_iterator(); ++it) {
        const std::string target = (*it)[1];
        if (target.rfind("http", 0) == 0 || target.find('*') != std::string::npos ||
            target.rfind("out/", 0) == 0 || target.rfind("build/", 0) == 0)
          continue;
        CAPTURE(target);
        CHECK(target.find("..") == std::string::npos);
        CHECK(target.find("shared/") == std::string::npos);
        CHECK(fs::exists(src / target));
        ++n;
      }
    }
    // The README names at least its docs.
    CHECK(n >= 1);
  }
}
