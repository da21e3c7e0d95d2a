#pragma once
//! Host storage behind a serving cluster's spans: every array sized once from the configuration,
//! so the step functions never allocate.
#include <memory>
#include <vector>

#include "sim/serving/cluster.h"

namespace gpuplan::serving {

//! Owns one cluster's arrays and statistics; `state` views them.
class ClusterBuffers {
 public:
  //! Replicas of `v` with `queue_capacity` requests each beyond the running cap (waiting ones).
  ClusterBuffers(const ServingView& v, uint32_t queue_capacity) {
    const uint32_t R = v.n_replicas > 0 ? v.n_replicas : 1;
    const uint32_t S = v.sched.max_num_seqs + queue_capacity;
    const uint32_t G = cache_groups(v.load);
    seqs_.resize(size_t(R) * S);
    free_.resize(size_t(R) * S);
    running_.resize(size_t(R) * v.sched.max_num_seqs);
    waiting_.resize(size_t(R) * S);
    blocks_.assign(size_t(R) * G, 0);
    refs_.assign(size_t(R) * G, 0);
    last_use_.assign(size_t(R) * G, 0.0);
    // Every sequence of a prefill replica may be in flight to the decode replicas at once.
    transfers_.resize(size_t(v.n_prefill) * S);
    in_tree_.assign(size_t(R) * G, 0);
    tree_tokens_.assign(R, 0.0);
    step_end_.assign(R, 0.0);
    replicas_.resize(R);
    // Closed loop: a ring of the streams ready to send, and each replica's last completions.
    const uint32_t streams = v.load.streams;
    ready_s_.resize(streams);
    ready_stream_.resize(streams);
    done_.resize(streams > 0 ? size_t(R) * v.sched.max_num_seqs : 0);
    const uint32_t talks = conversations(v.load) ? streams : 0;
    quiet_room_.assign(size_t(R) * v.sched.block_tokens, 0);
    history_.assign(talks, 0);
    turns_left_.assign(talks, 0);
    stats_ = std::make_unique<ServingStats>();
    stats_->series.width_s = series_width(v);
    for (uint32_t r = 0; r < R; ++r) {
      ReplicaState& s = replicas_[r];
      s.seqs = {seqs_.data() + size_t(r) * S, S};
      s.free_seqs = {free_.data() + size_t(r) * S, S};
      for (uint32_t i = 0; i < S; ++i) s.free_seqs[i] = S - 1 - i;
      s.n_free_seqs = S;
      s.running = {running_.data() + size_t(r) * v.sched.max_num_seqs, v.sched.max_num_seqs};
      s.waiting = {waiting_.data() + size_t(r) * S, S};
      s.group_blocks = {blocks_.data() + size_t(r) * G, G};
      s.group_refs = {refs_.data() + size_t(r) * G, G};
      s.group_last_use = {last_use_.data() + size_t(r) * G, G};
      s.decode_pool = v.n_prefill > 0 && r >= v.n_prefill;
      s.quiet_room = {quiet_room_.data() + size_t(r) * v.sched.block_tokens, v.sched.block_tokens};
      if (streams > 0)
        s.done = {done_.data() + size_t(r) * v.sched.max_num_seqs, v.sched.max_num_seqs};
    }
    state.ready_s = {ready_s_.data(), streams};
    state.ready_stream = {ready_stream_.data(), streams};
    state.history = {history_.data(), talks};
    state.turns_left = {turns_left_.data(), talks};
    state.replicas = {replicas_.data(), R};
    state.stats = stats_.get();
    state.in_tree = {in_tree_.data(), static_cast<uint32_t>(in_tree_.size())};
    state.tree_tokens = {tree_tokens_.data(), R};
    state.step_end_s = {step_end_.data(), R};
    state.transfers.heap = {transfers_.data(), static_cast<uint32_t>(transfers_.size())};
    if (v.autoscale.max_replicas > 0) {
      phase_.assign(R, ReplicaPhase::off);
      ready_at_.assign(R, 0.0);
      state.scaler.phase = {phase_.data(), R};
      state.scaler.ready_at_s = {ready_at_.data(), R};
    }
  }
  ClusterBuffers(const ClusterBuffers&) = delete;
  ClusterBuffers& operator=(const ClusterBuffers&) = delete;

  ClusterState state;

 private:
  std::vector<Sequence> seqs_;
  std::vector<uint32_t> free_, running_, waiting_, blocks_, refs_, ready_stream_, history_,
      turns_left_, quiet_room_;
  std::vector<uint64_t> done_;
  std::vector<double> last_use_, tree_tokens_, ready_s_, ready_at_, step_end_;
  std::vector<ReplicaPhase> phase_;
  std::vector<uint8_t> in_tree_;
  std::vector<Transfer> transfers_;
  std::vector<ReplicaState> replicas_;
  std::unique_ptr<ServingStats> stats_;
};

}  // namespace gpuplan::serving
