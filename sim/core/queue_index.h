#pragma once
//! The queue index of the ranked passes: the queue split by kind, each kind's queued jobs in rank
//! order in a ring of its own, so that a scan of an overloaded queue visits only the jobs of the
//! kinds that could start or make room and passes over the others without reading them
//! (scan_indexed, sim/core/queue_policy.h). Kind b below the last holds the jobs that fit in one
//! node with 2^b to 2^(b+1) - 1 GPUs (the last of them: 2^b GPUs or more); the last kind holds
//! every other job (gangs, jobs without a whole GPU), which a scan always visits. The rings change
//! with the queue: insert_ranked, a LAS promotion and the end of a scan (sim/core/queue_order.h).
#include "sim/core/state.h"

namespace gpuplan {

//! Kinds of the queue index under this scheduler, 0 for none: only the ranked policies whose
//! queued jobs keep their rank and whose scan may pass over a job (SJF, SRTF, LAS, backfill with
//! class priorities), without teams (whose quotas hold jobs whatever their size).
[[nodiscard]] GPUPLAN_HD inline uint32_t queue_index_kinds(QueuePolicy q, bool ranked, bool teams,
                                                           uint32_t max_gpus_per_node) {
  if (!ranked || teams || q == QueuePolicy::fifo || q == QueuePolicy::fifo_perf ||
      q == QueuePolicy::fair_share || q == QueuePolicy::max_min_fairness_perf)
    return 0;
  const uint32_t sizes = max_gpus_per_node == 0 ? 1 : highest_bit(max_gpus_per_node) + 1;
  return (sizes < MAX_INDEX_KINDS - 1 ? sizes : MAX_INDEX_KINDS - 1) + 1;
}

//! Kinds of the queue index of this model (0: none).
[[nodiscard]] GPUPLAN_HD inline uint32_t queue_index_kinds(const ModelView& m) {
  return queue_index_kinds(m.queue, m.sched.ranked, m.teams.n_teams > 0, m.max_gpus_per_node);
}

//! The kind of the job in `slot` (its size in one node, or the last kind).
[[nodiscard]] GPUPLAN_HD inline uint32_t index_kind(const ModelView& m, const ReplicaState& s,
                                                    uint32_t slot) {
  const Job& j = s.jobs[slot];
  const uint32_t other = s.policy.index.n_kinds - 1;
  if (j.gpus == 0 || j.gpus > m.classes[j.class_idx].node_gpus_max) return other;
  const uint32_t b = highest_bit(j.gpus);
  return b < other ? b : other - 1;
}

//! [GPUs] the fewest any job of kind k (not the last) asks for.
[[nodiscard]] GPUPLAN_HD inline uint32_t kind_min_gpus(uint32_t k) {
  return 1u << k;
}

//! Kind k's ring.
[[nodiscard]] GPUPLAN_HD inline span<uint32_t> index_ring(ReplicaState& s, uint32_t k) {
  const QueueIndex& ix = s.policy.index;
  return span<uint32_t>{ix.slots.data + std::size_t(k) * ix.capacity, ix.capacity};
}

//! The job `i` places behind the head of kind k's ring.
[[nodiscard]] GPUPLAN_HD inline uint32_t& index_at(ReplicaState& s, uint32_t k, uint32_t i) {
  return index_ring(s, k)[ring_pos(s.policy.index.capacity, s.policy.index.head[k], i)];
}

//! Empties the index (at replica start); its kinds follow the model.
GPUPLAN_HD inline void reset_queue_index(const ModelView& m, ReplicaState& s) {
  QueueIndex& ix = s.policy.index;
  ix.n_kinds = queue_index_kinds(m);
  ix.capacity = ix.n_kinds == 0 ? 0 : ix.slots.size / ix.n_kinds;
  for (uint32_t k = 0; k < MAX_INDEX_KINDS; ++k) ix.head[k] = ix.len[k] = 0;
}

}  // namespace gpuplan
