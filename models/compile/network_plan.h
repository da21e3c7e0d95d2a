#pragma once
//! The network part of the model and compile stages: builds the scenario's topology over its
//! cluster nodes (pools in file order, nodes in order), and compiles the flat tables the core's
//! placement and link-sharing code reads (sim/core/network_types.h): switch groups per node and
//! level, uplink capacities, and per (class, GPU count, pool) communication cost rows from the
//! collective and speed models.
#include <cstdint>
#include <string>
#include <vector>

#include "models/scenario/scenario.h"
#include "sim/core/model.h"
#include "topologies/tables.h"
#include "topologies/topology.h"

namespace gpuplan {

//! Default bandwidth of a node's network link [Gb/s]: its NICs x line rate, else 100 Gb/s.
[[nodiscard]] double node_link_gbps(const InstanceType& it);

//! Builds the topology of `t` for `n_nodes` cluster nodes of `gpus_per_node` GPUs whose NICs
//! give `link_gbps` by default; hosts of node i are [i * hosts_per_node, (i + 1) *
//! hosts_per_node) (hosts_per_node = gpus_per_node for rail_optimized, else 1). Throws
//! std::invalid_argument with a sentence naming the fix when the cluster does not fit it.
[[nodiscard]] topologies::Topology build_topology(const TopologyConfig& t, uint32_t n_nodes,
                                                  uint32_t gpus_per_node, double link_gbps,
                                                  uint32_t& hosts_per_node);

//! Duration [s] of every job of a class whose training sets `tokens`: tokens / batch steps of
//! the ideal step on the reference GPU of the class's first pool; nullopt for other classes.
[[nodiscard]] std::optional<double> training_duration_s(const Scenario& sc, const JobClass& jc);

//! GPU type a class's durations refer to in pool `pool` (its reference GPU, or the pool's own).
[[nodiscard]] const GpuSpec* reference_gpu(const Scenario& sc, const JobClass& jc, size_t pool);

//! Duration multiplier of class `jc` on pool `pool`'s GPU: with a throughput matrix
//! (JobClass::gpu_speeds) speed on the reference GPU (reference_gpu, else the GPU of the first
//! pool the class may use) / speed on the pool's; else 1 / relative_speed at the class's
//! precision (bf16 without a training description); 1 without a reference GPU.
[[nodiscard]] double gpu_slowdown(const Scenario& sc, const JobClass& jc, size_t pool);

//! Owns the network arrays behind ModelView::net, plus what reports show.
struct NetworkPlan {
  NetworkView scalars;  //!< scalar fields; spans set by view()
  std::vector<uint32_t> node_group, level_group0, group_start, group_nodes;
  std::vector<double> uplink_gbps, node_line_gbps;
  std::vector<uint32_t> class_row0, class_rows, row_gpus;
  std::vector<double> comm_fixed, comm_volume, comm_intra_gbyte_s, comm_inter_gbyte_s;

  //! The built graph (its name, e.g. "leaf_spine(16x32, 4 spines)"; reports draw it as DOT).
  topologies::Topology topology;
  //! [n_edges, boost::edges order] uplink groups whose upward links include the edge (an edge
  //! that skips levels, e.g. host to spine, is in the uplink of a group at each level it skips).
  std::vector<std::vector<uint32_t>> edge_groups;
  std::vector<uint32_t> group_level;     //!< [n_groups] topology level of each group
  std::vector<std::string> group_label;  //!< [n_groups] the group's highest vertex, e.g. leaf3
  topologies::TopologyTables tables;     //!< host-level tables (reports)
  uint32_t hosts_per_node = 1;

  //! The core's view over the arrays above.
  [[nodiscard]] NetworkView view() const;
};

//! Compiles the scenario's topology and communication rows; empty plan (n_levels 0) without a
//! topology key. `node_pool` maps node -> pool as compile built it.
[[nodiscard]] NetworkPlan plan_network(const Scenario& sc, const std::vector<uint8_t>& node_pool);

}  // namespace gpuplan
