#pragma once
//! The scheduling pass of the ranked policies (SJF, SRTF, 2D-LAS, class priorities): queued jobs
//! in rank order start where they fit; one that does not fit may preempt running jobs it
//! outranks (sim/core/queue_order.h) until it fits, through the same path as a spot reclaim
//! (lost work since the last checkpoint, restart on the next run, requeued at its rank). LAS
//! demotions and starvation promotions fall due at exact instants: each active job has at most
//! one live policy_review event, which wakes the pass then (docs/scheduling-policies.md).
#include "sim/core/cluster.h"
#include "sim/core/preemption.h"
#include "sim/core/queue_order.h"
#include "sim/core/team_reclaim.h"

namespace gpuplan {

//! Queued jobs one ranked pass may pass over before it stops (as BACKFILL_WINDOW).
inline constexpr uint32_t RANKED_WINDOW = 1024;
//! Scans per instant that may preempt; later scans only start jobs that fit.
inline constexpr uint32_t RANKED_ROUNDS = 64;

//! True when running job a should be preempted before running job b: lower class priority,
//! then a worse policy key, then the later start of its current run, then the later submission.
[[nodiscard]] GPUPLAN_HD inline bool worse_victim(const ModelView& m, const ReplicaState& s,
                                                  uint32_t a, uint32_t b) {
  const int32_t pa = m.classes[s.jobs[a].class_idx].priority;
  const int32_t pb = m.classes[s.jobs[b].class_idx].priority;
  if (pa != pb) return pa < pb;
  const double ka = policy_key(m, s, a), kb = policy_key(m, s, b);
  if (ka != kb) return ka > kb;
  const SimTime sa = s.policy.jobs[a].since, sb = s.policy.jobs[b].since;
  if (sa != sb) return sa > sb;
  return submitted_before(s.jobs[b], s.jobs[a]);
}

//! True when the running job in `slot` holds a GPU on node n.
[[nodiscard]] GPUPLAN_HD inline bool runs_on(const ModelView& m, const ReplicaState& s,
                                             uint32_t slot, uint32_t n) {
  const uint32_t* nodes = &s.job_nodes[slot * m.max_nodes_per_job];
  for (uint32_t i = 0; i < s.jobs[slot].n_nodes; ++i)
    if (nodes[i] == n) return true;
  return false;
}

//! Ends the run of the job in `slot` for the scheduler now, counted per class; `notice` [s] and
//! `planned` as interrupt_run's (notice 0 and not planned: no final checkpoint).
GPUPLAN_HD inline void scheduler_stop(const ModelView& m, ReplicaState& s, uint32_t slot,
                                      double notice, bool planned = false) {
  if (in_window(m, s.now)) {
    ClassRunTotals& c = s.runs.classes[s.jobs[slot].class_idx];
    c.preemptions += 1;
    c.scheduler_preemptions += 1;
  }
  interrupt_run(m, s, slot, notice, planned);
}

//! True when the running job in `slot` is in its preemption grace: its GPUs come free at stop_at.
[[nodiscard]] GPUPLAN_HD inline bool stopping(const ModelView& m, const ReplicaState& s,
                                              uint32_t slot) {
  return m.sched.preemption_grace_s > 0 && s.policy.jobs[slot].stop_at < NEVER;
}

//! True when the running job in `slot` saves a final checkpoint if the scheduler stops it now: a
//! job that checkpoints and whose max-min round ends now saves at the end of its round, as
//! Gavel's jobs do when their lease ends (the round's end is known in advance, so even a write
//! that costs nothing saves); no other preemption warns.
[[nodiscard]] GPUPLAN_HD inline bool round_end_saves(const ModelView& m, const ReplicaState& s,
                                                     uint32_t slot) {
  return m.queue == QueuePolicy::max_min_fairness_perf && round_ends(s, slot) &&
         m.class_runs[s.jobs[slot].class_idx].checkpoints;
}

//! Preempts the running job in `slot` for the scheduler: stopped now (with a final checkpoint at
//! a max-min round end, else without a warning), or, with a preemption grace, left running until
//! the grace ends (its policy_review then stops it).
GPUPLAN_HD inline void scheduler_preempt(const ModelView& m, ReplicaState& s, uint32_t slot) {
  if (!(m.sched.preemption_grace_s > 0)) {
    const bool saves = round_end_saves(m, s, slot);
    scheduler_stop(m, s, slot, saves ? m.class_runs[s.jobs[slot].class_idx].checkpoint_s : 0.0,
                   saves);
    return;
  }
  PolicyJob& pj = s.policy.jobs[slot];
  pj.stop_at = s.now + m.sched.preemption_grace_s;
  set_review(m, s, slot, pj.stop_at);  // its LAS demotion, if any, goes stale
}

//! Stops the job in `slot` at the end of its preemption grace. A class that checkpoints and
//! whose write fits in the grace computed until the last `checkpoint_s` of it and saves then
//! (interrupt_run's final checkpoint, planned: a write that costs nothing saves too); any other
//! loses the work since its last checkpoint.
GPUPLAN_HD inline void stop_after_grace(const ModelView& m, ReplicaState& s, uint32_t slot) {
  const ClassRunSpec& cr = m.class_runs[s.jobs[slot].class_idx];
  const bool saves = cr.checkpoints && m.sched.preemption_grace_s >= cr.checkpoint_s;
  scheduler_stop(m, s, slot, saves ? cr.checkpoint_s : 0.0, saves);
}

//! [GPUs] on node n held by jobs in their preemption grace (free when it ends).
[[nodiscard]] GPUPLAN_HD inline uint32_t draining_gpus(const ModelView& m, const ReplicaState& s,
                                                       uint32_t n) {
  if (!(m.sched.preemption_grace_s > 0)) return 0;
  uint32_t gpus = 0;
  for (uint32_t i = 0; i < s.running; ++i) {
    const uint32_t v = s.running_slots[i];
    const Job& r = s.jobs[v];
    if (!stopping(m, s, v) || !runs_on(m, s, v, n)) continue;
    gpus += r.n_nodes == 1 ? r.gpus : m.pools[r.pool].gpus_per_node;
  }
  return gpus;
}

//! Preempts, worst first, running jobs that the queued job in `slot` outranks on node n until n
//! has `gpus` GPUs free or coming free at the end of a preemption grace.
GPUPLAN_HD inline void clear_node(const ModelView& m, ReplicaState& s, uint32_t slot, uint32_t n,
                                  uint32_t gpus) {
  uint32_t draining = draining_gpus(m, s, n);
  const double key = policy_key(m, s, slot);
  while (s.node_free[n] + draining < gpus) {
    uint32_t victim = NONE;
    for (uint32_t i = 0; i < s.running; ++i) {
      const uint32_t v = s.running_slots[i];
      if (!runs_on(m, s, v, n) || stopping(m, s, v) || !outranks(m, s, slot, key, v)) continue;
      if (victim == NONE || worse_victim(m, s, v, victim)) victim = v;
    }
    if (victim == NONE) return;  // cannot happen: the caller counted these GPUs
    const Job& r = s.jobs[victim];
    const uint32_t held = r.n_nodes == 1 ? r.gpus : m.pools[r.pool].gpus_per_node;
    scheduler_preempt(m, s, victim);
    if (stopping(m, s, victim)) draining += held;  // in its grace: its GPUs come free later
  }
}

//! Nodes of `pool` with every GPU free (or coming free at the end of a preemption grace).
[[nodiscard]] GPUPLAN_HD inline uint32_t whole_free_nodes_in(const ModelView& m,
                                                             const ReplicaState& s, uint32_t p) {
  const PoolSpec& pool = m.pools[p];
  uint32_t n_free = 0;
  for (uint32_t n = pool.first_node; n < pool_slots_end(m, s, p); ++n)
    n_free += s.node_free[n] + draining_gpus(m, s, n) == pool.gpus_per_node;
  return n_free;
}

//! True when the running job in `v` may give its GPUs to the queued job in `slot` (whose policy_key
//! is `key`): on a pool of `pools`, on one node when `single_node`, and outranked by it or in its
//! preemption grace.
[[nodiscard]] GPUPLAN_HD inline bool yields_to(const ModelView& m, const ReplicaState& s,
                                               uint32_t slot, double key, uint64_t pools,
                                               bool single_node, uint32_t v) {
  const Job& r = s.jobs[v];
  return ((pools >> r.pool) & 1) && !(single_node && r.n_nodes != 1) &&
         (stopping(m, s, v) || outranks(m, s, slot, key, v));
}

//! Fills s.policy.node_gpus with each used node slot's free GPUs (pool_slots_end) plus those held
//! by running jobs that yield to the queued job in `slot` (yields_to). True when there is any
//! such job; when there is none and `victims_only`, node_gpus is left as it was.
GPUPLAN_HD inline bool room_per_node(const ModelView& m, ReplicaState& s, uint32_t slot,
                                     uint64_t pools, bool single_node, bool victims_only) {
  const double key = policy_key(m, s, slot);
  // NOTE: the first such job is looked for before any node is read: under overload most calls
  // of make_room find none, and then cost O(running jobs) rather than O(nodes + running jobs).
  uint32_t first = 0;
  while (first < s.running &&
         !yields_to(m, s, slot, key, pools, single_node, s.running_slots[first]))
    ++first;
  if (first == s.running && victims_only) return false;
  uint32_t* can = s.policy.node_gpus.data;
  for (uint32_t p = 0; p < m.pools.size; ++p)
    for (uint32_t n = m.pools[p].first_node; n < pool_slots_end(m, s, p); ++n)
      can[n] = s.node_free[n];
  for (uint32_t i = first; i < s.running; ++i) {
    const uint32_t v = s.running_slots[i];
    const Job& r = s.jobs[v];
    if (i > first && !yields_to(m, s, slot, key, pools, single_node, v)) continue;
    const uint32_t* nodes = &s.job_nodes[v * m.max_nodes_per_job];
    const uint32_t gpn = m.pools[r.pool].gpus_per_node;
    for (uint32_t k = 0; k < r.n_nodes; ++k) can[nodes[k]] += r.n_nodes == 1 ? r.gpus : gpn;
  }
  return first < s.running;
}

//! The node of a pool in `pools` whose node_gpus (room_per_node) reach `gpus` and that has the
//! most free GPUs now (lowest index on ties), or NONE.
[[nodiscard]] GPUPLAN_HD inline uint32_t most_free_clearable(const ModelView& m,
                                                             const ReplicaState& s, uint64_t pools,
                                                             uint32_t gpus) {
  const uint32_t* can = s.policy.node_gpus.data;
  uint32_t best = NONE;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (!((pools >> p) & 1)) continue;
    for (uint32_t n = m.pools[p].first_node; n < pool_slots_end(m, s, p); ++n) {
      if (can[n] < gpus) continue;
      if (best == NONE || s.node_free[n] > s.node_free[best]) best = n;
    }
  }
  return best;
}

//! True when make_room can find no victim now, whichever job asks: under max-min between rounds
//! no running job is outranked (outranks), unless class priorities preempt or a job in its
//! preemption grace could hand over its GPUs.
[[nodiscard]] GPUPLAN_HD inline bool no_policy_victims_now(const ModelView& m,
                                                           const ReplicaState& s) {
  return between_rounds(m, s) && !m.sched.priority_preemption && !(m.sched.preemption_grace_s > 0);
}

//! What make_room did: preempted, found running jobs it outranks but no room among them, or
//! found none it outranks.
enum class Room : uint8_t { made, no_fit, no_victims };

//! Makes room for the queued job in `slot` by preempting running jobs it outranks, when that is
//! enough: a job that fits in one node takes the eligible node that can be cleared and has the
//! most free GPUs (lowest index on ties); a gang takes whole nodes of the first eligible pool
//! with enough free or clearable nodes (free ones first, then by index). Eligible (`mask`): the
//! job's pools (`pools`, job_pool_mask), its preferred ones only in max-min's preference scan
//! (preferred_pools).
[[nodiscard]] GPUPLAN_HD inline Room make_room(const ModelView& m, ReplicaState& s, uint32_t slot,
                                               uint64_t pools, uint64_t mask) {
  if (no_policy_victims_now(m, s)) return Room::no_victims;
  const Job& j = s.jobs[slot];
  // NOTE: no victim anywhere tells the scan that no later job finds one (no_victims); none on a
  // job's preferred pools (preferred_pools) tells it only about this job's class and size.
  const bool preferred_only = mask != pools;
  if (!room_per_node(m, s, slot, preferred_only ? mask : ~0ull, false, true))
    return preferred_only ? Room::no_fit : Room::no_victims;
  const uint32_t* can = s.policy.node_gpus.data;
  if (j.gpus <= m.classes[j.class_idx].node_gpus_max) {
    const uint32_t best = most_free_clearable(m, s, mask, j.gpus);
    if (best == NONE) return Room::no_fit;
    clear_node(m, s, slot, best, j.gpus);
    return Room::made;
  }
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    if (!((mask >> p) & 1)) continue;
    const PoolSpec& pool = m.pools[p];
    const uint32_t gpn = pool.gpus_per_node, end = pool_slots_end(m, s, p);
    const uint32_t need = (j.gpus + gpn - 1) / gpn;
    if (need > pool.n_nodes || need > m.max_nodes_per_job) continue;
    uint32_t free = 0, clearable = 0;
    for (uint32_t n = pool.first_node; n < end; ++n) {
      free += s.node_free[n] == gpn;
      clearable += can[n] == gpn && s.node_free[n] < gpn;
    }
    if (free + clearable < need) continue;
    // NOTE: clearing a node preempts whole gangs, which may free later nodes too: count again.
    for (uint32_t n = pool.first_node; n < end && whole_free_nodes_in(m, s, p) < need; ++n) {
      if (can[n] != gpn || s.node_free[n] == gpn) continue;
      clear_node(m, s, slot, n, gpn);
    }
    return Room::made;
  }
  return Room::no_fit;
}

//! Handles a LAS review of the job in `slot` (stale when `gen` moved on): a running job has just
//! dropped a queue (its next drop is scheduled; the pass below may preempt it), a queued one has
//! starved and goes back to the top queue, with attained service and wait reset. Under
//! max_min_fairness_perf a running job's round ends: the pass may preempt it now, else the next
//! round's end is scheduled.
GPUPLAN_HD inline void handle_policy_review(const ModelView& m, ReplicaState& s, uint32_t slot,
                                            uint32_t gen) {
  PolicyJob& pj = s.policy.jobs[slot];
  if (gen != pj.review_gen) return;
  if (s.jobs[slot].phase == JobPhase::running && m.queue == QueuePolicy::max_min_fairness_perf) {
    pj.lease_end = s.now;  // the pass after these events may preempt it; else it runs a round more
    s.policy.round_end_at = s.now;
    set_review(m, s, slot, next_round_end(m, s.now));
    return;
  }
  if (s.jobs[slot].phase == JobPhase::running) {
    if (stopping(m, s, slot)) {
      stop_after_grace(m, s, slot);
    } else {
      schedule_demotion(m, s, slot);
    }
    return;
  }
  if (s.jobs[slot].phase != JobPhase::queued) return;
  // NOTE: the queue is in rank order, so the jobs ranking before this one are a prefix: a binary
  // search finds it; a linear search stays as the fallback should the order ever not hold.
  uint32_t i = first_not_before(m, s, slot);
  if (i == s.queue_len || queue_at(s, i) != slot) {
    i = 0;
    while (i < s.queue_len && queue_at(s, i) != slot) ++i;
    if (i == s.queue_len) return;
  }
  queue_close(s, i);  // take it out of the queue, keeping the others' order
  index_remove(m, s, slot);
  pj.las_run_s = pj.las_wait_s = 0;
  pj.since = s.now;
  pj.review_gen += 1;
  if (!insert_ranked(m, s, slot)) saturate(s, SaturationCause::queue_overflow);
}

//! What a scan of the queue knows so far (scan_queue). It changes only when a job starts or
//! make_room answers, so every job a scan passes between two such calls sees the same state.
struct ScanState {
  uint32_t max_free;              //!< [GPUs] the most free GPUs of any node
  uint32_t no_room_class = NONE;  //!< make_room failed for this class at no_room_gpus or more
  uint32_t no_room_gpus = 0;      //!< [GPUs]
  bool victims_left = true;       //!< a job left in the scan may outrank a running one
  bool preempt = false;           //!< the scan may preempt
  bool ranks_preempt = false;     //!< the policy or class priorities preempt
  //! max-min's preference scan (preferred_pools): make_room failed for a single-node job of
  //! no_room_tier_gpus[i] GPUs or more on the preferred pools no_room_tiers[i]
  static constexpr uint32_t TIERS_KEPT = 4;
  uint64_t no_room_tiers[TIERS_KEPT] = {};
  uint32_t no_room_tier_gpus[TIERS_KEPT] = {};
  uint32_t n_no_room_tiers = 0;
};

//! True when make_room already failed in this scan on `tier` for a single-node job of no more
//! than `gpus` GPUs.
[[nodiscard]] GPUPLAN_HD inline bool tier_has_no_room(const ScanState& sc, uint64_t tier,
                                                      uint32_t gpus) {
  for (uint32_t i = 0; i < sc.n_no_room_tiers; ++i)
    if (sc.no_room_tiers[i] == tier && gpus >= sc.no_room_tier_gpus[i]) return true;
  return false;
}

//! Notes that make_room failed on `tier` for a single-node job of `gpus` GPUs (kept while
//! there is room in the scan's memo).
GPUPLAN_HD inline void note_tier_no_room(ScanState& sc, uint64_t tier, uint32_t gpus) {
  for (uint32_t i = 0; i < sc.n_no_room_tiers; ++i) {
    if (sc.no_room_tiers[i] != tier) continue;
    if (gpus < sc.no_room_tier_gpus[i]) sc.no_room_tier_gpus[i] = gpus;
    return;
  }
  if (sc.n_no_room_tiers == ScanState::TIERS_KEPT) return;
  sc.no_room_tiers[sc.n_no_room_tiers] = tier;
  sc.no_room_tier_gpus[sc.n_no_room_tiers++] = gpus;
}

//! Tries the queued job in `slot` for a scan: it starts if it fits, else (when the scan may
//! preempt) it may make room by preemption or team reclaim. True when it started.
template <class Start>
GPUPLAN_HD inline bool scan_try(const ModelView& m, ReplicaState& s, const Start& start,
                                ScanState& sc, uint32_t slot) {
  const uint32_t cls = s.jobs[slot].class_idx, gpus = s.jobs[slot].gpus;
  const bool one_node = gpus <= m.classes[cls].node_gpus_max;
  // NOTE: the queue is in rank order, so a later job of the same class outranks no job an earlier
  // one does not (same priority, a key no better): once make_room fails for a class at g GPUs,
  // it fails for every later job of that class with >= g GPUs until a start changes the state.
  // Skipping those calls is exact and keeps an overloaded ranked queue at O(window) per instant
  // instead of O(window x active jobs). Likewise once a job outranks no running job, no later one
  // does (a start adds none: the started job ranks before them), so with no free GPU the scan
  // ends there. Team admission breaks the monotonicity: both are off with teams. In max-min's
  // preference scan, a single-node job's room depends on its preferred pools, not its class:
  // the same holds per tier of pools, across classes.
  bool ok = !(one_node && gpus > sc.max_free) && start(slot);
  bool try_room = !ok && sc.preempt && sc.ranks_preempt && sc.victims_left &&
                  !(cls == sc.no_room_class && gpus >= sc.no_room_gpus);
  uint64_t pools = 0, eligible = 0, tier = 0;  // tier: the preferred pools a scan narrowed to
  if (try_room) {
    pools = job_pool_mask(m, s, slot);
    eligible = preferred_pools(m, s, cls, pools);
    if (eligible != pools && one_node && !teams_on(m)) tier = eligible;
    try_room = !(tier != 0 && tier_has_no_room(sc, tier, gpus));
  }
  if (try_room) {
    const Room room = make_room(m, s, slot, pools, eligible);
    if (room == Room::made) {
      ok = start(slot);
      sc.no_room_class = NONE;  // victims preempted: the state changed
      sc.n_no_room_tiers = 0;
    } else if (room == Room::no_victims && !teams_on(m)) {
      sc.victims_left = false;
    } else if (!teams_on(m)) {
      sc.no_room_gpus = cls == sc.no_room_class && sc.no_room_gpus < gpus ? sc.no_room_gpus : gpus;
      sc.no_room_class = cls;
      if (tier != 0) note_tier_no_room(sc, tier, gpus);
    }
  }
  if (!ok && sc.preempt && reclaim_room(m, s, slot)) ok = start(slot);  // team_reclaim.h
  if (ok) {
    sc.no_room_class = NONE;
    sc.n_no_room_tiers = 0;
    sc.max_free = most_free_gpus(m, s);
  }
  return ok;
}

//! True when a job of the queue index's kind k may start or make room in the scan's state, so
//! scan_try could change something: always for the last kind; for a size kind when its smallest
//! job fits in the most free GPUs of a node, or when make_room may still be called for it.
[[nodiscard]] GPUPLAN_HD inline bool kind_may_act(const ModelView& m, const ScanState& sc,
                                                  uint32_t k, uint32_t n_kinds) {
  if (k == n_kinds - 1 || kind_min_gpus(k) <= sc.max_free) return true;
  if (!(sc.preempt && sc.ranks_preempt && sc.victims_left)) return false;
  // NOTE: make_room is passed over only for the class that last failed, at no fewer GPUs; a kind
  // holds one class only when the model has one.
  return !(m.classes.size == 1 && sc.no_room_class == 0 && kind_min_gpus(k) >= sc.no_room_gpus);
}

//! scan_queue over the queue index (sim/core/queue_index.h; not strict, no teams): visits in rank
//! order only the jobs of kinds that may act (kind_may_act) and passes over the others without
//! reading them, counting them against the window as scan_queue does. The same jobs start and
//! make room, in the same order: a job of a kind that may not act would change nothing in
//! scan_try, so the state each visited job sees is the state scan_queue's loop gives it. An
//! overloaded queue whose window holds jobs that cannot act costs O(kinds log queue) per visit.
template <class Start>
GPUPLAN_HD inline void scan_indexed(const ModelView& m, ReplicaState& s, const Start& start,
                                    ScanState& sc, uint32_t window) {
  QueueIndex& ix = s.policy.index;
  // NOTE: cursor[k]: kind k's jobs before it were visited or passed over; it is in step (the
  // kind's first job after the last visit) for the kinds that could act at the last visit.
  uint32_t cursor[MAX_INDEX_KINDS] = {}, started_of[MAX_INDEX_KINDS] = {};
  uint32_t kind_started_end[MAX_INDEX_KINDS] = {};  // as started_end, in each kind's ring
  uint32_t in_step = ~0u;
  uint32_t pos = 0, started = 0;  // the queue's jobs before pos were visited or passed over
  uint32_t started_end = 0;       // one past the last started job's queue place
  while (pos < s.queue_len && pos < window + started) {
    if (sc.max_free == 0 && !(sc.preempt && sc.victims_left)) break;
    uint32_t next = NONE, next_k = NONE;
    for (uint32_t k = 0; k < ix.n_kinds; ++k) {
      if (!kind_may_act(m, sc, k, ix.n_kinds)) {
        in_step &= ~(1u << k);
        continue;
      }
      // NOTE: compared with the first job not yet passed, which is queued: a started job's key
      // is not its queued one.
      if (!((in_step >> k) & 1))
        cursor[k] = first_not_before_in(m, s, index_ring(s, k), ix.head[k], cursor[k], ix.len[k],
                                        queue_at(s, pos));
      in_step |= 1u << k;
      if (cursor[k] == ix.len[k]) continue;
      const uint32_t slot = index_at(s, k, cursor[k]);
      if (next == NONE || ranks_before(m, s, slot, next)) next = slot, next_k = k;
    }
    if (next == NONE) break;  // no job left may act
    const uint32_t end = s.queue_len < window + started ? s.queue_len : window + started;
    uint32_t at = queue_at(s, pos) == next
                      ? pos
                      : first_not_before_in(m, s, s.queue, s.queue_head, pos, end, next);
    // NOTE: a linear search is the fallback should the order ever not hold (handle_policy_review)
    if (at < end && queue_at(s, at) != next) {
      at = pos;
      while (at < end && queue_at(s, at) != next) ++at;
    }
    if (at == end) break;  // past the window
    pos = at + 1;
    cursor[next_k] += 1;
    if (!scan_try(m, s, start, sc, next)) continue;
    queue_at(s, at) = NONE;
    index_at(s, next_k, cursor[next_k] - 1) = NONE;
    started_of[next_k] += 1;
    kind_started_end[next_k] = cursor[next_k];
    started_end = pos;
    ++started;
  }
  // NOTE: the jobs after the last started one keep their places: only those before it move.
  if (started == 0) return;
  drop_started(s, started_end, started);
  for (uint32_t k = 0; k < ix.n_kinds; ++k)
    if (started_of[k] > 0)
      ring_drop_started(index_ring(s, k), ix.head[k], ix.len[k], kind_started_end[k],
                        started_of[k]);
}

//! One scan of the queue in its order (the ranked passes and FIFO backfill): each job starts if it
//! fits, else (when `preempt`) it may make room by preemption; `strict` (fifo) stops at the first
//! job that can do neither. Without `preempt` the scan stops when no node has a free GPU, and a
//! job that fits in one node is not tried while no node has as many free GPUs. At most `window`
//! jobs stay queued per scan, so an overloaded queue costs O(window) per instant, not O(queue);
//! with the queue index, only the jobs that may act are read (scan_indexed). Started jobs leave
//! the queue, the rest keep their order.
template <class Start>
GPUPLAN_HD inline void scan_queue(const ModelView& m, ReplicaState& s, const Start& start,
                                  bool preempt, bool strict, uint32_t window) {
  ScanState sc;
  sc.max_free = most_free_gpus(m, s);
  sc.preempt = preempt;
  sc.ranks_preempt = policy_preempts(m.queue) || m.sched.priority_preemption;
  if (s.policy.index.n_kinds > 0 && !strict) {
    scan_indexed(m, s, start, sc, window);
    return;
  }
  uint64_t held_teams = 0;  // fifo: teams whose first waiting job is over its quota
  uint32_t scanned = 0, started = 0, passed = 0;
  for (; scanned < s.queue_len && passed < window; ++scanned) {
    if (sc.max_free == 0 && !(preempt && sc.victims_left)) break;
    uint32_t& entry = queue_at(s, scanned);
    // NOTE: fifo keeps each team's order: behind a job over its team's quota, the team waits.
    const uint64_t team_bit = teams_on(m) ? 1ull << team_of(m, s, entry) : 0;
    if (strict && (held_teams & team_bit)) {
      ++passed;
      continue;
    }
    if (!scan_try(m, s, start, sc, entry)) {
      // NOTE: a job over its team's quota holds its team only (a Kueue queue per team).
      if (strict && !quota_blocked(m, s, entry)) break;
      held_teams |= team_bit;
      ++passed;
      continue;
    }
    entry = NONE;
    ++started;
  }
  drop_started(s, scanned, started);
}

//! The ranked scheduling pass at this instant: scans until no preempted job is left to requeue
//! (each preemption goes to a strictly lower rank).
//! `start(slot)` places and starts a queued job (false: it does not fit).
template <class Start>
GPUPLAN_HD inline void schedule_ranked(const ModelView& m, ReplicaState& s, const Start& start) {
  if (s.queue_len == 0) return;  // nothing to start, so nothing to preempt for
  const bool preempt = policy_preempts(m.queue) || m.sched.priority_preemption || reclaims(m);
  const bool strict = m.queue == QueuePolicy::fifo || m.queue == QueuePolicy::fifo_perf;
  s.policy.deferring = true;
  // NOTE: under contention max-min places jobs, and preempts for them, on their preferred pools
  // first (preferred_pools), as Gavel's LP allocates each type; a last scan without preemption
  // then gives the GPUs left to any waiting job, as Gavel's rounds give a type's leftover GPUs
  // to jobs allocated none of it.
  const bool by_preference = m.queue == QueuePolicy::max_min_fairness_perf;
  s.policy.preferred_pools_only = by_preference;
  for (uint32_t round = 0;; ++round) {
    // NOTE: the round cap is a guard only: a placement that refuses a job the cleared nodes hold
    // would otherwise let it and its victims swap places forever.
    scan_queue(m, s, start, preempt && round < RANKED_ROUNDS, strict, RANKED_WINDOW);
    if (s.policy.n_deferred == 0) break;
    for (uint32_t i = 0; i < s.policy.n_deferred; ++i)
      if (!insert_ranked(m, s, s.policy.deferred[i])) saturate(s, SaturationCause::queue_overflow);
    s.policy.n_deferred = 0;
  }
  s.policy.preferred_pools_only = false;
  if (by_preference && s.queue_len > 0) scan_queue(m, s, start, false, strict, RANKED_WINDOW);
  s.policy.deferring = false;
}

}  // namespace gpuplan
