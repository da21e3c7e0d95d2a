#include "reports/html_report.h"

#include "models/embedded.h"
#include "reports/format.h"
#include "tests/reports/fixture.h"

#include <doctest/doctest.h>

#include <regex>
#include <string>

using gpuplan::reports::render_html_report;
using gpuplan::reports::testing::load_fixture;
using nlohmann::json;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

// The page without the inlined Chart.js, whose licence comment is the only place URLs may appear.
std::string without_chartjs(const std::string& html) {
  const std::size_t begin = html.find("<script id=\"gp-chartjs\">");
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  return html.substr(0, begin) + html.substr(end);
}

// The text of the <script type="application/json" id="gp-data"> block.
std::string chart_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"gp-data\">";
  const std::size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  return html.substr(begin + open.size(), end - begin - open.size());
}

}  // namespace

TEST_CASE("reports::html") {
  SUBCASE("names from the result render as text, never as markup or script") {
    json r = load_fixture("single_run.json");
    r["scenario"] = "<script>alert(1)</script>";
    r["per_class"][0]["name"] = "<img src=x onerror=alert(2)>";
    r["per_pool"][0]["name"] = "\"><script>alert(3)</script>";
    r["warnings"].push_back("<script>alert(4)</script>");
    r["scenario_echo"]["name"] = "<script>alert(5)</script>";
    const std::string html = render_html_report(r);
    CHECK_FALSE(contains(html, "<script>alert("));
    CHECK_FALSE(contains(html, "<img src=x"));
    // Title, heading, echo and warning each show the escaped name.
    CHECK(contains(
        html, "<title>&lt;script&gt;alert(1)&lt;/script&gt; — gpuplan capacity report</title>"));
    CHECK(contains(html, "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
    CHECK(contains(html, "&lt;script&gt;alert(4)&lt;/script&gt;"));
    CHECK(contains(html, "&lt;script&gt;alert(5)&lt;/script&gt;"));
    CHECK(contains(html, "&quot;&gt;&lt;script&gt;alert(3)"));
    // The chart data carries the class name with its angle brackets as \u escapes.
    CHECK(contains(chart_data(html), "\\u003cimg src=x onerror=alert(2)\\u003e"));
  }

  SUBCASE("chart data is JSON that cannot close its script element or break a JS parser") {
    json r = load_fixture("single_run.json");
    r["per_class"][1]["name"] = "a</script><b>&\u2028\u2029";
    const std::string data = chart_data(render_html_report(r));
    CHECK_FALSE(contains(data, "<"));
    CHECK_FALSE(contains(data, ">"));
    CHECK_FALSE(contains(data, "&"));
    CHECK_FALSE(contains(data, "\u2028"));
    CHECK_FALSE(contains(data, "\u2029"));
    CHECK(contains(data, "a\\u003c/script\\u003e\\u003cb\\u003e\\u0026\\u2028\\u2029"));
    // The escaped block still parses back to the original name.
    CHECK(json::parse(data)["classes"][1]["name"] == "a</script><b>&\u2028\u2029");
  }

  SUBCASE("the page fetches nothing: no src or href names a network URL") {
    const std::string html = render_html_report(load_fixture("monte_carlo.json"));
    const std::regex network_ref(R"re((src|href|action)\s*=\s*["']?\s*(https?:|//|ftp:))re",
                                 std::regex::icase);
    CHECK_FALSE(std::regex_search(html, network_ref));
    const std::regex external_script(R"re(<script[^>]*\bsrc\s*=)re", std::regex::icase);
    CHECK_FALSE(std::regex_search(html, external_script));
    CHECK_FALSE(contains(html, "<link"));
    CHECK_FALSE(contains(html, "@import"));
    CHECK_FALSE(contains(html, "url("));
    // URLs appear only in Chart.js's licence comment.
    const std::string own = without_chartjs(html);
    CHECK_FALSE(contains(own, "http://"));
    CHECK_FALSE(contains(own, "https://"));
    // A content security policy blocks any fetch that slipped through.
    CHECK(contains(html, "content=\"default-src 'none';"));
  }

  SUBCASE("Chart.js is inlined from the embedded Debian copy") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    // Four script elements (error capture, chart data, Chart.js, report), each closed exactly once.
    std::size_t n_open = 0, n_close = 0;
    for (std::size_t at = 0; (at = html.find("<script", at)) != std::string::npos; ++at) ++n_open;
    for (std::size_t at = 0; (at = html.find("</script", at)) != std::string::npos; ++at) ++n_close;
    CHECK(n_open == 4);
    CHECK(n_close == 4);
    CHECK(contains(html, "Chart.js v3.9.1"));
    CHECK(contains(html, std::string(gpuplan::embedded::chartjs().substr(0, 2000))));
  }

  SUBCASE("a saturated result shows the red banner and marks every wait figure not meaningful") {
    const json r = load_fixture("saturated.json");
    const std::string html = render_html_report(r);
    CHECK(contains(html, "class=\"banner banner-bad\" role=\"alert\""));
    CHECK(contains(html, "This configuration cannot keep up with the offered load"));
    CHECK(contains(html, "not meaningful"));
    // Neither the headline mean wait (190000 s = "2.2 d") nor any per-class wait is shown as a
    // value.
    CHECK_FALSE(contains(html, "title=\"190000 s\""));
    CHECK_FALSE(contains(html, ">2.2 d<"));
    CHECK_FALSE(contains(html, "data-chart=\"wait_cdf\""));
    CHECK_FALSE(contains(html, "data-chart=\"jct_cdf\""));
    CHECK_FALSE(contains(html, "class=\"pill pill-ok\""));
    CHECK(contains(html, "Cannot keep up"));
  }

  SUBCASE("offered load at or above 100% is reported as cannot keep up, never as a long wait") {
    // The engine did not stop the run (the queue stayed under its limit), but demand exceeds
    // capacity: no steady state exists, so the waits only measure the horizon.
    json r = load_fixture("single_run.json");
    r["metrics"]["offered_load"] = 1.13;
    const std::string html = render_html_report(r);
    CHECK(contains(html, "This configuration cannot keep up with the offered load"));
    CHECK(contains(html, "Jobs ask for 113% of the cluster"));
    CHECK(contains(html, "not meaningful"));
    CHECK_FALSE(contains(html, "title=\"412.5 s\""));
    CHECK_FALSE(contains(html, "class=\"pill pill-ok\""));
  }

  SUBCASE("an unsaturated result has no banner and shows its waits") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    CHECK_FALSE(contains(html, "cannot keep up with the offered load"));
    CHECK_FALSE(contains(html, "not meaningful"));
    // Mean wait 412.5 s reads "6.9 min", with the raw seconds in its tooltip.
    CHECK(contains(html, "title=\"412.5 s\""));
    CHECK(contains(html, "6.9 min"));
    CHECK(contains(html, "data-chart=\"wait_cdf\""));
  }

  SUBCASE("a single run says it is one replication and points to gpuplan mc") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    CHECK(contains(
        html,
        "<strong>One replication</strong> — run <code>gpuplan mc</code> for confidence intervals"));
    CHECK_FALSE(contains(html, "95% CI"));
  }

  SUBCASE("a Monte Carlo result shows 95% confidence intervals from its summary") {
    const std::string html = render_html_report(load_fixture("monte_carlo.json"));
    CHECK(contains(html, "32 replications"));
    CHECK(contains(html, "Half-widths of the 95% confidence intervals"));
    // Mean wait 412.5 s with a 6% half-width: ± 24.75 s, shown as "± 25 s" (6.0%).
    CHECK(contains(html, "mean wait ± 25 s (± 6.0%)"));
    // Utilization 0.794 with a 0.5% relative half-width: ± 0.397 points, "± 0.4 pp".
    CHECK(contains(html, "± 0.4 pp <small>(95% CI)</small>"));
    CHECK(contains(html, "median across 32 replications"));
    CHECK(contains(chart_data(html), "\"cumulative_spend_usd\":{\"p10\""));
  }

  SUBCASE(
      "the sections follow the contract's order: summary, figures, charts, tables, scenario, "
      "warnings") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    std::size_t last = 0;
    for (const char* id : {"id=\"summary\"", "id=\"figures\"", "id=\"charts\"", "id=\"tables\"",
                           "id=\"reproduce\"", "id=\"warnings\""}) {
      const std::size_t at = html.find(id);
      CHECK_MESSAGE(at != std::string::npos, id);
      CHECK_MESSAGE(at > last, id);
      last = at;
    }
  }

  SUBCASE("the summary states sizing, cost with window and per GPU-hour, and a recommendation") {
    const json r = load_fixture("single_run.json");
    const std::string html = render_html_report(r);
    // Utilization 0.794 with p90 wait 1260 s against a mean run time of 11407.5 s: right-sized.
    CHECK(contains(html, "Right-sized"));
    CHECK(contains(html, gpuplan::reports::format_money(r["cost_usd"]["total"].get<double>())));
    // The window is 518400 s = 6 days.
    CHECK(contains(html, "over the 6 d statistics window (518,400 s"));
    CHECK(contains(html, "per provisioned GPU-hour"));
    // Pool 0 is on demand at 83% utilization, above the 60% threshold for the reserved-pricing
    // hint.
    CHECK(contains(html, "--vary pools.0.pricing=on_demand,reserved_1y"));
  }

  SUBCASE("tables are sortable by keyboard-reachable header buttons with raw values to sort on") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    CHECK(contains(html, "<table class=\"sortable\" id=\"pools-table\">"));
    CHECK(contains(html, "<table class=\"sortable\" id=\"classes-table\">"));
    CHECK(contains(html,
                   "<th scope=\"col\" aria-sort=\"none\" class=\"num\"><button type=\"button\" "
                   "class=\"sort\">Mean wait</button></th>"));
    CHECK(contains(html, "data-sort=\"1500\""));
  }

  SUBCASE("the scenario echo, version, seed and generation date make the run reproducible") {
    const json r = load_fixture("single_run.json");
    const std::string html = render_html_report(r);
    CHECK(contains(html, "<code>gpuplan run scenario.json --seed 42</code>"));
    CHECK(contains(html, "2026-11-29 17:00 UTC"));
    CHECK(contains(html, "<dt>gpuplan version</dt><dd>0.1.0</dd>"));
    CHECK(contains(html, gpuplan::reports::html_escape(r["scenario_echo"].dump(2))));
  }

  SUBCASE("warnings are listed, escaped, and counted in the summary") {
    const std::string html = render_html_report(load_fixture("saturated.json"));
    CHECK(contains(html, "<li>spot pool &quot;h100-spot&quot;: preemption rate"));
    CHECK(contains(html, "The run raised 2 warnings"));
  }

  SUBCASE("a long time series is merged for the charts: means for levels, sums for spend") {
    json r = {{"timeseries",
               {{"bin_s", 60},
                {"t_s", json::array()},
                {"busy_gpus", json::array()},
                {"spend_usd", json::array()}}}};
    for (int i = 0; i < 4000; ++i) {
      r["timeseries"]["t_s"].push_back(60 * i);
      r["timeseries"]["busy_gpus"].push_back(i % 3);
      r["timeseries"]["spend_usd"].push_back(0.5);
    }
    const std::string html = render_html_report(r);
    const json data = json::parse(chart_data(html));
    // 4000 bins over a 1500-point limit: groups of ceil(4000 / 1500) = 3 bins, 1334 points.
    CHECK(data["timeseries"]["t_s"].size() == 1334);
    CHECK(data["timeseries"]["t_s"][1] == 180);
    // busy GPUs 0, 1, 2 average to 1; spend 3 × 0.5 adds up to 1.5.
    CHECK(data["timeseries"]["busy_gpus"][0] == 1.0);
    CHECK(data["timeseries"]["spend_usd"][0] == 1.5);
    // The caption names the merged bin: 3 × 60 s = 3 min.
    CHECK(contains(html, "averaged over each 3 min bin"));
  }

  SUBCASE("an empty or malformed result renders without throwing and omits what is missing") {
    std::string html;
    CHECK_NOTHROW(html = render_html_report(json::object()));
    CHECK(contains(html, "Unnamed scenario"));
    CHECK_FALSE(contains(html, "<canvas"));
    const json bad = {{"metrics", "x"},
                      {"per_class", 5},
                      {"timeseries", {{"t_s", "a"}}},
                      {"cost_usd", {{"per_pool", 1}}},
                      {"warnings", {1, "two"}},
                      {"summary", {{"metrics.wait_s.mean", 3}}},
                      {"replications", "many"}};
    CHECK_NOTHROW(html = render_html_report(bad));
    CHECK_NOTHROW(html = render_html_report(json::array()));
  }

  SUBCASE("economics, network, preemption and TCO sections render with units after the charts") {
    const json r = load_fixture("economics_run.json");
    const std::string html = render_html_report(r);
    std::size_t last = html.find("id=\"charts\"");
    REQUIRE(last != std::string::npos);
    for (const char* id : {"id=\"network\"", "id=\"cost-detail\"", "id=\"utilization\"",
                           "id=\"preemption\"", "id=\"tco\"", "id=\"tables\""}) {
      const std::size_t at = html.find(id);
      CHECK_MESSAGE(at != std::string::npos, id);
      CHECK_MESSAGE(at > last, id);
      last = at;
    }
    // Network figures, each with its unit.
    CHECK(contains(html, ">topology_aware<"));
    CHECK(contains(html, "1.084×"));
    CHECK(contains(html, "3.5 GPUs"));
    CHECK(contains(html, "117 changes"));
    CHECK(contains(html, "3,200 Gb/s"));
    CHECK(contains(html, "1.40 µs"));
    // Cost per useful GPU-hour, GPU-hours and the class split.
    CHECK(contains(html, "$5.13/GPU-h"));
    CHECK(contains(html, "13,824 GPU-h"));
    CHECK(contains(html, "320 GPU-h"));
    // Preemptions per pool and class.
    CHECK(contains(html, "id=\"preemption-pools-table\""));
    CHECK(contains(html, "id=\"preemption-classes-table\""));
    CHECK(contains(html, "37 job runs"));
    CHECK(contains(html, "41 nodes"));
    // TCO: NPV, break-even and the cheapest option.
    CHECK(contains(html, "id=\"tco-table\""));
    CHECK(contains(html, "month 8"));
    CHECK(contains(html, "month 6"));
    CHECK(contains(html, "cheapest by NPV"));
    CHECK(contains(html, gpuplan::reports::format_money(
                             r["tco"]["options"]["on_prem"]["npv_usd"].get<double>())));
    // Every new chart has a canvas and its data.
    const json data = json::parse(chart_data(html));
    for (const char* chart : {"cost", "class_cost", "gpu_hours", "pool_util", "tco"})
      CHECK_MESSAGE(contains(html, "data-chart=\"" + std::string(chart) + "\""), chart);
    CHECK(data["class_cost"].size() == 4);  // three classes and idle
    CHECK(data["class_cost"][3]["idle"] == true);
    CHECK(data["gpu_hours"]["useful"] == 10400.0);
    CHECK(data["pool_util"].size() == 2);
    CHECK(data["tco"].size() == 3);
    // The cost-by-pool chart moved into the cost section: one canvas, not two.
    std::size_t n_cost = 0;
    for (std::size_t at = 0; (at = html.find("data-chart=\"cost\"", at)) != std::string::npos; ++at)
      ++n_cost;
    CHECK(n_cost == 1);
  }

  SUBCASE("the inlined topology SVG has no script, event handler or external link") {
    const std::string html = render_html_report(load_fixture("economics_run.json"));
    const std::size_t begin = html.find("<div class=\"topo-box\"");
    REQUIRE(begin != std::string::npos);
    const std::size_t end = html.find("</svg>", begin);
    REQUIRE(end != std::string::npos);
    const std::string svg = html.substr(begin, end - begin);
    CHECK(contains(svg, "<svg width=\"200pt\""));
    CHECK(contains(svg, "leaf0 &amp; host"));
    CHECK(contains(svg, "<use href=\"#node1\"/>"));
    CHECK_FALSE(contains(svg, "<script"));
    CHECK_FALSE(contains(svg, "alert("));
    CHECK_FALSE(contains(svg, "onload"));
    CHECK_FALSE(contains(svg, "ONMOUSEOVER"));
    CHECK_FALSE(contains(svg, "evil.example"));
    CHECK_FALSE(contains(svg, "javascript:"));
    CHECK_FALSE(contains(svg, "<!DOCTYPE"));
    // Still four script elements in the page.
    std::size_t n_open = 0;
    for (std::size_t at = 0; (at = html.find("<script", at)) != std::string::npos; ++at) ++n_open;
    CHECK(n_open == 4);
  }

  SUBCASE("sanitize_svg strips a <script> and an onload= directly") {
    using gpuplan::reports::sanitize_svg;
    const std::string out = sanitize_svg(
        "<svg onload=\"alert(1)\" viewBox=\"0 0 1 1\"><SCRIPT>alert(2)</SCRIPT>"
        "<g OnClick=alert(3)><a xlink:href=\"http://x/\"><text>ok</text></a></g>"
        "<foreignObject><div>html</div></foreignObject><script/></svg>");
    CHECK(out == "<svg viewBox=\"0 0 1 1\"><g><a><text>ok</text></a></g></svg>");
    CHECK(sanitize_svg("no drawing here").empty());
    CHECK_NOTHROW((void)sanitize_svg("<svg <script"));
  }

  SUBCASE("sections whose keys are missing are left out; a TCO option that never breaks even") {
    const std::string plain = render_html_report(load_fixture("single_run.json"));
    for (const char* id : {"id=\"network\"", "id=\"cost-detail\"", "id=\"preemption\"",
                           "id=\"tco\"", "class=\"topo-box\""})
      CHECK_FALSE_MESSAGE(contains(plain, id), id);
    json r = load_fixture("economics_run.json");
    r["tco"]["break_even_month"]["hybrid_vs_cloud"] = nullptr;
    r["topology"].erase("svg");
    r["topology"]["svg_error"] = "install graphviz";
    const std::string html = render_html_report(r);
    CHECK(contains(html, ">never<"));
    CHECK_FALSE(contains(html, "class=\"topo-box\""));
    CHECK(contains(html, "No topology drawing: install graphviz"));
  }
}
