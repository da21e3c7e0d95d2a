#include <limits>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "models/input/diagnostic.h"

using namespace gpuplan;

TEST_CASE("load::diagnostic") {
  SUBCASE("format writes file:line: /pointer: message and omits what is unknown") {
    CHECK(Diagnostic{"s.json", 14, "/pools/0", DiagCode::out_of_range, "bad", {}}.format() ==
          "s.json:14: /pools/0: bad");
    CHECK(Diagnostic{"s.json", 0, "/pools/0", DiagCode::out_of_range, "bad", {}}.format() ==
          "s.json: /pools/0: bad");
    CHECK(Diagnostic{"t.csv", 3, "", DiagCode::parse_error, "bad", {}}.format() == "t.csv:3: bad");
    CHECK(Diagnostic{"", 0, "/seed", DiagCode::bad_override, "bad", {}}.format() == "/seed: bad");
  }
  SUBCASE("every code has a stable lowercase name") {
    CHECK(diag_code_name(DiagCode::unknown_name) == "unknown_name");
    CHECK(diag_code_name(DiagCode::bad_flag) == "bad_flag");
    CHECK(diag_code_name(DiagCode::parse_error) == "parse_error");
  }
}

TEST_CASE("load::diagnostics") {
  const std::vector<std::pair<std::string, int>> lines = {
      {"", 1}, {"/pools", 3}, {"/pools/0", 4}, {"/pools/0/instance", 5}};

  SUBCASE("an unknown name ends with the closest candidate and keeps all candidates") {
    Diagnostics d;
    d.set_file("scenario.json");
    d.set_lines(&lines);
    d.unknown_name("/pools/0/instance", "instance type", "p5.48xl",
                   {"p4d.24xlarge", "p5.48xlarge", "g6.xlarge"});
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].format() ==
          "scenario.json:5: /pools/0/instance: unknown instance type \"p5.48xl\"; did you mean "
          "\"p5.48xlarge\"?");
    CHECK(all[0].candidates.front() == "p5.48xlarge");
    CHECK(all[0].code == DiagCode::unknown_name);
  }
  SUBCASE("an unknown name with nothing close lists the known names instead") {
    Diagnostics d;
    d.unknown_name("/scheduler/queue", "queue policy", "zzzzzzzz", {"fifo", "backfill"});
    CHECK(d.sorted()[0].message ==
          "unknown queue policy \"zzzzzzzz\"; expected one of \"fifo\" or \"backfill\"");
    CHECK(d.sorted()[0].candidates.empty());
  }
  SUBCASE("a pointer missing from the line table takes its closest ancestor's line") {
    Diagnostics d;
    d.set_file("scenario.json");
    d.set_lines(&lines);
    d.error("/pools/0/count", DiagCode::missing_key, "missing");
    // /pools/0/count is absent; its parent /pools/0 is on line 4.
    CHECK(d.sorted()[0].line == 4);
  }
  SUBCASE("out_of_range states the bound and the value") {
    Diagnostics d;
    d.out_of_range("/pools/0/count", 0, 1, 1e6);
    d.out_of_range("/limits/max_active_jobs", 8, 16, std::numeric_limits<double>::infinity());
    const auto all = d.sorted();
    CHECK(all[0].message == "must be at least 16, got 8");
    CHECK(all[1].message == "must be between 1 and 1000000, got 0");
  }
  SUBCASE("diagnostics are sorted by file, then pointer, then line") {
    Diagnostics d;
    d.add({"b.json", 1, "/a", DiagCode::parse_error, "3", {}});
    d.add({"a.json", 9, "/z", DiagCode::parse_error, "2", {}});
    d.add({"a.json", 2, "/pools", DiagCode::parse_error, "1", {}});
    d.add({"", 0, "/seed", DiagCode::bad_override, "0", {}});
    std::string order;
    for (const auto& x : d.sorted()) order += x.message;
    CHECK(order == "0123");
    CHECK(d.to_text() == "/seed: 0\na.json:2: /pools: 1\na.json:9: /z: 2\nb.json:1: /a: 3\n");
  }
  SUBCASE("past 50 diagnostics the rest are counted, not kept") {
    Diagnostics d;
    for (int i = 0; i < 60; ++i) d.error("/x", DiagCode::out_of_range, "m");
    // 50 kept (the cap), 10 dropped.
    CHECK(d.size() == 50);
    CHECK(d.dropped() == 10);
    CHECK(d.to_text().find("... and 10 more errors not shown") != std::string::npos);
  }
  SUBCASE("to_json emits one object per diagnostic with every machine field") {
    Diagnostics d;
    d.set_file("s.json");
    d.set_lines(&lines);
    d.unknown_key("/pools/0/instanse", "instanse", {"name", "instance", "count", "pricing"});
    const auto j = nlohmann::json::parse(d.to_json());
    REQUIRE(j.size() == 1);
    CHECK(j[0]["file"] == "s.json");
    // /pools/0/instanse is not in the table; /pools/0 is on line 4.
    CHECK(j[0]["line"] == 4);
    CHECK(j[0]["pointer"] == "/pools/0/instanse");
    CHECK(j[0]["code"] == "unknown_key");
    CHECK(j[0]["message"] == "unknown key \"instanse\"; did you mean \"instance\"?");
    CHECK(j[0]["candidates"][0] == "instance");
  }
}
