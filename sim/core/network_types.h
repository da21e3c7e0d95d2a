#pragma once
//! Plain data of the network model: the compiled topology tables the core reads (NetworkView,
//! filled only by models/compile/network_plan.cpp) and the per-replica link-sharing state
//! (NetState). The logic lives in sim/core/placement.h and sim/core/network.h.
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! The cluster network as flat tables. Groups: at topology level L, nodes whose traffic can meet
//! below switches of level L + 1 form one group (level 1 = a leaf with its nodes, level 2 = a
//! spine domain or pod, ...); every group has one global index, and the group's uplink (its
//! links toward level L + 1) has that same index. n_levels == 0: one non-blocking switch, every
//! placement is ideal and no table is read.
struct NetworkView {
  uint32_t n_levels = 0;    //!< topology levels 0 .. n_levels-1
  uint32_t n_groups = 0;    //!< groups (= uplinks) over all levels
  uint32_t leaf_level = 1;  //!< level whose groups pack/spread fill (1 = leaves; 0 below 2 levels)
  double span0_frac = 1;    //!< bandwidth share of a multi-node gang inside one level-0 group
  span<const uint32_t>
      node_group;  //!< [n_levels * n_nodes] group of node n at level L at [L * n_nodes + n]
  span<const uint32_t> level_group0;  //!< [n_levels + 1] first global group index of each level
  span<const uint32_t>
      group_start;  //!< [n_groups + 1] offsets of each group's nodes in group_nodes
  span<const uint32_t> group_nodes;  //!< [n_levels * n_nodes] nodes of each group, ascending
  span<const double>
      uplink_gbps;  //!< [n_groups] capacity of a group's links upward [Gb/s] (0 at the top)
  span<const double> node_line_gbps;  //!< [n_nodes] a node's uncontended network bandwidth [Gb/s]
  // Communication cost rows: one per (class, GPU count); see comm_slowdown() in network.h.
  span<const uint32_t> class_row0;  //!< [n_classes] first row of each class
  span<const uint32_t> class_rows;  //!< [n_classes] rows of each class (>= 1)
  span<const uint32_t>
      row_gpus;  //!< [n_rows] GPU count of the row (last row of a class: any other)
  span<const double> comm_fixed;  //!< [(row * n_pools + pool) * n_levels + L] compute + latency
                                  //!< part of the step, / ideal step
  span<const double>
      comm_volume;  //!< [row * n_pools + pool] exposed all-reduce volume / ideal step [GB]
  span<const double>
      comm_intra_gbyte_s;  //!< [row * n_pools + pool] intra-node all-reduce busbw [GB/s]
  span<const double>
      comm_inter_gbyte_s;  //!< [row * n_pools + pool] network busbw at full line rate [GB/s]
};

//! Network state of one running job slot.
struct JobNet {
  double work_left;      //!< [s] reference work still to do at `since`
  SimTime since;         //!< [s] when work_left was last brought up to date
  SimTime started;       //!< [s] when the job started
  double comm_integral;  //!< [s] integral of comm_slowdown over [started, since]
  double stretch;        //!< simulated seconds per reference second: gpu slowdown x comm slowdown
  double gpu_slowdown;   //!< duration multiplier of the pool's GPU type
  double comm_slowdown;  //!< duration multiplier of the placement and current link sharing
  uint32_t row;          //!< communication row (NONE: single node, comm slowdown 1)
  uint32_t span_level;   //!< topology level the gang spans (NONE: single node)
  uint32_t list_pos;     //!< position in NetState::sharing (NONE: crosses no uplink)
};

//! Link sharing and fragmentation state of one replica.
struct NetState {
  span<JobNet> jobs;  //!< [max_active_jobs] by job slot (empty without a topology)
  span<uint32_t>
      uplink_load;  //!< [n_groups] nodes of running gangs whose traffic crosses the uplink
  span<uint32_t> uplink_mark;  //!< [n_groups] epoch of the uplink's last load change
  span<double> uplink_since;   //!< [n_groups] [s] when the uplink's load last changed
  // Window statistics per uplink, for the link-load shading of reports.
  span<double> uplink_node_s;  //!< [n_groups] [node·s] integral of uplink_load
  span<double>
      uplink_congested_s;  //!< [n_groups] [s] time its crossing nodes wanted more than capacity
  span<uint32_t> sharing;  //!< [max_active_jobs] running slots whose gang crosses an uplink
  uint32_t n_sharing = 0;
  uint32_t epoch = 0;
  uint32_t stranded_gpus = 0;  //!< free GPUs on partly used nodes (fragmentation)
  // Window statistics (jobs submitted in [warmup, horizon), time in [warmup, horizon)).
  double stranded_gpu_s = 0;  //!< [GPU·s] integral of stranded_gpus
  double comm_slowdown_sum =
      0;  //!< sum over completed multi-node jobs of run time / ideal run time
  uint64_t multi_node_completed = 0;
  uint64_t rate_changes = 0;  //!< finish times moved by link sharing (all times)
};

//! Calls `visit(span)` for every array of the network view (backends copy and re-point them).
template <class Visit>
void for_each_network_array(NetworkView& n, Visit&& visit) {
  visit(n.node_group);
  visit(n.level_group0);
  visit(n.group_start);
  visit(n.group_nodes);
  visit(n.uplink_gbps);
  visit(n.node_line_gbps);
  visit(n.class_row0);
  visit(n.class_rows);
  visit(n.row_gpus);
  visit(n.comm_fixed);
  visit(n.comm_volume);
  visit(n.comm_intra_gbyte_s);
  visit(n.comm_inter_gbyte_s);
}

}  // namespace gpuplan
