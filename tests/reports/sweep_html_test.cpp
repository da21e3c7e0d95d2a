#include "reports/sweep_html.h"

#include "tests/reports/fixture.h"

#include <doctest/doctest.h>

#include <regex>
#include <string>

using gpuplan::reports::render_sweep_html;
using gpuplan::reports::testing::load_fixture;
using nlohmann::json;

namespace {

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

std::size_t count(const std::string& haystack, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = 0; (at = haystack.find(needle, at)) != std::string::npos;
       at += needle.size())
    ++n;
  return n;
}

// The parsed <script type="application/json" id="gp-data"> block.
json chart_data(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"gp-data\">";
  const std::size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  return json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

// The text of the section with the given id, up to the next section.
std::string section(const std::string& html, const std::string& id) {
  const std::size_t begin = html.find("<section id=\"" + id + "\"");
  REQUIRE(begin != std::string::npos);
  return html.substr(begin, html.find("</section>", begin) - begin);
}

}  // namespace

// The fixture (tests/reports/fixtures/sweep.json) is a 4-point sweep of mc_quickstart over
// pools.0.count = 6, 8, 10, 12 with 8 replications: 6 nodes saturated in 5 of 8 replications,
// 8 and 10 are on the cost-vs-p90-wait front, 12 is dominated by 10 (same 0 s wait, higher cost).
TEST_CASE("reports::sweep_html") {
  SUBCASE("a scenario name, --vary path and value render as text, never as markup or script") {
    json s = load_fixture("sweep.json");
    s["scenario"] = "<script>alert(1)</script>";
    s["vary"][0]["path"] = "pools.0.<img src=x onerror=alert(2)>";
    s["vary"][0]["values"][1] = "<script>alert(3)</script>";
    for (json& p : s["points"]) {
      p["values"] = {{"pools.0.<img src=x onerror=alert(2)>", p["values"]["pools.0.count"]}};
    }
    s["points"][1]["values"]["pools.0.<img src=x onerror=alert(2)>"] = "<script>alert(3)</script>";
    s["command"] = "gpuplan sweep x.json --vary '<script>alert(4)</script>'";
    s["gpuplan_version"] = "\"><script>alert(5)</script>";
    const std::string html = render_sweep_html(s);
    CHECK_FALSE(contains(html, "<script>alert("));
    CHECK_FALSE(contains(html, "<img src=x"));
    CHECK(contains(html,
                   "<title>&lt;script&gt;alert(1)&lt;/script&gt; — gpuplan sweep report</title>"));
    CHECK(contains(html, "<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"));
    // The value shows escaped in the summary, the table and the reproduce section.
    CHECK(count(html, "&lt;script&gt;alert(3)&lt;/script&gt;") >= 3);
    CHECK(contains(html, "<code>pools.0.&lt;img src=x onerror=alert(2)&gt;</code>"));
    CHECK(contains(html, "&lt;script&gt;alert(4)&lt;/script&gt;"));
    CHECK(contains(html, "&quot;&gt;&lt;script&gt;alert(5)"));
    // The chart data carries the value with its angle brackets as \u escapes, and parses back.
    CHECK(contains(html, "\\u003cscript\\u003ealert(3)\\u003c/script\\u003e"));
    CHECK(contains(chart_data(html)["points"][1]["label"].get<std::string>(),
                   "<script>alert(3)</script>"));
  }

  SUBCASE("a point folder that is not a plain name gets no link") {
    json s = load_fixture("sweep.json");
    s["points"][0]["dir"] = "javascript:alert(1)";
    s["points"][1]["dir"] = "../../etc";
    const std::string html = render_sweep_html(s);
    CHECK_FALSE(contains(html, "javascript:"));
    CHECK_FALSE(contains(html, "../../etc"));
    // The two plain folders keep their relative links.
    CHECK(contains(html, "href=\"point-2/report.html\""));
    CHECK(contains(html, "href=\"point-3/report.html\""));
    CHECK(count(html, "/report.html\"") == 2);
  }

  SUBCASE("the points on the cost-vs-wait front are marked in the summary, table and charts") {
    const std::string html = render_sweep_html(load_fixture("sweep.json"));
    const std::string summary = section(html, "summary");
    // Points 1 (8 nodes) and 2 (10 nodes) make the front, listed cheapest first.
    CHECK(contains(summary, "2 of 4 points, from cheapest to quickest"));
    CHECK(
        contains(summary, "<code>pools.0.count</code> = 8 (64 GPUs)</span>: <strong>$176,185.50"));
    CHECK(
        contains(summary, "<code>pools.0.count</code> = 10 (80 GPUs)</span>: <strong>$220,231.87"));
    // 220,231.87 − 176,185.50 = 44,046.37, which is 25.0% of the cheaper point.
    CHECK(contains(summary, "$44,046.37 more (+25.0%)"));
    CHECK(contains(summary, "Choose on the front"));
    const std::string table = section(html, "points");
    CHECK(count(table, "<tr class=\"on-front\">") == 2);
    CHECK(count(table, ">cost–wait</span>") == 2);
    // Only point 1 is on the cost-vs-utilization front.
    CHECK(count(table, ">cost–util.</span>") == 1);
    const json data = chart_data(html);
    REQUIRE(data["points"].size() == 4);
    CHECK(data["points"][0]["front_wait"] == false);
    CHECK(data["points"][1]["front_wait"] == true);
    CHECK(data["points"][2]["front_wait"] == true);
    CHECK(data["points"][3]["front_wait"] == false);
    CHECK(data["points"][1]["front_util"] == true);
    // The largest p90 wait of a point that kept up, 115355 s (CI high 262422 s), reads in hours.
    CHECK(data["wait_unit"]["name"] == "hours");
  }

  SUBCASE("a saturated point is labelled saturated, on no front, with waits not meaningful") {
    json s = load_fixture("sweep.json");
    // Even a file that puts it on a front cannot: a point that cannot keep up dominates nothing.
    s["points"][0]["pareto"]["cost_vs_wait_p90"] = true;
    const std::string html = render_sweep_html(s);
    const std::string summary = section(html, "summary");
    CHECK(contains(summary, "1 point saturated"));
    // 0.625 of 8 replications = 5 saturated; offered load 0.9433 rounds to 94%.
    CHECK(contains(summary, "saturated in 5 of 8 replications; offered load 94% of capacity"));
    CHECK(contains(summary, "<strong>not meaningful</strong>"));
    CHECK_FALSE(contains(summary, "long wait"));
    CHECK_FALSE(contains(summary, "Long wait"));
    const std::string table = section(html, "points");
    CHECK(count(table, "<tr class=\"sat\">") == 1);
    CHECK(count(table, ">saturated</span>") == 1);
    // Its p90 and mean wait cells say so instead of showing 4.2 d and 1.9 d.
    CHECK(count(table, "not meaningful") == 2);
    const json data = chart_data(html);
    CHECK(data["points"][0]["sat"] == true);
    CHECK(data["points"][0]["front_wait"] == false);
    CHECK(data["points"][0]["tag"] == "count=6");
    CHECK(data["points"][1]["sat"] == false);
  }

  SUBCASE("offered load of 100% or more counts as saturated though no replication stopped") {
    // Jobs ask for more GPU time than point 1 has: its queue only grows, whatever its
    // replications' flags say, so it is drawn and labelled as saturated and is on no front.
    json s = load_fixture("sweep.json");
    s["points"][1]["offered_load"] = 1.13;
    const std::string html = render_sweep_html(s);
    const std::string summary = section(html, "summary");
    CHECK(contains(summary, "2 points saturated"));
    CHECK(
        contains(summary, "every replication (demand ≥ capacity); offered load 113% of capacity"));
    const json data = chart_data(html);
    CHECK(data["points"][1]["sat"] == true);
    CHECK(data["points"][1]["front_wait"] == false);
    CHECK(count(section(html, "points"), "<tr class=\"sat\">") == 2);
  }

  SUBCASE("every point saturated: the summary says no point keeps up") {
    json s = load_fixture("sweep.json");
    for (json& p : s["points"]) p["saturated_share"] = 1.0;
    const std::string summary = section(render_sweep_html(s), "summary");
    CHECK(contains(summary, "No point keeps up"));
    CHECK(contains(summary, "4 points saturated"));
  }

  SUBCASE("with a p90 wait target the summary names the cheapest point that meets it") {
    json s = load_fixture("sweep.json");
    // 8 nodes wait 115355 s (32 h) at p90; 10 nodes wait 0 s, so a 1 h target picks 10 nodes.
    s["target"] = {{"wait_p90_s", 3600}};
    std::string summary = section(render_sweep_html(s), "summary");
    CHECK(contains(summary, "Meets the target"));
    CHECK(contains(summary,
                   "within the target of 1 h is <span class=\"pt\"><code>pools.0.count"
                   "</code> = 10 (80 GPUs)</span>: <strong>$220,231.87</strong>"));
    CHECK(contains(summary, "meets the target with 95% confidence"));
    // The cost-vs-wait chart draws the target as a line.
    CHECK(chart_data(render_sweep_html(s))["wait_target_s"] == 3600);
    // A 2-day target (172800 s) is met by 8 nodes on the mean, but its CI reaches 262422 s (3 d).
    s["target"] = {{"wait_p90_s", 172800}};
    summary = section(render_sweep_html(s), "summary");
    CHECK(contains(summary, "= 8 (64 GPUs)</span>: <strong>$176,185.50</strong>"));
    CHECK(contains(summary, "Its 95% interval reaches 3 d, above the target"));
    CHECK(contains(summary,
                   "with 95% confidence is <span class=\"pt\"><code>pools.0.count</code> "
                   "= 10 (80 GPUs)</span>"));
  }

  SUBCASE("the page is self-contained: inlined Chart.js, a CSP, no network reference") {
    const std::string html = render_sweep_html(load_fixture("sweep.json"));
    CHECK(contains(html, "Chart.js v3.9.1"));
    CHECK(contains(html, "content=\"default-src 'none';"));
    const std::regex network_ref(R"re((src|href|action)\s*=\s*["']?\s*(https?:|//|ftp:))re",
                                 std::regex::icase);
    CHECK_FALSE(std::regex_search(html, network_ref));
    const std::regex external_script(R"re(<script[^>]*\bsrc\s*=)re", std::regex::icase);
    CHECK_FALSE(std::regex_search(html, external_script));
    CHECK_FALSE(contains(html, "<link"));
    // Five script elements (error capture, chart data, Chart.js, report, sweep), each closed once.
    CHECK(count(html, "<script") == 5);
    CHECK(count(html, "</script") == 5);
    // Both charts and the reproduction facts are there.
    CHECK(contains(html, "data-sweep-chart=\"cost_wait\""));
    CHECK(contains(html, "data-sweep-chart=\"cost_util\""));
    CHECK(contains(section(html, "reproduce"), "common random numbers"));
    CHECK(contains(section(html, "reproduce"), "--replications 8"));
  }

  SUBCASE("a malformed document renders a page without throwing") {
    CHECK(contains(render_sweep_html(json()), "Unnamed scenario"));
    CHECK(contains(render_sweep_html(json::array({1, 2})), "</html>"));
    json s = load_fixture("sweep.json");
    s["points"][0]["summary"] = "oops";
    s["points"][1]["values"] = 3;
    s["points"][2] = nullptr;
    s["vary"] = {{{"path", 7}}};
    CHECK(contains(render_sweep_html(s), "</html>"));
  }
}
