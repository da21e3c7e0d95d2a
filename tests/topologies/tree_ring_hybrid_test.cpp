#include <doctest/doctest.h>

#include <algorithm>

#include "topologies/builders.h"
#include "topologies/queries.h"
#include "topologies/tables.h"

using namespace gpuplan::topologies;

TEST_CASE("topologies::tree_ring_hybrid") {
  const Topology t = tree_ring_hybrid(TreeRingSpec{});

  SUBCASE("the default hybrid has 128 workers under two switches and one master") {
    // 2 switches x 2 groups x 32 workers = 128.
    CHECK(t.n_hosts() == 128);
    // Switches A and B (the master is a controller, not a switch).
    CHECK(t.n_switches() == 2);
  }
  SUBCASE("ring neighbours are one link apart and the two switches three") {
    // w0 and w31 close the first ring.
    CHECK(hop_count(t, 0, 31) == 1u);
    // w0 (switch A) to w64 (switch B): w0-A-master-B-w64 = 4 links.
    CHECK(hop_count(t, 0, 64) == 4u);
  }
  SUBCASE("a cut of switch A isolates exactly its 64 workers") {
    const Failures f{{*t.find_vertex("A")}, {}};
    const std::vector<uint32_t> cut = cut_off_hosts(t, f);
    // Workers 0..63 hang off A; their rings keep them in two islands of 32, away from the master.
    REQUIRE(cut.size() == 64);
    CHECK(cut.front() == 0);
    CHECK(cut.back() == 63);
  }
  SUBCASE("a cut of one worker's switch link leaves it reachable through its ring") {
    const Failures f{{}, {{t.hosts[5], *t.find_vertex("A")}}};
    // Worker 5 still reaches w4 and w6 over the ring, so nobody is cut off.
    CHECK(cut_off_hosts(t, f).empty());
  }
  SUBCASE("the tables see rings at level 0, switches at level 1 and the master at level 2") {
    const TopologyTables tt = make_tables(t);
    // 32 workers per ring group, 64 per switch, 128 under the master.
    CHECK(tt.level_group_size[0] == 32);
    CHECK(tt.level_group_size[1] == 64);
    CHECK(tt.level_group_size[2] == 128);
    // 400 Gb/s switch-master link shared by 64 workers = 6.25 Gb/s each.
    CHECK(tt.level_bw_gbps[2] == doctest::Approx(6.25));
    // Bisection: 64 x 6.25 = 400 Gb/s, the A-master link.
    CHECK(bisection_gbps(tt) == doctest::Approx(400));
  }
}
