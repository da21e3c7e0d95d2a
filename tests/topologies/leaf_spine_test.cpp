#include <doctest/doctest.h>

#include <vector>

#include "topologies/builders.h"
#include "topologies/queries.h"
#include "topologies/tables.h"

using namespace gpuplan::topologies;

TEST_CASE("topologies::fat_tree") {
  SUBCASE("a k-ary fat-tree has k^3/4 hosts and 5k^2/4 switches for k = 4, 8 and 64") {
    for (const uint32_t k : {4u, 8u, 64u}) {
      const Topology t = fat_tree(k, {100, SWITCH_HOP_S});
      // Al-Fares et al. (DATA.md 2.1): k^3/4 hosts; k = 64 gives 65,536.
      CHECK(t.n_hosts() == k * k * k / 4);
      // 5k^2/4 switches: k^2/2 edge + k^2/2 aggregation + k^2/4 core; k = 64 gives 5,120.
      CHECK(t.n_switches() == 5 * k * k / 4);
      // (k/2)^2 core switches at level 3.
      CHECK(t.n_switches_at(3) == k * k / 4);
    }
  }
  SUBCASE("a k = 4 fat-tree has full bisection and 6 hops between pods") {
    const Topology t = fat_tree(4, {100, SWITCH_HOP_S});
    const TopologyTables tt = make_tables(t);
    // Hosts 0 and 15 sit in pods 0 and 3: host-edge-agg-core-agg-edge-host = 6 links.
    CHECK(hop_count(t, 0, 15) == 6u);
    // Same edge switch: host-edge-host = 2 links.
    CHECK(hop_count(t, 0, 1) == 2u);
    // Full bisection: 16/2 hosts x 100 Gb/s = 800 Gb/s.
    CHECK(bisection_gbps(tt) == doctest::Approx(800));
    // Every level keeps the full 100 Gb/s per host (non-blocking).
    CHECK(tt.level_bw_gbps[3] == doctest::Approx(100));
  }
}

TEST_CASE("topologies::leaf_spine") {
  SUBCASE("a non-blocking two-tier leaf-spine of radix-64 switches has 2048 endpoints") {
    const LeafSpineSpec spec = leaf_spine_from_radix(64, 1, {400, SWITCH_HOP_S});
    const Topology t = leaf_spine(spec);
    // k^2/2 = 64^2/2 = 2048 endpoints (DATA.md 2.1 [D]).
    CHECK(t.n_hosts() == 2048);
    // 64 leaves (one per spine port) + 32 spines (one per leaf uplink).
    CHECK(t.n_switches() == 96);
    // 1:1 ratio: 32 x 400 down over 32 x 400 up.
    CHECK(spec.oversubscription() == doctest::Approx(1.0));
  }
  SUBCASE("3:1 oversubscription leaves a cross-leaf flow a third of the host bandwidth") {
    const LeafSpineSpec spec = leaf_spine_from_radix(64, 3, {400, SWITCH_HOP_S});
    const Topology t = leaf_spine(spec);
    const TopologyTables tt = make_tables(t);
    // 48 x 400G down : 16 x 400G up = 3:1 (the DATA.md 2.1 example).
    CHECK(spec.hosts_per_leaf == 48);
    CHECK(spec.n_spines == 16);
    CHECK(spec.oversubscription() == doctest::Approx(3.0));
    const std::vector<uint32_t> same_leaf = {0, 1, 47};
    const std::vector<uint32_t> cross_leaf = {0, 48};
    // Inside one leaf nothing is shared: the full 400 Gb/s host link.
    CHECK(gang_bottleneck_gbps(tt, same_leaf) == doctest::Approx(400));
    // Across leaves with every host sending: 400 / 3 = 133.3 Gb/s per host.
    CHECK(gang_bottleneck_gbps(tt, cross_leaf) == doctest::Approx(400.0 / 3.0));
    CHECK(gang_level(tt, cross_leaf) == 2);
    // A single flow alone still finds a 400 Gb/s path (the widest path is not shared).
    CHECK(bottleneck_gbps(t, 0, 48) == doctest::Approx(400));
    // Bisection: 3072 / 2 hosts x 133.3 Gb/s = 204,800 Gb/s (= 64 leaves x 16 x 400 / 2).
    CHECK(bisection_gbps(tt) == doctest::Approx(204800));
  }
  SUBCASE("the flat tables name each host's leaf and answer gang queries from arrays") {
    LeafSpineSpec spec;
    spec.n_leaves = 4;
    spec.hosts_per_leaf = 8;
    spec.n_spines = 2;
    spec.host_link = {200, NIC_LATENCY_S};
    spec.spine_link = {400, SWITCH_HOP_S};
    const TopologyTables tt = make_tables(leaf_spine(spec));
    // Host 17 sits on leaf 17 / 8 = 2.
    CHECK(tt.leaf_of_host[17] == 2);
    // Three levels (hosts, leaves, spines); all hosts meet at level 2.
    CHECK(tt.n_levels == 3);
    CHECK(tt.top_level == 2);
    // 8 x 200 down vs 2 x 400 up = 2:1, so 100 Gb/s per host across leaves.
    CHECK(tt.level_bw_gbps[2] == doctest::Approx(100));
    // Same-leaf latency: two NIC links of 0.5 us = 1 us.
    CHECK(tt.level_latency_s[1] == doctest::Approx(1e-6));
    // Cross-leaf: 2 x 0.5 us + 2 x 0.2 us switch hops = 1.4 us.
    CHECK(tt.level_latency_s[2] == doctest::Approx(1.4e-6));
  }
}

TEST_CASE("topologies::single_switch") {
  SUBCASE("every pair of hosts is two links apart and bisection is half the hosts' links") {
    const Topology t = single_switch(6, {100, NIC_LATENCY_S});
    const TopologyTables tt = make_tables(t);
    // host-switch-host.
    CHECK(hop_count(t, 0, 5) == 2u);
    // 6 / 2 x 100 Gb/s = 300 Gb/s.
    CHECK(bisection_gbps(tt) == doctest::Approx(300));
  }
}

TEST_CASE("topologies::two_level_tree") {
  SUBCASE("a single uplink per leaf is shared by all the leaf's hosts") {
    const Topology t = two_level_tree(4, 10, {100, NIC_LATENCY_S}, {400, SWITCH_HOP_S});
    const TopologyTables tt = make_tables(t);
    // 40 hosts; host-leaf-root-leaf-host = 4 links across leaves.
    CHECK(t.n_hosts() == 40);
    CHECK(hop_count(t, 0, 39) == 4u);
    // 400 Gb/s uplink / 10 hosts = 40 Gb/s per host across leaves.
    CHECK(tt.level_bw_gbps[2] == doctest::Approx(40));
    // Cutting leaf 0's uplink isolates its 10 hosts.
    const Failures f{{}, {{*t.find_vertex("leaf0"), *t.find_vertex("root")}}};
    CHECK(cut_off_hosts(t, f).size() == 10);
  }
}
