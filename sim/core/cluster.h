#pragma once
//! Cluster occupancy: free GPUs per node, indexed by free-GPU level so that best-fit placement
//! is a scan of a few 64-bit words instead of every node.
#include "sim/core/node_slots.h"

namespace gpuplan {

//! Puts `node` in or out of free-GPU `level`, keeping the level's node count (its popcount).
GPUPLAN_HD inline void set_level_bit(ReplicaState& s, uint32_t level, uint32_t node, bool on) {
  uint64_t& w = s.level_bits[level * s.words + node / 64];
  const uint64_t bit = 1ull << (node % 64);
  const bool was = (w & bit) != 0;
  w = on ? (w | bit) : (w & ~bit);
  s.level_nodes[level] += uint32_t(on) - uint32_t(was);  // +1, 0 or -1 (unsigned wrap)
}

//! Changes a node's free GPUs, keeping the level index in step.
GPUPLAN_HD inline void set_node_free(ReplicaState& s, uint32_t node, uint32_t free_gpus) {
  set_level_bit(s, s.node_free[node], node, false);
  s.node_free[node] = free_gpus;
  set_level_bit(s, free_gpus, node, true);
}

//! Marks every node a replica starts with fully free, and the other slots the last replica used
//! absent (at replica start).
GPUPLAN_HD inline void reset_cluster(const ModelView& m, ReplicaState& s) {
  // NOTE: only the words of slots a replica may have written hold bits (node_slots.h), so an
  // elastic pool's `max` costs no clearing beyond the slots it used.
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const uint32_t first = m.pools[p].first_node, end = first + slots_to_reset(m, s, p);
    if (end == first) continue;
    for (uint32_t l = 0; l <= m.max_gpus_per_node; ++l)
      for (uint32_t w = first / 64; w <= (end - 1) / 64; ++w) s.level_bits[l * s.words + w] = 0;
  }
  for (uint32_t l = 0; l <= m.max_gpus_per_node; ++l) s.level_nodes[l] = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    const uint32_t first = m.pools[p].first_node, start = first + slots_at_start(m, p);
    for (uint32_t n = first; n < start; ++n) {
      s.node_free[n] = m.pools[p].gpus_per_node;
      set_level_bit(s, s.node_free[n], n, true);
    }
    for (uint32_t n = start; n < first + slots_to_reset(m, s, p); ++n) s.node_free[n] = 0;
  }
}

//! The most free GPUs of any node (0 when every node is full), from the level index.
[[nodiscard]] GPUPLAN_HD inline uint32_t most_free_gpus(const ModelView& m, const ReplicaState& s) {
  // NOTE: from the level counts, not the bitsets: a full cluster (every ranked pass with a
  // waiting queue) then costs one read per level instead of every word of every level.
  for (uint32_t level = m.max_gpus_per_node; level > 0; --level)
    if (s.level_nodes[level] != 0) return level;
  return 0;
}

//! Lowest node in [first, end) of free-GPU `level` that the class may use, or NONE.
[[nodiscard]] GPUPLAN_HD inline uint32_t first_node_at_level(const ModelView& m,
                                                             const ReplicaState& s, uint32_t level,
                                                             uint32_t first, uint32_t end,
                                                             uint64_t pool_mask) {
  const uint64_t* bits = &s.level_bits[level * s.words];
  for (uint32_t w = first / 64; w * 64 < end; ++w) {
    uint64_t word = bits[w];
    if (w == first / 64) word &= ~0ull << (first % 64);
    if ((w + 1) * 64 > end) word &= (1ull << (end % 64)) - 1;  // here 0 < end % 64 < 64
    while (word) {
      const uint32_t node = w * 64 + lowest_bit(word);
      if (pool_mask == ~0ull || (pool_mask >> m.node_pool[node]) & 1) return node;
      word &= word - 1;
    }
  }
  return NONE;
}

//! Best fit inside one node: the eligible node with the fewest free GPUs >= gpus, lowest index.
[[nodiscard]] GPUPLAN_HD inline uint32_t best_fit_node(const ModelView& m, const ReplicaState& s,
                                                       uint32_t gpus, uint64_t pool_mask) {
  for (uint32_t level = gpus; level <= m.max_gpus_per_node; ++level) {
    if (s.level_nodes[level] == 0) continue;  // no node at this level: skip its words
    const uint32_t node = first_node_at_level(m, s, level, 0, m.n_nodes, pool_mask);
    if (node != NONE) return node;
  }
  return NONE;
}

//! Whole free nodes of one pool for a gang larger than a node: writes the lowest-indexed
//! completely free nodes of the first eligible pool that has enough; returns how many (0 = none).
[[nodiscard]] GPUPLAN_HD inline uint32_t whole_free_nodes(const ModelView& m, const ReplicaState& s,
                                                          uint32_t gpus, uint64_t pool_mask,
                                                          uint32_t* out_nodes) {
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (!((pool_mask >> p) & 1)) continue;
    const PoolSpec& pool = m.pools[p];
    const uint32_t need = (gpus + pool.gpus_per_node - 1) / pool.gpus_per_node;
    if (need > pool.n_nodes || need > m.max_nodes_per_job) continue;
    uint32_t found = 0;
    uint32_t from = pool.first_node;
    // NOTE: no slot past those the pool has had up holds a bit: the search stops there.
    const uint32_t end = pool.first_node + s.capacity.pool_slots_used[p];
    while (found < need) {
      const uint32_t node = first_node_at_level(m, s, pool.gpus_per_node, from, end, ~0ull);
      if (node == NONE) break;
      out_nodes[found++] = node;
      from = node + 1;
    }
    if (found == need) return need;
  }
  return 0;
}

}  // namespace gpuplan
