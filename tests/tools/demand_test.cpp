//! Time-varying demand through the real CLI (docs/demand-profiles.md): bad profiles exit 2 with
//! `file:line: /pointer: message` and write nothing; growth 0 gives the flat result; sweep
//! --vary moves every class's rate with '*' and a multiplier.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/tools/cli.h"

namespace fs = std::filesystem;

namespace {

using gpuplan_cli_test::CliRun;

CliRun gpuplan(const std::string& args) {
  return gpuplan_cli_test::gpuplan(args, {}, 120);
}

// Two classes; `profile` goes into class 0's arrival (line 8), `demand` after the workload.
std::string scenario(const std::string& profile, const std::string& demand = "") {
  return "{\n"
         "  \"name\": \"demand\",\n"
         "  \"horizon\": \"7d\", \"warmup\": \"1d\",\n"
         "  \"instances\": [{\"id\": \"lab.g1\", \"gpu\": \"a100-80gb\", \"gpus_per_node\": 1,\n"
         "                 \"price_per_hour\": {\"on_demand\": 2.0}}],\n"
         "  \"pools\": [{\"name\": \"main\", \"instance\": \"lab.g1\", \"count\": 8}],\n"
         "  \"workload\": [\n"
         "    {\"name\": \"a\", \"arrival\": {\"poisson\": {\"rate\": \"2/h\"}" +
         (profile.empty() ? "" : ", \"profile\": " + profile) +
         "},\n"
         "     \"gpus\": 1, \"duration\": {\"exponential\": {\"mean\": \"1h\"}}},\n"
         "    {\"name\": \"b\", \"arrival\": {\"poisson\": {\"rate\": \"1/h\"}},\n"
         "     \"gpus\": 2, \"duration\": \"2h\"}]" +
         (demand.empty() ? "" : ",\n  \"demand\": " + demand) + "\n}\n";
}

// An echoed rate, "<number>/s", in jobs per second.
double per_second(const nlohmann::json& rate) {
  const std::string s = rate.get<std::string>();
  REQUIRE(s.ends_with("/s"));
  return std::stod(s.substr(0, s.size() - 2));
}

}  // namespace

TEST_CASE("tools::demand") {
  const fs::path tmp = gpuplan_cli_test::fresh_dir("demand");
  fs::create_directories(tmp);
  const fs::path file = tmp / "s.json";
  const fs::path out = tmp / "out";
  const auto write = [&](const fs::path& p, const std::string& text) { std::ofstream(p) << text; };

  SUBCASE("a CSV schedule with a bad row exits 2 in validate, run and sweep, writing nothing") {
    write(tmp / "bad.csv", "at_s,multiplier\n0,1\n86400,-1\n");
    write(file, scenario(R"({"schedule": "bad.csv"})"));
    for (const std::string& cmd :
         {"validate " + file.string(), "run " + file.string() + " --quiet --out " + out.string(),
          "sweep " + file.string() + " --quiet --vary seed=1,2 --out " + out.string()}) {
      CAPTURE(cmd);
      const CliRun r = gpuplan(cmd);
      CHECK(r.status == 2);
      // the negative multiplier is on line 3 of the CSV
      CHECK(r.output.find((tmp / "bad.csv").string() +
                          ":3: /workload/0/arrival/profile/schedule: multiplier") !=
            std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
  }

  SUBCASE("a negative growth beyond -0.99 and a schedule out of order exit 2 at their lines") {
    write(file,
          scenario(
              R"({"growth_per_month": -1.5})",
              R"({"schedule": [{"at": "2d", "multiplier": 2}, {"at": "1d", "multiplier": 1}]})"));
    const CliRun r = gpuplan("run " + file.string() + " --quiet --out " + out.string());
    CHECK(r.status == 2);
    // the class's profile is on line 8, the demand section on line 12
    CHECK(r.output.find(":8: /workload/0/arrival/profile/growth_per_month: ") != std::string::npos);
    CHECK(r.output.find(":12: /demand/schedule/1/at: ") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }

  SUBCASE("a growth of 0 gives the flat scenario's metrics exactly") {
    write(file, scenario(""));
    const CliRun flat = gpuplan("run " + file.string() + " --quiet --out " + (tmp / "f").string());
    REQUIRE(flat.status == 0);
    write(file, scenario(R"({"growth_per_month": 0})", R"({"load_scale": 1})"));
    const CliRun zero = gpuplan("run " + file.string() + " --quiet --out " + (tmp / "z").string());
    REQUIRE(zero.status == 0);
    const auto a = gpuplan_cli_test::read_json(tmp / "f" / "result.json");
    const auto b = gpuplan_cli_test::read_json(tmp / "z" / "result.json");
    CHECK(a["metrics"] == b["metrics"]);
    CHECK(a["cost_usd"] == b["cost_usd"]);
  }

  SUBCASE("sweep --vary with '*' and multipliers scales every class's rate together") {
    write(file, scenario(""));
    const CliRun r =
        gpuplan("sweep " + file.string() +
                " --quiet --replications 4 --vary 'workload.*.arrival.poisson.rate=x0.5,x1'"
                " --out " +
                out.string());
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto p0 = gpuplan_cli_test::read_json(out / "point-0" / "result.json");
    const auto p1 = gpuplan_cli_test::read_json(out / "point-1" / "result.json");
    // point 0 runs both classes at half rate: "1/h" and "0.5/h"
    CHECK(per_second(p0["scenario_echo"]["workload"][0]["arrival"]["poisson"]["rate"]) ==
          doctest::Approx(1.0 / 3600));
    CHECK(per_second(p0["scenario_echo"]["workload"][1]["arrival"]["poisson"]["rate"]) ==
          doctest::Approx(0.5 / 3600));
    CHECK(per_second(p1["scenario_echo"]["workload"][1]["arrival"]["poisson"]["rate"]) ==
          doctest::Approx(1.0 / 3600));
  }
  fs::remove_all(tmp);
}
