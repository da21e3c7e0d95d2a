#include <doctest/doctest.h>

#include <cmath>

#include "models/perf/inference/length_distribution.h"
#include "models/quote/quote.h"

using namespace gpuplan;
using namespace gpuplan::inference;
using Kind = LengthDistribution::Kind;

TEST_CASE("models::inference::length_distribution") {
  SUBCASE("a lognormal sample has the median, the p90 and the mean exp(sigma^2 / 2) x median") {
    const LengthDistribution in{Kind::lognormal, 1000, 3000};
    const TokenLengths t = stratified_lengths(in, LengthDistribution{Kind::fixed, 100, 0});
    CHECK(t.in.size() == LENGTH_SAMPLE);
    CHECK(t.p50_in == doctest::Approx(1000).epsilon(0.002));
    CHECK(in.quantile(0.9) == doctest::Approx(3000));
    const double sigma = std::log(3.0) / 1.2815515655446004;
    CHECK(t.mean_in == doctest::Approx(1000 * std::exp(sigma * sigma / 2)).epsilon(0.01));
    CHECK(t.mean_out == 100);
  }
  SUBCASE("exponential and uniform samples have their means") {
    const TokenLengths t = stratified_lengths(LengthDistribution{Kind::uniform, 100, 300},
                                              LengthDistribution{Kind::exponential, 200, 0});
    CHECK(t.mean_in == doctest::Approx(200).epsilon(0.001));
    CHECK(t.mean_out == doctest::Approx(200).epsilon(0.01));
  }
  SUBCASE("prompt and output lengths are uncorrelated") {
    const TokenLengths t = stratified_lengths(LengthDistribution{Kind::uniform, 0, 1000},
                                              LengthDistribution{Kind::uniform, 1, 1001});
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t k = 0; k < t.in.size(); ++k) {
      const double x = t.in[k] - t.mean_in, y = t.out[k] - t.mean_out;
      sxy += x * y;
      sxx += x * x;
      syy += y * y;
    }
    CHECK(std::abs(sxy / std::sqrt(sxx * syy)) < 0.05);
  }
  SUBCASE("a quote request takes distributions and states them") {
    Diagnostics d;
    const auto req = quote::parse_request(
        nlohmann::json::parse(R"({"inference": {"model": "llama-3-8b", "requests_per_s": 10,
          "tokens_in": {"lognormal": {"median": 1000, "p90": 3000}},
          "tokens_out": {"exponential": {"mean": 200}}, "ttft_p99": "1s"}})"),
        d);
    REQUIRE(req);
    REQUIRE(req->inference->lengths);
    CHECK(req->inference->tokens_in == doctest::Approx(req->inference->lengths->mean_in));
    CHECK(req->inference->lengths_text.find("lognormal (median 1000, p90 3000)") !=
          std::string::npos);
  }
  SUBCASE("a p90 below the median is refused at its key") {
    Diagnostics d;
    CHECK_FALSE(quote::parse_request(
        nlohmann::json::parse(R"({"inference": {"model": "llama-3-8b", "requests_per_s": 10,
          "tokens_in": {"lognormal": {"median": 1000, "p90": 500}}, "tokens_out": 100,
          "ttft_p99": "1s"}})"),
        d));
    REQUIRE(d.size() == 1);
    CHECK(d.sorted()[0].pointer == "/inference/tokens_in/lognormal/p90");
  }
}
