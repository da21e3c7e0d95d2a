//! Loading time-varying demand (models/load/load_demand.cpp): the `demand` section and a class's
//! `arrival.profile`, their bad-input rules, the echo, and compile's segments.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "models/compile/compile.h"
#include "models/load/scenario_echo.h"
#include "tests/models/loaded.h"

using namespace gpuplan;
using gpuplan_models_test::Loaded;

namespace {

//! A scenario with one Poisson class; `demand` and `profile` are inserted as JSON members.
std::string scenario(const std::string& demand, const std::string& profile) {
  return R"({
  "horizon": "60d",
  "instances": [{"id": "lab.g1", "gpu": "a100-80gb", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 16}],
  "workload": [
    {"name": "jobs",
     "arrival": {"poisson": {"rate": "12/h"})" +
         (profile.empty() ? "" : ", \"profile\": " + profile) + R"(},
     "gpus": 1,
     "duration": "1h"}
  ])" + (demand.empty() ? "" : ",\n  \"demand\": " + demand) +
         "\n}";
}

//! A folder of its own for CSV files.
std::filesystem::path data_dir() {
  const auto d = std::filesystem::temp_directory_path() /
                 ("gpuplan-demand-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

Loaded load(const std::string& text, std::vector<std::string> overrides = {}) {
  return gpuplan_models_test::load_text(text, data_dir().string(), std::move(overrides));
}

void write(const std::string& name, const std::string& text) {
  std::ofstream(data_dir() / name) << text;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("load::demand") {
  SUBCASE("a global demand section and a class profile load in SI units") {
    const auto r = load(scenario(
        R"({"load_scale": 1.5, "growth_per_month": 0.08, "weekly": [)" +
            std::string("1,1,1,1,1,1,1,1,2,2,2,2,2,2,2,2,2,2,2,2,1,1,1,1") + "]}",
        R"({"schedule": [{"at": "30d", "multiplier": 2}, {"at": "40d", "multiplier": 0.5}]})"));
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const Scenario& sc = *r.sc;
    CHECK(sc.demand.load_scale == 1.5);
    CHECK(sc.demand.profile.growth_per_month == 0.08);
    CHECK(sc.demand.profile.weekly.size() == 24);
    REQUIRE(sc.workload[0].profile.schedule.size() == 2);
    // "30d" is 30 * 86400 s
    CHECK(sc.workload[0].profile.schedule[0].at_s == 2592000);
    CHECK(sc.workload[0].profile.schedule[1].multiplier == 0.5);
  }

  SUBCASE("negative values are refused at their pointers") {
    const auto r = load(scenario(R"({"load_scale": -1, "growth_per_month": -2})",
                                 R"({"weekly": [1, 1, 1, -0.5, 1, 1, 1, 1, 1, 1, 1, 1,
                                                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]})"));
    CHECK_FALSE(r.sc);
    CHECK(r.at("/demand/load_scale").code == DiagCode::out_of_range);
    CHECK(r.at("/demand/growth_per_month").code == DiagCode::out_of_range);
    CHECK(r.at("/workload/0/arrival/profile/weekly/3").code == DiagCode::out_of_range);
  }

  SUBCASE("non-finite and non-numeric values are refused") {
    // 1e999 overflows a double: the reader refuses it at its pointer
    const auto r = load(scenario(R"({"load_scale": 1e999})", ""));
    CHECK_FALSE(r.sc);
    CHECK(r.at("/demand/load_scale").code == DiagCode::out_of_range);
    // a string is not a multiplier
    const auto s = load(scenario("", R"({"schedule": [{"at": "1d", "multiplier": "lots"}]})"));
    CHECK_FALSE(s.sc);
    CHECK(s.at("/workload/0/arrival/profile/schedule/0/multiplier").code == DiagCode::wrong_type);
  }

  SUBCASE("a weekly shape needs 168 or 24 values") {
    const auto r = load(scenario("", R"({"weekly": [1, 2, 3]})"));
    CHECK_FALSE(r.sc);
    CHECK(contains(r.at("/workload/0/arrival/profile/weekly").message, "168"));
  }

  SUBCASE("a schedule out of time order names the entry and the line") {
    const std::string text = scenario(R"({"schedule": [{"at": "10d", "multiplier": 2},
                                                   {"at": "5d", "multiplier": 3}]})",
                                      "");
    const auto r = load(text);
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/demand/schedule/1/at");
    CHECK(contains(d.message, "increasing time order"));
    // the line of "5d" in the text
    const int line =
        1 + static_cast<int>(std::count(text.begin(), text.begin() + text.find("5d"), '\n'));
    CHECK(d.line == line);
    CHECK(d.format().rfind("scenario.json:" + std::to_string(line) + ": /demand/schedule/1/at: ",
                           0) == 0);
  }

  SUBCASE("a CSV schedule loads, and the echo writes it inline") {
    write("growth.csv", "at_s,multiplier\n# comment\n0,1\n2592000,1.5\n\n40d,2\n");
    const auto r = load(scenario("", R"({"schedule": "growth.csv"})"));
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const auto& s = r.sc->workload[0].profile.schedule;
    REQUIRE(s.size() == 3);
    // "40d" = 3456000 s
    CHECK(s[2].at_s == 3456000);
    CHECK(s[2].multiplier == 2);
    const nlohmann::json echo = effective_scenario_json(*r.sc);
    const nlohmann::json& sched = echo["workload"][0]["arrival"]["profile"]["schedule"];
    REQUIRE(sched.is_array());
    CHECK(sched[1]["at"] == 2592000.0);
    // the echo loads again to the same echo
    const auto again = load(echo.dump());
    REQUIRE_MESSAGE(again.sc, again.d.to_text());
    CHECK(effective_scenario_json(*again.sc) == echo);
  }

  SUBCASE("a CSV schedule with a bad row is refused as file:line: /pointer: message") {
    write("bad.csv", "at_s,multiplier\n0,1\n100,-2\n200,abc\n");
    const auto r = load(scenario("", R"({"schedule": "bad.csv"})"));
    CHECK_FALSE(r.sc);
    const std::string file = (data_dir() / "bad.csv").string();
    // rows 3 and 4 are bad: a negative multiplier, then one that is not a number
    REQUIRE(r.all.size() == 2);
    CHECK(r.all[0].format().rfind(file + ":3: /workload/0/arrival/profile/schedule: multiplier",
                                  0) == 0);
    CHECK(r.all[1].line == 4);
  }

  SUBCASE("a CSV schedule out of time order, or without its header, is refused") {
    write("order.csv", "at_s,multiplier\n0,1\n100,2\n50,3\n");
    const auto r = load(scenario(R"({"schedule": "order.csv"})", ""));
    CHECK_FALSE(r.sc);
    // the row of 50 s is on line 4
    CHECK(r.at("/demand/schedule").line == 4);
    CHECK(contains(r.at("/demand/schedule").message, "increasing time order"));
    write("noheader.csv", "0,1\n");
    const auto h = load(scenario(R"({"schedule": "noheader.csv"})", ""));
    CHECK_FALSE(h.sc);
    CHECK(contains(h.at("/demand/schedule").message, "at_s,multiplier"));
  }

  SUBCASE("a missing CSV is an input error at the schedule's pointer") {
    const auto r = load(scenario(R"({"schedule": "nowhere.csv"})", ""));
    CHECK_FALSE(r.sc);
    CHECK(r.at("/demand/schedule").code == DiagCode::io_error);
  }

  SUBCASE("a profile beyond limits.max_profile_segments is refused before it is built") {
    // a weekly shape over 60 days compiles to up to 1441 hourly segments, above a limit of 100
    std::string weekly = "[";
    for (int h = 0; h < 168; ++h) weekly += (h ? "," : "") + std::to_string(h % 2 + 1);
    const std::string text = scenario("", R"({"weekly": )" + weekly + "]}");
    const auto r = load(text, {"limits.max_profile_segments=100"});
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/arrival/profile").code == DiagCode::limit_exceeded);
    const auto ok = load(text);
    REQUIRE_MESSAGE(ok.sc, ok.d.to_text());
    // alternating hours never merge: one segment per hour of the 1440-hour horizon
    CHECK(compile(*ok.sc).arrival_segments.size() == 1440);
  }

  SUBCASE("expected events count the growth, so a run-away growth is refused") {
    // 12/h growing 1000 %/month for 60 days: about 4e5 arrivals, 8e5 events, beyond 1e5; flat,
    // 17,280 arrivals and 34,560 events stay below it
    const auto r = load(scenario(R"({"growth_per_month": 10})", ""), {"limits.max_events=1e5"});
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/arrival").code == DiagCode::limit_exceeded);
    const auto flat = load(scenario("", ""), {"limits.max_events=1e5"});
    CHECK(flat.sc);
  }
}

TEST_CASE("compile::demand") {
  SUBCASE("growth compiles to one segment whose rate starts at the base rate") {
    const auto r = load(scenario(R"({"growth_per_month": 0.08, "load_scale": 2})", ""));
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const CompiledScenario cs = compile(*r.sc);
    REQUIRE(cs.arrival_segments.size() == 1);
    // 12/h x load_scale 2 = 24/h at t = 0
    CHECK(cs.arrival_segments[0].rate0 == doctest::Approx(24.0 / 3600).epsilon(1e-15));
    // b = ln(1.08) / 730 h
    CHECK(cs.arrival_segments[0].growth == doctest::Approx(std::log(1.08) / PROFILE_MONTH_S));
    // expected jobs = integral over 60 days: 24/h * (1.08^(1440/730) - 1) / (ln 1.08 / 730 h)
    const double b = std::log(1.08) / PROFILE_MONTH_S;
    const double expected = 24.0 / 3600 * std::expm1(b * 60 * 86400) / b;
    CHECK(cs.expected_jobs == doctest::Approx(expected).epsilon(1e-12));
  }

  SUBCASE("a constant profile compiles to a constant rate without segments") {
    const auto r = load(scenario(R"({"schedule": [{"at": 0, "multiplier": 3}]})", ""));
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const CompiledScenario cs = compile(*r.sc);
    CHECK(cs.arrival_segments.empty());
    // 12/h x 3
    CHECK(cs.classes[0].rate == doctest::Approx(36.0 / 3600).epsilon(1e-15));
  }
}

TEST_CASE("load::override") {
  const std::string two = R"({
  "horizon": "1d",
  "instances": [{"id": "lab.g1", "gpu": "a100-80gb", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 16}],
  "workload": [
    {"name": "a", "arrival": {"poisson": {"rate": "12/h"}}, "gpus": 1, "duration": "1h"},
    {"name": "b", "arrival": {"poisson": {"rate": 0.001}}, "gpus": 1, "duration": "30m"}
  ]
})";

  SUBCASE("'*' with a multiplier scales every class's rate, keeping units") {
    const auto r = load(two, {"workload.*.arrival.poisson.rate=x1.5"});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // "12/h" x 1.5 = "18/h"; 0.001/s x 1.5 = 0.0015/s
    CHECK(r.sc->source["workload"][0]["arrival"]["poisson"]["rate"] == "18/h");
    CHECK(r.sc->workload[0].rate_per_s == doctest::Approx(18.0 / 3600).epsilon(1e-15));
    CHECK(r.sc->workload[1].rate_per_s == doctest::Approx(0.0015).epsilon(1e-15));
  }

  SUBCASE("'*' sets every entry, and plain paths work as before") {
    const auto r = load(two, {"workload.*.duration=2h", "pools.0.count=x2"});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    // 2 h = 7200 s for both classes; 16 nodes x 2 = 32, still a whole number
    CHECK(r.sc->workload[0].duration.a == 7200);
    CHECK(r.sc->workload[1].duration.a == 7200);
    CHECK(r.sc->pools[0].count == 32);
    CHECK(r.sc->source["pools"][0]["count"].is_number_integer());
  }

  SUBCASE("a multiplier of a missing or non-numeric value is refused at its pointer") {
    const auto r = load(two, {"workload.*.description=x2"});
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/description").code == DiagCode::bad_override);
    const auto s = load(two, {"workload.0.name=x2"});
    CHECK_FALSE(s.sc);
    CHECK(contains(s.at("/workload/0/name").message, "cannot scale"));
  }

  SUBCASE("'*' over a value that is not a container is refused") {
    const auto r = load(two, {"horizon.*=1"});
    CHECK_FALSE(r.sc);
    CHECK(contains(r.all.at(0).message, "'*' matches nothing"));
  }

  SUBCASE("a quoted x-value is a plain string, not a multiplier") {
    const auto r = load(two, {"workload.0.description=\"x2\""});
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    CHECK(r.sc->workload[0].description == "x2");
  }
}
