//! The assessment reads the typed study (reports/result_facts.h), not result.json; these tests
//! check that both say the same: for every bundled scenario, run once and as a small Monte Carlo
//! study, the facts gathered from the study equal the facts read back from its result.json, so the
//! assessment result.json carries is the one its own figures give.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "models/load/load.h"
#include "reports/assessment.h"
#include "reports/result_facts.h"
#include "reports/result_json.h"
#include "study/monte_carlo.h"
#include "study/run.h"
#include "tests/reports/result_facts_reader.h"

using namespace gpuplan;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> bundled_scenarios() {
  std::vector<fs::path> out;
  for (const char* dir : {"scenarios", "scenarios/reproduce"})
    for (const auto& e : fs::directory_iterator(fs::path(GPUPLAN_SOURCE_DIR) / dir))
      if (e.path().extension() == ".json" &&
          e.path().filename().string().find(".expected.") == std::string::npos)
        out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

//! Checks that `s` (a study of `sc`) gives the same facts typed and through its result.json.
void check_agree(const std::string& label, const Scenario& sc, const CompiledScenario& cs,
                 const study::Summary& s) {
  const json r = result_json(sc, cs, s);
  const reports::ResultFacts typed = reports::result_facts(sc, cs, s);
  const reports::ResultFacts read = reports::testing::read_facts(r);
  CHECK_MESSAGE(typed == read, label);
  CHECK_MESSAGE(r["assessment"] == reports::assess(read), label);
}

}  // namespace

TEST_CASE("reports::result_facts::one_run") {
  const std::vector<fs::path> files = bundled_scenarios();
  REQUIRE(files.size() >= 20);
  std::size_t with_tco = 0, with_failures = 0, with_sharing = 0, saturated = 0;
  for (const fs::path& file : files) {
    Diagnostics d;
    const auto sc = load_scenario(file.string(), {}, d);
    REQUIRE_MESSAGE(sc.has_value(), file.string() << ": " << d.to_text());
    const CompiledScenario cs = compile(*sc);
    const study::Summary one = study::run(*sc, cs);
    check_agree(file.filename().string() + " (one run)", *sc, cs, one);
    const reports::ResultFacts f = reports::result_facts(*sc, cs, one);
    with_tco += f.tco.has_value();
    with_failures += f.failures.has_value();
    with_sharing += !f.shared_pools.empty();
    saturated += f.saturated_share > 0;
  }
  // the bundled scenarios exercise every part of the facts
  CHECK(with_tco >= 2);
  CHECK(with_failures >= 1);
  CHECK(with_sharing >= 1);
  CHECK(saturated >= 1);
}

// Monte Carlo studies: shares of replicas that saturated, confidence intervals, TCO means.
TEST_CASE("reports::result_facts::monte_carlo") {
  for (const char* name : {"mc_quickstart", "growth_buy_reserve_burst", "llama3_failures",
                           "sharing_fleet", "elastic_burst"}) {
    Diagnostics d;
    const auto sc =
        load_scenario(std::string(GPUPLAN_SOURCE_DIR) + "/scenarios/" + name + ".json", {}, d);
    REQUIRE_MESSAGE(sc.has_value(), d.to_text());
    const CompiledScenario cs = compile(*sc);
    study::MonteCarloOptions mo;
    mo.replications = 3;
    const study::Summary s = study::monte_carlo(*sc, cs, mo);
    check_agree(std::string(name) + " (3 replications)", *sc, cs, s);
    const reports::ResultFacts f = reports::result_facts(*sc, cs, s);
    CHECK(f.replications == 3);
    CHECK(f.util_ci.has_value());
    CHECK(f.cost_total_ci.has_value());
  }
}
