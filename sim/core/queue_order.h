#pragma once
//! The rank of an active job under the queue policy, and the queue kept in rank order: class
//! priority first (higher first), then the policy's key (SJF: declared duration; SRTF: declared
//! duration minus run time so far; LAS: attained-GPU-time queue), then submission order (submit
//! time, class, arrival index). Plain fifo/backfill without priorities keep the queue in
//! submission order by appending, as before (docs/scheduling-policies.md).
#include "sim/core/distribution.h"
#include "sim/core/job_runs.h"
#include "sim/core/queue_index.h"
#include "sim/core/rng.h"
#include "sim/core/type_aware.h"

namespace gpuplan {

//! [s] wall time the job in `slot` has run: `finished` (its finished runs) plus the current one.
[[nodiscard]] GPUPLAN_HD inline double run_so_far(const ReplicaState& s, uint32_t slot,
                                                  double finished) {
  return s.jobs[slot].phase == JobPhase::running ? finished + (s.now - s.policy.jobs[slot].since)
                                                 : finished;
}

//! [s] when the running job in `slot` reaches LAS threshold k (its attained GPU-time since its
//! last promotion, gpus × run time, equals the threshold).
[[nodiscard]] GPUPLAN_HD inline SimTime las_crossing(const ModelView& m, const ReplicaState& s,
                                                     uint32_t slot, uint32_t k) {
  const PolicyJob& pj = s.policy.jobs[slot];
  return pj.since + (m.sched.las_thresholds_gpu_s[k] / s.jobs[slot].gpus - pj.las_run_s);
}

//! 2D-LAS queue of the job in `slot` (0 = top): how many thresholds its attained GPU-time since
//! its last promotion has reached.
[[nodiscard]] GPUPLAN_HD inline uint32_t las_queue(const ModelView& m, const ReplicaState& s,
                                                   uint32_t slot) {
  const Job& j = s.jobs[slot];
  const PolicyJob& pj = s.policy.jobs[slot];
  // NOTE: a running job is compared by time with the very expression its review event was
  // scheduled with (las_crossing), so the review instant always finds it demoted. Its crossings
  // are fixed for the run and a threshold passed stays passed, so the queue noted at its start
  // or last review (note_las_level) holds until las_next: no division per threshold and call.
  if (j.phase == JobPhase::running) {
    if (s.now < pj.las_next) return pj.las_level;
    uint32_t k = pj.las_level;
    while (k < m.sched.las_n_thresholds && s.now >= las_crossing(m, s, slot, k)) ++k;
    return k;
  }
  const double attained = j.gpus * pj.las_run_s;
  uint32_t k = 0;
  while (k < m.sched.las_n_thresholds && attained >= m.sched.las_thresholds_gpu_s[k]) ++k;
  return k;
}

//! Notes the queue of the running LAS job in `slot` now and when it drops below it, so that
//! las_queue reads them until then instead of dividing per threshold (at the start of its run,
//! from the top queue, and at each review).
GPUPLAN_HD inline void note_las_level(const ModelView& m, ReplicaState& s, uint32_t slot,
                                      uint32_t from) {
  PolicyJob& pj = s.policy.jobs[slot];
  uint32_t k = from;
  while (k < m.sched.las_n_thresholds && s.now >= las_crossing(m, s, slot, k)) ++k;
  pj.las_level = k;
  pj.las_next = k < m.sched.las_n_thresholds ? las_crossing(m, s, slot, k) : NEVER;
}

//! The policy's key of the job in `slot` now: lower is served first (0 for fifo/backfill).
[[nodiscard]] GPUPLAN_HD inline double policy_key(const ModelView& m, const ReplicaState& s,
                                                  uint32_t slot) {
  switch (m.queue) {
    case QueuePolicy::fifo:
    case QueuePolicy::backfill:
    case QueuePolicy::fair_share:  // within a team: submission order
    case QueuePolicy::fifo_perf:
      return 0;
    case QueuePolicy::sjf:
      return s.policy.jobs[slot].declared_s;
    case QueuePolicy::srtf: {
      const PolicyJob& pj = s.policy.jobs[slot];
      const double left = pj.declared_s - run_so_far(s, slot, pj.run_s);
      return left > 0 ? left : 0;
    }
    case QueuePolicy::las:
      return double(las_queue(m, s, slot));
    case QueuePolicy::max_min_fairness_perf:
      return fair_service(s, slot);
  }
  return 0;
}

//! True when the job in slot a is served before the one in slot b.
[[nodiscard]] GPUPLAN_HD inline bool ranks_before(const ModelView& m, const ReplicaState& s,
                                                  uint32_t a, uint32_t b) {
  const Job& ja = s.jobs[a];
  const Job& jb = s.jobs[b];
  const int32_t pa = m.classes[ja.class_idx].priority, pb = m.classes[jb.class_idx].priority;
  if (pa != pb) return pa > pb;
  const double ka = policy_key(m, s, a), kb = policy_key(m, s, b);
  if (ka != kb) return ka < kb;
  return submitted_before(ja, jb);
}

//! True when the queued job in slot a may preempt the running job in slot b: a higher class
//! priority (with priority preemption on), or the same priority and a strictly better key under
//! a preemptive policy (a shorter remaining time; a higher LAS queue; less normalized service,
//! at the end of the running job's round under max_min_fairness_perf). `key_a` is a's
//! policy_key, computed once by callers that test a against many running jobs.
[[nodiscard]] GPUPLAN_HD inline bool outranks(const ModelView& m, const ReplicaState& s, uint32_t a,
                                              double key_a, uint32_t b) {
  const int32_t pa = m.classes[s.jobs[a].class_idx].priority;
  const int32_t pb = m.classes[s.jobs[b].class_idx].priority;
  // NOTE: across teams only a borrowing team's jobs may go (sim/core/team_quota.h).
  if (!team_preemptable(m, s, a, b)) return false;
  if (pa != pb) return m.sched.priority_preemption && pa > pb;
  if (m.queue == QueuePolicy::max_min_fairness_perf && !round_ends(s, b)) return false;
  return policy_preempts(m.queue) && key_a < policy_key(m, s, b);
}

//! The first of places [lo, hi) of a ring in rank order (the queue, or a kind's ring of the queue
//! index) whose job does not rank before the job in `slot` (hi if none). O(log(hi - lo)) keys.
[[nodiscard]] GPUPLAN_HD inline uint32_t first_not_before_in(const ModelView& m, ReplicaState& s,
                                                             span<uint32_t> ring, uint32_t head,
                                                             uint32_t lo, uint32_t hi,
                                                             uint32_t slot) {
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (ranks_before(m, s, ring[ring_pos(ring.size, head, mid)], slot))
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

//! The first queue place whose job does not rank before the job in `slot` (queue_len if none): in
//! a queue in rank order, where that job is when it is queued. O(log queue) keys.
[[nodiscard]] GPUPLAN_HD inline uint32_t first_not_before(const ModelView& m, ReplicaState& s,
                                                          uint32_t slot) {
  return first_not_before_in(m, s, s.queue, s.queue_head, 0, s.queue_len, slot);
}

//! Puts the queued job in `slot` into its kind's ring of the queue index, at its rank.
GPUPLAN_HD inline void index_insert(const ModelView& m, ReplicaState& s, uint32_t slot) {
  QueueIndex& ix = s.policy.index;
  if (ix.n_kinds == 0) return;
  const uint32_t k = index_kind(m, s, slot);
  const uint32_t at = first_not_before_in(m, s, index_ring(s, k), ix.head[k], 0, ix.len[k], slot);
  ring_open(index_ring(s, k), ix.head[k], ix.len[k], at);
  index_at(s, k, at) = slot;
}

//! Takes the queued job in `slot` out of its kind's ring of the queue index, keeping the others'
//! order (before its rank changes).
GPUPLAN_HD inline void index_remove(const ModelView& m, ReplicaState& s, uint32_t slot) {
  QueueIndex& ix = s.policy.index;
  if (ix.n_kinds == 0) return;
  const uint32_t k = index_kind(m, s, slot);
  uint32_t i = first_not_before_in(m, s, index_ring(s, k), ix.head[k], 0, ix.len[k], slot);
  // NOTE: as handle_policy_review's search of the queue, a linear search is the fallback.
  if (i == ix.len[k] || index_at(s, k, i) != slot) {
    i = 0;
    while (i < ix.len[k] && index_at(s, k, i) != slot) ++i;
    if (i == ix.len[k]) return;
  }
  ring_close(index_ring(s, k), ix.head[k], ix.len[k], i);
}

//! Inserts the queued job in `slot` at its rank (after every job that ranks before it), and into
//! the queue index; false when the queue is full.
[[nodiscard]] GPUPLAN_HD inline bool insert_ranked(const ModelView& m, ReplicaState& s,
                                                   uint32_t slot) {
  if (s.queue_len == s.queue.size) return false;
  // NOTE: the queue is in rank order and a waiting job's key does not change (its service and
  // declared time are frozen; a LAS promotion takes it out and inserts it again), so the jobs it
  // ranks before form a suffix: a binary search finds where, with O(log queue) keys, not O(queue).
  uint32_t lo = 0, hi = s.queue_len;
  while (lo < hi) {
    const uint32_t mid = lo + (hi - lo) / 2;
    if (ranks_before(m, s, slot, queue_at(s, mid)))
      hi = mid;
    else
      lo = mid + 1;
  }
  queue_open(s, lo);  // the shorter side moves
  queue_at(s, lo) = slot;
  index_insert(m, s, slot);
  return true;
}

//! Keeps every event but stale job finishes and stale policy reviews (a functor: device code
//! takes no host lambdas).
struct LiveEvents {
  span<const Job> jobs;
  span<const PolicyJob> ranked;
  GPUPLAN_HD bool operator()(const Event& e) const {
    if (e.kind() == EventKind::job_finish) return e.gen == jobs[e.target].gen;
    if (e.kind() == EventKind::policy_review) return e.gen == ranked[e.target].review_gen;
    return true;
  }
};

//! Makes `t` the one live LAS review of the job in `slot` (NEVER or past the horizon: none): a
//! demotion of a running job or a starvation promotion of a queued one falls due then. Earlier
//! reviews of the slot go stale; a full calendar drops the stale events first.
GPUPLAN_HD inline void set_review(const ModelView& m, ReplicaState& s, uint32_t slot, SimTime t) {
  PolicyJob& pj = s.policy.jobs[slot];
  pj.review_gen += 1;
  if (!(t < m.horizon)) return;
  if (schedule_event(s.events, t, EventKind::policy_review, slot, pj.review_gen)) return;
  compact_events(s.events,
                 LiveEvents{span<const Job>{s.jobs.data, s.jobs.size},
                            span<const PolicyJob>{s.policy.jobs.data, s.policy.jobs.size}});
  if (!schedule_event(s.events, t, EventKind::policy_review, slot, pj.review_gen))
    saturate(s, SaturationCause::event_overflow);
}

//! [s] when the queued LAS job in `slot` has waited its promote knob times its run time since its
//! last promotion, now at the earliest (NEVER: no guard, or it is in the top queue).
[[nodiscard]] GPUPLAN_HD inline SimTime las_promotion(const ModelView& m, const ReplicaState& s,
                                                      uint32_t slot) {
  const PolicyJob& pj = s.policy.jobs[slot];
  if (!(m.sched.las_promote_knob > 0) || !(pj.las_run_s > 0) || las_queue(m, s, slot) == 0)
    return NEVER;
  const SimTime due = pj.since + (m.sched.las_promote_knob * pj.las_run_s - pj.las_wait_s);
  return due > s.now ? due : s.now;  // it may have waited long enough before this run
}

//! Queues the job just created in `slot` (the queue has room: it has a slot per job): ranked
//! policies draw its declared duration and insert it at its rank, the others append it.
GPUPLAN_HD inline void enqueue_arrival(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (!m.sched.ranked) {
    queue_at(s, s.queue_len) = slot;
    s.queue_len += 1;
    return;
  }
  const Job& j = s.jobs[slot];
  PolicyJob& pj = s.policy.jobs[slot];
  double factor = 1.0;
  if (m.sched.estimate_sigma > 0) {
    // NOTE: its own stream, keyed like the duration draw, so turning estimate errors on moves
    // no other random number.
    const Draw d =
        philox_draw(m.seed, s.replica_idx, Stream::estimate_error, j.class_idx, j.job_idx);
    const DistSpec err{DistKind::lognormal, 0.0, m.sched.estimate_sigma, 0, 0};
    factor = sample(m, err, d);
  }
  pj.declared_s = j.work * factor;
  pj.run_s = pj.las_run_s = pj.las_wait_s = 0;
  pj.fair_s = pj.fair_rate = 0;
  pj.lease_end = pj.moved_check = NEVER;
  pj.since = s.now;
  pj.stop_at = NEVER;
  pj.review_gen += 1;  // a review left by the slot's previous job is stale
  if (!insert_ranked(m, s, slot)) saturate(s, SaturationCause::queue_overflow);
}

//! True when the finish time of the running job in `slot` may still move (a gang sharing
//! uplinks is re-rated when its neighbours start and end: sim/core/network.h).
[[nodiscard]] GPUPLAN_HD inline bool finish_may_move(const ModelView& m, const ReplicaState& s,
                                                     uint32_t slot) {
  return m.net.n_levels > 0 && s.net.jobs[slot].list_pos != NONE;
}

//! Under LAS, schedules the next demotion of the job in `slot`, which has just started a run
//! with its finish set: only when it reaches its next threshold before it ends (a review after
//! the end would find nothing to do, yet wake a scheduling pass), unless its finish may move.
//! Any earlier review of the slot goes stale.
GPUPLAN_HD inline void schedule_demotion(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (m.queue != QueuePolicy::las) return;
  note_las_level(m, s, slot, s.policy.jobs[slot].las_level);  // running: the next one is ahead
  const SimTime t = s.policy.jobs[slot].las_next;
  set_review(m, s, slot, t < s.jobs[slot].finish || finish_may_move(m, s, slot) ? t : NEVER);
}

//! Notes that the job in `slot` starts a run now (its wait since `since` counts toward LAS
//! starvation); the caller schedules its LAS demotion once its finish is known. Under
//! max_min_fairness_perf, schedules the end of its first round.
GPUPLAN_HD inline void note_ranked_start(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (!m.sched.ranked) return;
  PolicyJob& pj = s.policy.jobs[slot];
  pj.las_wait_s += s.now - pj.since;
  pj.since = s.now;
  if (m.queue == QueuePolicy::las) note_las_level(m, s, slot, 0);
  if (m.queue == QueuePolicy::max_min_fairness_perf) {
    pj.fair_rate = fair_rate(m, s, slot, s.jobs[slot].pool);
    pj.lease_end = NEVER;
    set_review(m, s, slot, next_round_end(m, s.now));
  }
}

//! Puts the just-preempted job in `slot` back into the queue: in submission order for plain
//! fifo/backfill, else at its rank (during a scheduling pass, in the pass's deferred list) after
//! booking its run time and, under LAS, scheduling its starvation promotion; false when the queue
//! is full.
[[nodiscard]] GPUPLAN_HD inline bool requeue_job(const ModelView& m, ReplicaState& s,
                                                 uint32_t slot) {
  if (!m.sched.ranked) return requeue_in_order(s, slot);
  PolicyJob& pj = s.policy.jobs[slot];
  const double ran = s.now - pj.since;
  pj.run_s += ran;
  pj.las_run_s += ran;
  pj.fair_s += ran * pj.fair_rate;
  pj.since = s.now;
  pj.stop_at = NEVER;
  pj.review_gen += 1;  // a pending end of grace is stale (a failure may end the run first)
  if (m.queue == QueuePolicy::las) set_review(m, s, slot, las_promotion(m, s, slot));
  if (m.queue == QueuePolicy::max_min_fairness_perf) set_review(m, s, slot, NEVER);
  if (!s.policy.deferring) return insert_ranked(m, s, slot);
  s.policy.deferred[s.policy.n_deferred++] = slot;
  return true;
}

}  // namespace gpuplan
