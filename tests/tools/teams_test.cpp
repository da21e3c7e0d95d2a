//! Teams through the real CLI (docs/teams.md): the bundled four-team scenario writes per-team
//! results, teams.csv and the team columns of timeseries.csv; quotas over capacity warn; bad
//! team input is `file:line: /pointer: message`, exit 2, nothing written.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using gpuplan_cli_test::CliRun;
using gpuplan_cli_test::gpuplan;
using gpuplan_cli_test::read_json;
using gpuplan_cli_test::read_text;

namespace {

//! A one-day scenario on 2 x 8 A100 GPUs with two teams; `teams` and the first class's `team`
//! are spliced in (the teams array starts on line 6).
std::string scenario(const std::string& teams, const std::string& team = "a") {
  return "{\"horizon\": \"1d\",\n"
         "\"instances\": [{\"id\": \"lab.g8\", \"gpu\": \"A100-80GB\", \"gpus_per_node\": 8,\n"
         "  \"price_per_hour\": {\"on_prem\": 8}}],\n"
         "\"pools\": [{\"name\": \"p\", \"instance\": \"lab.g8\", \"count\": 2, \"pricing\": "
         "\"on_prem\"}],\n"
         "\"scheduler\": {\"policy\": \"backfill\"},\n"
         "\"teams\": " +
         teams +
         ",\n"
         "\"workload\": [{\"name\": \"w\", \"team\": \"" +
         team +
         "\", \"arrival\": {\"poisson\": {\"rate\": \"2/h\"}}, \"gpus\": 2, "
         "\"duration\": \"1h\"},\n"
         "  {\"name\": \"v\", \"team\": \"b\", \"arrival\": {\"poisson\": {\"rate\": \"2/h\"}}, "
         "\"gpus\": 2, \"duration\": \"1h\"}]}\n";
}

}  // namespace

TEST_CASE("tools::teams") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("teams");
  fs::create_directories(tmp);

  SUBCASE("a run writes per_team, teams.csv and one timeseries column per team") {
    const fs::path file = tmp / "ok.json";
    std::ofstream(file) << scenario(
        R"([{"name": "a", "cohort": "c", "quota": {"A100-80GB": 8}},
            {"name": "b", "cohort": "c", "quota": {"A100-80GB": 8}}])");
    const fs::path out = tmp / "ok_out";
    const CliRun run = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    REQUIRE_MESSAGE(run.status == 0, run.output);
    const nlohmann::json r = read_json(out / "result.json");
    REQUIRE(r["per_team"].size() == 2);
    CHECK(r["per_team"][0]["name"] == "a");
    // the two teams share the whole bill between them
    CHECK(r["per_team"][0]["cost_share"].get<double>() +
              r["per_team"][1]["cost_share"].get<double>() ==
          doctest::Approx(1.0));
    CHECK(r["timeseries"]["team_gpus"]["b"].size() == r["timeseries"]["t_s"].size());
    const std::string teams_csv = read_text(out / "teams.csv");
    CHECK(teams_csv.rfind("team,cohort,nominal_gpus,", 0) == 0);
    CHECK(teams_csv.find("\na,c,8,") != std::string::npos);
    CHECK(read_text(out / "timeseries.csv").find(",team_gpus_a,team_gpus_b\n") !=
          std::string::npos);
  }

  SUBCASE("nominal quotas above the cluster's GPUs warn and still run") {
    const fs::path file = tmp / "over.json";
    std::ofstream(file) << scenario(R"([{"name": "a", "quota": {"A100-80GB": 12}},
                                        {"name": "b", "quota": {"A100-80GB": 12}}])");
    const fs::path out = tmp / "over_out";
    const CliRun run = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    REQUIRE_MESSAGE(run.status == 0, run.output);
    const std::string warnings = read_json(out / "result.json")["warnings"].dump();
    // 24 nominal GPUs against 16
    CHECK(warnings.find("add up to 24 GPUs, more than the cluster's 16") != std::string::npos);
  }

  SUBCASE("a negative team weight is a file:line error, exit 2, nothing written") {
    const fs::path file = tmp / "bad_weight.json";
    std::ofstream(file) << scenario(R"([{"name": "a", "weight": -2},
                                        {"name": "b"}])");
    const fs::path out = tmp / "bad_weight_out";
    const CliRun run = gpuplan("run " + file.string() + " --out " + out.string());
    CHECK(run.status == 2);
    CHECK(run.output.find("bad_weight.json:6: /teams/0/weight:") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }

  SUBCASE("an unknown team and a negative quota are file:line errors, exit 2, nothing written") {
    const fs::path file = tmp / "bad.json";
    std::ofstream(file) << scenario(R"([{"name": "alpha", "quota": {"A100-80GB": -4}},
                                        {"name": "b", "quota": {"A100-80GB": 8}}])",
                                    "alpah");
    const fs::path out = tmp / "bad_out";
    const CliRun run = gpuplan("run " + file.string() + " --out " + out.string());
    CHECK(run.status == 2);
    CHECK(run.output.find("bad.json:6: /teams/0/quota/A100-80GB:") != std::string::npos);
    CHECK(run.output.find("bad.json:8: /workload/0/team: unknown team \"alpah\"; did you mean "
                          "\"alpha\"?") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
}
