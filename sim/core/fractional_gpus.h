#pragma once
//! Fractional (milli-GPU) shared GPUs in the engine (docs/sharing.md, "Fractional GPUs"). Each GPU
//! of a fractional pool has MILLI_PER_GPU milli and its memory; a job holds `gpu_milli` of one GPU
//! and `gpu_memory` of its memory from start to finish. The milli is an allocation, as in FGD and
//! the Alibaba openb trace: a guaranteed share of the GPU (enforced by a sharing layer such as
//! MPS's active-thread percentage), so a job runs at its nominal speed whoever else holds the
//! rest; its duration is the class's (times the pool's slowdown), never re-rated.
//!
//! Placement index: every GPU of a fractional pool sits in the list of its free milli (0..1000),
//! and a bit set per pool marks the non-empty lists. best_fit takes the first GPU (with enough
//! memory) of the lowest non-empty list at or above the job's milli: the least free milli that
//! fits, pack_policy.h's GPU rule over the whole pool; worst_fit the highest list, the most free.
//! A GPU joins the head of its list, so ties go to the GPU that reached that free milli last (at
//! replica start, the lowest-numbered). A placement costs O(1001 / 64) word reads plus the GPUs it
//! skips for lack of memory; start and release O(1).
#include "sim/core/state.h"

namespace gpuplan {

//! Adds `gpu` of fractional pool spec `sp` at the head of the list of free milli `f`.
GPUPLAN_HD inline void frac_link(ReplicaState& s, const SharedPoolSpec& sp, uint32_t gpu,
                                 uint32_t f) {
  const uint32_t list = sp.level0 + f;
  const uint32_t head = s.share.level_head[list];
  s.share.gpu_next[gpu] = head;
  s.share.gpu_prev[gpu] = NONE;
  if (head != NONE) s.share.gpu_prev[head] = gpu;
  s.share.level_head[list] = gpu;
  const uint32_t pool_word = sp.level0 / (MILLI_PER_GPU + 1) * LEVEL_WORDS;
  s.share.level_bits[pool_word + f / 64] |= uint64_t{1} << (f % 64);
}

//! Takes `gpu` of fractional pool spec `sp` out of the list of free milli `f`.
GPUPLAN_HD inline void frac_unlink(ReplicaState& s, const SharedPoolSpec& sp, uint32_t gpu,
                                   uint32_t f) {
  const uint32_t list = sp.level0 + f;
  const uint32_t next = s.share.gpu_next[gpu], prev = s.share.gpu_prev[gpu];
  if (next != NONE) s.share.gpu_prev[next] = prev;
  if (prev != NONE) {
    s.share.gpu_next[prev] = next;
  } else {
    s.share.level_head[list] = next;
  }
  if (s.share.level_head[list] != NONE) return;
  const uint32_t pool_word = sp.level0 / (MILLI_PER_GPU + 1) * LEVEL_WORDS;
  s.share.level_bits[pool_word + f / 64] &= ~(uint64_t{1} << (f % 64));
}

//! Puts every GPU of fractional pool p, idle, in its 1000-milli list (at replica start).
GPUPLAN_HD inline void frac_reset_pool(const ModelView& m, ReplicaState& s, uint32_t p) {
  const SharedPoolSpec& sp = m.share.pools[p];
  for (uint32_t f = 0; f <= MILLI_PER_GPU; ++f) s.share.level_head[sp.level0 + f] = NONE;
  const uint32_t pool_word = sp.level0 / (MILLI_PER_GPU + 1) * LEVEL_WORDS;
  for (uint32_t w = 0; w < LEVEL_WORDS; ++w) s.share.level_bits[pool_word + w] = 0;
  const PoolSpec& pool = m.pools[p];
  // NOTE: linked from the last GPU back, so the list starts at the lowest-numbered one.
  for (uint32_t n = pool.first_node + pool.n_nodes; n-- > pool.first_node;)
    for (uint32_t g = pool.gpus_per_node; g-- > 0;) {
      const uint32_t gpu = n * m.max_gpus_per_node + g;
      s.share.gpu_used[gpu] = 0;
      s.share.gpu_mem_used[gpu] = 0;
      frac_link(s, sp, gpu, MILLI_PER_GPU);
    }
}

//! The non-empty list of pool word block `bits` nearest to `f` in direction `up` (f included),
//! not beyond `limit`; NONE when there is none.
GPUPLAN_HD inline uint32_t frac_next_level(const uint64_t* bits, uint32_t f, uint32_t limit,
                                           bool up) {
  if (up) {
    for (uint32_t w = f / 64; w <= limit / 64; ++w) {
      uint64_t word = bits[w];
      if (w == f / 64) word &= ~uint64_t{0} << (f % 64);
      if (word == 0) continue;
      const uint32_t level = w * 64 + lowest_bit(word);
      return level <= limit ? level : NONE;
    }
    return NONE;
  }
  for (uint32_t w = f / 64 + 1; w-- > limit / 64;) {
    uint64_t word = bits[w];
    if (w == f / 64 && f % 64 != 63) word &= (uint64_t{1} << (f % 64 + 1)) - 1;
    if (word == 0) continue;
    const uint32_t level = w * 64 + highest_bit(word);
    return level >= limit ? level : NONE;
  }
  return NONE;
}

//! The GPU of fractional pool p a job of `milli` and `mem_mib` takes under the pool's packing
//! rule (file comment), or NONE when no GPU has that much free milli and memory.
[[nodiscard]] GPUPLAN_HD inline uint32_t frac_pick(const ModelView& m, const ReplicaState& s,
                                                   uint32_t p, uint32_t milli, uint32_t mem_mib) {
  const SharedPoolSpec& sp = m.share.pools[p];
  const uint64_t* bits = &s.share.level_bits[sp.level0 / (MILLI_PER_GPU + 1) * LEVEL_WORDS];
  const bool best = sp.packing != PackPolicy::worst_fit;  // the loader allows only these two
  uint32_t f = best ? milli : MILLI_PER_GPU;
  const uint32_t limit = best ? MILLI_PER_GPU : milli;
  while ((f = frac_next_level(bits, f, limit, best)) != NONE) {
    for (uint32_t gpu = s.share.level_head[sp.level0 + f]; gpu != NONE; gpu = s.share.gpu_next[gpu])
      if (s.share.gpu_mem_used[gpu] + mem_mib <= sp.gpu_mem_mib) return gpu;
    if (f == limit) return NONE;
    f = best ? f + 1 : f - 1;
  }
  return NONE;
}

//! Moves `gpu` of fractional pool p by `milli` and `mem_mib`: taken (`take`) or given back.
GPUPLAN_HD inline void frac_move(const ModelView& m, ReplicaState& s, uint32_t p, uint32_t gpu,
                                 uint32_t milli, uint32_t mem_mib, bool take) {
  const SharedPoolSpec& sp = m.share.pools[p];
  const uint32_t used = s.share.gpu_used[gpu];
  frac_unlink(s, sp, gpu, MILLI_PER_GPU - used);
  const uint32_t now_used = take ? used + milli : used - milli;
  s.share.gpu_used[gpu] = now_used;
  s.share.gpu_mem_used[gpu] =
      take ? s.share.gpu_mem_used[gpu] + mem_mib : s.share.gpu_mem_used[gpu] - mem_mib;
  frac_link(s, sp, gpu, MILLI_PER_GPU - now_used);
}

}  // namespace gpuplan
