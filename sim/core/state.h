#pragma once
//! Mutable state of one replica: plain structs over preallocated arrays sized from the ModelView
//! (sim/replica_buffers.h allocates them on the host; the CUDA backend carves them from one block).
#include "sim/core/event_queue.h"
#include "sim/core/model.h"
#include "sim/core/billing_state.h"
#include "sim/core/capacity_state.h"
#include "sim/core/failure_state.h"
#include "sim/core/job_run_state.h"
#include "sim/core/maintenance_state.h"
#include "sim/core/queue_policy_state.h"
#include "sim/core/sketch.h"
#include "sim/core/team_state.h"

namespace gpuplan {

enum class JobPhase : uint8_t { free, queued, running };

//! One active job (queued or running) in a recycled slot.
struct Job {
  SimTime submit;
  SimTime start;
  SimTime finish;
  double work;  //!< [s] duration on the reference GPU with ideal placement
  uint32_t class_idx;
  uint32_t job_idx;  //!< arrival index within its class (also its random-stream counter)
  uint32_t gpus;
  uint32_t pool;     //!< pool it runs in (NONE while queued)
  uint32_t n_nodes;  //!< nodes it holds; node list at job_nodes[slot * max_nodes_per_job]
  uint32_t gen;      //!< bumped whenever the slot's pending finish event becomes stale
  JobPhase phase;
  bool counted;  //!< submitted inside the statistics window (ModelView::count_until)
};

//! A finished job, for the optional per-job sink (host only; empty span on device).
struct JobRecord {
  uint32_t class_idx;
  uint32_t job_idx;  //!< arrival index within the class
  uint32_t gpus;
  uint32_t pool_idx;
  SimTime submit_s;
  SimTime start_s;
  SimTime finish_s;
};

//! Per-class running totals over counted jobs.
struct ClassTotals {
  uint64_t submitted;
  uint64_t completed;
  double sum_wait;  //!< [s]
  double sum_wait2;
  double sum_jct;  //!< [s]
  double sum_jct2;
  double max_wait;  //!< [s]
  double max_jct;   //!< [s]
  //! [s] time from submission to the end of the run, summed over counted jobs not finished then
  double sum_age_unfinished;
};

//! Replica-wide totals over the statistics window [warmup, horizon).
struct ReplicaTotals {
  double busy_gpu_s;         //!< [GPU·s] allocated to running jobs
  double provisioned_gpu_s;  //!< [GPU·s]
  double queued_job_s;       //!< [job·s] integral of the queue length (Little: L_q = λ W_q)
  double in_system_job_s;    //!< [job·s] integral of queued + running jobs
  double cost_usd;
  uint64_t events;        //!< events handled (all times)
  uint64_t jobs_started;  //!< all jobs, warmup included
  uint64_t jobs_arrived;  //!< all jobs, warmup included: the next arrival's submission index
  SaturationCause saturation;
  SimTime saturated_at;  //!< [s] when the replica stopped (NEVER if it did not)
};

//! The time bin advance_to's walk starts in for every time in [.., fast_end): kept between calls
//! so a step that stays inside one bin needs no division (sim/core/stats.h, set_bin_cursor).
struct BinCursor {
  double fast_end = 0;  //!< [s] 0: unknown
  double bin_end = 0;   //!< [s] end of `bin`
  uint32_t bin = 0;
};

//! All mutable arrays and scalars of one replica.
struct ReplicaState {
  SimTime now = 0;
  uint32_t replica_idx = 0;
  EventQueue events;

  // Cluster: free GPUs per node, and one bitset per free-GPU level for O(words) best-fit search.
  span<uint32_t> node_free;  //!< [n_nodes]
  span<uint64_t>
      level_bits;      //!< [(max_gpus_per_node + 1) * words] bit i: node i has that many free
  uint32_t words = 0;  //!< 64-bit words per level
  span<uint32_t> level_nodes;  //!< [max_gpus_per_node + 1] nodes with that many free GPUs

  // Jobs.
  span<Job> jobs;             //!< [max_active_jobs] slots
  span<uint32_t> job_nodes;   //!< [max_active_jobs * max_nodes_per_job]
  span<uint32_t> free_slots;  //!< stack of freed slot indices
  uint32_t n_free_slots = 0;
  uint32_t n_fresh_slots = 0;  //!< slots [n_fresh_slots, jobs.size) not yet used this replica
  span<uint32_t> queue;        //!< ring buffer of queued slots in submission order
  uint32_t queue_head = 0;
  uint32_t queue_len = 0;
  uint32_t running = 0;          //!< running jobs: their slots are running_slots[0, running)
  span<uint32_t> running_slots;  //!< [max_active_jobs] slots of the running jobs, in no order
  span<uint32_t> running_index;  //!< [max_active_jobs] by slot: its place in running_slots
  uint32_t busy_gpus = 0;
  bool head_blocked = false;  //!< FIFO head did not fit and nothing has been released since
  //! fifo_perf: no running job could move to a faster type, and nothing has been released since
  bool types_settled = false;
  span<uint32_t> arrivals_made;  //!< [n_classes] jobs generated per class so far

  // Per-pool state.
  span<uint32_t> pool_busy_gpus;  //!< [n_pools]
  span<uint32_t> pool_nodes_up;   //!< [n_pools] provisioned nodes
  span<double> pool_busy_gpu_s;   //!< [n_pools] window integral
  span<double> pool_cost_usd;     //!< [n_pools] window spend

  // Statistics.
  ReplicaTotals totals;
  span<ClassTotals> classes;           //!< [n_classes]
  span<uint32_t> wait_hist;            //!< [n_classes * SKETCH_BINS] quantile sketch per class
  span<uint32_t> jct_hist;             //!< [n_classes * SKETCH_BINS] quantile sketch per class
  span<double> bin_busy_gpu_s;         //!< [n_bins] integral of busy GPUs in each bin
  span<double> bin_queued_job_s;       //!< [n_bins] integral of the queue length
  span<double> bin_spend_usd;          //!< [n_bins]
  span<double> bin_provisioned_gpu_s;  //!< [n_bins]
  BinCursor bin_cursor;                //!< the bin s.now is in

  // Node life cycle (spot, elastic), job runs (checkpoint/restart), billing: sim/core/capacity.h,
  // job_runs.h, billing.h.
  CapacityState capacity;
  JobRunState runs;
  BillingState billing;
  NetState net;           //!< link sharing and fragmentation (sim/core/network.h)
  FailureState failures;  //!< hardware failures, repairs, spares (sim/core/failures.h)
  PolicyState policy;     //!< ranked queue policies (sim/core/queue_order.h, queue_policy.h)
  TeamState teams;        //!< team quota usage and totals (sim/core/team_quota.h)
  //! Planned maintenance windows: node phases and totals (sim/core/maintenance.h).
  MaintenanceState maintenance;
  SharedState share;  //!< MIG and time-sliced GPU occupancy (sim/core/shared_gpus.h)

  // Optional per-job records (host): empty span = off; sim/single_run.h drains them as they fill.
  span<JobRecord> records;
  uint32_t n_records = 0;
  bool records_truncated = false;
};

//! Place in a ring of `size` places, whose head is at `head`, of the entry `i` places behind the
//! head (i <= size): the queue, and each kind's ring of the queue index (sim/core/queue_index.h).
[[nodiscard]] GPUPLAN_HD inline uint32_t ring_pos(uint32_t size, uint32_t head, uint32_t i) {
  // NOTE: head < size and i <= size, so one subtraction wraps the ring: no integer division, which
  // the ranked scans and insertions paid for every entry they touched.
  const uint32_t k = head + i;
  return k >= size ? k - size : k;
}

//! Moves the entries at places [from + 1, to + 1) of the ring one place toward the head, to
//! [from, to), as contiguous runs (memmove) rather than entry by entry.
GPUPLAN_HD inline void ring_shift_up(span<uint32_t> ring, uint32_t head, uint32_t from,
                                     uint32_t to) {
  const uint32_t n = ring.size;
  for (uint32_t k = from; k < to;) {
    const uint32_t d = ring_pos(n, head, k);
    if (d == n - 1) {  // the source wraps to the ring's start
      ring[d] = ring[0];
      ++k;
      continue;
    }
    const uint32_t run = to - k < n - 1 - d ? to - k : n - 1 - d;
    move_words(&ring[d], &ring[d + 1], run);
    k += run;
  }
}

//! Moves the entries at places [from, to) of the ring one place back, to [from + 1, to + 1), as
//! contiguous runs (memmove) rather than entry by entry.
GPUPLAN_HD inline void ring_shift_back(span<uint32_t> ring, uint32_t head, uint32_t from,
                                       uint32_t to) {
  const uint32_t n = ring.size;
  for (uint32_t k = to; k > from;) {  // the entry at place k - 1 moves to place k
    const uint32_t d = ring_pos(n, head, k);
    if (d == 0) {  // the source wraps to the ring's end
      ring[0] = ring[n - 1];
      --k;
      continue;
    }
    const uint32_t run = k - from < d ? k - from : d;
    move_words(&ring[d - run + 1], &ring[d - run], run);
    k -= run;
  }
}

//! Opens a gap at place `i` (0 .. len) of the ring for one more entry, moving the shorter side:
//! the entries before it one place toward the head, or those from it one place back. The ring has
//! room.
GPUPLAN_HD inline void ring_open(span<uint32_t> ring, uint32_t& head, uint32_t& len, uint32_t i) {
  if (i < len - i) {
    head = head == 0 ? ring.size - 1 : head - 1;
    ring_shift_up(ring, head, 0, i);
  } else {
    ring_shift_back(ring, head, i, len);
  }
  len += 1;
}

//! Takes the entry at place `i` out of the ring, moving the shorter side to close the gap.
GPUPLAN_HD inline void ring_close(span<uint32_t> ring, uint32_t& head, uint32_t& len, uint32_t i) {
  if (i < len - 1 - i) {
    ring_shift_back(ring, head, 0, i);
    head = ring_pos(ring.size, head, 1);
  } else {
    ring_shift_up(ring, head, i, len - 1);
  }
  len -= 1;
}

//! Closes a scan's gaps in the ring: of its first `scanned` entries, the `started` ones (set to
//! NONE) leave, and the others move up to the end of the scanned part, keeping their order.
GPUPLAN_HD inline void ring_drop_started(span<uint32_t> ring, uint32_t& head, uint32_t& len,
                                         uint32_t scanned, uint32_t started) {
  const uint32_t n = ring.size;
  uint32_t to = scanned;
  for (uint32_t from = scanned; from-- > 0;) {
    const uint32_t slot = ring[ring_pos(n, head, from)];
    if (slot != NONE) ring[ring_pos(n, head, --to)] = slot;
  }
  head = ring_pos(n, head, started);
  len -= started;
}

//! Position in the queue ring of the job `i` places behind the head (i <= queue.size).
[[nodiscard]] GPUPLAN_HD inline uint32_t queue_pos(const ReplicaState& s, uint32_t i) {
  return ring_pos(s.queue.size, s.queue_head, i);
}

//! The job `i` places behind the queue's head (0 = head).
[[nodiscard]] GPUPLAN_HD inline uint32_t& queue_at(ReplicaState& s, uint32_t i) {
  return s.queue[queue_pos(s, i)];
}

//! Opens a gap at queue place `i` (0 .. queue_len) for one more job (ring_open). The ring has room.
GPUPLAN_HD inline void queue_open(ReplicaState& s, uint32_t i) {
  ring_open(s.queue, s.queue_head, s.queue_len, i);
}

//! Takes the job at queue place `i` out, moving the shorter side to close the gap (ring_close).
GPUPLAN_HD inline void queue_close(ReplicaState& s, uint32_t i) {
  ring_close(s.queue, s.queue_head, s.queue_len, i);
}

}  // namespace gpuplan
