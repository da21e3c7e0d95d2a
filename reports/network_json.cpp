#include "reports/network_json.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "reports/format.h"
#include "topologies/graphviz.h"

namespace gpuplan {
namespace {

std::string placement_name(Placement p) {
  return std::string(enum_name(p));
}

//! Time-averaged load of uplink group g with `crossing_nodes` nodes crossing it on average: their
//! line rates / its capacity (above 1 the gangs get less than their line rate).
double uplink_load(const NetworkPlan& plan, std::size_t g, double crossing_nodes) {
  const double capacity = plan.uplink_gbps[g];
  const double line = plan.node_line_gbps[plan.group_nodes[plan.group_start[g]]];
  return capacity > 0 ? crossing_nodes * line / capacity : 0;
}

}  // namespace

nlohmann::json network_json(const Scenario& sc, const CompiledScenario& cs,
                            const study::Summary& s) {
  double provisioned = 0;
  for (const PoolSpec& p : cs.pools) provisioned += double(p.n_nodes) * p.gpus_per_node;
  const double stranded = s.mean("network.stranded_gpus");
  const double rate_changes = s.mean("network.rate_changes");
  nlohmann::json out = {
      {"placement", placement_name(sc.scheduler.placement)},
      {"topology", std::string(enum_name(sc.topology.kind))},
      {"stranded_gpus", stranded},
      {"stranded_share", provisioned > 0 ? stranded / provisioned : 0},
      {"mean_comm_slowdown", s.mean("network.mean_comm_slowdown")},
      {"rate_changes", s.single ? nlohmann::json(static_cast<uint64_t>(rate_changes))
                                : nlohmann::json(rate_changes)}};
  // NOTE: multi-node completions are counted in the state only, not in the metric paths.
  if (s.single) out["multi_node_jobs_completed"] = s.single->state().net.multi_node_completed;
  return out;
}

nlohmann::json topology_json(const Scenario& sc, const CompiledScenario& cs,
                             const std::vector<double>& crossing_nodes,
                             const std::vector<double>& congested_share) {
  if (sc.topology.kind == TopologyKind::none) return nullptr;
  const NetworkPlan& plan = cs.network;
  const auto& tt = plan.tables;
  nlohmann::json bw = nlohmann::json::array(), lat = nlohmann::json::array();
  for (uint32_t L = 0; L < tt.n_levels; ++L) {
    // NOTE: +inf (inside one host) has no JSON form; null says "not limited by the network".
    bw.push_back(std::isinf(tt.level_bw_gbps[L]) ? nlohmann::json(nullptr)
                                                 : nlohmann::json(tt.level_bw_gbps[L]));
    lat.push_back(tt.level_latency_s[L]);
  }
  nlohmann::json out = {{"kind", std::string(enum_name(sc.topology.kind))},
                        {"name", plan.topology.name},
                        {"hosts", tt.n_hosts},
                        {"hosts_per_node", plan.hosts_per_node},
                        {"levels", tt.n_levels},
                        {"level_bw_gbps", bw},
                        {"level_latency_s", lat}};
  // NaN: an edge with no measured load, drawn plain (every edge when no loads are given).
  std::vector<double> edge_load(plan.edge_groups.size(), std::nan(""));
  const std::size_t n_groups = plan.uplink_gbps.size();
  if (crossing_nodes.size() == n_groups && congested_share.size() == n_groups && n_groups > 0) {
    std::vector<double> loads(n_groups);
    nlohmann::json links = nlohmann::json::array();
    for (std::size_t g = 0; g < n_groups; ++g) {
      loads[g] = uplink_load(plan, g, crossing_nodes[g]);
      if (plan.uplink_gbps[g] <= 0) continue;  // the top group has no uplink
      links.push_back({{"group", plan.group_label[g]},
                       {"level", plan.group_level[g]},
                       {"capacity_gbps", plan.uplink_gbps[g]},
                       {"mean_crossing_nodes", crossing_nodes[g]},
                       {"mean_load", loads[g]},
                       {"congested_share", congested_share[g]}});
    }
    out["links"] = links;
    // An edge in several groups' uplinks (it skips levels) shows the busiest of them; an edge
    // inside a group (an NVSwitch port, a ring) is in no uplink and stays unshaded.
    for (std::size_t e = 0; e < edge_load.size(); ++e)
      for (const uint32_t g : plan.edge_groups[e])
        edge_load[e] = std::isnan(edge_load[e]) ? loads[g] : std::max(edge_load[e], loads[g]);
  }
  const std::string dot = topologies::to_dot(plan.topology, edge_load);
  out["dot"] = dot;
  std::string svg, error;
  if (topologies::drawable(plan.topology, error) && topologies::render_svg(dot, svg, error)) {
    out["svg"] =
        reports::sanitize_svg(svg);  // NOTE: so result.json and the page carry the same drawing
  } else {
    out["svg_error"] = error;
  }
  return out;
}

}  // namespace gpuplan
