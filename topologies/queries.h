#pragma once
//! Questions about one topology graph: distance and bandwidth between two hosts, and which hosts
//! lose the cluster when switches or links fail. Bisection bandwidth lives in tables.h because
//! it is computed from the per-level summary.
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "topologies/topology.h"

namespace gpuplan::topologies {

//! +inf: no bound (the bandwidth inside one host, the distance between disconnected hosts).
inline constexpr double UNLIMITED = std::numeric_limits<double>::infinity();

//! Links (edges) on the shortest path between hosts `a` and `b` by breadth-first search; 0 for
//! a == b; nullopt when they are disconnected.
[[nodiscard]] std::optional<uint32_t> hop_count(const Topology& t, uint32_t a, uint32_t b);

//! Bandwidth of the widest path between hosts `a` and `b` [Gb/s]: the largest, over all paths,
//! of the smallest link bandwidth on the path (Dijkstra with max-min relaxation); on the
//! regular trees built here it equals the bottleneck of every shortest path. +inf for a == b,
//! 0 when disconnected.
[[nodiscard]] double bottleneck_gbps(const Topology& t, uint32_t a, uint32_t b);

//! One-way latency of the lowest-latency path between hosts `a` and `b` [s] (Dijkstra over link
//! latencies); 0 for a == b, +inf when disconnected.
[[nodiscard]] double path_latency_s(const Topology& t, uint32_t a, uint32_t b);

//! Failed elements for cut_off_hosts().
struct Failures {
  std::vector<Vertex> vertices;  //!< failed switches (or hosts, or controllers)
  std::vector<std::pair<Vertex, Vertex>>
      links;  //!< failed links, by end vertices (all parallel edges)
};

//! Hosts (ascending indices) cut off from the cluster after `failed`: every host outside the
//! connected component that keeps the most hosts (ties: the one with the lowest host index),
//! plus failed hosts themselves. Uses boost::connected_components on a filtered graph.
[[nodiscard]] std::vector<uint32_t> cut_off_hosts(const Topology& t, const Failures& failed);

}  // namespace gpuplan::topologies
