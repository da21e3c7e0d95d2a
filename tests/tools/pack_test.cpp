// `gpuplan pack openb`: the packing replay from the command line, on a tiny openb-shaped data
// folder (always present) and on the real trace where the data folder has it.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "tests/data_files.h"
#include "tests/tools/cli.h"

namespace fs = std::filesystem;
using namespace gpuplan_cli_test;

namespace {

//! A data folder holding an openb node list and the pod list `pods` (rows after the header).
fs::path tiny_data(const std::string& name, const std::string& pods) {
  const fs::path d = fresh_dir(name);
  fs::create_directories(d);
  std::ofstream(d / "alibaba_openb_nodes.csv")
      << "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,96000,393216,4,G2\n";
  std::ofstream(d / "alibaba_openb_pods.csv")
      << "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
         "deletion_time,scheduled_time\n"
      << pods;
  return d;
}

const char* GOOD_PODS =
    "p0,6000,12288,1,460,,LS,Running,0,100,0\n"
    "p1,8000,1024,2,1000,,LS,Running,5,50,5\n"
    "p2,1000,1024,0,0,,BE,Running,7,8,7\n"
    "p3,4000,1024,1,300,,LS,Running,9,80,9\n";

}  // namespace

TEST_CASE("tools::pack") {
  SUBCASE("every policy runs and result.json holds its figures and curve") {
    const fs::path data = tiny_data("pack-ok", GOOD_PODS);
    const fs::path out = fresh_dir("pack-ok-out");
    // --load 0.46: the four pods ask 0.46 + 2 + 0 + 0.3 = 2.76 of 6 GPUs, exactly the target.
    const CliRun r = gpuplan_cli_test::gpuplan("pack openb --load 0.46 --data-dir " +
                                               data.string() + " --out " + out.string());
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(read_text(out / "result.json"));
    // Four policies, one seed each.
    REQUIRE(j["runs"].size() == 4);
    CHECK(j["runs"][0]["policy"] == "fgd");
    CHECK(j["runs"][3]["policy"] == "random");
    // 6 GPUs; every GPU pod placed (CPU-only pods drawn again past the trace may follow).
    CHECK(j["runs"][0]["gpus"] == 6);
    CHECK(j["runs"][0]["pods_unplaceable"] == 0);
    CHECK(j["runs"][0]["allocation_ratio"].get<double>() == doctest::Approx(2.76 / 6));
    CHECK(j["runs"][0]["curve"].size() > 1);
    CHECK(r.output.find("fgd") != std::string::npos);
  }

  SUBCASE("bad flags name the flag, exit 2 and write nothing") {
    const fs::path data = tiny_data("pack-flags", GOOD_PODS);
    const fs::path out = fresh_dir("pack-flags-out");
    const std::string base = "pack openb --data-dir " + data.string() + " --out " + out.string();
    for (const char* bad : {" --load 0", " --load nan", " --policy first-fit", " --seeds 0",
                            " --order random", " --popularity 1.5"}) {
      CAPTURE(bad);
      const CliRun r = gpuplan_cli_test::gpuplan(base + bad);
      CHECK(r.status == 2);
      const std::string flag = std::string(bad).substr(1, std::string(bad).find(' ', 1) - 1);
      CHECK(r.output.find(flag + ":") != std::string::npos);
      CHECK_FALSE(fs::exists(out));
    }
  }

  SUBCASE("a bad trace row names file, line and column, exit 2, nothing written") {
    const fs::path data = tiny_data("pack-bad-row", "p0,6000,12288,1,1500,,LS,Running,0,100,0\n");
    const fs::path out = fresh_dir("pack-bad-row-out");
    const CliRun r = gpuplan_cli_test::gpuplan("pack openb --data-dir " + data.string() +
                                               " --out " + out.string());
    CHECK(r.status == 2);
    CHECK(r.output.find("alibaba_openb_pods.csv:2: column gpu_milli:") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }

  SUBCASE("on the openb trace FGD allocates at least as much as best-fit") {
    const auto dir = gpuplan_test_data::data_dir_of("alibaba_openb_pods.csv", "tools::pack openb");
    if (!dir) return;
    const fs::path out = fresh_dir("pack-openb-out");
    const CliRun r =
        gpuplan_cli_test::gpuplan("pack openb --policy fgd,best-fit --json --out " + out.string());
    INFO(r.output);
    REQUIRE(r.status == 0);
    const auto j = nlohmann::json::parse(read_text(out / "result.json"));
    CHECK(j["runs"][0]["allocation_ratio"].get<double>() >=
          j["runs"][1]["allocation_ratio"].get<double>());
  }
}
