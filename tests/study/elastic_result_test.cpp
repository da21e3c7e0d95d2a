//! result.json and its assessment for elastic pools (scenarios/elastic_burst.json, run as `gpuplan
//! run` runs it): provisioned GPUs time-averaged beside the maximum, offered load on the
//! utilization's basis, and "what to change" never reserving more than an elastic pool's
//! time-average provisioned nodes.
#include <doctest/doctest.h>

#include <cmath>
#include <regex>
#include <string>

#include "models/load/load.h"
#include "reports/assessment.h"
#include "reports/result_json.h"
#include "study/run.h"

using namespace gpuplan;
using nlohmann::json;

TEST_CASE("study::result::elastic") {
  Diagnostics d;
  const auto sc =
      load_scenario(std::string(GPUPLAN_SOURCE_DIR) + "/scenarios/elastic_burst.json", {}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  const CompiledScenario cs = compile(*sc);
  const json r = result_json(*sc, cs, study::run(*sc, cs));
  const json& m = r["metrics"];

  SUBCASE("provisioned GPUs are reported time-averaged beside the maximum") {
    REQUIRE(m.contains("provisioned_gpus"));
    // 32 p4d nodes of 8 GPUs + 200 g6.xlarge nodes of 1 GPU at their elastic maximum
    CHECK(m["provisioned_gpus"]["max"].get<double>() == 456);
    double mean = 0;
    for (const json& p : r["per_pool"])
      mean += p["mean_nodes"].get<double>() * p["gpus"].get<double>() / p["nodes"].get<double>();
    // the time average is the pools' mean nodes x GPUs per node, summed
    CHECK(m["provisioned_gpus"]["mean"].get<double>() == doctest::Approx(mean));
    // both pools sit at their minimum most of the day: the average is far below the maximum
    CHECK(m["provisioned_gpus"]["mean"].get<double>() < 0.5 * 456);
  }

  SUBCASE("offered load and utilization are on the same basis (per provisioned GPU-hour)") {
    const double util = m["gpu_utilization"].get<double>();
    const double offered = m["offered_load_per_provisioned"].get<double>();
    // 0.1: offered load is the scenario's expected demand, utilization what the run served;
    // an unsaturated run serves its demand, so they agree up to the run's sampling noise
    // (against the elastic maximum the offered load reads about 16% beside 82% utilization)
    CHECK(std::abs(offered - util) < 0.1);
    // the capacity basis stays for the saturation test: the cluster's load x max = offered' x
    // mean; the reported offered_load is at least the cluster's (the busiest pool set's floor)
    CHECK(cs.cluster_offered_load * m["provisioned_gpus"]["max"].get<double>() ==
          doctest::Approx(offered * m["provisioned_gpus"]["mean"].get<double>()));
    CHECK(m["offered_load"].get<double>() >= cs.cluster_offered_load);
  }

  SUBCASE("the cost sentence counts GPUs time-averaged, with the maximum beside") {
    const std::string cost = reports::plain_text(r["assessment"]["cost"]);
    CHECK(cost.find("GPUs on average") != std::string::npos);
    CHECK(cost.find("456 at most") != std::string::npos);
  }

  SUBCASE("what to change never reserves more than an elastic pool's time-average nodes") {
    const json& changes = r["assessment"]["changes"];
    bool hint = false;
    for (const json& c : changes) {
      const std::string text = reports::plain_text(c);
      CAPTURE(text);
      // no sweep that moves a whole elastic pool to reserved pricing
      CHECK(text.find(".pricing=on_demand,reserved") == std::string::npos);
      std::smatch at_most;
      if (!std::regex_search(text, at_most,
                             std::regex("at most ([0-9,]+) nodes? \\(the time-average\\)")))
        continue;
      hint = true;
      for (const json& p : r["per_pool"]) {
        if (text.find("Pool " + p["name"].get<std::string>() + " ") != 0) continue;
        // at most floor(mean nodes): reserving only makes sense up to the steady base
        CHECK(std::stod(at_most[1].str()) <= std::floor(p["mean_nodes"].get<double>()));
      }
    }
    // the web pool pays on demand at high utilization, so the hint is given (bounded)
    CHECK(hint);
  }
}
