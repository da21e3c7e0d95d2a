#pragma once
//! The network graph every topology builder produces: vertices are hosts and switches, each with
//! a level (0 = host or in-node switch, 1 = leaf/ToR, 2 = spine/aggregation, 3 = core), and
//! undirected edges carry a bandwidth [Gb/s] and a latency [s]. Boost.Graph adjacency_list.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/graph/adjacency_list.hpp>

namespace gpuplan::topologies {

//! What a vertex is.
enum class VertexKind : uint8_t {
  host,            //!< an endpoint that runs work (a server, or one GPU with its own NIC)
  node_switch,     //!< a switch inside a server (NVSwitch), level 0
  network_switch,  //!< a leaf, spine or core switch, level >= 1
  controller,      //!< a non-worker node that forwards traffic (e.g. a tree's master node)
};

//! Vertex properties.
struct VertexProps {
  std::string name;  //!< unique within the topology, e.g. "leaf3", "node12.gpu5"
  VertexKind kind = VertexKind::host;
  uint32_t level = 0;  //!< 0 = host or in-node switch; switches above count up from 1
};

//! Edge (link) properties; a bundle of parallel cables is one edge with their summed bandwidth.
struct EdgeProps {
  double bandwidth_gbps = 0;  //!< [Gb/s] per direction
  double latency_s = 0;       //!< [s] one-way, including the switch or NIC it enters
};

using Graph =
    boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, VertexProps, EdgeProps>;
using Vertex = Graph::vertex_descriptor;
using Edge = Graph::edge_descriptor;

//! A link's bandwidth and latency, as builders take them.
struct LinkSpec {
  double bandwidth_gbps = 400;  //!< [Gb/s] per direction
  double latency_s = 0.5e-6;    //!< [s] one-way
};

//! Link latency of a host NIC into its first switch [s]: SimAI's RDMA NIC default 0.5 us
//! (github.com/aliyun/SimAI).
inline constexpr double NIC_LATENCY_S = 0.5e-6;
//! Port-to-port latency of one InfiniBand switch hop [s]: 200 ns, inside the 130-330 ns that
//! reseller pages quote for the Quantum-2 NDR QM9700 (third-party; sources disagree).
inline constexpr double SWITCH_HOP_S = 200e-9;
//! Latency of one NVLink hop [s]: SimAI's default 25 ns (github.com/aliyun/SimAI).
inline constexpr double NVLINK_HOP_S = 25e-9;

//! `prefix` followed by the decimal `i`, e.g. indexed_name("leaf", 3) == "leaf3".
[[nodiscard]] std::string indexed_name(std::string_view prefix, uint32_t i);

//! A built topology: the graph plus the host vertices in host-index order.
struct Topology {
  std::string name;           //!< e.g. "leaf_spine(32x48, 16 spines)"
  Graph graph;                //!< the network
  std::vector<Vertex> hosts;  //!< host index -> vertex

  //! Adds a host (level 0) and returns its vertex.
  Vertex add_host(std::string name);
  //! Adds a switch or controller at `level` and returns its vertex.
  Vertex add_switch(std::string name, uint32_t level, VertexKind kind = VertexKind::network_switch);
  //! Adds an undirected link between `a` and `b`.
  Edge add_link(Vertex a, Vertex b, LinkSpec link);

  //! Number of hosts.
  [[nodiscard]] uint32_t n_hosts() const { return static_cast<uint32_t>(hosts.size()); }
  //! Number of network and in-node switches (controllers excluded).
  [[nodiscard]] uint32_t n_switches() const;
  //! Number of network switches at exactly `level`.
  [[nodiscard]] uint32_t n_switches_at(uint32_t level) const;
  //! Highest vertex level in the graph.
  [[nodiscard]] uint32_t max_level() const;
  //! Vertex named `name`, or nullopt.
  [[nodiscard]] std::optional<Vertex> find_vertex(std::string_view name) const;
  //! Host index of vertex `v`, or nullopt when `v` is not a host.
  [[nodiscard]] std::optional<uint32_t> host_index(Vertex v) const;
};

}  // namespace gpuplan::topologies
