#include <map>
#include <string>

#include <doctest/doctest.h>

#include "models/input/jsonc.h"

using namespace gpuplan;

namespace {

std::map<std::string, int> as_map(const LineTable& t) {
  return {t.begin(), t.end()};
}

}  // namespace

TEST_CASE("load::jsonc") {
  SUBCASE("line and block comments are ignored, also inside arrays and between tokens") {
    const std::string text =
        "// scenario\n"
        "{\n"
        "  \"a\": 1, // one\n"
        "  /* a block\n"
        "     over two lines */\n"
        "  \"b\": [1, /* two */ 2]\n"
        "}\n";
    Diagnostics d;
    const auto doc = parse_jsonc(text, "s.json", d);
    REQUIRE(doc);
    CHECK(d.ok());
    CHECK(doc->value["a"] == 1);
    CHECK(doc->value["b"][1] == 2);
    const auto lines = as_map(doc->lines);
    // The root object opens on line 2, after the leading comment.
    CHECK(lines.at("") == 2);
    // "a" is on line 3.
    CHECK(lines.at("/a") == 3);
    // The block comment spans lines 4-5, so "b" and its elements are on line 6.
    CHECK(lines.at("/b") == 6);
    CHECK(lines.at("/b/1") == 6);
  }
  SUBCASE("every value's pointer maps to its line, array elements included") {
    const std::string text =
        "{\n"
        "  \"pools\": [\n"
        "    {\"name\": \"main\",\n"
        "     \"count\": 4},\n"
        "    {\"name\": \"spot\"}\n"
        "  ]\n"
        "}";
    const auto lines = as_map(jsonc_line_table(text));
    // /pools opens on line 2; its first element and name on 3; count on 4; second element on 5.
    CHECK(lines.at("/pools") == 2);
    CHECK(lines.at("/pools/0") == 3);
    CHECK(lines.at("/pools/0/name") == 3);
    CHECK(lines.at("/pools/0/count") == 4);
    CHECK(lines.at("/pools/1/name") == 5);
    // 1 root + pools + 2 elements + 3 members = 7 entries.
    CHECK(lines.size() == 7);
  }
  SUBCASE("keys with '~' and '/' are escaped as ~0 and ~1, and escapes in strings are decoded") {
    const std::string text =
        "{\"a/b\": 1,\n"
        " \"m~n\": 2,\n"
        " \"q\\\"x\": \"// not a comment { [\",\n"
        " \"\\u00e9\": 3}";
    const auto lines = as_map(jsonc_line_table(text));
    CHECK(lines.at("/a~1b") == 1);
    CHECK(lines.at("/m~0n") == 2);
    CHECK(lines.at("/q\"x") == 3);
    // \u00e9 is "é" in UTF-8, on line 4.
    CHECK(lines.at("/\xc3\xa9") == 4);
    CHECK(pointer_token("a/b~c") == "a~1b~0c");
  }
  SUBCASE("a syntax error is one parse_error diagnostic with file, line and column") {
    Diagnostics d;
    CHECK_FALSE(parse_jsonc("{\n  \"a\": 1,\n  \"b\": ]\n}", "s.json", d));
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].code == DiagCode::parse_error);
    CHECK(all[0].file == "s.json");
    // The stray ']' is on line 3, column 8.
    CHECK(all[0].line == 3);
    CHECK(all[0].message.find("column 8") != std::string::npos);
  }
  SUBCASE("the input a syntax error quotes is cut to 40 bytes, keeping nlohmann's expectation") {
    Diagnostics d;
    std::string text(100001, 'a');
    text[0] = '"';
    CHECK_FALSE(parse_jsonc(text, "s.json", d));
    const std::string open = d.sorted()[0].message;
    CHECK(open.size() < 200);
    std::string quoted(40, 'a');
    quoted[0] = '"';
    CHECK(open.find("last read: '" + quoted + "...'") != std::string::npos);
    // a long number token: the expectation after the quoted text survives the cut
    const std::string head = "syntax error while parsing value - invalid literal; last read: '";
    CHECK(json_error_text(head + std::string(50, '1') + "'; expected end of input") ==
          head + std::string(40, '1') + "...'; expected end of input");
    CHECK(json_error_text("unexpected ']'") == "unexpected ']'");
  }
  SUBCASE("a trailing comma is named as such") {
    Diagnostics d;
    CHECK_FALSE(parse_jsonc("{\"a\": [1, 2,],\n}", "s.json", d));
    CHECK(d.sorted()[0].message.find("trailing commas are not allowed") != std::string::npos);
    // The error is on line 1.
    CHECK(d.sorted()[0].line == 1);
  }
  SUBCASE("an empty file is a parse error on line 1") {
    Diagnostics d;
    CHECK_FALSE(parse_jsonc("", "s.json", d));
    // Nothing was read, so line 1.
    CHECK(d.sorted()[0].line == 1);
  }
  SUBCASE("a duplicate key is reported at the second one, naming the first") {
    Diagnostics d;
    const auto doc = parse_jsonc("{\"seed\": 1,\n \"seed\": 2}", "s.json", d);
    REQUIRE(doc);
    // nlohmann keeps the last value, 2.
    CHECK(doc->value["seed"] == 2);
    const auto all = d.sorted();
    REQUIRE(all.size() == 1);
    CHECK(all[0].pointer == "/seed");
    // The second key is on line 2; the first on line 1.
    CHECK(all[0].line == 2);
    CHECK(all[0].message.find("first at line 1") != std::string::npos);
  }
  SUBCASE("a UTF-8 byte order mark does not shift the table") {
    const auto lines = as_map(jsonc_line_table("\xEF\xBB\xBF{\n\"a\": 1}"));
    // "a" is on line 2.
    CHECK(lines.at("/a") == 2);
  }
  SUBCASE("deep nesting is scanned without recursion") {
    std::string text(5000, '[');
    text += std::string(5000, ']');
    // 5000 nested arrays: the root plus 4999 "/0" levels.
    CHECK(jsonc_line_table(text).size() == 5000);
  }
}
