#include "models/compile/network_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include <boost/graph/connected_components.hpp>
#include <boost/graph/filtered_graph.hpp>

#include "models/perf/collectives.h"
#include "models/compile/const_span.h"
#include "models/perf/speed.h"
#include "topologies/builders.h"

namespace gpuplan {
namespace {

namespace topo = topologies;
constexpr double INF = std::numeric_limits<double>::infinity();

Precision precision_of(const JobClass& jc) {
  return jc.training ? jc.training->precision : Precision::bf16;
}

// Keeps vertices of level <= max_level.
struct AtOrBelow {
  const topo::Graph* g = nullptr;
  uint32_t max_level = 0;
  bool operator()(topo::Vertex v) const { return (*g)[v].level <= max_level; }
};

//! Cost of one data-parallel all-reduce per step of a training job of `gpus` GPUs on `pool`.
struct StepComm {
  double compute_s = 0;        //!< [s] per step on the reference GPU
  double volume_gbyte = 0;     //!< [GB] bytes x busbw factor, exposed share
  double intra_gbyte_s = INF;  //!< [GB/s]
  double inter_gbyte_s = INF;  //!< [GB/s] at full line rate
  CommPlacement dp;            //!< the data-parallel group's placement (latency per span)
  double exposed = 1;          //!< 1 - overlap
};

StepComm step_comm(const TrainingSpec& t, const InstanceType& inst, const GpuSpec& own,
                   const GpuSpec& ref, uint32_t gpus, uint32_t gpn) {
  StepComm out;
  const uint32_t n_nodes = (gpus + gpn - 1) / gpn;
  const uint32_t per_node = std::min(gpus, gpn);
  const uint32_t tp = t.data_parallel ? 1 : per_node;
  const uint32_t dp_degree = t.data_parallel ? gpus : n_nodes;
  TrainingJob tj;
  tj.params = t.params;
  tj.tokens = t.batch_tokens;
  tj.tokens_per_step = t.batch_tokens;
  tj.precision = t.precision;
  tj.mfu = t.mfu;
  tj.data_parallel = dp_degree;
  tj.tensor_parallel = tp;
  out.compute_s = compute_time_s(tj, ref, gpus);
  out.exposed = 1.0 - std::clamp(t.overlap, 0.0, 1.0);
  // NOTE: the data-parallel group as models/perf/speed.cpp estimate_training() forms it.
  out.dp = make_comm_placement(inst, own, per_node, n_nodes, 1.0);
  const uint32_t groups_per_node = std::min(tp, per_node);
  out.dp.ranks_per_node = std::max<uint32_t>(per_node / tp, 1);
  out.dp.n_nodes = std::max<uint32_t>(dp_degree / out.dp.ranks_per_node, 1);
  out.dp.node_net_gbps /= groups_per_node;
  if (dp_degree <= 1) return out;
  const AllReducePrediction pred = predict_allreduce(out.dp);
  out.intra_gbyte_s = pred.intra_busbw_gbyte_s;
  out.inter_gbyte_s = pred.inter_busbw_gbyte_s;
  const double bytes = tj.grad_bytes_per_param * t.params / tp;
  out.volume_gbyte =
      out.exposed * bytes * busbw_factor(Collective::all_reduce, out.dp.n_ranks()) / 1e9;
  return out;
}

//! Exposed all-reduce time of `c` at span latency `extra_s` and `frac` of the line rate [s].
double comm_s(StepComm c, double extra_s, double frac) {
  if (c.volume_gbyte == 0) return 0;
  c.dp.extra_hop_latency_s = extra_s;
  const double bw = std::min(c.intra_gbyte_s, c.inter_gbyte_s * frac);
  return c.exposed * predict_allreduce(c.dp).latency_s + c.volume_gbyte / bw;
}

}  // namespace

double node_link_gbps(const InstanceType& it) {
  return it.nics > 0 && it.nic_gbps > 0 ? it.nics * it.nic_gbps : 100.0;
}

topo::Topology build_topology(const TopologyConfig& t, uint32_t n_nodes, uint32_t gpn,
                              double link_gbps, uint32_t& hosts_per_node) {
  hosts_per_node = 1;
  const double link = t.link_gbps.value_or(link_gbps);
  const double lat = t.latency_s.value_or(topo::NIC_LATENCY_S);
  // NOTE: a leaf with more ports than the cluster has nodes is built with the nodes there are:
  // the hosts it would add hold no job, yet cost memory (nodes_per_leaf 1e6 was 840 MB).
  const uint32_t per_leaf =
      t.nodes_per_leaf && t.nodes_per_leaf < n_nodes ? t.nodes_per_leaf : n_nodes;
  const auto n_leaves = [&] { return (n_nodes + per_leaf - 1) / per_leaf; };
  topo::Topology out;
  switch (t.kind) {
    case TopologyKind::none:
      throw std::logic_error("build_topology: no topology");
    case TopologyKind::single_switch:
      out = topo::single_switch(n_nodes, {link, lat});
      break;
    case TopologyKind::two_level_tree: {
      const double up = t.uplink_gbps.value_or(per_leaf * link / t.oversubscription);
      out = topo::two_level_tree(n_leaves(), per_leaf, {link, lat}, {up, topo::SWITCH_HOP_S});
      break;
    }
    case TopologyKind::leaf_spine: {
      topo::LeafSpineSpec spec;
      spec.hosts_per_leaf = per_leaf;
      spec.n_leaves = n_leaves();
      spec.n_spines = t.spines ? t.spines : 4;
      spec.host_link = {link, lat};
      spec.spine_link = {
          t.uplink_gbps.value_or(spec.hosts_per_leaf * link / t.oversubscription / spec.n_spines),
          topo::SWITCH_HOP_S};
      out = topo::leaf_spine(spec);
      break;
    }
    case TopologyKind::fat_tree: {
      uint32_t k = t.k;
      if (k == 0)
        for (k = 2; k * k * k / 4 < n_nodes;) k += 2;  // the smallest k-ary fat-tree that fits
      out = topo::fat_tree(k, {link, topo::SWITCH_HOP_S});
      break;
    }
    case TopologyKind::rail_optimized: {
      topo::RailSpec spec;
      spec.nodes_per_su = t.nodes_per_su;
      spec.n_su = t.su ? t.su : (n_nodes + spec.nodes_per_su - 1) / spec.nodes_per_su;
      spec.gpus_per_node = gpn;
      spec.n_spines =
          t.spines ? t.spines : (spec.n_su <= 4 ? topo::dgx_h100_superpod(spec.n_su).n_spines : 16);
      spec.rail_link = {t.link_gbps.value_or(400), lat};
      if (t.uplink_gbps) spec.spine_link.bandwidth_gbps = *t.uplink_gbps;
      // Non-blocking rail leaves: as many uplinks as nodes below, spread evenly over spines.
      spec.uplinks_per_leaf =
          (spec.nodes_per_su + spec.n_spines - 1) / spec.n_spines * spec.n_spines;
      out = topo::rail_optimized(spec);
      hosts_per_node = gpn;
      break;
    }
    case TopologyKind::tree_ring_hybrid: {
      topo::TreeRingSpec spec;
      spec.groups_per_switch = t.groups_per_switch;
      spec.workers_per_group = t.workers_per_group;
      spec.worker_link = {t.link_gbps.value_or(100), lat};
      spec.ring_link = {t.link_gbps.value_or(100), lat};
      spec.master_link = {t.uplink_gbps.value_or(400), topo::SWITCH_HOP_S};
      out = topo::tree_ring_hybrid(spec);
      break;
    }
    case TopologyKind::custom: {
      std::vector<topo::CustomVertex> vs;
      for (const auto& v : t.vertices) {
        topo::VertexKind kind = topo::VertexKind::host;
        if (v.kind == CustomVertexKind::network_switch) kind = topo::VertexKind::network_switch;
        if (v.kind == CustomVertexKind::node_switch) kind = topo::VertexKind::node_switch;
        if (v.kind == CustomVertexKind::controller) kind = topo::VertexKind::controller;
        vs.push_back({v.name, kind, v.level});
      }
      std::vector<topo::CustomLink> ls;
      for (const auto& l : t.links) ls.push_back({l.a, l.b, {l.bandwidth_gbps, l.latency_s}});
      out = topo::custom(vs, ls);
      break;
    }
  }
  if (out.n_hosts() < uint64_t{n_nodes} * hosts_per_node)
    throw std::invalid_argument(
        "the topology has " + std::to_string(out.n_hosts()) + " hosts but the pools have " +
        std::to_string(n_nodes) + " nodes" +
        (hosts_per_node > 1 ? " x " + std::to_string(hosts_per_node) + " GPUs (one host per GPU)"
                            : std::string()) +
        "; enlarge the topology or remove nodes");
  return out;
}

const GpuSpec* reference_gpu(const Scenario& sc, const JobClass& jc, size_t pool) {
  return jc.reference_gpu != nullptr ? jc.reference_gpu : sc.pools[pool].gpu;
}

namespace {

// The speed a class gives GPU `gpu` in its throughput matrix (0 when none).
double matrix_speed(const JobClass& jc, const GpuSpec* gpu) {
  for (const auto& [g, speed] : jc.gpu_speeds)
    if (gpu != nullptr && g->id == gpu->id) return speed;
  return 0.0;
}

}  // namespace

double gpu_slowdown(const Scenario& sc, const JobClass& jc, size_t pool) {
  const GpuSpec* own = sc.pools[pool].gpu;
  if (!jc.gpu_speeds.empty()) {
    // NOTE: durations refer to reference_gpu, else to the GPU of the first pool the class may
    // use; the loader checked every pair exists, so both speeds are > 0 here.
    size_t first = 0;
    while (first + 1 < sc.pools.size() && !jc.may_use(first)) ++first;
    const GpuSpec* ref = jc.reference_gpu ? jc.reference_gpu : sc.pools[first].gpu;
    const double s_ref = matrix_speed(jc, ref), s_own = matrix_speed(jc, own);
    return s_ref > 0 && s_own > 0 ? s_ref / s_own : 1.0;
  }
  const GpuSpec* ref = jc.reference_gpu;
  if (!ref || !own) return 1.0;
  const double speed = relative_speed(*own, *ref, precision_of(jc));
  return speed > 0 ? 1.0 / speed : 1.0;
}

std::optional<double> training_duration_s(const Scenario& sc, const JobClass& jc) {
  if (!jc.training || !jc.training->tokens || jc.gpus.values.size() != 1) return std::nullopt;
  const TrainingSpec& t = *jc.training;
  size_t pool = 0;
  while (pool + 1 < sc.pools.size() && !jc.may_use(pool)) ++pool;
  const InstanceType& inst = sc.instance_of(sc.pools[pool]);
  const GpuSpec* ref = reference_gpu(sc, jc, pool);
  const uint32_t gpus = jc.gpus.values[0];
  const double steps = *t.tokens / t.batch_tokens;
  if (t.step_time_s) return steps * *t.step_time_s;
  const StepComm c = step_comm(t, inst, sc.gpu_of(sc.pools[pool]), *ref, gpus, inst.gpus_per_node);
  // NOTE: the ideal placement of a gang is one leaf at full line rate (no extra hops).
  return steps * (c.compute_s + comm_s(c, 0.0, 1.0));
}

NetworkView NetworkPlan::view() const {
  NetworkView v = scalars;
  v.node_group = const_span(node_group);
  v.level_group0 = const_span(level_group0);
  v.group_start = const_span(group_start);
  v.group_nodes = const_span(group_nodes);
  v.uplink_gbps = const_span(uplink_gbps);
  v.node_line_gbps = const_span(node_line_gbps);
  v.class_row0 = const_span(class_row0);
  v.class_rows = const_span(class_rows);
  v.row_gpus = const_span(row_gpus);
  v.comm_fixed = const_span(comm_fixed);
  v.comm_volume = const_span(comm_volume);
  v.comm_intra_gbyte_s = const_span(comm_intra_gbyte_s);
  v.comm_inter_gbyte_s = const_span(comm_inter_gbyte_s);
  return v;
}

NetworkPlan plan_network(const Scenario& sc, const std::vector<uint8_t>& node_pool) {
  NetworkPlan plan;
  if (sc.topology.kind == TopologyKind::none) return plan;
  const uint32_t n_nodes = static_cast<uint32_t>(node_pool.size());
  const InstanceType& first = sc.instance_of(sc.pools.at(0));
  plan.topology = build_topology(sc.topology, n_nodes, first.gpus_per_node, node_link_gbps(first),
                                 plan.hosts_per_node);
  const topo::Topology& t = plan.topology;
  const uint32_t hpn = plan.hosts_per_node;
  plan.tables = topo::make_tables(t);
  const topo::TopologyTables& tt = plan.tables;
  const uint32_t L_n = tt.n_levels;
  NetworkView& v = plan.scalars;
  v.n_levels = L_n;
  v.leaf_level = L_n >= 2 ? 1 : 0;

  // Node groups per level, renumbered over cluster nodes, with their upward link capacity.
  const topo::Graph& g = t.graph;
  const size_t n_v = boost::num_vertices(g);
  plan.node_group.assign(size_t(L_n) * n_nodes, 0);
  plan.edge_groups.assign(boost::num_edges(g), {});
  std::vector<uint32_t> group_size;
  for (uint32_t L = 0; L < L_n; ++L) {
    plan.level_group0.push_back(static_cast<uint32_t>(plan.uplink_gbps.size()));
    const boost::filtered_graph<topo::Graph, boost::keep_all, AtOrBelow> fg(g, boost::keep_all(),
                                                                            AtOrBelow{&g, L});
    std::vector<int> comp(n_v, -1);
    boost::connected_components(
        fg, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, g)));
    std::map<int, uint32_t> local;  // component -> global group
    for (uint32_t n = 0; n < n_nodes; ++n) {
      const int c = comp[t.hosts[size_t(n) * hpn]];
      auto [it, fresh] = local.try_emplace(c, static_cast<uint32_t>(plan.uplink_gbps.size()));
      if (fresh) {
        plan.uplink_gbps.push_back(0);
        plan.group_level.push_back(L);
        plan.group_label.emplace_back();
        group_size.push_back(0);
      }
      plan.node_group[size_t(L) * n_nodes + n] = it->second;
      group_size[it->second] += 1;
    }
    // A group is named after its highest vertex (the first one found at that level).
    std::vector<uint32_t> label_level(plan.group_label.size(), 0);
    for (topo::Vertex v = 0; v < n_v; ++v) {
      const auto it = local.find(comp[v]);
      if (g[v].level > L || it == local.end()) continue;
      std::string& label = plan.group_label[it->second];
      if (label.empty() || g[v].level > label_level[it->second]) {
        label = g[v].name;
        label_level[it->second] = g[v].level;
      }
    }
    std::size_t edge_idx = 0;
    for (const topo::Edge e : boost::make_iterator_range(boost::edges(g))) {
      const std::size_t idx = edge_idx++;
      topo::Vertex a = boost::source(e, g), b = boost::target(e, g);
      if (g[a].level > g[b].level) std::swap(a, b);
      if (g[a].level > L || g[b].level <= L) continue;
      const auto it = local.find(comp[a]);
      if (it == local.end()) continue;
      plan.uplink_gbps[it->second] += g[e].bandwidth_gbps;
      plan.edge_groups[idx].push_back(it->second);
    }
    if (L + 1 == L_n && local.size() != 1)
      throw std::invalid_argument("the topology is not connected: its nodes form " +
                                  std::to_string(local.size()) + " separate groups");
  }
  plan.level_group0.push_back(static_cast<uint32_t>(plan.uplink_gbps.size()));
  v.n_groups = static_cast<uint32_t>(plan.uplink_gbps.size());
  plan.group_start.assign(v.n_groups + 1, 0);
  for (uint32_t gi = 0; gi < v.n_groups; ++gi)
    plan.group_start[gi + 1] = plan.group_start[gi] + group_size[gi];
  plan.group_nodes.assign(plan.group_start.back(), 0);
  std::vector<uint32_t> fill(plan.group_start.begin(), plan.group_start.end() - 1);
  for (uint32_t L = 0; L < L_n; ++L)
    for (uint32_t n = 0; n < n_nodes; ++n)
      plan.group_nodes[fill[plan.node_group[size_t(L) * n_nodes + n]]++] = n;
  double min_line = INF;
  for (uint32_t n = 0; n < n_nodes; ++n) {
    const uint32_t g0 = plan.node_group[n];
    plan.node_line_gbps.push_back(plan.uplink_gbps[g0] / group_size[g0]);
    min_line = std::min(min_line, plan.node_line_gbps.back());
  }
  v.span0_frac =
      std::isinf(tt.level_bw_gbps[0]) ? 1.0 : std::min(1.0, tt.level_bw_gbps[0] * hpn / min_line);
  // Largest group per level in nodes, for the ideal span of a gang.
  std::vector<uint32_t> level_nodes(L_n, 0);
  for (uint32_t L = 0; L < L_n; ++L)
    for (uint32_t gi = plan.level_group0[L]; gi < plan.level_group0[L + 1]; ++gi)
      level_nodes[L] = std::max(level_nodes[L], group_size[gi]);

  // Communication rows: one per distinct GPU count of a synthetic class; one for a trace class.
  const size_t n_pools = sc.pools.size();
  for (const JobClass& jc : sc.workload) {
    plan.class_row0.push_back(static_cast<uint32_t>(plan.row_gpus.size()));
    std::vector<uint32_t> sizes = jc.gpus.values;
    if (jc.trace) {
      uint32_t mx = 1;
      for (const TraceRow& r : jc.trace_rows) mx = std::max(mx, r.gpus);
      sizes = {mx};
    }
    plan.class_rows.push_back(static_cast<uint32_t>(sizes.size()));
    const double default_fraction = jc.comm_fraction.value_or(sc.topology.comm_fraction);
    for (const uint32_t gpus : sizes) {
      plan.row_gpus.push_back(gpus);
      for (size_t p = 0; p < n_pools; ++p) {
        const InstanceType& inst = sc.instance_of(sc.pools[p]);
        const uint32_t gpn = inst.gpus_per_node;
        const uint32_t need = (gpus + gpn - 1) / gpn;
        uint32_t ideal = 0;
        while (ideal + 1 < L_n && level_nodes[ideal] < need) ++ideal;
        const double ideal_frac = ideal == 0 ? v.span0_frac : 1.0;
        std::vector<double> fixed(L_n, 1.0);
        double volume = 0, intra = INF, inter = 1;
        if (jc.training && need > 1) {
          const StepComm c = step_comm(*jc.training, inst, sc.gpu_of(sc.pools[p]),
                                       *reference_gpu(sc, jc, p), gpus, gpn);
          const auto extra = [&](uint32_t L) {
            return std::max(0.0, tt.level_latency_s[L] - tt.level_latency_s[ideal]);
          };
          const double comm_ideal = comm_s(c, extra(ideal), ideal_frac);
          double compute = c.compute_s;
          if (jc.training->step_time_s)
            compute = std::max(0.0, *jc.training->step_time_s - comm_ideal);
          const double step = compute + comm_ideal;
          for (uint32_t L = 0; L < L_n; ++L) {
            StepComm lat_only = c;
            lat_only.volume_gbyte = 0;
            lat_only.dp.extra_hop_latency_s = extra(L);
            const double lat =
                c.volume_gbyte > 0 ? c.exposed * predict_allreduce(lat_only.dp).latency_s : 0.0;
            fixed[L] = step > 0 ? (compute + lat) / step : 1.0;
          }
          volume = step > 0 ? c.volume_gbyte / step : 0;
          intra = c.intra_gbyte_s;
          inter = c.inter_gbyte_s;
        } else if (default_fraction > 0 && need > 1) {
          std::fill(fixed.begin(), fixed.end(), 1.0 - default_fraction);
          volume = default_fraction;
        }
        plan.comm_fixed.insert(plan.comm_fixed.end(), fixed.begin(), fixed.end());
        plan.comm_volume.push_back(volume);
        plan.comm_intra_gbyte_s.push_back(intra);
        plan.comm_inter_gbyte_s.push_back(inter);
      }
    }
  }
  return plan;
}

}  // namespace gpuplan
