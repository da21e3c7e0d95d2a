#include "sim/replica_buffers.h"

using std::size_t;

namespace gpuplan {
namespace {

template <class T>
span<T> view_of(std::vector<T>& v, std::size_t n) {
  v.assign(n, T{});
  return span<T>{v.data(), static_cast<uint32_t>(n)};
}

//! Calendar capacity: one pending arrival per class plus one finish per active job.
std::size_t event_capacity(const ModelView& m) { return m.classes.size + m.max_active_jobs + 1; }
std::size_t level_words(const ModelView& m) { return (m.n_nodes + 63) / 64; }

}  // namespace

ReplicaBuffers::ReplicaBuffers(const ModelView& m, uint32_t record_capacity) {
  ReplicaState& s = state;
  s.events.heap = view_of(events_, event_capacity(m));
  s.node_free = view_of(node_free_, m.n_nodes);
  s.words = static_cast<uint32_t>(level_words(m));
  s.level_bits = view_of(level_bits_, (m.max_gpus_per_node + 1) * s.words);
  s.jobs = view_of(jobs_, m.max_active_jobs);
  s.job_nodes = view_of(job_nodes_, size_t(m.max_active_jobs) * m.max_nodes_per_job);
  s.free_slots = view_of(free_slots_, m.max_active_jobs);
  s.queue = view_of(queue_, m.max_active_jobs);
  s.arrivals_made = view_of(arrivals_made_, m.classes.size);
  s.pool_busy_gpus = view_of(pool_busy_gpus_, m.pools.size);
  s.pool_nodes_up = view_of(pool_nodes_up_, m.pools.size);
  s.pool_busy_gpu_s = view_of(pool_busy_gpu_s_, m.pools.size);
  s.pool_cost_usd = view_of(pool_cost_usd_, m.pools.size);
  s.classes = view_of(classes_, m.classes.size);
  s.wait_hist = view_of(wait_hist_, size_t(m.classes.size) * HIST_BINS);
  s.jct_hist = view_of(jct_hist_, size_t(m.classes.size) * HIST_BINS);
  s.bin_busy_gpu_s = view_of(bin_busy_, m.n_bins);
  s.bin_queued_job_s = view_of(bin_queued_, m.n_bins);
  s.bin_spend_usd = view_of(bin_spend_, m.n_bins);
  s.bin_provisioned_gpu_s = view_of(bin_provisioned_, m.n_bins);
  s.records = view_of(records_, record_capacity);
}

std::size_t ReplicaBuffers::bytes_per_replica(const ModelView& m, uint32_t record_capacity) {
  return event_capacity(m) * sizeof(Event) + m.n_nodes * sizeof(uint32_t) +
         (m.max_gpus_per_node + 1) * level_words(m) * sizeof(uint64_t) +
         size_t(m.max_active_jobs) * (sizeof(Job) + (m.max_nodes_per_job + 2) * sizeof(uint32_t)) +
         m.classes.size * (sizeof(uint32_t) + sizeof(ClassTotals) + 2 * HIST_BINS * sizeof(uint32_t)) +
         m.pools.size * (2 * sizeof(uint32_t) + 2 * sizeof(double)) + m.n_bins * 4 * sizeof(double) +
         size_t(record_capacity) * sizeof(JobRecord) + sizeof(ReplicaState);
}

}  // namespace gpuplan
