#include "reports/openmetrics.h"

#include "reports/metrics_export.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace gpuplan::reports;
using nlohmann::json;

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string export_of(const json& result, int64_t start) {
  std::ostringstream out;
  write_openmetrics(result, start, out);
  return out.str();
}

const json RUN = {{"scenario", "lab \"A\"\\b"},
                  {"timeseries",
                   {{"bin_s", 3600},
                    {"t_s", {0, 3600, 7200}},
                    {"busy_gpus", {10.5, 12, 0}},
                    {"provisioned_gpus", {16, 16, 0}},
                    {"queued_jobs", {0, 3, 1}},
                    {"spend_usd", {2.5, 2.5, 3}},
                    {"power_kw", {12.5, 14, 0}}}}};

}  // namespace

TEST_CASE("reports::openmetrics") {
  SUBCASE("one run: each family once, samples at bin ends, a running spend counter, # EOF last") {
    const auto lines = lines_of(export_of(RUN, 1000));
    REQUIRE(!lines.empty());
    CHECK(lines.back() == "# EOF");
    // Scenario names are label values: backslash and double quote escaped.
    const std::string labels = R"({scenario="lab \"A\"\\b"})";
    std::vector<std::string> samples;
    std::map<std::string, int> types;
    for (const auto& l : lines) {
      if (l.rfind("# TYPE ", 0) == 0) ++types[l];
      if (l[0] != '#') samples.push_back(l);
    }
    // Why: OpenMetrics requires one descriptor per family; six families are written.
    CHECK(types.size() == 6);
    for (const auto& [line, count] : types) CHECK(count == 1);
    // Why: the first bin [0, 3600) is known at 3600 s, so it is stamped 1000 + 3600.
    CHECK(samples[0] == "gpuplan_busy_gpus" + labels + " 10.5 4600");
    // Why: spend is a counter: its running total 2.5, 5, 8 under the _total sample name.
    CHECK(std::find(samples.begin(), samples.end(),
                    "gpuplan_spend_usd_total" + labels + " 8 11800") != samples.end());
    // Why: facility power is a gauge in watts: 12.5 kW in the first bin is 12,500 W.
    CHECK(std::find(samples.begin(), samples.end(),
                    "gpuplan_power_watts" + labels + " 12500 4600") != samples.end());
    CHECK(std::find(lines.begin(), lines.end(), "# UNIT gpuplan_power_watts watts") != lines.end());
    const auto ratio_lines = std::count_if(samples.begin(), samples.end(), [](const auto& s) {
      return s.rfind("gpuplan_gpu_utilization_ratio", 0) == 0;
    });
    // Why: the third bin provisions no GPU, so it has no utilization (not NaN): 2 samples.
    CHECK(ratio_lines == 2);
    CHECK(std::find(samples.begin(), samples.end(),
                    "gpuplan_gpu_utilization_ratio" + labels + " 0.65625 4600") != samples.end());
    CHECK(std::find(lines.begin(), lines.end(), "# UNIT gpuplan_spend_usd usd") != lines.end());
  }

  SUBCASE("Monte Carlo: the mean and each band as a statistic label, bands as written") {
    json mc = RUN;
    mc["scenario"] = "mc";
    mc["bands"] = {
        {"busy_gpus", {{"p10", {9, 11, 0}}, {"p50", {10, 12, 0}}, {"p90", {12, 13, 0}}}},
        {"queued_jobs", {{"p10", {0, 1, 0}}, {"p50", {0, 3, 1}}, {"p90", {1, 5, 2}}}},
        {"cumulative_spend_usd", {{"p10", {2, 4, 6}}, {"p50", {2.5, 5, 8}}, {"p90", {3, 6, 9}}}},
        {"power_kw", {{"p10", {12, 13, 0}}, {"p50", {12.5, 14, 0}}, {"p90", {13, 15.5, 0}}}}};
    const std::string text = export_of(mc, 0);
    CHECK(text.find(R"(gpuplan_busy_gpus{scenario="mc",statistic="mean"} 10.5 3600)") !=
          std::string::npos);
    CHECK(text.find(R"(gpuplan_busy_gpus{scenario="mc",statistic="p90"} 13 7200)") !=
          std::string::npos);
    CHECK(text.find(R"(gpuplan_spend_usd_total{scenario="mc",statistic="p10"} 6 10800)") !=
          std::string::npos);
    // Why: the power band is in kW in result.json and in watts in the export.
    CHECK(text.find(R"(gpuplan_power_watts{scenario="mc",statistic="p90"} 15500 7200)") !=
          std::string::npos);
    CHECK(text.find(R"(gpuplan_power_watts{scenario="mc",statistic="mean"} 12500 3600)") !=
          std::string::npos);
    // Why: a band the result lacks (provisioned GPUs have none) adds no series.
    CHECK(text.find(R"(gpuplan_provisioned_gpus{scenario="mc",statistic="p50"})") ==
          std::string::npos);
  }

  SUBCASE("a result without a time series is still a complete exposition") {
    CHECK(export_of(json{{"scenario", "x"}}, 0).find("# EOF\n") != std::string::npos);
  }
}

TEST_CASE("reports::metrics_export") {
  SUBCASE("UTC times read both forms, refuse dates that do not exist, and print back") {
    CHECK(parse_utc_time("2026-01-01") == METRICS_DEFAULT_START_UNIX_S);
    CHECK(parse_utc_time("2026-01-01T01:00:00Z") == METRICS_DEFAULT_START_UNIX_S + 3600);
    CHECK(!parse_utc_time("2026-02-30"));
    CHECK(!parse_utc_time("2026-01-01 01:00"));
    CHECK(!parse_utc_time("tomorrow"));
    CHECK(format_utc_time(METRICS_DEFAULT_START_UNIX_S + 86400) == "2026-01-02T00:00:00Z");
  }

  SUBCASE("the dashboard spans the series and queries only families the export writes") {
    const auto files = metrics_export(RUN, METRICS_DEFAULT_START_UNIX_S);
    REQUIRE(files.size() == 3);
    CHECK(files[0].first == "metrics.om");
    CHECK(files[1].first == "grafana_dashboard.json");
    const json d = json::parse(files[1].second);
    CHECK(d["time"]["from"] == "2026-01-01T00:00:00Z");
    // Why: three one-hour bins end 3 h after the start.
    CHECK(d["time"]["to"] == "2026-01-01T03:00:00Z");
    int queries = 0;
    for (const json& panel : d["panels"]) {
      for (const json& target : panel["targets"]) {
        const std::string expr = target["expr"];
        bool known = false;
        for (const std::string_view family : OPENMETRICS_FAMILIES)
          known = known || expr.find(family) != std::string::npos;
        CHECK_MESSAGE(known, expr);
        ++queries;
      }
    }
    // Why: six panels, one of them facility power.
    CHECK(queries >= 6);
    CHECK(files[1].second.find("gpuplan_power_watts") != std::string::npos);
    CHECK(files[2].second.find("< 0.85") != std::string::npos);
  }
}
