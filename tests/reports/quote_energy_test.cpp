//! Energy and carbon beside each quote option (models/quote/quote_energy.h, quote.json `energy`),
//! and the quote's staleness threshold set by the request (options.stale_after_months).
#include <doctest/doctest.h>

#include <chrono>
#include <string>

#include "models/quote/quote.h"
#include "models/quote/quote_energy.h"
#include "reports/quote_render.h"

using namespace gpuplan;
using namespace gpuplan::quote;

namespace {

QuoteRequest request(const std::string& options = "") {
  Diagnostics d;
  auto req = parse_request_text(
      R"({"name": "E", "training": {"params": "13B", "tokens": "1T", "deadline": "3w"},
          "inference": {"params": "8B", "requests_per_s": 20, "tokens_in": 500, "tokens_out": 200,
                        "p99_latency": "20s"},
          "options": {"instances": ["p5.48xlarge"], "pricing": ["on_demand"])" +
          options + "}}",
      "request.json", d);
  REQUIRE_MESSAGE(req, d.to_text());
  return *req;
}

const GpuSpec& h100() {
  const GpuSpec* g = builtin_catalog().find_gpu("H100-SXM");
  REQUIRE(g != nullptr);
  return *g;
}

//! An 8 x H100 node in `region`.
InstanceType node_in(const std::string& region) {
  InstanceType it;
  it.id = "lab.h100x8";
  it.gpu = "H100-SXM";
  it.gpus_per_node = 8;
  it.region = region;
  return it;
}

constexpr std::chrono::year_month_day DAY{std::chrono::year(2026), std::chrono::month(12),
                                          std::chrono::day(2)};

}  // namespace

TEST_CASE("quote::energy") {
  SUBCASE("a training run: nodes at busy power for its time, times the region's PUE and grid") {
    const OptionEnergy e = training_energy(node_in("us-east-1"), h100(), 10, 24 * 3600.0);
    // busy node: 8 x (700 W TDP + 350 W overhead) = 8.4 kW; 10 nodes x 24 h = 2,016 kWh IT;
    // us-east-1's PUE 1.15 gives 2,318.4 kWh; at SERC's 379.069 g/kWh, 0.878853 t
    CHECK(e.node_busy_kw == doctest::Approx(8.4));
    CHECK(e.kwh == doctest::Approx(2318.4));
    CHECK(e.tco2e == doctest::Approx(2318.4 * 379.069 / 1e6));
    CHECK(e.grid_region == "us-east-1");
  }
  SUBCASE("a month of serving: serving nodes at the queue's utilization, spare nodes idle") {
    const OptionEnergy e = inference_energy(node_in("us-east-1"), h100(), 4, 3, 0.5);
    // idle node: 8 x (70 W + 175 W) = 1.96 kW; a serving node at 50 %: 1.96 + 0.5 x 6.44
    // = 5.18 kW; 3 x 5.18 + 1.96 = 17.5 kW x 730 h x 1.15 = 14,691.25 kWh
    CHECK(e.node_idle_kw == doctest::Approx(1.96));
    CHECK(e.kwh == doctest::Approx(14691.25));
    // no utilization: every node idle
    CHECK(inference_energy(node_in("us-east-1"), h100(), 4, 3, 0).kwh ==
          doctest::Approx(4 * 1.96 * 730 * 1.15));
  }
  SUBCASE("an unlisted region takes the default grid factor and the cloud PUE") {
    const OptionEnergy e = training_energy(node_in("mars-1"), h100(), 1, 3600.0);
    // 8.4 kWh x PUE 1.1 at the default 392.78 g/kWh
    CHECK(e.kwh == doctest::Approx(8.4 * 1.1));
    CHECK(e.g_co2e_per_kwh == doctest::Approx(392.78));
    CHECK(e.grid_region.empty());
  }
  SUBCASE("quote.json has kWh and tCO2e for every feasible option, per run and per month") {
    const QuoteRequest req = request();
    const Quote q = make_quote(req, builtin_catalog(), DAY);
    const QuoteReport customer{&req, &q, {}, {}, "test", false};
    const nlohmann::json j = quote_json(customer);
    int n = 0;
    for (const char* part : {"training", "inference"}) {
      for (const auto& o : j[part]) {
        if (o["feasible"] != true) continue;
        ++n;
        const auto& e = o["energy"];
        // a cluster that runs draws energy and emits carbon at the region's factor
        CHECK(e["kwh"].get<double>() > 0);
        CHECK(e["tco2e"].get<double>() ==
              doctest::Approx(e["kwh"].get<double>() * e["g_co2e_per_kwh"].get<double>() / 1e6));
        CHECK(e["per"] == (std::string(part) == "training" ? "run" : "month"));
        // the customer view names no source of the factor
        CHECK_FALSE(e.contains("grid_source"));
      }
    }
    CHECK(n >= 2);
    // training: nodes x 8.4 kW x the P50 time x PUE 1.15
    const auto& t = j["training"][0];
    REQUIRE(t["feasible"] == true);
    CHECK(t["energy"]["kwh"].get<double>() ==
          doctest::Approx(t["nodes"].get<double>() * 8.4 * t["time_s"]["p50"].get<double>() /
                          3600.0 * 1.15));
    // the internal view adds the factor's source
    const QuoteReport internal{&req, &q, {}, {}, "test", true};
    CHECK(quote_json(internal)["training"][0]["energy"].contains("grid_source"));
    // the terminal table has the column
    CHECK(format_quote_table(customer).find("energy · CO2e") != std::string::npos);
  }
  SUBCASE("options.stale_after_months sets the quote's staleness threshold") {
    const QuoteRequest lax = request(R"(, "stale_after_months": 1200)");
    CHECK(lax.options.stale_after_months == 1200);
    for (const auto& o : make_quote(lax, builtin_catalog(), DAY).training) CHECK_FALSE(o.stale);
    // a month's threshold four years on flags every dated price
    const QuoteRequest strict = request(R"(, "stale_after_months": 1)");
    const std::chrono::year_month_day later{std::chrono::year(2030), std::chrono::month(12),
                                            std::chrono::day(2)};
    for (const auto& o : make_quote(strict, builtin_catalog(), later).training) CHECK(o.stale);
    // the default is 12 months, as for scenarios and `gpuplan catalog`
    CHECK(request().options.stale_after_months == 12);
    const auto text = quote_assumptions(lax).back().text;
    CHECK(text.find("more than 100 years before the quote") != std::string::npos);
  }
  SUBCASE("a threshold of 0 months is refused at its pointer") {
    Diagnostics d;
    CHECK_FALSE(parse_request_text(
        R"({"training": {"params": "1B", "tokens": "1B", "deadline": "1d"},
            "options": {"stale_after_months": 0}})",
        "r.json", d));
    CHECK(d.to_text().find("/options/stale_after_months") != std::string::npos);
  }
}
