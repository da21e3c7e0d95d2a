#include "reports/format.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace gpuplan::reports;

TEST_CASE("reports::format") {
  SUBCASE("money has a dollar sign, thousands separators and cents") {
    CHECK(format_money(1234.5) == "$1,234.50");
    CHECK(format_money(1234567.891) == "$1,234,567.89");
    CHECK(format_money(0) == "$0.00");
    CHECK(format_money(-3) == "-$3.00");
    CHECK(format_money(999.999) == "$1,000.00");
    CHECK(format_money(NAN) == "n/a");
  }

  SUBCASE("durations use the largest fitting unit with about three significant digits") {
    CHECK(format_duration(45) == "45 s");
    // 11520 s = 3.2 h
    CHECK(format_duration(11520) == "3.2 h");
    CHECK(format_duration(0.25) == "250 ms");
    CHECK(format_duration(0) == "0 s");
    CHECK(format_duration(3.0) == "3 s");
    // 59.97 s rounds to 60 s, which reads better as the next unit.
    CHECK(format_duration(59.97) == "1 min");
    CHECK(format_duration(412.5) == "6.9 min");
    // 354240 s = 4.1 d
    CHECK(format_duration(354240) == "4.1 d");
    CHECK(format_duration(86400.0 * 1500) == "1,500 d");
    CHECK(format_duration(-90) == "-1.5 min");
    CHECK(format_duration(INFINITY) == "n/a");
  }

  SUBCASE("percentages, counts and raw numbers read as written") {
    CHECK(format_percent(0.7942) == "79.4%");
    CHECK(format_percent(1.31, 0) == "131%");
    CHECK(format_count(18240) == "18,240");
    CHECK(format_count(-1234567) == "-1,234,567");
    CHECK(format_number(1234.567, 2) == "1,234.57");
    CHECK(format_raw(3600) == "3600");
    CHECK(format_raw(0.1) == "0.1");
    CHECK(format_raw(NAN) == "");
  }

  SUBCASE("html_escape escapes markup characters and replaces invalid UTF-8") {
    CHECK(html_escape("<a href=\"x\">Tom & Jerry's</a>") ==
          "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;");
    CHECK(html_escape("GPU-Zeit \xC3\xBC") == "GPU-Zeit \xC3\xBC");
    // A lone continuation byte and a truncated sequence each become U+FFFD.
    CHECK(html_escape("a\x80z") == "a\xEF\xBF\xBDz");
    CHECK(html_escape("a\xE2\x80") == "a\xEF\xBF\xBD\xEF\xBF\xBD");
  }

  SUBCASE("json_for_script escapes what could end the script element or a JS line") {
    const nlohmann::json v = {{"name", "</script>&\u2028"}, {"x", NAN}};
    const std::string text = json_for_script(v);
    CHECK(text == "{\"name\":\"\\u003c/script\\u003e\\u0026\\u2028\",\"x\":null}");
  }

  SUBCASE("script_safe breaks every </script, in any case, and nothing else") {
    using gpuplan::reports::script_safe;
    CHECK(script_safe("") == "");
    CHECK(script_safe("a < b && c <= d") == "a < b && c <= d");
    CHECK(script_safe("x = '</script>'; y = '</SCRIPT >'; z = '</Script'") ==
          "x = '<\\/script>'; y = '<\\/SCRIPT >'; z = '<\\/Script'");
    CHECK(script_safe("<</script") == "<<\\/script");
    CHECK(script_safe("ends with </scrip") == "ends with </scrip");  // too short to be a tag
    CHECK(script_safe("</script") == "<\\/script");
    std::string appended = "kept:";
    gpuplan::reports::append_script_safe(appended, "a</script>b");
    CHECK(appended == "kept:a<\\/script>b");
  }

  SUBCASE("script_safe_json of an indented text equals json_for_script of its value") {
    const nlohmann::json v = {{"name", "a \"quoted\" </script> & \\ \n tab\t \u2029"},
                              {"empty", nlohmann::json::object()},
                              {"list", {1.5, -2, nlohmann::json::array(), "x y"}},
                              {"nested", {{"k", {{"deep", true}}}}}};
    for (const int indent : {-1, 0, 2, 4})
      CHECK(gpuplan::reports::script_safe_json(v.dump(indent)) == json_for_script(v));
  }
}
