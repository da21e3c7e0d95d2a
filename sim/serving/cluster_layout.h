#pragma once
//! One serving cluster's arrays in one block of memory: sized from the configuration, carved and
//! set to their starting values by the same code on the host (sim/serving/serving_buffers.h) and
//! in a CUDA thread (sim/backends/mc_cuda.cu), so both run `run_cluster` from the same state.
#include <cstddef>
#include <new>

#include "sim/serving/cluster.h"

namespace gpuplan::serving {

//! [bytes] Alignment of every array in the block (a cache line: Sequence asks for it).
inline constexpr std::size_t CLUSTER_ALIGN = 64;

//! Carves the block's arrays in a fixed order; with a null block it only adds up their sizes.
class ClusterCarver {
 public:
  GPUPLAN_HD explicit ClusterCarver(std::byte* block) : block_(block) {}

  //! The next `n` elements of T, aligned to CLUSTER_ALIGN (empty data when sizing only).
  template <class T>
  GPUPLAN_HD span<T> take(std::size_t n) {
    span<T> s;
    s.data = block_ != nullptr ? reinterpret_cast<T*>(block_ + at_) : nullptr;
    s.size = static_cast<uint32_t>(n);
    at_ += (n * sizeof(T) + CLUSTER_ALIGN - 1) / CLUSTER_ALIGN * CLUSTER_ALIGN;
    return s;
  }
  //! [bytes] taken so far.
  [[nodiscard]] GPUPLAN_HD std::size_t bytes() const { return at_; }

 private:
  std::byte* block_;
  std::size_t at_ = 0;
};

//! Points `c`'s spans, and its replicas', into `block` and sets every array, `stats` and `c` to
//! the start of a run of `v` with `queue_capacity` waiting requests per replica beyond the
//! running cap. `block` is cluster_bytes(v, queue_capacity) long and CLUSTER_ALIGN-aligned; with
//! a null block nothing is written. Returns the bytes the arrays take.
GPUPLAN_HD inline std::size_t carve_cluster(const ServingView& v, uint32_t queue_capacity,
                                            std::byte* block, ServingStats* stats,
                                            ClusterState& c) {
  const uint32_t R = v.n_replicas > 0 ? v.n_replicas : 1;
  const uint32_t S = v.sched.max_num_seqs + queue_capacity, M = v.sched.max_num_seqs;
  const uint32_t G = cache_groups(v.load), B = v.sched.block_tokens;
  const uint32_t streams = v.load.streams, talks = conversations(v.load) ? streams : 0;
  const bool scaling = v.autoscale.max_replicas > 0;
  ClusterCarver k(block);
  const span<ReplicaState> replicas = k.take<ReplicaState>(R);
  const span<Sequence> seqs = k.take<Sequence>(std::size_t(R) * S);
  const span<uint32_t> free_seqs = k.take<uint32_t>(std::size_t(R) * S);
  const span<uint32_t> running = k.take<uint32_t>(std::size_t(R) * M);
  const span<uint32_t> waiting = k.take<uint32_t>(std::size_t(R) * S);
  const span<uint32_t> group_blocks = k.take<uint32_t>(std::size_t(R) * G);
  const span<uint32_t> group_refs = k.take<uint32_t>(std::size_t(R) * G);
  const span<double> group_last_use = k.take<double>(std::size_t(R) * G);
  const span<uint32_t> quiet_room = k.take<uint32_t>(std::size_t(R) * B);
  const span<uint64_t> done = k.take<uint64_t>(streams > 0 ? std::size_t(R) * M : 0);
  // Every sequence of a prefill replica may be in flight to the decode replicas at once.
  const span<Transfer> transfers = k.take<Transfer>(std::size_t(v.n_prefill) * S);
  const span<uint8_t> in_tree = k.take<uint8_t>(std::size_t(R) * G);
  const span<double> tree_tokens = k.take<double>(R);
  const span<double> step_end = k.take<double>(R);
  // Closed loop: a heap of the streams in their pause; multi-turn conversations' histories.
  const span<double> ready_s = k.take<double>(streams);
  const span<uint32_t> ready_stream = k.take<uint32_t>(streams);
  const span<uint32_t> history = k.take<uint32_t>(talks);
  const span<uint32_t> turns_left = k.take<uint32_t>(talks);
  const span<ReplicaPhase> phase = k.take<ReplicaPhase>(scaling ? R : 0);
  const span<double> ready_at = k.take<double>(scaling ? R : 0);
  if (block == nullptr) return k.bytes();

  const auto fill = [](auto sp, const auto& value) {
    for (uint32_t i = 0; i < sp.size; ++i) sp[i] = value;
  };
  fill(seqs, Sequence{});
  fill(running, 0u);
  fill(waiting, 0u);
  fill(group_blocks, 0u);
  fill(group_refs, 0u);
  fill(group_last_use, 0.0);
  fill(quiet_room, 0u);
  fill(done, uint64_t{0});
  fill(transfers, Transfer{});
  fill(in_tree, uint8_t{0});
  fill(tree_tokens, 0.0);
  fill(step_end, 0.0);
  fill(ready_s, 0.0);
  fill(ready_stream, 0u);
  fill(history, 0u);
  fill(turns_left, 0u);
  fill(phase, ReplicaPhase::off);
  fill(ready_at, 0.0);
  for (uint32_t r = 0; r < R; ++r) {
    ReplicaState& s = replicas[r];
    s = ReplicaState{};
    s.seqs = {seqs.data + std::size_t(r) * S, S};
    s.free_seqs = {free_seqs.data + std::size_t(r) * S, S};
    for (uint32_t i = 0; i < S; ++i) s.free_seqs[i] = S - 1 - i;
    s.n_free_seqs = S;
    s.running = {running.data + std::size_t(r) * M, M};
    s.waiting = {waiting.data + std::size_t(r) * S, S};
    s.group_blocks = {group_blocks.data + std::size_t(r) * G, G};
    s.group_refs = {group_refs.data + std::size_t(r) * G, G};
    s.group_last_use = {group_last_use.data + std::size_t(r) * G, G};
    s.decode_pool = v.n_prefill > 0 && r >= v.n_prefill;
    s.quiet_room = {quiet_room.data + std::size_t(r) * B, B};
    if (streams > 0) s.done = {done.data + std::size_t(r) * M, M};
  }
  // NOTE: value-initialized in place, so its padding is zero too (tests compare runs' bytes).
  ::new (static_cast<void*>(stats)) ServingStats();
  stats->series.width_s = series_width(v);
  c = ClusterState{};
  c.replicas = replicas;
  c.stats = stats;
  c.ready_s = ready_s;
  c.ready_stream = ready_stream;
  c.history = history;
  c.turns_left = turns_left;
  c.in_tree = in_tree;
  c.tree_tokens = tree_tokens;
  c.step_end_s = step_end;
  c.transfers.heap = transfers;
  c.scaler.phase = phase;
  c.scaler.ready_at_s = ready_at;
  return k.bytes();
}

//! [bytes] The block carve_cluster needs for `v` with `queue_capacity`.
[[nodiscard]] GPUPLAN_HD inline std::size_t cluster_bytes(const ServingView& v,
                                                          uint32_t queue_capacity) {
  ClusterState unused;
  return carve_cluster(v, queue_capacity, nullptr, nullptr, unused);
}

}  // namespace gpuplan::serving
