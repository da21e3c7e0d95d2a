//! The facility power series (result.json timeseries.power_kw, bands.power_kw): the energy model
//! applied to each time bin's busy and provisioned GPUs, so it integrates to the energy section's
//! total and an idle cluster draws its idle power.
#include <doctest/doctest.h>

#include <string>

#include "models/compile/compile.h"
#include "models/load/load.h"
#include "reports/result_json.h"
#include "study/aggregate.h"

using namespace gpuplan;
using nlohmann::json;

namespace {

//! Two nodes of 8 H100s (700 W TDP) at PUE 1.25, 48 one-hour bins, jobs of 4 GPUs for 2 h at
//! `rate`.
std::string scenario(const std::string& rate, const std::string& warmup = "0s") {
  return R"({"name": "p", "horizon": "2d", "warmup": ")" + warmup + R"(",
  "instances": [{"id": "lab.g8", "gpu": "H100-SXM", "gpus_per_node": 8,
                 "price_per_hour": {"on_demand": 40}}],
  "pools": [{"name": "main", "instance": "lab.g8", "count": 2}],
  "workload": [{"name": "w", "arrival": {"poisson": {"rate": ")" +
         rate + R"("}}, "gpus": 4, "duration": {"fixed": "2h"}}],
  "limits": {"time_bins": 48},
  "energy": {"pue": 1.25, "g_co2e_per_kwh": 400}})";
}

json run_result(const std::string& text, uint32_t replications) {
  Diagnostics d;
  auto sc = load_scenario_text(text, "scenario.json", "", LoadOptions{}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  const CompiledScenario cs = compile(*sc);
  McOptions o;
  o.replications = replications;
  const McStudy st = run_monte_carlo(cs.view(), o);
  study::StudyInfo info;
  info.monte_carlo = replications > 1;
  info.replications_requested = replications;
  return result_json(*sc, cs, study::aggregate(*sc, cs, st, info));
}

}  // namespace

TEST_CASE("study::power_series") {
  SUBCASE("the power series integrates to the energy section's kWh") {
    for (const uint32_t n : {1u, 6u}) {
      CAPTURE(n);
      const json r = run_result(scenario("3/h"), n);
      const auto kw = r["timeseries"]["power_kw"].get<std::vector<double>>();
      const double bin_h = r["timeseries"]["bin_s"].get<double>() / 3600.0;
      REQUIRE(kw.size() == 48);
      double kwh = 0;
      for (const double p : kw) kwh += p * bin_h;
      // one pool: each bin's busy and idle GPUs at the pool's facility slot powers sum exactly to
      // the window's busy and idle GPU-seconds, so only rounding separates the two
      CHECK(kwh == doctest::Approx(r["energy"]["kwh"].get<double>()).epsilon(1e-9));
      // the cluster's power lies between all idle (2 x 8 x 245 W x 1.25 = 4.9 kW) and all busy
      // (2 x 8 x 1,050 W x 1.25 = 21 kW)
      for (const double p : kw) {
        CHECK(p >= 4.9 - 1e-9);
        CHECK(p <= 21.0 + 1e-9);
      }
    }
  }
  SUBCASE("a cluster with no work draws its idle power in every bin") {
    const json r = run_result(scenario("0.0001/d"), 1);
    REQUIRE(r["summary"]["metrics.jobs_submitted"]["mean"].get<double>() == 0);
    // idle slot: 10 % of 700 W + half of 350 W overhead = 245 W; 16 GPUs x 245 W x PUE 1.25
    for (const double p : r["timeseries"]["power_kw"].get<std::vector<double>>())
      CHECK(p == doctest::Approx(4.9));
  }
  SUBCASE("a Monte Carlo study has a p10/p50/p90 band of power, ordered bin by bin") {
    const json r = run_result(scenario("3/h"), 6);
    const json& b = r["bands"]["power_kw"];
    const auto p10 = b["p10"].get<std::vector<double>>(), p50 = b["p50"].get<std::vector<double>>(),
               p90 = b["p90"].get<std::vector<double>>();
    REQUIRE(p10.size() == 48);
    for (std::size_t i = 0; i < p10.size(); ++i) {
      CHECK(p10[i] <= p50[i]);
      CHECK(p50[i] <= p90[i]);
    }
  }
  SUBCASE("with a warmup the bins after it still integrate to the window's energy") {
    const json r = run_result(scenario("3/h", "6h"), 1);
    const auto kw = r["timeseries"]["power_kw"].get<std::vector<double>>();
    double kwh = 0;
    // warmup 6 h = the first 6 one-hour bins, outside the statistics window
    for (std::size_t b = 6; b < kw.size(); ++b) kwh += kw[b];
    CHECK(kwh == doctest::Approx(r["energy"]["kwh"].get<double>()).epsilon(1e-9));
  }
}
