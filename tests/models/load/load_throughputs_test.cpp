//! Per-class speeds on GPU types (models/load/load_throughputs.cpp): inline `speed` maps and
//! Gavel's throughput file, with every bad input named by its pointer.
#include <doctest/doctest.h>

#include "models/compile/compile.h"
#include "models/load/load.h"
#include "models/perf/throughputs.h"
#include "tests/data_files.h"
#include "tests/models/loaded.h"

using namespace gpuplan;

namespace {

// A K80 pool and a V100 pool; `cls` is spliced into the one class (line 9).
std::string scenario(const std::string& cls, const std::string& top = "") {
  return R"({
  "horizon": "1d",)" +
         top + R"(
  "instances": [{"id": "t.k80", "gpu": "K80", "gpus_per_node": 4, "price_per_hour": {"on_demand": 1}},
                {"id": "t.v100", "gpu": "V100-16GB", "gpus_per_node": 4, "price_per_hour": {"on_demand": 3}}],
  "pools": [{"name": "k80", "instance": "t.k80", "count": 2},
            {"name": "v100", "instance": "t.v100", "count": 2}],
  "workload": [
    {"name": "jobs", "arrival": {"poisson": {"rate": "1/h"}}, "gpus": 1, "duration": {"fixed": "1h"},
     )" + cls +
         R"(}
  ],
  "scheduler": {"policy": "fifo_perf"}
})";
}

const std::string GAVEL = R"(
  "throughputs": {"file": "gavel_simulation_throughputs.json"},)";

bool mentions(const Diagnostic& d, const std::string& s) {
  return d.message.find(s) != std::string::npos;
}

}  // namespace

TEST_CASE("load::throughputs") {
  SUBCASE("inline speeds set each pool's duration multiplier against the reference GPU") {
    const auto r = gpuplan_models_test::load_text(
        scenario(R"("reference_gpu": "V100-16GB", "speed": {"V100-16GB": 1.0, "K80": 0.25})"), ".");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const CompiledScenario cs = compile(*r.sc);
    // 1 / 0.25 = 4x longer on the K80 (pool 0), 1x on the V100 (pool 1)
    CHECK(cs.slowdown[0] == 4.0);
    CHECK(cs.slowdown[1] == 1.0);
  }

  SUBCASE("without reference_gpu durations refer to the first pool's GPU") {
    const auto r =
        gpuplan_models_test::load_text(scenario(R"("speed": {"V100-16GB": 2.0, "K80": 0.5})"), ".");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const CompiledScenario cs = compile(*r.sc);
    // the K80 pool comes first: 1x there, 0.5 / 2 = 0.25x on the V100
    CHECK(cs.slowdown[0] == 1.0);
    CHECK(cs.slowdown[1] == 0.25);
  }

  SUBCASE("a GPU type of the class's pools without a speed is an error naming it") {
    const auto r = gpuplan_models_test::load_text(scenario(R"("speed": {"V100-16GB": 1.0})"), ".");
    CHECK_FALSE(r.sc);
    const Diagnostic d = r.at("/workload/0/speed");
    CHECK(mentions(d, "no speed for GPU type \"K80\" (pool \"k80\", /pools/0)"));
    // the class line
    CHECK(d.line == 9);
  }

  SUBCASE("negative, zero, non-finite and unknown-GPU speeds are errors at their key") {
    const auto r = gpuplan_models_test::load_text(
        scenario(R"("speed": {"V100-16GB": -1, "K80": 0, "V10O-16GB": 1})"), ".");
    CHECK_FALSE(r.sc);
    CHECK(r.at("/workload/0/speed/V100-16GB").message.find("-1") != std::string::npos);
    CHECK(mentions(r.at("/workload/0/speed/K80"), "must be positive"));
    CHECK(mentions(r.at("/workload/0/speed/V10O-16GB"), "did you mean \"V100-16GB\""));
    const auto inf =
        gpuplan_models_test::load_text(scenario(R"("speed": {"V100-16GB": 1e999, "K80": 1})"), ".");
    CHECK_FALSE(inf.sc);
    (void)inf.at("/workload/0/speed/V100-16GB");
  }

  SUBCASE("speed and gavel_job_type together are refused") {
    const auto r = gpuplan_models_test::load_text(
        scenario(R"("speed": {"V100-16GB": 1, "K80": 1}, "gavel_job_type": "A3C")", GAVEL), ".");
    CHECK_FALSE(r.sc);
    (void)r.at("/workload/0/speed");
  }

  SUBCASE("a Gavel job type reads its isolated throughputs from the shared data file") {
    if (!gpuplan_test_data::data_file("gavel_simulation_throughputs.json", "load::throughputs"))
      return;
    const auto r = gpuplan_models_test::load_text(
        scenario(R"j("reference_gpu": "V100-16GB", "gavel_job_type": "ResNet-50 (batch size 64)")j",
                 GAVEL),
        ".");
    REQUIRE_MESSAGE(r.sc, r.d.to_text());
    const CompiledScenario cs = compile(*r.sc);
    // Gavel: ResNet-50 (batch 64) runs 4.3948 steps/s on a V100 and 0.6190 on a K80
    CHECK(cs.slowdown[0] == doctest::Approx(4.394774823323071 / 0.6190282202246573));
    CHECK(cs.slowdown[1] == 1.0);
  }

  SUBCASE("an unknown Gavel job type suggests the closest one") {
    if (!gpuplan_test_data::data_file("gavel_simulation_throughputs.json", "load::throughputs"))
      return;
    const auto r = gpuplan_models_test::load_text(
        scenario(R"j("gavel_job_type": "ResNet-50 (batch size 65)")j", GAVEL), ".");
    CHECK_FALSE(r.sc);
    CHECK(
        mentions(r.at("/workload/0/gavel_job_type"), "did you mean \"ResNet-50 (batch size 64)\""));
  }

  SUBCASE("a GPU type Gavel did not measure is a missing pair naming the pool") {
    if (!gpuplan_test_data::data_file("gavel_simulation_throughputs.json", "load::throughputs"))
      return;
    std::string text = scenario(R"("gavel_job_type": "A3C")", GAVEL);
    text.replace(text.find("\"V100-16GB\", \"gpus_per_node\""), 11, "\"A100-80GB\"");
    const auto r = gpuplan_models_test::load_text(text, ".");
    CHECK_FALSE(r.sc);
    CHECK(mentions(r.at("/workload/0/gavel_job_type"),
                   "no throughput of ('A3C', 1) on worker type \"a100\""));
  }

  SUBCASE("a Gavel job type needs the throughputs file") {
    const auto r = gpuplan_models_test::load_text(scenario(R"("gavel_job_type": "A3C")"), ".");
    CHECK_FALSE(r.sc);
    CHECK(mentions(r.at("/workload/0/gavel_job_type"), "\"throughputs\""));
  }
}

TEST_CASE("models::throughputs") {
  SUBCASE("Gavel keys, job types and worker types are spelled as Gavel spells them") {
    // the key format of simulation_throughputs.json
    CHECK(gavel_key("ResNet-50 (batch size 64)", 1) == "('ResNet-50 (batch size 64)', 1)");
    std::string err;
    const auto t = parse_gavel_throughputs(
        nlohmann::json::parse(R"j({"v100": {"('A3C', 1)": {"null": 7.2, "('A3C', 1)": [3, 3]},
                                            "('CycleGAN', 2)": {"null": 8.0}}})j"),
        err);
    REQUIRE_MESSAGE(t, err);
    CHECK(gavel_job_types(*t) == std::vector<std::string>{"A3C", "CycleGAN"});
    // the isolated throughput only
    CHECK(t->isolated.at("v100").at("('A3C', 1)") == 7.2);
    CHECK(gavel_worker_type(*builtin_catalog().find_gpu("V100-16GB")) == "v100");
    CHECK(gavel_worker_type(*builtin_catalog().find_gpu("P100-16GB")) == "p100");
  }

  SUBCASE("an entry without a positive isolated throughput is left out") {
    std::string err;
    const auto t = parse_gavel_throughputs(
        nlohmann::json::parse(
            R"j({"k80": {"('A3C', 1)": {"null": 0}, "('A3C', 2)": {"null": 3}}})j"),
        err);
    REQUIRE_MESSAGE(t, err);
    // Gavel's 0 (did not run) is no throughput: only the scale-2 entry remains
    CHECK(t->isolated.at("k80").count("('A3C', 1)") == 0);
    CHECK(t->isolated.at("k80").at("('A3C', 2)") == 3);
  }
}
