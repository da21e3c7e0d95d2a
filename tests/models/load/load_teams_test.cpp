//! The teams section and class teams (models/load/load_teams.cpp, docs/teams.md).
#include <doctest/doctest.h>

#include "models/compile/compile.h"
#include "models/compile/compile_teams.h"
#include "models/load/load.h"
#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

// Two classes on one 4-GPU pool; line numbers on the right are the ones the tests rely on.
std::string scenario(const std::string& teams, const std::string& prod_team = "prod") {
  return R"({
  "horizon": "1d",
  "instances": [{"id": "lab.g4", "gpu": "A100-80GB", "gpus_per_node": 4,
                 "price_per_hour": {"on_demand": 2.0}}],
  "pools": [{"name": "main", "instance": "lab.g4", "count": 4}],
  "workload": [
    {"name": "prod", "team": ")" +
         prod_team + R"(", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1,
     "duration": {"fixed": "1h"}},
    {"name": "research", "team": "research", "arrival": {"poisson": {"rate": "1/h"}},
     "gpus": 1, "duration": {"fixed": "1h"}}
  ])" + (teams.empty() ? std::string() : ",\n  \"teams\": " + teams) +
         R"(
})";  // "teams" starts on line 12
}

gpuplan_models_test::Loaded load(const std::string& teams, const std::string& prod_team = "prod",
                                 std::vector<std::string> overrides = {}) {
  return gpuplan_models_test::load_text(scenario(teams, prod_team), ".", std::move(overrides));
}

const std::string TWO_TEAMS = R"([
    {"name": "prod", "cohort": "org",
     "quota": {"a100-80gb": {"nominal": 10, "borrowing_limit": 2, "lending_limit": 4}}},
    {"name": "research", "cohort": "org", "quota": {"A100-80GB": 6}}])";

}  // namespace

TEST_CASE("load::teams") {
  SUBCASE("quotas are read per GPU type, case-insensitively, with their limits") {
    const auto r = load(TWO_TEAMS);
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    REQUIRE(r.sc->teams.size() == 2);
    const TeamFlavorQuota& q = r.sc->teams[0].quota.at(0);
    // the catalog's spelling, and the numbers as written
    CHECK(q.flavor == "A100-80GB");
    CHECK(q.nominal == 10);
    CHECK(q.borrowing_limit == 2u);
    CHECK(q.lending_limit == 4u);
    // a bare number is the nominal quota, limits unset (unlimited, all lendable)
    CHECK(r.sc->teams[1].quota.at(0).nominal == 6);
    CHECK_FALSE(r.sc->teams[1].quota.at(0).borrowing_limit);
    // classes resolve to team indices
    CHECK(r.sc->workload[0].team == 0);
    CHECK(r.sc->workload[1].team == 1);
  }

  SUBCASE("compiled quotas: unset limits are unlimited, and one cohort index per name") {
    const auto r = load(TWO_TEAMS);
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const CompiledScenario cs = compile(*r.sc);
    const ModelView m = cs.view();
    // two teams, one flavor (the pool's GPU type)
    CHECK(m.teams.n_teams == 2);
    CHECK(m.teams.n_flavors == 1);
    CHECK(m.teams.quotas[1].borrowing_limit == QUOTA_UNLIMITED);
    CHECK(m.teams.team_cohort[0] == m.teams.team_cohort[1]);
    // teams rank the queue (a job over its quota must not block others)
    CHECK(m.sched.ranked);
    // 16 GPUs in the cluster, 16 nominal: no over-capacity warning
    const auto caps = flavor_capacities(*r.sc, cs);
    REQUIRE(caps.size() == 1);
    CHECK(caps[0].cluster_gpus == 16);
    CHECK(caps[0].nominal_gpus == 16);
  }

  SUBCASE("a class naming an unknown team gets its pointer, line and the closest team") {
    const auto r = load(TWO_TEAMS, "prdo");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/workload/0/team");
    CHECK(d.line == 7);
    CHECK(d.message == "unknown team \"prdo\"; did you mean \"prod\"?");
  }

  SUBCASE(
      "negative quotas and limits, a lending limit above nominal and a GPU type the pools "
      "lack are refused") {
    const auto r = load(R"([
    {"name": "prod", "quota": {"A100-80GB": -1}},
    {"name": "research", "quota": {"A100-80GB": {"nominal": 2, "borrowing_limit": -3,
                                                 "lending_limit": 5}, "H100-SXM": 4}}])");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/teams/0/quota/A100-80GB").line == 13);
    CHECK(r.at("/teams/1/quota/A100-80GB/borrowing_limit").message.find("-3") != std::string::npos);
    CHECK(r.at("/teams/1/quota/A100-80GB/lending_limit").message.find("exceeds the nominal") !=
          std::string::npos);
    // nothing is close to H100-SXM, so the message lists the GPU types the pools have
    const std::string gpu = r.at("/teams/1/quota/H100-SXM").message;
    CHECK(gpu.find("unknown GPU type of the cluster's pools \"H100-SXM\"") != std::string::npos);
    CHECK(gpu.find("\"A100-80GB\"") != std::string::npos);
  }

  SUBCASE("with teams every class names one; without teams a class may not") {
    const auto r = load(R"([{"name": "research"}])", "");
    CHECK_FALSE(r.sc);
    // "" is not a valid team name
    CHECK(r.at("/workload/0/team").message.find("empty") != std::string::npos);
    const auto none = load("");
    CHECK_FALSE(none.sc);
    CHECK(none.at("/workload/0/team").message.find("unknown team \"prod\"") != std::string::npos);
  }

  SUBCASE("a team weight is read; zero and negative weights are refused at their pointer") {
    const auto ok = load(R"([{"name": "prod", "weight": 2.5}, {"name": "research"}])");
    REQUIRE(ok.sc);
    // the weight as written, and the default 1 where none is given
    CHECK(ok.sc->teams[0].weight == 2.5);
    CHECK(ok.sc->teams[1].weight == 1.0);
    const auto bad = load(R"([{"name": "prod", "weight": -1},
    {"name": "research", "weight": 0}])");
    CHECK_FALSE(bad.sc);
    // -1 is outside [0, 1e6]; 0 is inside it but not above 0 (line 12 and 13 of the file)
    CHECK(bad.at("/teams/0/weight").line == 12);
    CHECK(bad.at("/teams/1/weight").line == 13);
    CHECK(bad.at("/teams/1/weight").message.find("must be above 0") != std::string::npos);
  }

  SUBCASE("fair_share without teams is refused at the key that chose it") {
    const auto r =
        gpuplan_models_test::load_text(scenario("", ""), ".", {"scheduler.policy=fair_share"});
    CHECK_FALSE(r.sc);
    CHECK(r.at("/scheduler/policy").message.find("add a \"teams\" section") != std::string::npos);
  }

  SUBCASE("reclaim is a closed set with a suggestion") {
    const auto r = load(TWO_TEAMS, "prod", {"scheduler.reclaim=nevr"});
    CHECK_FALSE(r.sc);
    CHECK(r.at("/scheduler/reclaim").message ==
          "unknown reclaim policy \"nevr\"; did you mean \"never\"?");
  }
}
