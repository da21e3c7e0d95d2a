#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "models/input/datetime.h"
#include "models/perf/inference/token_trace.h"
#include "tests/data_files.h"

using namespace gpuplan;
using namespace gpuplan::inference;

TEST_CASE("models::inference::token_trace") {
  SUBCASE("the Azure conversation trace: 19,366 requests, its published length quantiles") {
    const auto path = gpuplan_test_data::data_file("azure_llm_inference_conv_2023.csv",
                                                   "models::inference::token_trace Azure");
    if (!path) return;
    std::ifstream in(*path);
    std::stringstream text;
    text << in.rdbuf();
    Diagnostics d;
    const auto t = read_token_trace(text.str(), *path, "/inference/tokens_trace", d);
    REQUIRE(t);
    CHECK(t->in.size() == 19366);
    // shared/data/README.md: prompt median 1,020 (p99 4,142), output p99 601.
    CHECK(t->p50_in == 1020);
    CHECK(t->p99_in == 4142);
    CHECK(t->p99_out == 601);
    CHECK(t->mean_in == doctest::Approx(1154.70).epsilon(1e-4));
    CHECK(t->mean_out == doctest::Approx(211.13).epsilon(1e-4));
  }
  SUBCASE("columns are found by name, in any position") {
    Diagnostics d;
    const auto t =
        read_token_trace("GeneratedTokens,x,ContextTokens\n10,a,100\n30,b,300\n", "t.csv", "/p", d);
    REQUIRE(t);
    CHECK(t->mean_in == 200);
    CHECK(t->mean_out == 20);
  }
  SUBCASE("a missing column is refused at the header line") {
    Diagnostics d;
    CHECK_FALSE(read_token_trace("TIMESTAMP,ContextTokens\n1,2\n", "t.csv", "/p", d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].line == 1);
    CHECK(d.sorted()[0].message.find("GeneratedTokens") != std::string::npos);
  }
  SUBCASE("a bad row is refused at its file and line") {
    Diagnostics d;
    CHECK_FALSE(
        read_token_trace("ContextTokens,GeneratedTokens\n10,5\n-3,5\n10,0\n", "t.csv", "/p", d));
    REQUIRE(d.size() == 2);
    CHECK(d.sorted()[0].line == 3);
    CHECK(d.sorted()[0].file == "t.csv");
    CHECK(d.sorted()[1].line == 4);
    CHECK(d.sorted()[1].message.find("GeneratedTokens") != std::string::npos);
  }
  SUBCASE("a header without rows has no requests") {
    Diagnostics d;
    CHECK_FALSE(read_token_trace("ContextTokens,GeneratedTokens\n", "t.csv", "/p", d));
    CHECK(d.size() == 1);
  }
  SUBCASE("timestamps, when asked for: seconds after the first row, in file order") {
    Diagnostics d;
    const auto t = read_token_trace(
        "TIMESTAMP,ContextTokens,GeneratedTokens\n"
        "2023-11-16 23:59:59.5000000,10,1\n2023-11-17 00:00:01.2500000,20,2\n"
        "2023-11-17T00:00:01.25,30,3\n",
        "t.csv", "/p", d, true);
    REQUIRE(t);
    REQUIRE(t->at_s.size() == 3);
    CHECK(t->at_s[0] == 0);
    CHECK(t->at_s[1] == doctest::Approx(1.75).epsilon(1e-9));  // across midnight
    CHECK(t->at_s[2] == t->at_s[1]);                           // equal times keep file order
    // Without asking, the column is not read (the quote's readers).
    const auto plain = read_token_trace("TIMESTAMP,ContextTokens,GeneratedTokens\nnot a time,1,1\n",
                                        "t.csv", "/p", d);
    REQUIRE(plain);
    CHECK(plain->at_s.empty());
  }
  SUBCASE("parse_datetime: the epoch, a leap day, and what is not a time") {
    CHECK(parse_datetime("1970-01-01 00:00:00") == 0.0);
    CHECK(parse_datetime("2024-03-01 00:00:00").value() -
              parse_datetime("2024-02-28 00:00:00").value() ==
          2 * 86400.0);
    CHECK(parse_datetime("2023-11-16 18:15:46.68059").value() ==
          doctest::Approx(1700158546.68059).epsilon(1e-15));
    for (const char* bad : {"2023-11-16", "2023-02-30 00:00:00", "2023-11-16 24:00:00",
                            "2023-11-16 18:15:46.", "2023-11-16 18:15:46.5x", "16/11/2023 18:15"})
      CHECK_FALSE(parse_datetime(bad));
  }
  SUBCASE("a replay refuses a trace without timestamps, a bad one and one out of order") {
    Diagnostics d;
    CHECK_FALSE(read_token_trace("ContextTokens,GeneratedTokens\n1,1\n", "t.csv", "/p", d, true));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].message.find("TIMESTAMP") != std::string::npos);
    Diagnostics e;
    CHECK_FALSE(
        read_token_trace("TIMESTAMP,ContextTokens,GeneratedTokens\n"
                         "2023-11-16 18:00:02,1,1\n2023-11-16 18:00:01,1,1\nsoon,1,1\n",
                         "t.csv", "/p", e, true));
    REQUIRE(e.size() == 2);
    CHECK(e.sorted()[0].line == 3);
    CHECK(e.sorted()[0].message.find("before the row above") != std::string::npos);
    CHECK(e.sorted()[1].line == 4);
  }
}
