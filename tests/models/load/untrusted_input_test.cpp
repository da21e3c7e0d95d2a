//! Regression tests of issue 16 (hostile or careless input): numbers beyond double range, trace
//! paths naming other files, output names that leave the output folder, bytes that are not UTF-8.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "models/input/jsonc.h"
#include "models/load/load.h"
#include "models/trace/trace.h"

using namespace gpuplan;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

// A small valid scenario with `extra` spliced in as its last members.
std::string scenario(const std::string& extra) {
  return R"({
  "horizon": "1d",
  "pools": [{"name": "a", "instance": "p4d.24xlarge", "count": 1}],
  "workload": [{"name": "w", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
                "duration": {"exponential": {"mean": "1h"}}}])" +
         extra + "\n}";
}

}  // namespace

TEST_CASE("load::untrusted::numbers") {
  SUBCASE("a number beyond double range is out_of_range at its file:line and pointer") {
    Diagnostics d;
    CHECK_FALSE(parse_jsonc("{\n  \"a\": {\n    \"b\": 1e400\n  }\n}", "s.json", d));
    REQUIRE(d.size() == 1);
    const Diagnostic x = d.sorted()[0];
    // The number is on line 3, under /a/b.
    CHECK(x.line == 3);
    CHECK(x.pointer == "/a/b");
    CHECK(x.code == DiagCode::out_of_range);
    CHECK(contains(d.to_text(), "s.json:3: /a/b: the number 1e400 is beyond the range"));
  }
  SUBCASE("a 400-digit integer is the same error, its digits cut in the message") {
    Diagnostics d;
    CHECK_FALSE(parse_jsonc("[1, " + std::string(400, '9') + "]", "s.json", d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].pointer == "/1");
    // 37 digits and "...": the message never carries the whole token.
    CHECK(contains(d.to_text(), std::string(37, '9') + "..."));
    CHECK_FALSE(contains(d.to_text(), std::string(41, '9')));
  }
  SUBCASE("a NUL byte is a parse error, not the end of the document (fuzz finding)") {
    // nlohmann stops at NUL; the text after it, a lone '/' here, once stalled the line scan.
    Diagnostics d;
    CHECK_FALSE(parse_jsonc(std::string("{\"a\": 1}\n\0 / \"x", 15), "s.json", d));
    REQUIRE(d.size() == 1);
    // The NUL is on line 2.
    CHECK(d.sorted()[0].line == 2);
    CHECK(contains(d.to_text(), "NUL byte"));
  }
  SUBCASE("plain syntax errors keep their column and line") {
    Diagnostics d;
    CHECK_FALSE(parse_jsonc("{\n  \"a\": 1,\n}", "s.json", d));
    // The trailing comma is found at the closing brace on line 3.
    CHECK(d.sorted()[0].line == 3);
    CHECK(contains(d.to_text(), "trailing commas"));
  }
}

TEST_CASE("load::untrusted::names") {
  SUBCASE("\"..\" and \".\" cannot name the output folder") {
    for (const char* name : {"..", "."}) {
      Diagnostics d;
      const auto sc = load_scenario_text(scenario(std::string(",\n\"name\": \"") + name + "\""),
                                         "s.json", ".", {}, d);
      CHECK_FALSE(sc);
      CHECK(contains(d.to_text(), "/name: name"));
    }
  }
  SUBCASE("a control character in the name is refused and shown escaped") {
    Diagnostics d;
    CHECK_FALSE(load_scenario_text(scenario(",\n\"name\": \"a\\nb\""), "s.json", ".", {}, d));
    CHECK(contains(d.to_text(), "a\\x0Ab"));
  }
  SUBCASE("a --set value that is not UTF-8 is refused without repeating the bytes raw") {
    Diagnostics d;
    LoadOptions lo;
    lo.overrides = {"name=caf\xE9"};
    CHECK_FALSE(load_scenario_text(scenario(""), "s.json", ".", lo, d));
    CHECK(contains(d.to_text(), "not UTF-8"));
    CHECK(contains(d.to_text(), "caf\\xE9"));
    CHECK_FALSE(contains(d.to_text(), "caf\xE9"));
  }
}

TEST_CASE("load::untrusted::files") {
  const fs::path tmp =
      fs::temp_directory_path() / ("gpuplan-untrusted-" + std::to_string(getpid()));
  fs::remove_all(tmp);
  fs::create_directories(tmp);

  SUBCASE("a trace path naming a device or a FIFO fails at once at the trace's pointer") {
    const fs::path fifo = tmp / "trace.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    for (const std::string path : {std::string("/dev/zero"), fifo.string()}) {
      TraceFormat fmt;
      fmt.path = path;
      Diagnostics d;
      CHECK_FALSE(read_trace(fmt, "/workload/0/trace", d));
      CHECK(contains(d.to_text(), "/workload/0/trace: cannot read the trace file"));
      CHECK(contains(d.to_text(), "not a regular file"));
    }
  }
  SUBCASE("a header that is not column names is not echoed (a key or password file)") {
    const fs::path secret = tmp / "shadow";
    std::ofstream(secret) << "root:$y$j9T$SECRETHASH:19000:0:99999:7:::\n";
    TraceFormat fmt;
    fmt.path = secret.string();
    Diagnostics d;
    CHECK_FALSE(read_trace(fmt, "/workload/0/trace", d));
    CHECK(contains(d.to_text(), "no column \"submit_time\""));
    CHECK_FALSE(contains(d.to_text(), "SECRET"));
    CHECK(d.sorted()[0].candidates.empty());
  }
  SUBCASE("a header of column names is still listed, with a suggestion") {
    TraceFormat fmt;
    fmt.submit_column = "submit";
    Diagnostics d;
    CHECK_FALSE(parse_trace("submit_time,num_gpus,duration\n0,1,5\n", fmt, "t.csv", "/p", d));
    CHECK(contains(d.to_text(), "its columns: submit_time, num_gpus, duration"));
  }
  SUBCASE("a bad field is shown cut to 40 bytes and escaped") {
    TraceFormat fmt;
    Diagnostics d;
    const std::string field = std::string(60, 'x') + "\x1b[31m";
    CHECK_FALSE(
        parse_trace("submit_time,num_gpus,duration\n" + field + ",1,5\n", fmt, "t.csv", "/p", d));
    CHECK(contains(d.to_text(), std::string(40, 'x') + "..."));
    CHECK_FALSE(contains(d.to_text(), std::string(41, 'x')));
    CHECK_FALSE(contains(d.to_text(), "\x1b"));
  }
  SUBCASE("a scenario file that is a FIFO is refused instead of blocking") {
    const fs::path fifo = tmp / "scenario.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    Diagnostics d;
    CHECK_FALSE(load_scenario(fifo.string(), {}, d));
    CHECK(contains(d.to_text(), "not a regular file"));
  }
  fs::remove_all(tmp);
}
