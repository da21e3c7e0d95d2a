//! The one field reader (models/input/field_reader.h): units, positions, "did you mean", type
//! errors.
#include <doctest/doctest.h>

#include <string>

#include "models/input/field_reader.h"
#include "models/input/jsonc.h"

using namespace gpuplan;
using json = nlohmann::json;

namespace {

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("field_reader::units") {
  Diagnostics d;
  FieldReader r(d);
  SUBCASE("durations read seconds, unit letters and unit words") {
    // 36 h = 129,600 s
    CHECK(*r.duration(json("36h"), "/x", true) == 129600);
    // 30 days = 2,592,000 s
    CHECK(*r.duration(json("30 days"), "/x", true) == 2592000);
    // a bare number is seconds
    CHECK(*r.duration(json(1.5), "/x", true) == 1.5);
    CHECK(d.ok());
  }
  SUBCASE("rates read per second, per unit and per duration") {
    // 12/h = 1/300 per second
    CHECK(*r.rate(json("12/h"), "/x") == doctest::Approx(1.0 / 300));
    // 5 per 10 minutes = 5/600 per second
    CHECK(*r.rate(json("5/10m"), "/x") == doctest::Approx(5.0 / 600));
    CHECK(d.ok());
  }
  SUBCASE("bandwidths read Gb/s with Mbps, Gbps and Tbps") {
    // 400 Gbps = 400 Gb/s
    CHECK(*r.bandwidth(json("400Gbps"), "/x") == 400);
    // 1 Tb/s = 1,000 Gb/s
    CHECK(*r.bandwidth(json("1Tb/s"), "/x") == 1000);
    // 100 Mbps = 0.1 Gb/s
    CHECK(*r.bandwidth(json("100Mbps"), "/x") == doctest::Approx(0.1));
    CHECK(d.ok());
  }
  SUBCASE("counts read SI suffixes and ratios read down:up") {
    // 70B = 7e10
    CHECK(*r.count_si(json("70B"), "/x") == 7e10);
    // 3:1 oversubscription = 3
    CHECK(*r.ratio(json("3:1"), "/x") == 3);
    CHECK(d.ok());
  }
  SUBCASE("an unreadable unit is bad_unit with the accepted forms in the message") {
    CHECK_FALSE(r.duration(json("3 fortnights"), "/horizon", true));
    REQUIRE(d.size() == 1);
    const Diagnostic e = d.sorted()[0];
    CHECK(e.code == DiagCode::bad_unit);
    CHECK(e.pointer == "/horizon");
    CHECK(contains(e.message, "cannot read duration \"3 fortnights\""));
  }
  SUBCASE("a zero duration is refused where it must be positive") {
    CHECK_FALSE(r.duration(json("0s"), "/x", true));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].code == DiagCode::out_of_range);
  }
}

TEST_CASE("field_reader::types") {
  Diagnostics d;
  FieldReader r(d);
  SUBCASE("a string where a number is required is wrong_type naming both") {
    CHECK_FALSE(r.number(json("ten"), "/seed", 0, 10));
    REQUIRE(d.size() == 1);
    const Diagnostic e = d.sorted()[0];
    CHECK(e.code == DiagCode::wrong_type);
    CHECK(e.message == "expected a number, got \"ten\"");
  }
  SUBCASE("a whole float counts as an integer, a fraction does not") {
    // 8.0 is the whole number 8
    CHECK(*r.integer(json(8.0), "/n", 1, 16) == 8);
    CHECK_FALSE(r.integer(json(8.5), "/n", 1, 16));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].code == DiagCode::wrong_type);
  }
  SUBCASE("a number outside its range names the range") {
    CHECK_FALSE(r.number(json(2.0), "/mfu", 0, 1));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].code == DiagCode::out_of_range);
  }
  SUBCASE("an absent required key is missing_key at the key's pointer") {
    CHECK(r.need(json::object(), "/pools/0", "count", "nodes") == nullptr);
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].pointer == "/pools/0/count");
    CHECK(d.sorted()[0].code == DiagCode::missing_key);
  }
}

TEST_CASE("field_reader::did_you_mean") {
  Diagnostics d;
  FieldReader r(d);
  SUBCASE("an unknown key suggests the closest allowed key; comment keys pass") {
    r.check_keys(json{{"instanse", 1}, {"_note", 2}, {"x-owner", 3}}, "/pools/0",
                 {"name", "instance", "count"});
    REQUIRE(d.size() == 1);
    const Diagnostic e = d.sorted()[0];
    CHECK(e.pointer == "/pools/0/instanse");
    CHECK(e.code == DiagCode::unknown_key);
    CHECK(contains(e.message, "did you mean \"instance\""));
  }
  SUBCASE("an unknown name in a closed set suggests the closest name") {
    CHECK_FALSE(r.enumerator<Pricing>(json("spott"), "/pools/0/pricing"));
    REQUIRE(d.size() == 1);
    const Diagnostic e = d.sorted()[0];
    CHECK(e.code == DiagCode::unknown_name);
    CHECK(contains(e.message, "unknown pricing \"spott\"; did you mean \"spot\""));
    REQUIRE_FALSE(e.candidates.empty());
    CHECK(e.candidates[0] == "spot");
  }
}

TEST_CASE("field_reader::positions") {
  SUBCASE("a bad value reports file:line of the value through the attached line table") {
    Diagnostics d;
    const std::string text = "{\n  \"a\": 1,\n  // a comment\n  \"b\": \"x\"\n}\n";
    auto doc = parse_jsonc(text, "req.json", d);
    REQUIRE(doc);
    d.set_file("req.json");
    {
      LinesAttached lines(d, doc->lines);
      FieldReader r(d);
      CHECK_FALSE(r.number(doc->value["b"], "/b", 0, 1));
    }
    REQUIRE(d.size() == 1);
    const Diagnostic e = d.sorted()[0];
    // "b" is on line 4 (after the comment line)
    CHECK(e.line == 4);
    CHECK(e.format() == "req.json:4: /b: expected a number, got \"x\"");
  }
}
