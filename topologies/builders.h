#pragma once
//! Builders of the standard cluster networks (one per file in topologies/). Each returns a
//! Topology whose hosts are numbered in a documented order, and throws std::invalid_argument for
//! a spec that cannot be built (the loader validates user input first).
#include <cstdint>
#include <string>
#include <vector>

#include "topologies/topology.h"

namespace gpuplan::topologies {

//! `n_hosts` hosts on one switch (level 1).
[[nodiscard]] Topology single_switch(uint32_t n_hosts, LinkSpec host_link);

//! A classic two-level tree: one root switch (level 2) over `n_leaves` leaf switches (level 1),
//! each with `hosts_per_leaf` hosts (host i sits on leaf i / hosts_per_leaf) and one uplink.
[[nodiscard]] Topology two_level_tree(uint32_t n_leaves, uint32_t hosts_per_leaf,
                                      LinkSpec host_link, LinkSpec uplink);

//! A two-tier leaf-spine (folded Clos): every leaf has one uplink bundle to every spine.
struct LeafSpineSpec {
  uint32_t n_leaves = 2;
  uint32_t hosts_per_leaf = 1;
  uint32_t n_spines = 1;
  uint32_t links_per_spine = 1;  //!< parallel cables from each leaf to each spine
  LinkSpec host_link;            //!< host <-> leaf
  LinkSpec spine_link;           //!< one cable leaf <-> spine
  //! Leaf downlink over uplink bandwidth (1 = non-blocking, 3 = 3:1 oversubscribed).
  [[nodiscard]] double oversubscription() const;
};

//! Leaf-spine per `spec`; host i sits on leaf i / hosts_per_leaf.
[[nodiscard]] Topology leaf_spine(const LeafSpineSpec& spec);

//! The largest two-tier leaf-spine of `radix`-port switches with downlink:uplink ports =
//! `oversubscription`:1 (the standard two-tier Clos): u = radix / (oversubscription + 1) uplinks
//! and radix - u host ports per leaf, one uplink to each of u spines, and radix leaves (each spine
//! port serves one leaf). Radix 64 at 1:1 gives 64 x 32 = 2048 hosts; throws unless u divides.
[[nodiscard]] LeafSpineSpec leaf_spine_from_radix(uint32_t radix, uint32_t oversubscription,
                                                  LinkSpec link);

//! The k-ary three-tier fat-tree of Al-Fares et al. (SIGCOMM 2008): k pods of k/2
//! edge (level 1) and k/2 aggregation (level 2) switches, (k/2)^2 core switches (level 3),
//! k^3/4 hosts (k/2 per edge switch), 5k^2/4 switches; every link is `link`. k must be even.
[[nodiscard]] Topology fat_tree(uint32_t k, LinkSpec link);

//! A rail-optimized GPU cluster in the DGX SuperPOD style (NVIDIA DGX SuperPOD reference
//! architecture): scalable units of
//! `nodes_per_su` nodes; GPU i of every node in an SU has its own NIC into the SU's rail leaf i;
//! every leaf connects to every spine; the GPUs of a node share an NVSwitch (level 0).
struct RailSpec {
  uint32_t n_su = 1;                       //!< scalable units
  uint32_t nodes_per_su = 32;              //!< DGX H100 SU: 32 nodes
  uint32_t gpus_per_node = 8;              //!< = rails per SU
  uint32_t n_spines = 4;                   //!< spine switches shared by all SUs
  LinkSpec rail_link{400, NIC_LATENCY_S};  //!< GPU NIC <-> rail leaf, NDR 400 Gb/s
  LinkSpec spine_link{400, SWITCH_HOP_S};  //!< one cable leaf <-> spine
  uint32_t uplinks_per_leaf = 32;          //!< leaf ports toward spines, spread evenly
  LinkSpec nvlink{3600, NVLINK_HOP_S};     //!< GPU <-> NVSwitch: H100 900 GB/s bidir = 3600 Gb/s
};

//! Rail-optimized cluster per `spec`; hosts are GPUs, host index = (node * gpus_per_node + gpu)
//! with node = su * nodes_per_su + node-in-SU.
[[nodiscard]] Topology rail_optimized(const RailSpec& spec);

//! RailSpec of a DGX H100 SuperPOD with `n_su` = 1..4 scalable units of 32 nodes, with the
//! spine counts of NVIDIA's scale table (DGX SuperPOD H100 reference architecture: 4, 8, 16, 16
//! spines); the table's first-SU node given to UFM is ignored. Throws for other sizes.
[[nodiscard]] RailSpec dgx_h100_superpod(uint32_t n_su);

//! A master node (controller, level 2) over two switches A and B (level 1), each serving
//! `groups_per_switch` groups of `workers_per_group` workers; the workers of a group are also
//! linked in a ring (worker j <-> worker j+1 mod group size). Defaults: 2 x 2 x 32 = 128 workers.
struct TreeRingSpec {
  uint32_t groups_per_switch = 2;
  uint32_t workers_per_group = 32;
  LinkSpec worker_link{100, NIC_LATENCY_S};  //!< worker <-> its switch
  LinkSpec ring_link{100, NIC_LATENCY_S};    //!< worker <-> ring neighbour
  LinkSpec master_link{400, SWITCH_HOP_S};   //!< switch <-> master
};

//! Tree+ring hybrid per `spec`; switch A holds workers [0, n/2), B the rest; groups are
//! consecutive runs of `workers_per_group`. Vertices are named "master", "A", "B", "w<i>".
[[nodiscard]] Topology tree_ring_hybrid(const TreeRingSpec& spec);

//! One vertex of a custom topology.
struct CustomVertex {
  std::string name;
  VertexKind kind = VertexKind::host;
  uint32_t level = 0;
};

//! One link of a custom topology, by vertex names.
struct CustomLink {
  std::string a;
  std::string b;
  LinkSpec link;
};

//! A topology from an explicit vertex and edge list; hosts are numbered in vertex-list order.
//! Throws for duplicate names, unknown link ends, a host above level 0 or a switch at level 0
//! that is not a node_switch.
[[nodiscard]] Topology custom(const std::vector<CustomVertex>& vertices,
                              const std::vector<CustomLink>& links, std::string name = "custom");

}  // namespace gpuplan::topologies
