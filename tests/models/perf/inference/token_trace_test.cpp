#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

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
}
