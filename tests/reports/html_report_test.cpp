#include "reports/html_report.h"

#include "models/input/embedded.h"
#include "models/input/sha256.h"
#include "reports/assessment.h"
#include "reports/format.h"
#include "reports/html_assets.h"
#include "reports/html_page.h"
#include "tests/reports/fixture.h"
#include "tests/reports/result_facts_reader.h"

#include <doctest/doctest.h>

#include <regex>
#include <string>
#include <vector>

using gpuplan::reports::render_html_report;
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

// The page without the inlined Chart.js, whose licence comment is the only place URLs may appear.
std::string without_chartjs(const std::string& html) {
  const std::size_t begin = html.find("<script id=\"gp-chartjs\">");
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  return html.substr(0, begin) + html.substr(end);
}

// The text of the <script type="application/json" id="result"> data island.
std::string data_island(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"result\">";
  const std::size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  const std::size_t end = html.find("</script>", begin);
  return html.substr(begin + open.size(), end - begin - open.size());
}

// The contents of every <script> element that runs (not the JSON data island).
std::vector<std::string> inline_scripts(const std::string& html) {
  std::vector<std::string> out;
  for (std::size_t at = html.find("<script"); at != std::string::npos;
       at = html.find("<script", at)) {
    const std::size_t body = html.find('>', at) + 1;
    const std::size_t end = html.find("</script>", body);
    if (html.substr(at, body - at).find("application/json") == std::string::npos)
      out.push_back(html.substr(body, end - body));
    at = end;
  }
  return out;
}

// The Content-Security-Policy of the page.
std::string csp(const std::string& html) {
  const std::string open = "http-equiv=\"Content-Security-Policy\" content=\"";
  const std::size_t begin = html.find(open);
  REQUIRE(begin != std::string::npos);
  return html.substr(begin + open.size(),
                     html.find('"', begin + open.size()) - begin - open.size());
}

}  // namespace

TEST_CASE("reports::html") {
  SUBCASE("names that try to close the script element stay inside the data island") {
    const std::string evil = "</script><img src=x onerror=alert(1)>";
    json r = load_fixture("economics_run.json");
    r["scenario"] = evil;
    r["per_class"][0]["name"] = evil;
    r["per_pool"][0]["name"] = evil;
    r["per_pool"][0]["pricing"] = evil;
    r["warnings"].push_back(evil);
    r["scenario_echo"]["name"] = evil;
    r["tco"]["cheapest_by_npv"] = evil;
    r["network"]["placement"] = evil;
    r["gpuplan_version"] = evil;
    r["assessment"] = gpuplan::reports::assess(
        gpuplan::reports::testing::read_facts(r));  // as result_json adds it
    const std::string html = render_html_report(r);
    // The names' text is in the island, but never a "<" that could open an element.
    CHECK_FALSE(contains(html, "<img src=x"));
    CHECK_FALSE(contains(html, "</script><img"));
    // Four script elements (error capture, data island, Chart.js, page), each closed exactly once.
    CHECK(count(html, "<script") == 4);
    CHECK(count(html, "</script") == 4);
    // The island parses back to the names as given, and the assessment carries the warning.
    const json back = json::parse(data_island(html));
    CHECK(back["scenario"] == evil);
    CHECK(back["per_class"][0]["name"] == evil);
    CHECK(back["assessment"]["warnings"].back() == evil);
  }

  SUBCASE("the data island cannot close its script element or break a JS parser") {
    json r = load_fixture("single_run.json");
    r["per_class"][1]["name"] = "a</script><b>&\u2028\u2029";
    const std::string data = data_island(render_html_report(r));
    CHECK_FALSE(contains(data, "<"));
    CHECK_FALSE(contains(data, ">"));
    CHECK_FALSE(contains(data, "&"));
    CHECK_FALSE(contains(data, "\u2028"));
    CHECK_FALSE(contains(data, "\u2029"));
    CHECK(contains(data, "a\\u003c/script\\u003e\\u003cb\\u003e\\u0026\\u2028\\u2029"));
    CHECK(json::parse(data)["per_class"][1]["name"] == "a</script><b>&\u2028\u2029");
  }

  SUBCASE("the page scripts never parse data as HTML") {
    // Data reaches the DOM through textContent, attribute setters and createElement only.
    for (const std::string_view js :
         {gpuplan::reports::assets::common_js(), gpuplan::reports::assets::charts_js(),
          gpuplan::reports::assets::report_js(), gpuplan::reports::assets::sweep_js(),
          gpuplan::reports::assets::capture_js()}) {
      const std::string text(js);
      for (const char* sink : {"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                               "eval(", "new Function", "DOMParser", "createContextualFragment"})
        CHECK_MESSAGE(!contains(text, sink), sink);
    }
  }

  SUBCASE("a strict CSP allows exactly the page's inline scripts and style, by hash") {
    const std::string html = render_html_report(load_fixture("monte_carlo.json"));
    const std::string policy = csp(html);
    CHECK(policy.rfind("default-src 'none'; script-src 'sha256-", 0) == 0);
    CHECK_FALSE(contains(policy, "unsafe-inline"));
    CHECK_FALSE(contains(policy, "unsafe-eval"));
    CHECK(contains(policy, "img-src data:; base-uri 'none'; form-action 'none'"));
    // Three scripts run (error capture, Chart.js, page): each has its hash, and no other.
    const std::vector<std::string> scripts = inline_scripts(html);
    REQUIRE(scripts.size() == 3);
    for (const std::string& s : scripts)
      CHECK(contains(policy, "'sha256-" + gpuplan::sha256_base64(s) + "'"));
    CHECK(count(policy, "'sha256-") == 4);  // three scripts and the style element
    const std::size_t style = html.find("<style>") + 7;
    CHECK(contains(policy, "style-src 'sha256-" +
                               gpuplan::sha256_base64(
                                   html.substr(style, html.find("</style>") - style)) +
                               "'"));
  }

  SUBCASE("sha256_base64 matches the FIPS 180-4 test vectors") {
    using gpuplan::sha256_base64;
    // SHA-256("abc") = ba7816bf…f20015ad; SHA-256("") = e3b0c442…7852b855.
    CHECK(sha256_base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
    CHECK(sha256_base64("") == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=");
    // A two-block message (56 bytes, so the length spills into a second block).
    CHECK(sha256_base64("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=");
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
  }

  SUBCASE("Chart.js is inlined from the embedded Debian copy") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    CHECK(contains(html, "Chart.js v3.9.1"));
    CHECK(contains(html, std::string(gpuplan::embedded::chartjs().substr(0, 2000))));
  }

  SUBCASE("the page is the template with every slot filled") {
    const std::string html = render_html_report(load_fixture("single_run.json"));
    CHECK_FALSE(contains(html, "{{"));
    CHECK(contains(html, "<main class=\"wrap\" id=\"gp-main\"></main>"));
    CHECK(contains(html, std::string(gpuplan::reports::assets::style_css().substr(0, 500))));
    CHECK(contains(html, "<title>gpuplan capacity report</title>"));
  }

  SUBCASE("the data island is the result with the assessment it carries, not computed again") {
    json r = load_fixture("single_run.json");
    r["assessment"] = gpuplan::reports::assess(gpuplan::reports::testing::read_facts(r));
    const json island = json::parse(data_island(render_html_report(r)));
    CHECK(island["assessment"] == r["assessment"]);
    // a result without an assessment gets none from the page renderer
    CHECK_FALSE(json::parse(data_island(render_html_report(load_fixture("single_run.json"))))
                    .contains("assessment"));
    CHECK(island["metrics"] == r["metrics"]);
    CHECK(island["scenario_echo"] == r["scenario_echo"]);
  }

  SUBCASE("a page from result.json's own text is byte for byte the page from the value") {
    json r = load_fixture("monte_carlo.json");
    r["assessment"] = gpuplan::reports::assess(gpuplan::reports::testing::read_facts(r));
    CHECK(render_html_report(r, r.dump(2) + "\n") == render_html_report(r));
    // an unsanitized drawing is still sanitized when the text is given
    const json e = load_fixture("economics_run.json");
    CHECK(render_html_report(e, e.dump(2)) == render_html_report(e));
  }

  SUBCASE("the topology SVG in the data island is sanitized") {
    const json r = load_fixture("economics_run.json");
    const std::string svg =
        json::parse(data_island(render_html_report(r)))["topology"]["svg"].get<std::string>();
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

  SUBCASE("an empty or malformed result renders without throwing") {
    std::string html;
    CHECK_NOTHROW(html = render_html_report(json::object()));
    CHECK(contains(html, "</html>"));
    const json bad = {{"metrics", "x"},
                      {"per_class", 5},
                      {"timeseries", {{"t_s", "a"}}},
                      {"cost_usd", {{"per_pool", 1}}},
                      {"topology", {{"svg", 3}}},
                      {"warnings", {1, "two"}},
                      {"summary", {{"metrics.wait_s.mean", 3}}},
                      {"replications", "many"}};
    CHECK_NOTHROW(html = render_html_report(bad));
    CHECK_NOTHROW(html = render_html_report(json::array()));
    CHECK(json::parse(data_island(html)).is_object());
  }
}
