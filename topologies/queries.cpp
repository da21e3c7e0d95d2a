#include "topologies/queries.h"

#include <algorithm>
#include <functional>
#include <limits>

#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/connected_components.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/filtered_graph.hpp>

namespace gpuplan::topologies {
namespace {

auto index_map(const Graph& g) {
  return boost::get(boost::vertex_index, g);
}

// Keeps vertices and edges that did not fail.
struct Alive {
  const Graph* g = nullptr;
  const std::vector<char>* dead_vertex = nullptr;
  const Failures* failed = nullptr;
  bool operator()(Vertex v) const { return !(*dead_vertex)[v]; }
  bool operator()(Edge e) const {
    const Vertex s = boost::source(e, *g);
    const Vertex d = boost::target(e, *g);
    for (const auto& [a, b] : failed->links)
      if ((s == a && d == b) || (s == b && d == a)) return false;
    return true;
  }
};

}  // namespace

std::optional<uint32_t> hop_count(const Topology& t, uint32_t a, uint32_t b) {
  const Graph& g = t.graph;
  constexpr uint32_t UNSEEN = std::numeric_limits<uint32_t>::max();
  std::vector<uint32_t> dist(boost::num_vertices(g), UNSEEN);
  const Vertex src = t.hosts.at(a);
  dist[src] = 0;
  boost::breadth_first_search(
      g, src,
      boost::visitor(boost::make_bfs_visitor(boost::record_distances(
          boost::make_iterator_property_map(dist.begin(), index_map(g)), boost::on_tree_edge()))));
  const uint32_t d = dist[t.hosts.at(b)];
  if (d == UNSEEN) return std::nullopt;
  return d;
}

double bottleneck_gbps(const Topology& t, uint32_t a, uint32_t b) {
  if (a == b) return UNLIMITED;
  const Graph& g = t.graph;
  std::vector<double> width(boost::num_vertices(g), 0.0);
  // NOTE: max-min "distance": compare prefers wider, combine takes the narrower link, an
  // unreached vertex has width 0 and the source has unlimited width.
  boost::dijkstra_shortest_paths(
      g, t.hosts.at(a),
      boost::weight_map(boost::get(&EdgeProps::bandwidth_gbps, g))
          .distance_map(boost::make_iterator_property_map(width.begin(), index_map(g)))
          .distance_compare(std::greater<double>())
          .distance_combine([](double x, double y) { return std::min(x, y); })
          .distance_inf(0.0)
          .distance_zero(UNLIMITED));
  return width[t.hosts.at(b)];
}

double path_latency_s(const Topology& t, uint32_t a, uint32_t b) {
  if (a == b) return 0.0;
  const Graph& g = t.graph;
  std::vector<double> dist(boost::num_vertices(g), UNLIMITED);
  boost::dijkstra_shortest_paths(
      g, t.hosts.at(a),
      boost::weight_map(boost::get(&EdgeProps::latency_s, g))
          .distance_map(boost::make_iterator_property_map(dist.begin(), index_map(g))));
  return dist[t.hosts.at(b)];
}

std::vector<uint32_t> cut_off_hosts(const Topology& t, const Failures& failed) {
  const Graph& g = t.graph;
  const size_t n = boost::num_vertices(g);
  std::vector<char> dead(n, 0);
  for (const Vertex v : failed.vertices) dead.at(v) = 1;
  const Alive alive{&g, &dead, &failed};
  const boost::filtered_graph<Graph, Alive, Alive> fg(g, alive, alive);
  std::vector<int> comp(n, -1);
  const int n_comp = boost::connected_components(
      fg, boost::make_iterator_property_map(comp.begin(), index_map(g)));
  // Count hosts per component; the first host seen wins ties because it has the lowest index.
  std::vector<uint32_t> hosts_in(static_cast<size_t>(n_comp), 0);
  for (const Vertex h : t.hosts)
    if (!dead[h]) ++hosts_in[static_cast<size_t>(comp[h])];
  int keep = -1;
  for (const Vertex h : t.hosts) {
    if (dead[h]) continue;
    const int c = comp[h];
    if (keep < 0 || hosts_in[static_cast<size_t>(c)] > hosts_in[static_cast<size_t>(keep)])
      keep = c;
  }
  std::vector<uint32_t> out;
  for (uint32_t i = 0; i < t.n_hosts(); ++i) {
    const Vertex h = t.hosts[i];
    if (dead[h] || comp[h] != keep) out.push_back(i);
  }
  return out;
}

}  // namespace gpuplan::topologies
