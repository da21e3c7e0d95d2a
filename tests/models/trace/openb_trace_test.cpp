#include "models/trace/openb_trace.h"

#include <doctest/doctest.h>

using namespace gpuplan;

namespace {

const char* NODES =
    "sn,cpu_milli,memory_mib,gpu,model\nn0,64000,262144,2,P100\nn1,96000,393216,8,G2\n";
const char* POD_HEADER =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,"
    "deletion_time,scheduled_time\n";

std::string messages(const Diagnostics& d) {
  std::string s;
  for (const auto& x : d.sorted()) s += x.format() + "\n";
  return s;
}

}  // namespace

TEST_CASE("models::openb_trace") {
  Diagnostics diags;
  auto t = parse_openb_nodes(NODES, "nodes.csv", diags);
  REQUIRE(t);

  SUBCASE("nodes and pods are read with their models and GPU-model constraints") {
    CHECK(t->models == std::vector<std::string>{"P100", "G2"});
    CHECK(t->nodes[1].n_gpus == 8);
    const std::string pods = std::string(POD_HEADER) +
                             "p0,6000,12288,1,460,,LS,Running,0,100,0\n"
                             "p1,8000,1024,2,1000,G2,LS,Running,5,50,5\n"
                             "p2,1000,1024,0,0,,BE,Running,7,8,7\n";
    REQUIRE(parse_openb_pods(pods, "pods.csv", *t, diags));
    REQUIRE(t->pods.size() == 3);
    CHECK(t->pods[0].gpu_milli == 460);
    CHECK(t->pods[0].gpu_types == 0xFFFFFFFFu);
    // G2 is model 1: bit 1.
    CHECK(t->pods[1].gpu_types == 0x2u);
    CHECK(t->pods[2].deletion_s == 8);
  }

  SUBCASE("bad values name the file, line and column") {
    const std::string pods = std::string(POD_HEADER) +
                             "p0,6000,12288,1,1200,,LS,Running,0,100,0\n"
                             "p1,6000,12288,0,500,,LS,Running,0,100,0\n"
                             "p2,6000,12288,2,500,,LS,Running,0,100,0\n"
                             "p3,6000,12288,1,500,G3,LS,Running,0,100,0\n"
                             "p4,6000,12288,1,500,,LS,Running,50,10,0\n"
                             "p5,-5,12288,1,500,,LS,Running,0,100,0\n";
    CHECK_FALSE(parse_openb_pods(pods, "pods.csv", *t, diags));
    const std::string m = messages(diags);
    CHECK(m.find("pods.csv:2: column gpu_milli: \"1200\" is not a whole number in 0..1000") !=
          std::string::npos);
    CHECK(m.find("pods.csv:3: column gpu_milli: 500 milli-GPU for a pod with num_gpu 0") !=
          std::string::npos);
    CHECK(m.find("pods.csv:4: column gpu_milli: 500 with num_gpu 2") != std::string::npos);
    CHECK(m.find("pods.csv:5: column gpu_spec: no node has GPU model \"G3\"") != std::string::npos);
    CHECK(m.find("pods.csv:6: column deletion_time") != std::string::npos);
    CHECK(m.find("pods.csv:7: column cpu_milli") != std::string::npos);
  }

  SUBCASE("a missing column is named at the header line") {
    CHECK_FALSE(parse_openb_pods("name,cpu_milli\np,1\n", "pods.csv", *t, diags));
    CHECK(messages(diags).find("pods.csv:1: column num_gpu: missing from the header row") !=
          std::string::npos);
    Diagnostics d2;
    CHECK_FALSE(parse_openb_nodes("sn,cpu_milli,memory_mib,gpu,model\nn0,1,1,9,G2\n", "n.csv", d2));
    // Nine GPUs in a node: at most 8 are modelled.
    CHECK(messages(d2).find("n.csv:2: column gpu: \"9\" is not a whole number in 0..8") !=
          std::string::npos);
  }
}
