//! Loading a pool's "off_peak" schedule: the user's vocabulary (daily windows, weekdays, the day
//! and time the run starts) into minutes of the week, and each bad value reported at its pointer.
#include <doctest/doctest.h>

#include <cstdio>

#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

using gpuplan_models_test::Loaded;

Loaded load(const std::string& pool_keys, const std::string& horizon = "1d") {
  const std::string text = R"({"horizon": ")" + horizon +
                           R"(", "pools": [{"name": "a", "instance": "p4d.24xlarge", "count": 1)" +
                           pool_keys + R"(}], "workload": [{"name": "w", "arrival": {"poisson":
                           {"rate": "1/h"}}, "gpus": 8, "duration": "1h"}]})";
  return gpuplan_models_test::load_text(text, "");
}

}  // namespace

TEST_CASE("load::off_peak") {
  SUBCASE("hours, days and the run's start load as minutes of the week") {
    const Loaded r =
        load(R"(, "off_peak": {"discount": 0.3, "hours": ["22:00-06:00", "12:00-13:30"],
                              "days": ["SAT", "sun"], "run_starts": "wed 08:15"})");
    REQUIRE(r.sc);
    const auto& s = *r.sc->pools[0].econ.off_peak;
    CHECK(s.discount == 0.3);
    REQUIRE(s.hours.size() == 2);
    // 22:00 = minute 1320, 06:00 = 360; 13:30 = 810
    CHECK(s.hours[0].from_min == 1320);
    CHECK(s.hours[0].to_min == 360);
    CHECK(s.hours[1].to_min == 810);
    // Saturday and Sunday are days 5 and 6 (Monday = 0), any case
    CHECK(s.days == ((1u << 5) | (1u << 6)));
    // Wednesday 08:15 = 2 × 1440 + 495 minutes after Monday 00:00
    CHECK(s.run_starts_min == 2 * 1440 + 495);
  }
  SUBCASE("a single window may be a string and 24:00 ends a day") {
    const Loaded r = load(R"(, "off_peak": {"discount": 0.5, "hours": "18:00-24:00"})");
    REQUIRE(r.sc);
    // 24:00 = minute 1440; the run starts Monday 00:00 by default
    CHECK(r.sc->pools[0].econ.off_peak->hours[0].to_min == 1440);
    CHECK(r.sc->pools[0].econ.off_peak->run_starts_min == 0);
  }
  SUBCASE("bad values name their pointer, and the scenario is refused") {
    const std::string base = "/pools/0/off_peak";
    Loaded r = load(R"(, "off_peak": {"discount": 1.5, "hours": "22:00-06:00"})");
    CHECK_FALSE(r.sc);
    CHECK(r.at(base + "/discount").format().find("scenario.json:1: /pools/0/off_peak/discount:") ==
          0);
    r = load(R"(, "off_peak": {"discount": 0.3, "hours": "10pm-6am"})");
    CHECK(r.at(base + "/hours").format().find("\"22:00-06:00\"") != std::string::npos);
    r = load(R"(, "off_peak": {"discount": 0.3, "hours": ["08:00-08:00"]})");
    CHECK(r.at(base + "/hours/0").format().find("starts where it ends") != std::string::npos);
    r = load(R"(, "off_peak": {"discount": 0.3, "hours": "25:00-06:00"})");
    CHECK_FALSE(r.at(base + "/hours").format().empty());
    r = load(R"(, "off_peak": {"discount": 0.3, "days": ["sunday"]})");
    // unknown day: the closest name is suggested
    CHECK(r.at(base + "/days/0").format().find("sun") != std::string::npos);
    r = load(R"(, "off_peak": {"discount": 0.3})");
    CHECK(r.at(base).format().find("\"hours\"") != std::string::npos);
    r = load(R"(, "off_peak": {"discount": 0.3, "days": ["sat"], "run_starts": "monday"})");
    CHECK(r.at(base + "/run_starts").format().find("\"mon 00:00\"") != std::string::npos);
    r = load(R"(, "off_peak": {"discount": 0.3, "days": ["sat"], "at": 1})");
    CHECK_FALSE(r.at(base + "/at").format().empty());
  }
  SUBCASE("a reserved pool has no off-peak price") {
    const Loaded r =
        load(R"(, "pricing": "reserved_1y", "off_peak": {"discount": 0.3, "days": ["sat"]})");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/pools/0/off_peak").format().find("on_demand") != std::string::npos);
  }
  SUBCASE("a schedule with more price changes than the limit is refused") {
    // 720 one-minute windows a day change the price 1,440 times a day, 10,080 a week; ten
    // years of that is 5.3 million steps, past 10^6.
    std::string hours = "[";
    for (int m = 0; m < 24 * 60; m += 2) {
      char w[32];
      std::snprintf(w, sizeof w, "%s\"%02d:%02d-%02d:%02d\"", m ? "," : "", m / 60, m % 60,
                    (m + 1) / 60, (m + 1) % 60);
      hours += w;
    }
    hours += "]";
    const Loaded r = load(R"(, "off_peak": {"discount": 0.3, "hours": )" + hours + "}", "3650d");
    CHECK(r.at("/pools/0/off_peak").format().find("more than 1000000") != std::string::npos);
  }
}
