#include "reports/csv.h"

#include "tests/reports/fixture.h"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

using namespace gpuplan::reports;
using gpuplan::reports::testing::load_fixture;
using nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

}  // namespace

TEST_CASE("reports::csv") {
  SUBCASE(
      "the time series has the documented header and one row per bin with a running spend total") {
    const json r = {{"timeseries",
                     {{"bin_s", 3600},
                      {"t_s", {0, 3600, 7200}},
                      {"busy_gpus", {10.5, 12, 8}},
                      {"provisioned_gpus", {16, 16, 16}},
                      {"queued_jobs", {0, 3, 1}},
                      {"spend_usd", {2.5, 2.5, 3}}}}};
    std::ostringstream out;
    write_timeseries_csv(r, out);
    const auto lines = lines_of(out.str());
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] == "t_s,busy_gpus,provisioned_gpus,queued_jobs,spend_usd,cumulative_spend_usd");
    CHECK(lines[1] == "0,10.5,16,0,2.5,2.5");
    // cumulative spend after the third bin: 2.5 + 2.5 + 3 = 8
    CHECK(lines[3] == "7200,8,16,1,3,8");
  }

  SUBCASE("facility power adds a power_kw column, and its band three more") {
    json r = {{"timeseries",
               {{"bin_s", 3600},
                {"t_s", {0, 3600}},
                {"busy_gpus", {10.5, 12}},
                {"provisioned_gpus", {16, 16}},
                {"queued_jobs", {0, 3}},
                {"spend_usd", {2.5, 2.5}},
                {"power_kw", {12.5, 14}}}}};
    std::ostringstream out;
    write_timeseries_csv(r, out);
    auto lines = lines_of(out.str());
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] ==
          "t_s,busy_gpus,provisioned_gpus,queued_jobs,spend_usd,cumulative_spend_usd,power_kw");
    CHECK(lines[1] == "0,10.5,16,0,2.5,2.5,12.5");
    r["bands"] = {{"power_kw", {{"p10", {12, 13}}, {"p50", {12.5, 14}}, {"p90", {13, 15}}}}};
    std::ostringstream banded;
    write_timeseries_csv(r, banded);
    lines = lines_of(banded.str());
    // the power band follows the three banded series of the engine (empty here); the second
    // bin's power 14 kW sits after its cumulative spend 5, its band 13, 14, 15 last
    CHECK(lines[0].ends_with(",power_kw_p10,power_kw_p50,power_kw_p90"));
    CHECK(lines[2].starts_with("3600,12,16,3,2.5,5,14,"));
    CHECK(lines[2].ends_with(",13,14,15"));
  }

  SUBCASE("Monte Carlo bands add p10, p50 and p90 columns per banded series") {
    const json r = load_fixture("monte_carlo.json");
    std::ostringstream out;
    write_timeseries_csv(r, out);
    const auto lines = lines_of(out.str());
    CHECK(lines[0] ==
          "t_s,busy_gpus,provisioned_gpus,queued_jobs,spend_usd,cumulative_spend_usd,busy_gpus_p10,"
          "busy_gpus_p50,"
          "busy_gpus_p90,queued_jobs_p10,queued_jobs_p50,queued_jobs_p90,cumulative_spend_usd_p10,"
          "cumulative_spend_usd_p50,cumulative_spend_usd_p90");
    // one header row plus one row per hourly bin over 7 days
    CHECK(lines.size() == 1 + 168);
  }

  SUBCASE(
      "a result without a time series gives the header only, and missing series leave cells "
      "empty") {
    std::ostringstream empty;
    write_timeseries_csv(json::object(), empty);
    CHECK(lines_of(empty.str()).size() == 1);
    std::ostringstream partial;
    write_timeseries_csv({{"timeseries", {{"bin_s", 60}, {"busy_gpus", {1, 2}}}}}, partial);
    const auto lines = lines_of(partial.str());
    REQUIRE(lines.size() == 3);
    // t_s falls back to index × bin_s
    CHECK(lines[2] == "60,2,,,,");
  }

  SUBCASE("per-class rows carry counts and wait/JCT statistics in seconds") {
    const json r = load_fixture("single_run.json");
    std::ostringstream out;
    write_per_class_csv(r, out);
    const auto lines = lines_of(out.str());
    REQUIRE(lines.size() == 4);
    CHECK(lines[0] ==
          "class,jobs_submitted,jobs_completed,jobs_unfinished,wait_mean_s,wait_p50_s,wait_p90_s,"
          "wait_p99_s,"
          "jct_mean_s,jct_p50_s,jct_p90_s,jct_p99_s");
    CHECK(lines[1].rfind("training,2240,", 0) == 0);
  }

  SUBCASE("names with commas and quotes are quoted with doubled quotes") {
    const json r = {{"per_class", {{{"name", "train, \"big\""}, {"jobs_submitted", 3}}}}};
    std::ostringstream out;
    write_per_class_csv(r, out);
    CHECK(lines_of(out.str())[1] == "\"train, \"\"big\"\"\",3,,,,,,,,,,");
    CHECK(csv_text_field("line\nbreak") == "\"line\nbreak\"");
    CHECK(csv_text_field("plain") == "plain");
  }

  SUBCASE("a name that a spreadsheet would run as a formula is defused with a leading quote") {
    CHECK(csv_text_field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
    CHECK(csv_text_field("@sum") == "'@sum");
    CHECK(csv_text_field("-x") == "'-x");
  }
}
