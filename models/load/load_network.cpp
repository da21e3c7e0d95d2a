#include "models/load/loader.h"

#include <cmath>
#include <stdexcept>

#include "models/scenario/limits.h"
#include "models/compile/network_plan.h"
#include "topologies/builders.h"

namespace gpuplan::loading {

void Loader::load_topology(const json& o, Scenario& sc) {
  const std::string p = "/topology";
  if (!object(o, p, "a topology, e.g. {\"kind\": \"leaf_spine\", \"nodes_per_leaf\": 16}")) return;
  // NOTE: "none" is the absence of the key, so a written kind is any other name of the table.
  static const std::vector<std::string> KINDS(enum_names<TopologyKind>().begin() + 1,
                                              enum_names<TopologyKind>().end());
  const json* k = need(o, p, "kind", "one of " + list_names(KINDS));
  if (k == nullptr) return;
  const auto idx = choice(*k, p + "/kind", "topology kind", KINDS);
  if (!idx) return;
  TopologyConfig& t = sc.topology;
  t.kind = static_cast<TopologyKind>(*idx + 1);
  std::vector<std::string> keys = {"kind", "link", "latency", "comm_fraction"};
  switch (t.kind) {
    case TopologyKind::two_level_tree:
      keys.insert(keys.end(), {"nodes_per_leaf", "uplink", "oversubscription"});
      break;
    case TopologyKind::leaf_spine:
      keys.insert(keys.end(), {"nodes_per_leaf", "spines", "uplink", "oversubscription"});
      break;
    case TopologyKind::fat_tree:
      keys.push_back("k");
      break;
    case TopologyKind::rail_optimized:
      keys.insert(keys.end(), {"su", "nodes_per_su", "spines", "uplink"});
      break;
    case TopologyKind::tree_ring_hybrid:
      keys.insert(keys.end(), {"groups_per_switch", "workers_per_group", "uplink"});
      break;
    case TopologyKind::custom:
      keys.insert(keys.end(), {"vertices", "links"});
      break;
    case TopologyKind::none:
    case TopologyKind::single_switch:
      break;
  }
  check_keys(o, p, keys);
  bool ok = true;
  const auto whole = [&](const char* key, uint32_t& field, uint64_t lo) {
    if (const json* v = get(o, key)) {
      auto n = integer(*v, child(p, key), lo, 1u << 20);
      ok = ok && n.has_value();
      if (n) field = static_cast<uint32_t>(*n);
    }
  };
  whole("nodes_per_leaf", t.nodes_per_leaf, 1);
  whole("spines", t.spines, 1);
  whole("k", t.k, 2);
  whole("su", t.su, 1);
  whole("nodes_per_su", t.nodes_per_su, 1);
  whole("groups_per_switch", t.groups_per_switch, 1);
  whole("workers_per_group", t.workers_per_group, 2);
  if (t.k % 2 != 0) {
    d_.error(p + "/k", DiagCode::out_of_range, "a k-ary fat-tree needs an even k, got " + num(t.k));
    ok = false;
  }
  if (const json* v = get(o, "link")) {
    t.link_gbps = bandwidth(*v, p + "/link");
    ok = ok && t.link_gbps.has_value();
  }
  if (const json* v = get(o, "uplink")) {
    t.uplink_gbps = bandwidth(*v, p + "/uplink");
    ok = ok && t.uplink_gbps.has_value();
  }
  if (const json* v = get(o, "latency")) {
    t.latency_s = duration(*v, p + "/latency", false);
    ok = ok && t.latency_s.has_value();
  }
  if (const json* v = get(o, "oversubscription")) {
    auto r = ratio(*v, p + "/oversubscription");
    ok = ok && r.has_value();
    if (r) t.oversubscription = *r;
    if (o.contains("uplink")) {
      d_.error(p + "/oversubscription", DiagCode::out_of_range,
               "give either \"uplink\" (bandwidth of one leaf-spine link) or "
               "\"oversubscription\" (which sets it), not both");
      ok = false;
    }
  }
  if (const json* v = get(o, "comm_fraction")) {
    auto f = number(*v, p + "/comm_fraction", 0, 0.99);
    ok = ok && f.has_value();
    if (f) t.comm_fraction = *f;
  }
  if (t.kind == TopologyKind::custom) ok = load_custom_topology(o, p, t) && ok;
  if (!ok) return;
  // Build it now, so a cluster the topology cannot hold is an input error with its pointer.
  uint32_t n_nodes = 0;
  for (const PoolInfo& info : pool_infos_) {
    if (!info.known) return;
    if (t.kind == TopologyKind::rail_optimized &&
        info.gpus_per_node != pool_infos_[0].gpus_per_node) {
      d_.error(p + "/kind", DiagCode::infeasible,
               "a rail-optimized topology has one rail per GPU of a node, so every pool needs "
               "the same GPUs per node; pool " +
                   in_quotes(info.name) + " differs");
      return;
    }
    n_nodes += info.count;
  }
  if (pool_infos_.empty() || sc.pools.empty()) return;
  const InstanceType* first = catalog_.find_instance(sc.pools[0].instance);
  if (first == nullptr) return;
  // NOTE: sized before it is built: a fat-tree of k = 65536 would take minutes and gigabytes.
  uint64_t cluster_gpus = 0;
  for (const PoolInfo& info : pool_infos_) cluster_gpus += info.gpus;
  const double size = topology_size(t, n_nodes, first->gpus_per_node);
  const double limit = topology_size_limit(sc.limits, cluster_gpus);
  if (size > limit) {
    d_.error(p, DiagCode::limit_exceeded,
             "this topology has about " + num(std::round(size)) +
                 " switches, hosts and links, more than limits.max_topology_size (" + num(limit) +
                 (sc.limits.max_topology_size > 0
                      ? ""
                      : ", by default " + num(TOPOLOGY_SIZE_PER_GPU) + " per GPU of the " +
                            std::to_string(cluster_gpus) + "-GPU cluster, at least " +
                            num(MIN_TOPOLOGY_SIZE)) +
                 "); size it to the cluster (fewer spines, a smaller k or fewer units) or raise "
                 "limits.max_topology_size");
    return;
  }
  try {
    uint32_t hosts_per_node = 1;
    const auto built =
        build_topology(t, n_nodes, first->gpus_per_node, node_link_gbps(*first), hosts_per_node);
    if (topologies::make_tables(built).top_level >= topologies::make_tables(built).n_levels)
      d_.error(p, DiagCode::infeasible,
               "the topology is not connected; link every host to the rest of the network");
  } catch (const std::invalid_argument& e) {
    d_.error(p, DiagCode::infeasible, e.what());
  }
}

bool Loader::load_custom_topology(const json& o, const std::string& p, TopologyConfig& t) {
  bool ok = true;
  const json* vs = need(o, p, "vertices", "[{\"name\": \"h0\", \"kind\": \"host\"}, ...]");
  const json* ls =
      need(o, p, "links", "[{\"a\": \"h0\", \"b\": \"leaf0\", \"bandwidth\": \"400Gbps\"}, ...]");
  if (vs == nullptr || ls == nullptr) return false;
  if (!vs->is_array() || !ls->is_array()) {
    wrong_type(vs->is_array() ? *ls : *vs, p + (vs->is_array() ? "/links" : "/vertices"),
               "an array");
    return false;
  }
  for (size_t i = 0; i < vs->size(); ++i) {
    const std::string vp = child(p + "/vertices", i);
    const json& v = (*vs)[i];
    if (!object(v, vp)) {
      ok = false;
      continue;
    }
    check_keys(v, vp, {"name", "kind", "level"});
    CustomVertexSpec cv;
    if (const json* x = need(v, vp, "name", "a unique vertex name")) {
      auto n = name(*x, vp + "/name");
      ok = ok && n.has_value();
      if (n) cv.name = *n;
    }
    if (const json* x = get(v, "kind")) {
      auto kk = enumerator<CustomVertexKind>(*x, vp + "/kind");
      ok = ok && kk.has_value();
      if (kk) cv.kind = *kk;
    }
    if (const json* x = get(v, "level")) {
      auto n = integer(*x, vp + "/level", 0, 16);
      ok = ok && n.has_value();
      if (n) cv.level = static_cast<uint32_t>(*n);
    }
    t.vertices.push_back(cv);
  }
  for (size_t i = 0; i < ls->size(); ++i) {
    const std::string lp = child(p + "/links", i);
    const json& l = (*ls)[i];
    if (!object(l, lp)) {
      ok = false;
      continue;
    }
    check_keys(l, lp, {"a", "b", "bandwidth", "latency"});
    CustomLinkSpec cl;
    for (auto [key, field] : {std::pair{"a", &cl.a}, std::pair{"b", &cl.b}}) {
      if (const json* x = need(l, lp, key, "a vertex name")) {
        auto n = name(*x, child(lp, key));
        ok = ok && n.has_value();
        if (n) *field = *n;
      }
    }
    if (const json* x = need(l, lp, "bandwidth", "e.g. \"400Gbps\"")) {
      auto b = bandwidth(*x, lp + "/bandwidth");
      ok = ok && b.has_value();
      if (b) cl.bandwidth_gbps = *b;
    }
    if (const json* x = get(l, "latency")) {
      auto d = duration(*x, lp + "/latency", false);
      ok = ok && d.has_value();
      if (d) cl.latency_s = *d;
    }
    t.links.push_back(cl);
  }
  return ok;
}

}  // namespace gpuplan::loading
