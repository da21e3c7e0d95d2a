#include "reports/sweep_html.h"

#include "reports/assessment.h"
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

// The parsed <script type="application/json" id="result"> data island.
json data_island(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"result\">";
  const std::size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  return json::parse(html.substr(begin + open.size(), end - begin - open.size()));
}

}  // namespace

// The fixture (tests/reports/fixtures/sweep.json) is a 4-point sweep of mc_quickstart over
// pools.0.count = 6, 8, 10, 12 with 8 replications (verdicts: tests/reports/assessment_test.cpp).
TEST_CASE("reports::sweep_html") {
  SUBCASE("a scenario name, --vary path and value stay inside the data island") {
    const std::string evil = "</script><img src=x onerror=alert(1)>";
    json s = load_fixture("sweep.json");
    s["scenario"] = evil;
    s["vary"][0]["path"] = "pools.0." + evil;
    s["vary"][0]["values"][1] = evil;
    for (json& p : s["points"]) p["values"] = {{"pools.0." + evil, p["values"]["pools.0.count"]}};
    s["points"][1]["values"]["pools.0." + evil] = evil;
    s["points"][1]["dir"] = evil;
    s["command"] = "gpuplan sweep x.json --vary '" + evil + "'";
    s["gpuplan_version"] = evil;
    s["assessment"] = gpuplan::reports::assess_sweep(s);  // as sweep_json adds it
    const std::string html = render_sweep_html(s);
    CHECK_FALSE(contains(html, "<img src=x"));
    CHECK(count(html, "<script") == 4);
    CHECK(count(html, "</script") == 4);
    const json back = data_island(html);
    CHECK(back["scenario"] == evil);
    CHECK(back["points"][1]["values"]["pools.0." + evil] == evil);
    // The assessment quotes the value as text, in a sentence about point 1.
    CHECK(contains(back["assessment"]["front"]["items"][0]["text"].dump(), "onerror"));
  }

  SUBCASE("the data island is the sweep with the assessment it carries, not computed again") {
    json s = load_fixture("sweep.json");
    s["assessment"] = gpuplan::reports::assess_sweep(s);
    const json back = data_island(render_sweep_html(s));
    CHECK(back["assessment"] == s["assessment"]);
    CHECK_FALSE(data_island(render_sweep_html(load_fixture("sweep.json"))).contains("assessment"));
    CHECK(back["points"] == s["points"]);
  }

  SUBCASE("the page is self-contained: inlined Chart.js, a strict CSP, no network reference") {
    const std::string html = render_sweep_html(load_fixture("sweep.json"));
    CHECK(contains(html, "Chart.js v3.9.1"));
    CHECK(contains(html, "content=\"default-src 'none'; script-src 'sha256-"));
    CHECK_FALSE(contains(html, "unsafe-inline"));
    const std::regex network_ref(R"re((src|href|action)\s*=\s*["']?\s*(https?:|//|ftp:))re",
                                 std::regex::icase);
    CHECK_FALSE(std::regex_search(html, network_ref));
    const std::regex external_script(R"re(<script[^>]*\bsrc\s*=)re", std::regex::icase);
    CHECK_FALSE(std::regex_search(html, external_script));
    CHECK_FALSE(contains(html, "<link"));
    CHECK_FALSE(contains(html, "{{"));
    CHECK(contains(html, "<title>gpuplan sweep report</title>"));
  }

  SUBCASE("a malformed document renders a page without throwing") {
    CHECK(contains(render_sweep_html(json()), "</html>"));
    CHECK(contains(render_sweep_html(json::array({1, 2})), "</html>"));
    json s = load_fixture("sweep.json");
    s["points"][0]["summary"] = "oops";
    s["points"][1]["values"] = 3;
    s["points"][2] = nullptr;
    s["vary"] = {{{"path", 7}}};
    CHECK(contains(render_sweep_html(s), "</html>"));
  }
}
