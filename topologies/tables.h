#pragma once
//! Flat per-host summary of a tree-like topology for the compile stage, so "which switch level
//! does a gang span, and what bandwidth does it get there" is a plain-array lookup in O(hosts).
//!
//! Levels: group_of_host at level L numbers the connected components of the subgraph made of
//! hosts and every vertex of level <= L. Level 0 groups are single hosts, or the GPUs of one
//! server joined by its NVSwitch (rail-optimized), or a ring of workers (tree+ring hybrid);
//! level 1 groups are leaves (with everything below them), level 2 groups pods or spine
//! domains, and so on. A gang "spans level L" when L is the lowest level at which all its hosts
//! share one group: its traffic climbs to switches of level L and no higher.
#include <cstdint>
#include <span>
#include <vector>

#include "topologies/topology.h"

namespace gpuplan::topologies {

//! Per-host and per-level arrays of one topology (plain data, copyable into compiled arrays).
struct TopologyTables {
  uint32_t n_hosts = 0;
  uint32_t n_levels = 0;   //!< levels 0 .. n_levels-1 (= max vertex level + 1)
  uint32_t top_level = 0;  //!< lowest level at which all hosts share one group (n_levels if none)
  //! [n_levels * n_hosts] group index of host h at level L at [L * n_hosts + h]; groups are
  //! numbered 0, 1, ... per level in order of their first host.
  std::vector<uint32_t> group_of_host;
  std::vector<uint32_t> leaf_of_host;         //!< [n_hosts] level-1 group (= all 0 below level 1)
  std::vector<uint32_t> spine_group_of_host;  //!< [n_hosts] level-2 group (all 0 below level 2)
  //! [n_levels] bandwidth per host [Gb/s] for traffic that climbs to level L when every host
  //! sends at once: level 0 is the link bandwidth inside a level-0 group (+inf for single
  //! hosts); level L >= 1 is the minimum over levels l < L and groups g at level l of (capacity
  //! of g's links to level > l) / (hosts in g), so oversubscription shows up as a lower value.
  std::vector<double> level_bw_gbps;
  //! [n_levels] one-way latency [s] between two hosts whose traffic climbs to level L, measured
  //! on one representative pair (exact on the regular trees built here); 0 where no pair exists.
  std::vector<double> level_latency_s;
  //! [n_levels] hosts in the largest group at level L.
  std::vector<uint32_t> level_group_size;
};

//! Builds the tables of `t` (a few connected-components passes and one Dijkstra per level).
[[nodiscard]] TopologyTables make_tables(const Topology& t);

//! Level spanned by the gang on `hosts` (host indices): the lowest level where they share one
//! group; n_levels when they are disconnected; 0 for an empty or one-host gang. O(|hosts| x
//! levels).
[[nodiscard]] uint32_t gang_level(const TopologyTables& tt, std::span<const uint32_t> hosts);

//! Per-host bandwidth [Gb/s] of the gang on `hosts` at its spanned level (worst case, all hosts
//! sending); +inf for a gang inside one host; 0 when disconnected.
[[nodiscard]] double gang_bottleneck_gbps(const TopologyTables& tt,
                                          std::span<const uint32_t> hosts);

//! Bisection bandwidth [Gb/s], computed structurally: floor(n_hosts / 2) hosts on one side each
//! sending at the per-host bandwidth of the top level, i.e. floor(n/2) x level_bw_gbps[top].
//! Exact for the symmetric trees built here (every group of a level has the same size and
//! uplink capacity), where the worst balanced cut separates top-level subtrees; 0 when the
//! topology is disconnected.
[[nodiscard]] double bisection_gbps(const TopologyTables& tt);

}  // namespace gpuplan::topologies
