#include "topologies/tables.h"

#include <algorithm>
#include <limits>

#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>

#include "topologies/queries.h"

namespace gpuplan::topologies {
namespace {

// Keeps vertices of level <= max_level.
struct AtOrBelow {
  const Graph* g = nullptr;
  uint32_t max_level = 0;
  bool operator()(Vertex v) const { return (*g)[v].level <= max_level; }
};

}  // namespace

TopologyTables make_tables(const Topology& t) {
  const Graph& g = t.graph;
  const size_t n_v = boost::num_vertices(g);
  TopologyTables tt;
  tt.n_hosts = t.n_hosts();
  tt.n_levels = t.max_level() + 1;
  tt.top_level = tt.n_levels;
  tt.group_of_host.assign(static_cast<size_t>(tt.n_levels) * tt.n_hosts, 0);
  tt.level_bw_gbps.assign(tt.n_levels, UNLIMITED);
  tt.level_latency_s.assign(tt.n_levels, 0.0);
  tt.level_group_size.assign(tt.n_levels, 0);
  // up_share[l] = min over level-l groups of (capacity to level > l) / hosts: the bandwidth each
  // host keeps when its whole group sends out of the group at once.
  std::vector<double> up_share(tt.n_levels, UNLIMITED);
  double inside_level0 = UNLIMITED;
  for (uint32_t level = 0; level < tt.n_levels; ++level) {
    const AtOrBelow keep{&g, level};
    const boost::filtered_graph<Graph, boost::keep_all, AtOrBelow> fg(g, boost::keep_all(), keep);
    std::vector<int> comp(n_v, -1);
    boost::connected_components(
        fg, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
    // Renumber components by first host so group ids are 0, 1, ... in host order.
    std::vector<int> group_id(n_v, -1);
    std::vector<uint32_t> hosts_in;
    for (uint32_t h = 0; h < tt.n_hosts; ++h) {
      int& id = group_id[static_cast<size_t>(comp[t.hosts[h]])];
      if (id < 0) {
        id = static_cast<int>(hosts_in.size());
        hosts_in.push_back(0);
      }
      ++hosts_in[static_cast<size_t>(id)];
      tt.group_of_host[static_cast<size_t>(level) * tt.n_hosts + h] = static_cast<uint32_t>(id);
    }
    if (hosts_in.size() == 1 && tt.top_level == tt.n_levels) tt.top_level = level;
    tt.level_group_size[level] =
        hosts_in.empty() ? 0 : *std::max_element(hosts_in.begin(), hosts_in.end());
    std::vector<double> up_cap(hosts_in.size(), 0.0);
    for (const Edge e : boost::make_iterator_range(boost::edges(g))) {
      Vertex a = boost::source(e, g);
      Vertex b = boost::target(e, g);
      if (g[a].level > g[b].level) std::swap(a, b);
      const int ga = comp[a] >= 0 ? group_id[static_cast<size_t>(comp[a])] : -1;
      if (g[a].level > level || ga < 0) continue;
      if (g[b].level > level) {
        up_cap[static_cast<size_t>(ga)] += g[e].bandwidth_gbps;
      } else if (level == 0 && hosts_in[static_cast<size_t>(ga)] > 1) {
        inside_level0 = std::min(inside_level0, g[e].bandwidth_gbps);
      }
    }
    for (size_t gi = 0; gi < hosts_in.size(); ++gi)
      if (up_cap[gi] > 0) up_share[level] = std::min(up_share[level], up_cap[gi] / hosts_in[gi]);
  }
  tt.level_bw_gbps[0] = inside_level0;
  double running = UNLIMITED;
  for (uint32_t level = 1; level < tt.n_levels; ++level) {
    running = std::min(running, up_share[level - 1]);
    tt.level_bw_gbps[level] = running;
  }
  // Latency: one pair of hosts per level whose lowest shared level is exactly that level.
  for (uint32_t level = 0; level < tt.n_levels; ++level) {
    const uint32_t* row = &tt.group_of_host[static_cast<size_t>(level) * tt.n_hosts];
    for (uint32_t h = 1; h < tt.n_hosts; ++h) {
      const bool below_differs =
          level == 0 || tt.group_of_host[static_cast<size_t>(level - 1) * tt.n_hosts + h] !=
                            tt.group_of_host[static_cast<size_t>(level - 1) * tt.n_hosts];
      if (row[h] == row[0] && below_differs) {
        tt.level_latency_s[level] = path_latency_s(t, 0, h);
        break;
      }
    }
  }
  tt.leaf_of_host.assign(tt.n_hosts, 0);
  tt.spine_group_of_host.assign(tt.n_hosts, 0);
  for (uint32_t h = 0; h < tt.n_hosts; ++h) {
    if (tt.n_levels > 1) tt.leaf_of_host[h] = tt.group_of_host[tt.n_hosts + h];
    if (tt.n_levels > 2) tt.spine_group_of_host[h] = tt.group_of_host[2 * tt.n_hosts + h];
  }
  return tt;
}

uint32_t gang_level(const TopologyTables& tt, std::span<const uint32_t> hosts) {
  if (hosts.size() <= 1) return 0;
  for (uint32_t level = 0; level < tt.n_levels; ++level) {
    const uint32_t* row = &tt.group_of_host[static_cast<size_t>(level) * tt.n_hosts];
    const uint32_t first = row[hosts[0]];
    const bool together =
        std::all_of(hosts.begin(), hosts.end(), [&](uint32_t h) { return row[h] == first; });
    if (together) return level;
  }
  return tt.n_levels;
}

double gang_bottleneck_gbps(const TopologyTables& tt, std::span<const uint32_t> hosts) {
  if (hosts.size() <= 1) return UNLIMITED;
  const uint32_t level = gang_level(tt, hosts);
  return level < tt.n_levels ? tt.level_bw_gbps[level] : 0.0;
}

double bisection_gbps(const TopologyTables& tt) {
  if (tt.top_level >= tt.n_levels) return 0.0;
  return (tt.n_hosts / 2) * tt.level_bw_gbps[tt.top_level];
}

}  // namespace gpuplan::topologies
