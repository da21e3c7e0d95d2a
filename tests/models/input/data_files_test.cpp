#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "models/input/data_files.h"
#include "models/load/load.h"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A fresh folder tree for one test: scenario/, cli/, env1/, env2/ under a per-process root.
struct Folders {
  fs::path root = fs::path(GPUPLAN_BINARY_DIR) / ("data_files_test_" + std::to_string(getpid()));
  fs::path scenario = root / "scenario", cli = root / "cli", env1 = root / "env1",
           env2 = root / "env2";
  Folders() {
    fs::remove_all(root);
    for (const auto& d : {scenario, cli, env1, env2}) fs::create_directories(d);
  }
  ~Folders() { fs::remove_all(root); }
  Folders(const Folders&) = delete;
  Folders& operator=(const Folders&) = delete;
  static void write(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
  }
};

const std::string TINY = "submit_time,num_gpus,duration\n0,1,5\n3,2,7\n";
// sha256sum of TINY.
const std::string TINY_SHA = "24ad12a73f3f88210cd6480e06ac34e1cc2adcabbb52509e86439393cdca9ec8";

// A scenario with one trace class; `trace` is the JSON of its "trace" value.
std::string scenario_with(const std::string& trace) {
  return R"({"horizon": "1h",
    "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 1}],
    "workload": [{"name": "t", "trace": )" +
         trace + "}]}";
}

std::optional<Scenario> load_in(const Folders& f, const std::string& text,
                                std::vector<std::string> data_path, Diagnostics& d) {
  LoadOptions lo;
  lo.data_path = std::move(data_path);
  return load_scenario_text(text, (f.scenario / "s.json").string(), f.scenario.string(), lo, d);
}

}  // namespace

TEST_CASE("load::data_path") {
  SUBCASE("the search path is --data-dir, then GPUPLAN_DATA's entries, then the project folder") {
    const auto path = data_search_path({"/a", "/b"}, "/c::/d:/a");
    const auto project = project_data_dirs();
    // 2 --data-dir folders + 2 new GPUPLAN_DATA entries (the empty one and the repeated /a are
    // dropped) + the project folders.
    REQUIRE(path.size() == 4 + project.size());
    CHECK(path[0] == "/a");
    CHECK(path[1] == "/b");
    CHECK(path[2] == "/c");
    CHECK(path[3] == "/d");
    CHECK(path.back() == project.back());
  }
  SUBCASE("the project folder is ../shared/data beside the sources, whatever the working folder") {
    const auto before = project_data_dirs();
    const fs::path cwd = fs::current_path();
    fs::current_path("/");
    const auto after = project_data_dirs();
    fs::current_path(cwd);
    CHECK(before == after);
    REQUIRE(!before.empty());
    CHECK(before.front() ==
          (fs::path(GPUPLAN_SOURCE_DIR) / ".." / "shared" / "data").lexically_normal().string());
  }
  SUBCASE("the scenario's folder wins, then the data path in order") {
    const Folders f;
    const std::vector<std::string> dp = {f.cli.string(), f.env1.string(), f.env2.string()};
    Folders::write(f.env2 / "x.csv", TINY);
    CHECK(resolve_data_file("x.csv", f.scenario.string(), dp) == (f.env2 / "x.csv").string());
    Folders::write(f.env1 / "x.csv", TINY);
    CHECK(resolve_data_file("x.csv", f.scenario.string(), dp) == (f.env1 / "x.csv").string());
    Folders::write(f.cli / "x.csv", TINY);
    CHECK(resolve_data_file("x.csv", f.scenario.string(), dp) == (f.cli / "x.csv").string());
    Folders::write(f.scenario / "x.csv", TINY);
    CHECK(resolve_data_file("x.csv", f.scenario.string(), dp) == (f.scenario / "x.csv").string());
  }
  SUBCASE("a relative path with folders is looked up under each folder; an absolute one as given") {
    const Folders f;
    fs::create_directories(f.env1 / "traces");
    Folders::write(f.env1 / "traces" / "y.csv", TINY);
    const std::vector<std::string> dp = {f.cli.string(), f.env1.string()};
    CHECK(resolve_data_file("traces/y.csv", f.scenario.string(), dp) ==
          (f.env1 / "traces" / "y.csv").string());
    const std::string abs = (f.env1 / "traces" / "y.csv").string();
    CHECK(resolve_data_file(abs, f.scenario.string(), {}) == abs);
    // An absolute path is never searched for under the data path.
    CHECK_FALSE(resolve_data_file((f.env2 / "y.csv").string(), f.scenario.string(), dp));
  }
}

TEST_CASE("load::data_file_missing") {
  SUBCASE("a known file's message names it, its public origin and --data-dir / GPUPLAN_DATA") {
    const std::string m =
        missing_data_file_message("philly_jobs.csv", "trace file", "/s", {"/d1", "/d2"});
    CHECK(contains(m, "trace file \"philly_jobs.csv\" not found on the data path"));
    CHECK(contains(m, "the scenario's folder \"/s\", \"/d1\", \"/d2\""));
    CHECK(
        contains(m, "https://github.com/petuum/adaptdl @ c793c708 : simulator/traces/philly.csv"));
    CHECK(contains(m, "--data-dir FOLDER"));
    CHECK(contains(m, "GPUPLAN_DATA=FOLDER"));
  }
  SUBCASE("every known file has a public https origin and is found by its bare name") {
    for (const KnownDataFile& k : known_data_files()) {
      CAPTURE(k.name);
      CHECK(k.origin.substr(0, 19) == "https://github.com/");
      CHECK(find_known_data_file("some/folder/" + std::string(k.name)) == &k);
    }
    CHECK(find_known_data_file("mine.csv") == nullptr);
  }
  SUBCASE("an unknown file's message says how to point gpuplan at it, without an origin") {
    const std::string m = missing_data_file_message("mine.csv", "schedule file", "", {});
    CHECK(contains(m, "schedule file \"mine.csv\" not found on the data path"));
    CHECK(contains(m, "the working folder"));
    CHECK(contains(m, "--data-dir FOLDER"));
    CHECK_FALSE(contains(m, "public at"));
  }
  SUBCASE("a scenario naming a missing trace gets one io_error at the trace with that message") {
    const Folders f;
    Diagnostics d;
    CHECK_FALSE(load_in(f, scenario_with(R"("tiresias_60_jobs.csv")"), {f.cli.string()}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].pointer == "/workload/0/trace");
    CHECK(all[0].code == DiagCode::io_error);
    CHECK(contains(all[0].message, "\"tiresias_60_jobs.csv\" not found on the data path"));
    CHECK(contains(all[0].message, "SymbioticLab/Tiresias"));
    CHECK(contains(all[0].message, f.cli.string()));
  }
}

TEST_CASE("load::data_file_sha256") {
  SUBCASE("SHA-256 matches the FIPS 180-2 test vectors") {
    // FIPS 180-2, appendix B.1: SHA-256("abc").
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // SHA-256 of the empty message.
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    // FIPS 180-2, appendix B.3: one million "a", many blocks (a data file's size class).
    CHECK(sha256_hex(std::string(1'000'000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    CHECK(is_sha256_hex(sha256_hex("abc")));
    CHECK_FALSE(is_sha256_hex("abc"));
  }
  SUBCASE("a file with the expected hash loads; the hash may be given in upper case") {
    const Folders f;
    Folders::write(f.cli / "t.csv", TINY);
    // The digest `sha256sum` prints for the same bytes.
    CHECK(sha256_hex(TINY) == TINY_SHA);
    std::string upper = TINY_SHA;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Diagnostics d;
    const auto sc = load_in(f, scenario_with(R"({"path": "t.csv", "sha256": ")" + upper + "\"}"),
                            {f.cli.string()}, d);
    REQUIRE_MESSAGE(sc, d.to_text());
    // TINY has 2 rows.
    CHECK(sc->workload[0].trace_rows.size() == 2);
    CHECK(sc->workload[0].trace->path == (f.cli / "t.csv").string());
    CHECK(sc->workload[0].trace->sha256 == upper);
  }
  SUBCASE("a different file is an error naming the file and both hashes") {
    const Folders f;
    Folders::write(f.cli / "t.csv", TINY + "9,1,1\n");
    const std::string want = TINY_SHA;
    Diagnostics d;
    CHECK_FALSE(load_in(f, scenario_with(R"({"path": "t.csv", "sha256": ")" + want + "\"}"),
                        {f.cli.string()}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].pointer == "/workload/0/trace/sha256");
    CHECK(all[0].code == DiagCode::io_error);
    CHECK(contains(all[0].message, (f.cli / "t.csv").string()));
    CHECK(contains(all[0].message, "has SHA-256 " + sha256_hex(TINY + "9,1,1\n")));
    CHECK(contains(all[0].message, "expects " + want));
  }
  SUBCASE("a sha256 that is not 64 hex digits is refused before the file is read") {
    const Folders f;
    Diagnostics d;
    CHECK_FALSE(load_in(f, scenario_with(R"({"path": "t.csv", "sha256": "12ab"})"), {}, d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].pointer == "/workload/0/trace/sha256");
    CHECK(contains(all[0].message, "64 hex digits"));
  }
  SUBCASE("a demand schedule CSV is found on the data path too") {
    const Folders f;
    Folders::write(f.env1 / "sched.csv", "at_s,multiplier\n0,1\n1800,2\n");
    Diagnostics d;
    const auto sc = load_in(f, R"({"horizon": "1h",
      "pools": [{"name": "p", "instance": "p4d.24xlarge", "count": 1}],
      "workload": [{"name": "c", "arrival": {"poisson": {"rate": "1/h"}, "profile":
                    {"schedule": "sched.csv"}}, "gpus": 1, "duration": "1m"}]})",
                            {f.cli.string(), f.env1.string()}, d);
    REQUIRE_MESSAGE(sc, d.to_text());
    CHECK(sc->workload[0].profile.schedule_file == (f.env1 / "sched.csv").string());
    // Two entries in the file.
    CHECK(sc->workload[0].profile.schedule.size() == 2);
  }
}
