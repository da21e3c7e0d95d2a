#pragma once
//! Host-side storage for one replica, and the one list of a replica's arrays (layout_replica) that
//! every backend allocates through: host buffers here, device batches in sim/backends/mc_cuda.cu.
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <type_traits>

#include "sim/core/arrival_profile.h"
#include "sim/core/class_run_spec.h"
#include "sim/core/failure_spec.h"
#include "sim/core/maintenance_spec.h"
#include "sim/core/pool_supply_spec.h"
#include "sim/core/queue_index.h"
#include "sim/core/state.h"

namespace gpuplan {

//! What an array of ReplicaState is for once the replica has run.
enum class ArrayRole : uint8_t {
  work,    //!< engine working state (calendar, cluster, job slots): not read after the run
  result,  //!< read after the run (metrics, time bins, sketches): copied back from a device
};

//! Calendar capacity: one pending arrival per class plus one finish per active job.
[[nodiscard]] inline std::size_t event_capacity(const ModelView& m) {
  // NOTE: with a topology, link sharing moves finish events and leaves stale ones behind until
  // they pop or sim/core/network.h drops them; the extra room makes that rare.
  return std::size_t(m.classes.size) +
         std::size_t(m.max_active_jobs) * (m.net.n_levels > 0 ? 2 : 1) + 1 + m.extra_events;
}

//! 64-bit words per free-GPU level of the cluster index.
[[nodiscard]] inline uint32_t level_words(const ModelView& m) {
  return (m.n_nodes + 63) / 64;
}

//! Calls `place(span, count, role)` once for every array of a replica, in one fixed order, and
//! sets the scalars that depend only on the model. The single list of a replica's arrays: a new
//! span in ReplicaState is added here and every backend allocates (and copies back) it.
template <class Place>
void layout_replica(const ModelView& m, uint32_t record_capacity, ReplicaState& s, Place&& place) {
  using R = ArrayRole;
  s.words = level_words(m);
  place(s.events.heap, event_capacity(m), R::work);
  place(s.events.lanes, m.classes.size, R::work);
  place(s.node_free, m.n_nodes, R::work);
  place(s.level_bits, std::size_t(m.max_gpus_per_node + 1) * s.words, R::work);
  place(s.level_nodes, m.max_gpus_per_node + 1, R::work);
  place(s.jobs, m.max_active_jobs, R::work);
  place(s.job_nodes, std::size_t(m.max_active_jobs) * m.max_nodes_per_job, R::work);
  place(s.free_slots, m.max_active_jobs, R::work);
  place(s.queue, m.max_active_jobs, R::work);
  place(s.running_slots, m.max_active_jobs, R::work);
  place(s.running_index, m.max_active_jobs, R::work);
  place(s.arrivals_made, m.classes.size, R::work);
  place(s.pool_busy_gpus, m.pools.size, R::work);
  place(s.pool_nodes_up, m.pools.size, R::work);
  place(s.pool_busy_gpu_s, m.pools.size, R::result);
  place(s.pool_cost_usd, m.pools.size, R::result);
  place(s.classes, m.classes.size, R::result);
  place(s.wait_hist, std::size_t(m.classes.size) * SKETCH_BINS, R::result);
  place(s.jct_hist, std::size_t(m.classes.size) * SKETCH_BINS, R::result);
  place(s.bin_busy_gpu_s, m.n_bins, R::result);
  place(s.bin_queued_job_s, m.n_bins, R::result);
  place(s.bin_spend_usd, m.n_bins, R::result);
  place(s.bin_provisioned_gpu_s, m.n_bins, R::result);
  place(s.records, record_capacity, R::result);
  // NOTE: time-sliced GPUs re-rate their jobs with the network model's job state.
  const bool shared = m.share.n_shared_pools > 0;
  const std::size_t net_jobs = m.net.n_levels > 0 || shared ? m.max_active_jobs : 0;
  place(s.net.jobs, net_jobs, R::work);
  place(s.net.uplink_load, m.net.n_groups, R::work);
  place(s.net.uplink_mark, m.net.n_groups, R::work);
  place(s.net.uplink_since, m.net.n_groups, R::work);
  place(s.net.uplink_node_s, m.net.n_groups, R::result);
  place(s.net.uplink_congested_s, m.net.n_groups, R::result);
  place(s.net.sharing, net_jobs, R::work);
  place(s.capacity.node_state, m.n_nodes, R::work);
  place(s.capacity.node_idle_since, m.n_nodes, R::work);
  place(s.capacity.node_check_pending, m.n_nodes, R::work);
  place(s.capacity.node_draws, m.n_nodes, R::work);
  place(s.capacity.pool_draws, m.pools.size, R::work);
  place(s.capacity.pool_provisioning, m.pools.size, R::work);
  place(s.capacity.pool_slots_used, m.pools.size, R::work);
  place(s.capacity.pool_slots_touched, m.pools.size, R::work);
  place(s.capacity.pools, m.pools.size, R::result);
  place(s.runs.jobs, m.max_active_jobs, R::work);
  place(s.runs.classes, m.classes.size, R::result);
  const bool ranked = m.sched.ranked;
  place(s.policy.jobs, ranked ? m.max_active_jobs : 0, R::work);
  place(s.policy.deferred, ranked ? m.max_active_jobs : 0, R::work);
  place(s.policy.node_gpus, ranked ? m.n_nodes : 0, R::work);
  place(s.policy.index.slots, std::size_t(queue_index_kinds(m)) * m.max_active_jobs, R::work);
  place(s.billing.node_billed_since, m.n_nodes, R::work);
  place(s.billing.pool_price_node_s, m.pools.size, R::work);
  place(s.billing.pool_gpu_rate, m.pools.size, R::work);
  place(s.billing.pools, m.pools.size, R::result);
  place(s.billing.class_pool_busy_gpus, std::size_t(m.classes.size) * m.pools.size, R::work);
  place(s.billing.classes, m.classes.size, R::result);
  const uint32_t team_flavors = m.teams.n_teams * m.teams.n_flavors;
  place(s.teams.usage, team_flavors, R::work);
  place(s.teams.trial_usage, team_flavors, R::work);
  place(s.teams.trial_free, m.teams.n_teams > 0 ? m.n_nodes : 0, R::work);
  place(s.teams.victims, m.teams.n_teams > 0 ? m.max_active_jobs : 0, R::work);
  place(s.teams.totals, m.teams.n_teams, R::result);
  place(s.teams.bin_gpu_s, std::size_t(m.teams.n_teams) * m.n_bins, R::result);
  const std::size_t shared_gpus = shared ? std::size_t(m.n_nodes) * m.max_gpus_per_node : 0;
  place(s.share.gpu_used, shared_gpus, R::work);
  place(s.share.gpu_jobs, shared_gpus * m.share.max_slots, R::work);
  place(s.share.job_gpu, shared ? m.max_active_jobs : 0, R::work);
  place(s.share.job_entry, shared ? m.max_active_jobs : 0, R::work);
  place(s.share.pool_busy_units, shared ? m.pools.size : 0, R::work);
  place(s.share.pool_compute, shared ? m.pools.size : 0, R::work);
  place(s.share.pool_compute_gpu_s, shared ? m.pools.size : 0, R::result);
  const bool frac = m.share.n_frac_pools > 0;
  place(s.share.gpu_mem_used, frac ? shared_gpus : 0, R::work);
  place(s.share.gpu_next, frac ? shared_gpus : 0, R::work);
  place(s.share.gpu_prev, frac ? shared_gpus : 0, R::work);
  place(s.share.level_head, std::size_t(m.share.n_frac_pools) * (MILLI_PER_GPU + 1), R::work);
  place(s.share.level_bits, std::size_t(m.share.n_frac_pools) * LEVEL_WORDS, R::work);
  const bool fails = m.failures.size > 0;
  place(s.failures.by_cause, fails ? m.failure_causes.size : 0, R::result);
  place(s.failures.pool_draws, fails ? m.pools.size : 0, R::work);
  place(s.failures.pool_spares_free, fails ? m.pools.size : 0, R::work);
  place(s.failures.pool_deficit, fails ? m.pools.size : 0, R::work);
  place(s.failures.node_down, fails ? m.n_nodes : 0, R::work);
  place(s.failures.node_draws, fails ? m.n_nodes : 0, R::work);
  place(s.failures.group_draws, fails ? m.net.n_groups : 0, R::work);
  place(s.failures.group_down, fails ? m.net.n_groups : 0, R::work);
  place(s.maintenance.node_phase, m.maintenance.size > 0 ? m.n_nodes : 0, R::work);
}

//! Calls `visit(span)` for every array of the model view, so a backend can copy them to its own
//! memory and re-point the view. A new span in ModelView is added here.
template <class Visit>
void for_each_model_array(ModelView& m, Visit&& visit) {
  visit(m.pools);
  visit(m.classes);
  visit(m.node_pool);
  visit(m.dist_values);
  visit(m.dist_cum);
  visit(m.gpu_values);
  visit(m.gpu_cum);
  visit(m.trace);
  visit(m.slowdown);
  visit(m.pool_supply);
  visit(m.class_runs);
  visit(m.wave_quantiles);
  visit(m.price_steps);
  visit(m.arrival_segments);
  visit(m.purchases);
  visit(m.failures);
  visit(m.failure_causes);
  visit(m.pool_spares);
  visit(m.maintenance);
  visit(m.teams.class_team);
  visit(m.teams.team_cohort);
  visit(m.teams.pool_flavor);
  visit(m.teams.quotas);
  visit(m.share.pools);
  visit(m.share.entry_units);
  visit(m.share.class_kind);
  visit(m.share.class_entries);
  visit(m.share.class_fraction);
  visit(m.share.class_milli);
  visit(m.share.class_mem_mib);
  visit(m.share.class_compute);
  for_each_network_array(m.net, visit);
}

//! Byte offsets of a replica's arrays inside blocks, as layout_replica orders them: each array
//! starts at a multiple of 64 bytes; work and result arrays go to separate blocks. Header-only, so
//! the CUDA backend (a separate library) carves device blocks with the very same code.
struct ReplicaLayout {
  static constexpr std::size_t ALIGN = 64;  //!< [bytes] cache line, and enough for every type
  std::size_t work_bytes = 0;               //!< [bytes] all work arrays of one replica
  std::size_t result_bytes = 0;             //!< [bytes] all result arrays of one replica

  //! Rounds a byte count up to a multiple of ALIGN.
  static std::size_t aligned(std::size_t bytes) { return (bytes + ALIGN - 1) / ALIGN * ALIGN; }

  //! Sizes the blocks for this model and per-job sink capacity.
  ReplicaLayout(const ModelView& m, uint32_t record_capacity) {
    ReplicaState scratch;
    layout_replica(m, record_capacity, scratch, [this](auto& sp, std::size_t n, ArrayRole role) {
      (role == ArrayRole::work ? work_bytes : result_bytes) += aligned(n * sizeof(*sp.data));
    });
  }

  //! Points every span of `s` into `work` and `result` (each at least work_bytes / result_bytes
  //! long and 8-byte aligned); a null block leaves that role's spans empty. Other fields of `s`
  //! are kept, so a state copied back from a device can be re-pointed at host memory.
  void carve(const ModelView& m, uint32_t record_capacity, ReplicaState& s, std::byte* work,
             std::byte* result) const {
    std::size_t work_at = 0, result_at = 0;
    layout_replica(m, record_capacity, s, [&](auto& sp, std::size_t n, ArrayRole role) {
      using T = std::remove_reference_t<decltype(*sp.data)>;
      std::byte* block = role == ArrayRole::work ? work : result;
      std::size_t& at = role == ArrayRole::work ? work_at : result_at;
      sp.data = block ? reinterpret_cast<T*>(block + at) : nullptr;
      sp.size = block ? static_cast<uint32_t>(n) : 0;
      at += aligned(n * sizeof(T));
    });
  }
};

//! Owns every array of one replica; `state` views them. Not copyable (the spans would dangle).
class ReplicaBuffers {
 public:
  //! Sizes every array from the model; `record_capacity` > 0 turns the per-job sink on.
  ReplicaBuffers(const ModelView& m, uint32_t record_capacity);
  ReplicaBuffers(const ReplicaBuffers&) = delete;
  ReplicaBuffers& operator=(const ReplicaBuffers&) = delete;

  ReplicaState state;

  //! Bytes of memory one replica of this model needs (reported by Monte Carlo runs).
  static size_t bytes_per_replica(const ModelView& m, uint32_t record_capacity);

 private:
  //! Frees a block from calloc.
  struct FreeBlock {
    void operator()(void* p) const { std::free(p); }
  };
  //! One zeroed block: work arrays, then result arrays. From calloc, so the pages of a large block
  //! are the kernel's zero pages until first written: a replica sized for 262,144 active jobs
  //! touches only the slots it uses, instead of zeroing (and faulting in) all of them up front.
  std::unique_ptr<uint64_t, FreeBlock> block_;
};

}  // namespace gpuplan
