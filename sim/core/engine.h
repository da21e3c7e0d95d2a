#pragma once
//! The discrete-event engine: init_replica, step, run_replica. The clock jumps from event to
//! event; at one instant all releases, then all arrivals are handled, then the scheduler runs once.
#include "sim/core/arrival_profile.h"
#include "sim/core/cluster.h"
#include "sim/core/network.h"
#include "sim/core/distribution.h"
#include "sim/core/elastic.h"
#include "sim/core/failures.h"
#include "sim/core/fair_share.h"
#include "sim/core/maintenance.h"
#include "sim/core/preemption.h"
#include "sim/core/purchases.h"
#include "sim/core/queue_policy.h"
#include "sim/core/rng.h"
#include "sim/core/shared_gpus.h"
#include "sim/core/stats.h"
#include "sim/core/type_rebalance.h"

namespace gpuplan {

//! Queued jobs one backfill pass may pass over before it stops (as Slurm's bf_max_job_test):
//! jobs further back wait for a later pass (docs/reliability.md, "Limits").
inline constexpr uint32_t BACKFILL_WINDOW = 1024;

//! Schedules class c's next arrival, if it has one.
GPUPLAN_HD inline void schedule_next_arrival(const ModelView& m, ReplicaState& s, uint32_t c) {
  const ClassSpec& cls = m.classes[c];
  const uint32_t k = s.arrivals_made[c];
  SimTime t;
  if (cls.from_trace) {
    if (k >= cls.trace_n) return;
    t = m.trace[cls.trace_idx + k].submit;
  } else {
    if (cls.rate <= 0) return;
    const Draw d = philox_draw(m.seed, s.replica_idx, Stream::arrivals, c, k);
    // NOTE: a constant rate keeps the flat formula, so flat scenarios draw the same times.
    t = cls.profile_n == 0 ? s.now + exponential_first(d) / cls.rate
                           : profile_arrival(m, cls, s.now, exponential_first(d));
  }
  if (t >= m.horizon) return;
  schedule_or_saturate(s, t, EventKind::job_arrival, c, 0);
}

//! A free job slot: the last one freed, else the lowest never used (0, 1, 2, ... as jobs arrive).
//! NOTE: slots are set up on first use, not all at init_replica, so a replica sized for 262,144
//! active jobs touches only the slots it needs. The caller has checked that one is left.
GPUPLAN_HD inline uint32_t take_slot(ReplicaState& s) {
  if (s.n_free_slots > 0) return s.free_slots[--s.n_free_slots];
  const uint32_t slot = s.n_fresh_slots++;
  s.jobs[slot].gen = 0;
  if (!s.policy.jobs.empty()) s.policy.jobs[slot].review_gen = 0;
  return slot;
}

//! Creates class c's next job, queues it, and schedules the following arrival.
GPUPLAN_HD inline void handle_arrival(const ModelView& m, ReplicaState& s, uint32_t c) {
  const ClassSpec& cls = m.classes[c];
  const uint32_t k = s.arrivals_made[c]++;
  if (s.n_free_slots == 0 && s.n_fresh_slots == s.jobs.size) {
    saturate(s, SaturationCause::queue_overflow);
    return;
  }
  const uint32_t slot = take_slot(s);
  Job& j = s.jobs[slot];
  j.submit = s.now;
  j.start = NEVER;
  j.finish = NEVER;
  j.class_idx = c;
  j.job_idx = k;
  j.pool = NONE;
  j.n_nodes = 0;
  j.phase = JobPhase::queued;
  const uint64_t index = s.totals.jobs_arrived++;
  j.counted = s.now >= m.warmup && s.now < m.count_until && index >= m.count_first_job &&
              index < m.count_end_job;
  if (cls.from_trace) {
    const TraceJob& row = m.trace[cls.trace_idx + k];
    j.gpus = row.gpus;
    j.work = row.duration;
  } else {
    // NOTE: draws are counter-based, so skipping one that nothing reads (a single GPU choice, a
    // fixed duration) leaves every other draw as it was.
    const Draw none{};
    const Draw size =
        cls.gpus_n > 1 ? philox_draw(m.seed, s.replica_idx, Stream::job_size, c, k) : none;
    const Draw dur = draws_uniforms(cls.duration)
                         ? philox_draw(m.seed, s.replica_idx, Stream::job_duration, c, k)
                         : none;
    j.gpus = sample_gpus(m, cls, u01_first(size));
    j.work = sample(m, cls.duration, dur);
  }
  if (j.counted) s.classes[c].submitted += 1;
  enqueue_arrival(m, s, slot);  // submission order, or rank order (sim/core/queue_order.h)
  note_job_arrived(m, s, slot);
  schedule_next_arrival(m, s, c);
}

//! Tries to place and start the job in `slot` now; false if it does not fit.
GPUPLAN_HD inline bool try_start(const ModelView& m, ReplicaState& s, uint32_t slot) {
  Job& j = s.jobs[slot];
  const uint64_t pool_mask = job_pool_mask(m, s, slot);  // spot tolerance and fallback
  uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  const bool shared = shared_class(m, j.class_idx);  // MIG or time-sliced (shared_gpus.h)
  const uint32_t n_nodes = shared ? shared_place(m, s, slot, pool_mask, nodes)
                                  : nodes_for(m, s, j.class_idx, j.gpus, pool_mask, nodes);
  if (n_nodes == 0) return false;
  if (j.gpus <= m.classes[j.class_idx].node_gpus_max) {
    set_node_free(s, nodes[0], s.node_free[nodes[0]] - j.gpus);
  } else {
    for (uint32_t i = 0; i < n_nodes; ++i) set_node_free(s, nodes[i], 0);
  }
  const uint32_t pool = m.node_pool[nodes[0]];
  j.pool = pool;
  j.n_nodes = n_nodes;
  j.phase = JobPhase::running;
  note_ranked_start(m, s, slot);
  if (j.start == NEVER) j.start = s.now;  // first start: a restart after preemption keeps it
  const bool rated = net_start(m, s, slot) && (!shared || shared_start(m, s, slot));  // j.finish
  j.finish += begin_run(m, s, slot, pool);  // restart and checkpoint overheads
  s.running_index[slot] = s.running;
  s.running_slots[s.running++] = slot;
  s.busy_gpus += j.gpus;
  s.pool_busy_gpus[pool] += j.gpus;
  note_whole_compute(m, s, slot, true);
  s.totals.jobs_started += 1;
  if (!rated || !schedule_finish(s, slot)) saturate(s, SaturationCause::event_overflow);
  schedule_demotion(m, s, slot);  // LAS: only when it comes before the finish
  return true;
}

//! Releases a finished job's GPUs, records it, and frees its slot.
GPUPLAN_HD inline void handle_finish(const ModelView& m, ReplicaState& s, uint32_t slot) {
  Job& j = s.jobs[slot];
  if (!net_release(m, s, slot)) saturate(s, SaturationCause::event_overflow);
  note_job_finished(m, s, slot);  // books its run's overheads (sim/core/job_runs.h)
  release_job_gpus(m, s, slot);
  if (shared_class(m, j.class_idx) && !shared_release(m, s, slot))
    saturate(s, SaturationCause::event_overflow);
  note_job_released(m, s, slot);  // nodes left idle start their scale-in clock
  if (j.counted) record_completion(s, j);
  if (s.n_records < s.records.size) {
    s.records[s.n_records++] =
        JobRecord{j.class_idx, j.job_idx, j.gpus, j.pool, j.submit, j.start, j.finish};
  } else if (!s.records.empty()) {
    s.records_truncated = true;
  }
  j.phase = JobPhase::free;
  j.gen += 1;
  s.free_slots[s.n_free_slots++] = slot;
}

//! Places and starts a queued job for the ranked pass (a functor: the core takes no lambdas).
struct TryStart {
  const ModelView& m;
  ReplicaState& s;
  GPUPLAN_HD bool operator()(uint32_t slot) const { return try_start(m, s, slot); }
};

//! FIFO backfill's start, with the placements that failed earlier in the same scan: a scan that
//! never preempts only takes GPUs, so a job of the same class, size and pools as one that did not
//! fit does not fit either. Skipping its placement search keeps a long queue behind a full
//! cluster at cheap checks per instant (the gang search walks the pool's nodes).
struct BackfillStart {
  static constexpr uint32_t KEPT = 8;  //!< failures remembered per scan; later ones are searched
  struct Failed {
    uint64_t pool_mask;
    uint32_t class_idx, gpus;
  };
  const ModelView& m;
  ReplicaState& s;
  Failed* failed;  //!< [KEPT]
  uint32_t* n_failed;

  GPUPLAN_HD bool operator()(uint32_t slot) const {
    const Job& j = s.jobs[slot];
    if (shared_class(m, j.class_idx)) return try_start(m, s, slot);
    const uint64_t mask = job_pool_mask(m, s, slot);
    for (uint32_t i = 0; i < *n_failed; ++i)
      if (failed[i].class_idx == j.class_idx && failed[i].gpus == j.gpus &&
          failed[i].pool_mask == mask)
        return false;
    if (try_start(m, s, slot)) return true;
    if (*n_failed < KEPT) failed[(*n_failed)++] = Failed{mask, j.class_idx, j.gpus};
    return false;
  }
};

//! Starts queued jobs per the queue policy, once per instant, with the state after all events.
GPUPLAN_HD inline void schedule_jobs(const ModelView& m, ReplicaState& s) {
  if (m.queue == QueuePolicy::fair_share) {  // teams by weighted share (sim/core/fair_share.h)
    schedule_fair_share(m, s, TryStart{m, s}, RANKED_WINDOW);
    return;
  }
  if (m.sched.ranked) {  // SJF, SRTF, LAS, class priorities (sim/core/queue_policy.h)
    schedule_ranked(m, s, TryStart{m, s});
    rebalance_types(m, s, TryStart{m, s});  // max_min_fairness_perf at round ends
    return;
  }
  switch (m.queue) {
    case QueuePolicy::fifo:
    case QueuePolicy::fifo_perf:  // the fastest type with room (sim/core/type_aware.h)
      // NOTE: tested here, not only inside: the call is not inlined, and plain FIFO takes this
      // path at every instant.
      if (m.queue == QueuePolicy::fifo_perf)
        move_to_faster_types(m, s, TryStart{m, s});  // older jobs to faster types
      // NOTE: a blocked head stays blocked until something is released; skip the retry.
      if (s.head_blocked) return;
      while (s.queue_len > 0) {
        if (!try_start(m, s, s.queue[s.queue_head])) {
          s.head_blocked = true;
          return;
        }
        s.queue_head = queue_pos(s, 1);
        s.queue_len -= 1;
      }
      return;
    case QueuePolicy::backfill: {  // the ranked passes' scan, in submission order, no preemption
      BackfillStart::Failed failed[BackfillStart::KEPT];
      uint32_t n_failed = 0;
      scan_queue(m, s, BackfillStart{m, s, failed, &n_failed}, false, false, BACKFILL_WINDOW);
      return;
    }
    case QueuePolicy::sjf:
    case QueuePolicy::srtf:
    case QueuePolicy::las:
    case QueuePolicy::fair_share:
    case QueuePolicy::max_min_fairness_perf:
      return;  // always ranked (models/compile/compile.cpp sets m.sched.ranked)
  }
}

//! Resets the state and schedules each class's first arrival.
GPUPLAN_HD inline void init_replica(const ModelView& m, ReplicaState& s, uint32_t replica_idx) {
  s.now = 0;
  s.bin_cursor = BinCursor{};
  s.replica_idx = replica_idx;
  reset_events(s.events);
  reset_cluster(m, s);
  net_reset(m, s);
  reset_shared(m, s);
  s.n_free_slots = s.n_fresh_slots = 0;  // take_slot sets a slot up on first use
  s.queue_head = s.queue_len = s.running = s.busy_gpus = 0;
  s.head_blocked = s.types_settled = false;
  s.policy.n_deferred = 0;
  s.policy.round_end_at = NEVER;
  s.policy.deferring = false;
  reset_queue_index(m, s);
  s.totals = ReplicaTotals{};
  s.totals.saturated_at = NEVER;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    s.pool_busy_gpus[p] = 0;
    s.pool_nodes_up[p] = m.pools[p].n_nodes;
    s.pool_busy_gpu_s[p] = 0;
    s.pool_cost_usd[p] = 0;
  }
  for (uint32_t c = 0; c < m.classes.size; ++c) {
    s.classes[c] = ClassTotals{};
    s.arrivals_made[c] = 0;
  }
  for (uint32_t i = 0; i < s.wait_hist.size; ++i) s.wait_hist[i] = s.jct_hist[i] = 0;
  for (uint32_t b = 0; b < m.n_bins; ++b)
    s.bin_busy_gpu_s[b] = s.bin_queued_job_s[b] = s.bin_spend_usd[b] = s.bin_provisioned_gpu_s[b] =
        0;
  s.n_records = 0;
  s.records_truncated = false;
  // NOTE: this order fixes the calendar's insertion order of the initial events.
  init_capacity(m, s);
  init_billing(m, s);
  init_job_runs(m, s);
  init_elastic(m, s);
  init_purchases(m, s);
  start_price_series(m, s);
  init_preemption(m, s);
  init_failures(m, s);
  init_maintenance(m, s);
  init_teams(s);
  for (uint32_t c = 0; c < m.classes.size; ++c) schedule_next_arrival(m, s, c);
}

//! Handles every event at the next instant, then schedules; false when the run is over.
GPUPLAN_HD inline bool step(const ModelView& m, ReplicaState& s) {
  const SimTime t = peek_time(s.events);
  if (s.totals.saturation != SaturationCause::none) return false;
  // NOTE: a NaN or negative time would never pop (the calendar flags it when scheduled); a time
  // before now would run the clock backwards. Either stops the replica with its cause.
  if (s.events.bad_time || (t < m.horizon && !(t >= s.now))) {
    saturate(s, SaturationCause::bad_event_time);
    return false;
  }
  if (t >= m.horizon) return false;
  advance_to(m, s, t);
  do {  // the event at t, then every other one at t
    const Event e = pop_event(s.events);
    s.totals.events += 1;
    switch (e.kind()) {
      case EventKind::job_finish:
        if (e.gen == s.jobs[e.target].gen) handle_finish(m, s, e.target);
        break;
      case EventKind::node_reclaim:
        handle_node_reclaim(m, s, e.target);
        break;
      case EventKind::reclaim_wave:
        handle_reclaim_wave(m, s, e.target);
        break;
      case EventKind::node_failure:
        handle_node_failure(m, s, e.target, e.gen);
        break;
      case EventKind::switch_failure:
        handle_switch_failure(m, s, e.target, e.gen);
        break;
      case EventKind::maint_start:
        handle_maintenance_start(m, s, e.target, e.gen);
        break;
      case EventKind::node_return:
        handle_node_return(m, s, e.target);
        break;
      case EventKind::node_repair:
        handle_node_repair(m, s, e.target);
        break;
      case EventKind::switch_repair:
        handle_switch_repair(m, s, e.target);
        break;
      case EventKind::maint_end:
        handle_maintenance_end(m, s, e.target, e.gen);
        break;
      case EventKind::maint_drain:
        handle_maintenance_drain(m, s, e.target, e.gen);
        break;
      case EventKind::node_purchase:
        handle_node_purchase(m, s, e.target);
        break;
      case EventKind::node_ready:
        handle_node_ready(m, s, e.target);
        break;
      case EventKind::node_idle_check:
        handle_node_idle_check(m, s, e.target);
        break;
      case EventKind::price_step:
        apply_price_step(m, s, e.target);
        break;
      case EventKind::spot_fallback:
        handle_spot_fallback(m, s, e.target);
        break;
      case EventKind::policy_review:
        handle_policy_review(m, s, e.target, e.gen);
        break;
      case EventKind::job_arrival:
        handle_arrival(m, s, e.target);
        break;
    }
  } while (peek_time(s.events) == t);
  schedule_jobs(m, s);
  autoscale(m, s);  // elastic pools request nodes for what is still queued
  return s.totals.saturation == SaturationCause::none;
}

//! Closes a replica after its last step: integrates to the horizon and settles open accounts.
GPUPLAN_HD inline void end_replica(const ModelView& m, ReplicaState& s) {
  // A saturated replica stops where it broke down; its statistics end there too.
  const bool kept_up = s.totals.saturation == SaturationCause::none;
  if (kept_up) advance_to(m, s, m.horizon);
  settle_spend(m, s);
  record_unfinished(s, kept_up ? m.horizon : s.totals.saturated_at);
  net_flush(m, s);
  finalize_job_runs(m, s);
  finalize_failures(m, s);
  finalize_maintenance(m, s);
}

//! Runs one replica from start to horizon (or until it saturates).
GPUPLAN_HD inline void run_replica(const ModelView& m, ReplicaState& s, uint32_t replica_idx) {
  init_replica(m, s, replica_idx);
  while (step(m, s)) {
  }
  end_replica(m, s);
}

}  // namespace gpuplan
