#include "topologies/topology.h"

#include <algorithm>

namespace gpuplan::topologies {

std::string indexed_name(std::string_view prefix, uint32_t i) {
  // NOTE: append instead of operator+ on a literal, which trips GCC 12's -Wrestrict false positive.
  std::string name(prefix);
  name += std::to_string(i);
  return name;
}

Vertex Topology::add_host(std::string name) {
  const Vertex v = boost::add_vertex(VertexProps{std::move(name), VertexKind::host, 0}, graph);
  hosts.push_back(v);
  return v;
}

Vertex Topology::add_switch(std::string name, uint32_t level, VertexKind kind) {
  return boost::add_vertex(VertexProps{std::move(name), kind, level}, graph);
}

Edge Topology::add_link(Vertex a, Vertex b, LinkSpec link) {
  return boost::add_edge(a, b, EdgeProps{link.bandwidth_gbps, link.latency_s}, graph).first;
}

uint32_t Topology::n_switches() const {
  uint32_t n = 0;
  for (const Vertex v : boost::make_iterator_range(boost::vertices(graph))) {
    const VertexKind k = graph[v].kind;
    n += k == VertexKind::network_switch || k == VertexKind::node_switch;
  }
  return n;
}

uint32_t Topology::n_switches_at(uint32_t level) const {
  uint32_t n = 0;
  for (const Vertex v : boost::make_iterator_range(boost::vertices(graph)))
    n += graph[v].kind == VertexKind::network_switch && graph[v].level == level;
  return n;
}

uint32_t Topology::max_level() const {
  uint32_t top = 0;
  for (const Vertex v : boost::make_iterator_range(boost::vertices(graph)))
    top = std::max(top, graph[v].level);
  return top;
}

std::optional<Vertex> Topology::find_vertex(std::string_view name) const {
  for (const Vertex v : boost::make_iterator_range(boost::vertices(graph)))
    if (graph[v].name == name) return v;
  return std::nullopt;
}

std::optional<uint32_t> Topology::host_index(Vertex v) const {
  // NOTE: builders add hosts in index order, so a binary search over vertex ids would work too;
  // a linear scan keeps custom topologies (hosts added in any order) correct.
  const auto it = std::find(hosts.begin(), hosts.end(), v);
  if (it == hosts.end()) return std::nullopt;
  return static_cast<uint32_t>(it - hosts.begin());
}

}  // namespace gpuplan::topologies
