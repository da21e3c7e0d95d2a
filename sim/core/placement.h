#pragma once
//! Placement policies (enum switch): which node takes a job that fits in one node, and which
//! whole free nodes of one pool take a gang. best_fit is the contract default (ARCHITECTURE §4);
//! pack, spread and topology_aware read the compiled switch groups of sim/core/network_types.h.
#include "sim/core/cluster.h"

namespace gpuplan {

//! Worst fit inside one node: the eligible node with the most free GPUs >= gpus, lowest index.
[[nodiscard]] GPUPLAN_HD inline uint32_t worst_fit_node(const ModelView& m, const ReplicaState& s,
                                                        uint32_t gpus, uint64_t pool_mask) {
  for (uint32_t level = m.max_gpus_per_node; level >= gpus && level > 0; --level) {
    if (s.level_nodes[level] == 0) continue;  // no node at this level: skip its words
    const uint32_t node = first_node_at_level(m, s, level, 0, m.n_nodes, pool_mask);
    if (node != NONE) return node;
  }
  return NONE;
}

//! Node for a job of `gpus` <= the class's largest node, per the placement policy, or NONE.
[[nodiscard]] GPUPLAN_HD inline uint32_t single_node_for(const ModelView& m, const ReplicaState& s,
                                                         uint32_t gpus, uint64_t pool_mask) {
  switch (m.placement) {
    case Placement::spread:
      return worst_fit_node(m, s, gpus, pool_mask);
    case Placement::best_fit:
    case Placement::pack:
    case Placement::topology_aware:
      return best_fit_node(m, s, gpus, pool_mask);
  }
  return NONE;
}

//! Nodes in [first, end) with exactly `level` free GPUs (a popcount of that level's bits).
[[nodiscard]] GPUPLAN_HD inline uint32_t free_nodes_in_range(const ReplicaState& s, uint32_t level,
                                                             uint32_t first, uint32_t end) {
  const uint64_t* bits = &s.level_bits[level * s.words];
  uint32_t n = 0;
  for (uint32_t w = first / 64; w * 64 < end; ++w) {
    uint64_t word = bits[w];
    if (w == first / 64) word &= ~0ull << (first % 64);
    if ((w + 1) * 64 > end) word &= (1ull << (end % 64)) - 1;  // here 0 < end % 64 < 64
    n += count_bits(word);
  }
  return n;
}

//! Completely free nodes of pool `pool` in switch group `g`; with `out`, writes the lowest
//! `need` of them and stops there.
GPUPLAN_HD inline uint32_t group_free_nodes(const ModelView& m, const ReplicaState& s, uint32_t g,
                                            uint32_t pool, uint32_t need, uint32_t* out) {
  const uint32_t full = m.pools[pool].gpus_per_node;
  uint32_t found = 0;
  for (uint32_t i = m.net.group_start[g]; i < m.net.group_start[g + 1]; ++i) {
    const uint32_t node = m.net.group_nodes[i];
    if (m.node_pool[node] != pool || s.node_free[node] != full) continue;
    if (out) {
      out[found] = node;
      if (found + 1 == need) return need;
    }
    ++found;
  }
  return found;
}

//! The `need` lowest-indexed free nodes of pool `pool` (the pool has that many).
GPUPLAN_HD inline uint32_t lowest_free_nodes(const ModelView& m, const ReplicaState& s,
                                             uint32_t pool, uint32_t need, uint32_t* out) {
  const PoolSpec& p = m.pools[pool];
  uint32_t from = p.first_node;
  for (uint32_t k = 0; k < need; ++k) {
    out[k] = first_node_at_level(m, s, p.gpus_per_node, from, p.first_node + p.n_nodes, ~0ull);
    from = out[k] + 1;
  }
  return need;
}

//! pack: the first leaf (in order) that holds the whole gang, else the lowest free nodes.
GPUPLAN_HD inline uint32_t pack_nodes(const ModelView& m, const ReplicaState& s, uint32_t pool,
                                      uint32_t need, uint32_t* out) {
  const uint32_t L = m.net.leaf_level;
  for (uint32_t g = m.net.level_group0[L]; g < m.net.level_group0[L + 1]; ++g)
    if (group_free_nodes(m, s, g, pool, need, nullptr) >= need)
      return group_free_nodes(m, s, g, pool, need, out);
  return lowest_free_nodes(m, s, pool, need, out);
}

//! topology_aware: the lowest level with a group that holds the gang, and there the group with
//! the fewest free nodes that suffice (best fit keeps large holes for large gangs), ties to the
//! lowest group; its lowest free nodes.
GPUPLAN_HD inline uint32_t topology_nodes(const ModelView& m, const ReplicaState& s, uint32_t pool,
                                          uint32_t need, uint32_t* out) {
  for (uint32_t L = 0; L < m.net.n_levels; ++L) {
    uint32_t best = NONE, best_free = NONE;
    for (uint32_t g = m.net.level_group0[L]; g < m.net.level_group0[L + 1]; ++g) {
      const uint32_t f = group_free_nodes(m, s, g, pool, need, nullptr);
      if (f >= need && f < best_free) {
        best = g;
        best_free = f;
      }
    }
    if (best != NONE) return group_free_nodes(m, s, best, pool, need, out);
  }
  return lowest_free_nodes(m, s, pool, need, out);
}

//! spread: round r takes the r-th free node of every leaf in turn, until the gang is complete.
GPUPLAN_HD inline uint32_t spread_nodes(const ModelView& m, const ReplicaState& s, uint32_t pool,
                                        uint32_t need, uint32_t* out) {
  const uint32_t L = m.net.leaf_level;
  const uint32_t full = m.pools[pool].gpus_per_node;
  uint32_t found = 0;
  for (uint32_t round = 0; found < need && round < m.n_nodes; ++round) {
    for (uint32_t g = m.net.level_group0[L]; g < m.net.level_group0[L + 1] && found < need; ++g) {
      uint32_t seen = 0;
      for (uint32_t i = m.net.group_start[g]; i < m.net.group_start[g + 1]; ++i) {
        const uint32_t node = m.net.group_nodes[i];
        if (m.node_pool[node] != pool || s.node_free[node] != full) continue;
        if (seen++ == round) {
          out[found++] = node;
          break;
        }
      }
    }
  }
  return found;
}

//! Whole free nodes of one pool for a gang larger than a node, per the placement policy: the
//! first eligible pool with enough free nodes, then the policy's choice inside it; returns how
//! many nodes it wrote (0 = the gang does not fit now).
[[nodiscard]] GPUPLAN_HD inline uint32_t gang_nodes_for(const ModelView& m, const ReplicaState& s,
                                                        uint32_t gpus, uint64_t pool_mask,
                                                        uint32_t* out) {
  if (m.placement == Placement::best_fit || m.net.n_levels == 0)
    return whole_free_nodes(m, s, gpus, pool_mask, out);
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (!((pool_mask >> p) & 1)) continue;
    const PoolSpec& pool = m.pools[p];
    const uint32_t need = (gpus + pool.gpus_per_node - 1) / pool.gpus_per_node;
    if (need > pool.n_nodes || need > m.max_nodes_per_job) continue;
    if (free_nodes_in_range(s, pool.gpus_per_node, pool.first_node,
                            pool.first_node + pool.n_nodes) < need)
      continue;
    switch (m.placement) {
      case Placement::pack:
        return pack_nodes(m, s, p, need, out);
      case Placement::topology_aware:
        return topology_nodes(m, s, p, need, out);
      case Placement::spread:
        return spread_nodes(m, s, p, need, out);
      case Placement::best_fit:
        return lowest_free_nodes(m, s, p, need, out);
    }
  }
  return 0;
}

}  // namespace gpuplan
