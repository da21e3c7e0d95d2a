#include <doctest/doctest.h>

#include <vector>

#include "topologies/builders.h"
#include "topologies/queries.h"
#include "topologies/tables.h"

using namespace gpuplan::topologies;

TEST_CASE("topologies::rail_optimized") {
  const RailSpec spec = dgx_h100_superpod(2);
  const Topology t = rail_optimized(spec);
  const auto gpu = [&](uint32_t node, uint32_t rank) { return node * spec.gpus_per_node + rank; };

  SUBCASE("a DGX H100 SuperPOD of 2 SUs has 512 GPUs, 16 rail leaves and 8 spines") {
    // 2 SU x 32 nodes x 8 GPUs = 512 (DATA.md 2.2: 32 DGX H100 per SU).
    CHECK(t.n_hosts() == 512);
    // 8 rails per SU = 16 leaves; scale table: 8 spines for 2 SUs.
    CHECK(t.n_switches_at(1) == 16);
    CHECK(t.n_switches_at(2) == 8);
  }
  SUBCASE("same-rank GPUs of two nodes in one SU are one leaf hop apart") {
    // GPU 3 of node 0 and GPU 3 of node 31: GPU-rail3-GPU = 2 links, one switch.
    CHECK(hop_count(t, gpu(0, 3), gpu(31, 3)) == 2u);
    // Full NDR line rate between them.
    CHECK(bottleneck_gbps(t, gpu(0, 3), gpu(31, 3)) == doctest::Approx(400));
  }
  SUBCASE("different ranks or different SUs need more hops") {
    // GPU 0 node 0 -> GPU 5 node 1: via NVSwitch and rail 5 (PXN) or via a spine = 4 links.
    CHECK(hop_count(t, gpu(0, 0), gpu(1, 5)) == 4u);
    // Same rank, different SU: GPU-rail-spine-rail-GPU = 4 links.
    CHECK(hop_count(t, gpu(0, 2), gpu(32, 2)) == 4u);
  }
  SUBCASE("the tables group a node's GPUs at level 0 and an SU at level 1") {
    const TopologyTables tt = make_tables(t);
    // Node 33's GPUs share level-0 group 33; SU 1 is level-1 group 1.
    CHECK(tt.group_of_host[gpu(33, 4)] == 33);
    CHECK(tt.leaf_of_host[gpu(33, 4)] == 1);
    // Inside a node: NVLink 900 GB/s bidirectional = 3600 Gb/s per GPU.
    CHECK(tt.level_bw_gbps[0] == doctest::Approx(3600));
    // Non-blocking: 32 down and 32 up per leaf, so 400 Gb/s per GPU everywhere.
    CHECK(tt.level_bw_gbps[2] == doctest::Approx(400));
    const std::vector<uint32_t> one_node = {gpu(5, 0), gpu(5, 7)};
    CHECK(gang_level(tt, one_node) == 0);
  }
}
