#include "reports/network_json.h"

#include <cmath>
#include <string>

#include "topologies/graphviz.h"

namespace gpuplan {
namespace {

const char* placement_name(Placement p) {
  switch (p) {
    case Placement::best_fit:
      return "best_fit";
    case Placement::pack:
      return "pack";
    case Placement::spread:
      return "spread";
    case Placement::topology_aware:
      return "topology_aware";
  }
  return "best_fit";
}

}  // namespace

nlohmann::json network_json(const Scenario& sc, const CompiledScenario& cs, const ReplicaState& s) {
  const double window = sc.horizon_s - sc.warmup_s;
  double provisioned = 0;
  for (const PoolSpec& p : cs.pools) provisioned += double(p.n_nodes) * p.gpus_per_node;
  const double stranded = window > 0 ? s.net.stranded_gpu_s / window : 0;
  const NetState& n = s.net;
  nlohmann::json out = {
      {"placement", placement_name(sc.scheduler.placement)},
      {"topology", sc.topology.kind == TopologyKind::none ? "none" : sc.topology.kind_name},
      {"stranded_gpus", stranded},
      {"stranded_share", provisioned > 0 ? stranded / provisioned : 0},
      {"multi_node_jobs_completed", n.multi_node_completed},
      {"mean_comm_slowdown",
       n.multi_node_completed ? n.comm_slowdown_sum / double(n.multi_node_completed) : 1.0},
      {"rate_changes", n.rate_changes}};
  return out;
}

nlohmann::json topology_json(const Scenario& sc, const CompiledScenario& cs) {
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
  nlohmann::json out = {{"kind", sc.topology.kind_name}, {"name", plan.topology_name},
                        {"hosts", tt.n_hosts},           {"hosts_per_node", plan.hosts_per_node},
                        {"levels", tt.n_levels},         {"level_bw_gbps", bw},
                        {"level_latency_s", lat},        {"dot", plan.dot}};
  std::string svg, error;
  if (topologies::render_svg(plan.dot, svg, error)) {
    out["svg"] = svg;
  } else {
    out["svg_error"] = error;
  }
  return out;
}

}  // namespace gpuplan
