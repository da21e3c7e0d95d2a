//! The loaders' one two-column CSV reader (models/input/csv_two_columns.h), shared by the grid
//! series and the rate schedule.
#include "models/input/csv_two_columns.h"

#include <doctest/doctest.h>

#include <charconv>

using namespace gpuplan;

namespace {

const csv::TwoColumns KIND = {{"t", "time"}, "v", "header must be \"t,v\"", "two fields, t and v"};

//! Reads `text`, keeping each row's second field as an integer; a value above 9 is an error.
struct Read {
  Diagnostics d;
  std::vector<int> values;
  csv::TwoColumnRead r;
  explicit Read(std::string_view text) {
    r = csv::read_two_columns(
        text, KIND, "f.csv", "/p", d,
        [&](std::string_view, std::string_view second) -> std::optional<std::string> {
          int v = 0;
          std::from_chars(second.data(), second.data() + second.size(), v);
          if (v > 9) return "v " + std::string(second) + " is above 9";
          values.push_back(v);
          return std::nullopt;
        });
  }
  [[nodiscard]] std::string first_message() const {
    const auto s = d.sorted();
    return s.empty() ? "" : s.front().format();
  }
};

}  // namespace

TEST_CASE("csv::two_columns") {
  SUBCASE("rows after the header reach the callback; blank and '#' lines and a BOM are skipped") {
    const Read x("\xEF\xBB\xBFt,v\n# note\n\n0, 3\n1,4\r\n");
    CHECK(x.r.stop == csv::TwoColumnEnd::end);
    CHECK(x.r.header);
    CHECK(x.r.ok);
    // the two data rows, trimmed, in order
    CHECK(x.values == std::vector<int>{3, 4});
    CHECK(x.d.ok());
  }
  SUBCASE("any of the accepted first-column names makes the header") {
    const Read x("time,v\n0,1\n");
    CHECK(x.r.ok);
    CHECK(x.values == std::vector<int>{1});
  }
  SUBCASE("a wrong header stops reading with the kind's message at its line") {
    const Read x("\nt,w\n0,1\n");
    CHECK(x.r.stop == csv::TwoColumnEnd::bad_header);
    CHECK(x.values.empty());
    CHECK(x.first_message() == "f.csv:2: /p: header must be \"t,v\"");
  }
  SUBCASE("a bad row is an error at its line and reading goes on") {
    const Read x("t,v\n0,12\n1\n2,5\n");
    CHECK(x.r.stop == csv::TwoColumnEnd::end);
    CHECK_FALSE(x.r.ok);
    // the row after the two bad ones is still read
    CHECK(x.values == std::vector<int>{5});
    const auto s = x.d.sorted();
    REQUIRE(s.size() == 2);
    CHECK(s[0].format() == "f.csv:2: /p: v 12 is above 9");
    CHECK(s[1].format() == "f.csv:3: /p: two fields, t and v");
  }
  SUBCASE("an unclosed quote stops reading and says so") {
    const Read x("t,v\n0,\"1\n");
    CHECK(x.r.stop == csv::TwoColumnEnd::unterminated_quote);
    CHECK_FALSE(x.r.ok);
    CHECK(x.first_message().find("f.csv:2: /p: a quoted field is not closed") == 0);
  }
  SUBCASE("a file with nothing but blank lines has no header") {
    const Read x("\n\n");
    CHECK_FALSE(x.r.header);
    CHECK(x.r.stop == csv::TwoColumnEnd::end);
  }
}
