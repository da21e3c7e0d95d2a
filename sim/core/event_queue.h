#pragma once
//! The event calendar: a 4-ary min-heap of small POD events over a fixed array, plus one lane per
//! job class for its next arrival. Order is (time, kind, insertion sequence), a total order, so
//! simultaneous events have one fixed order and the pop order does not depend on where an event
//! is kept. NOTE: each class has exactly one pending arrival, and arrivals are half of all events;
//! keeping them beside the heap spares them a sift each way.
#include "sim/core/portable.h"
#include "sim/core/types.h"

namespace gpuplan {

//! Event kinds; declaration order is the tie-break at equal times (releases before arrivals):
//! finishes, then spot reclaims, hardware failures and planned maintenance starts (a job that ends
//! at that instant completes), then capacity changes (returns, repairs, maintenance ends and
//! drains (sim/core/maintenance.h), purchases, nodes ready, idle scale-in, price steps),
//! then fallback timers, then queue-policy reviews, then arrivals.
enum class EventKind : uint8_t {
  job_finish,       //!< target = job slot; stale when the slot's generation moved on
  node_reclaim,     //!< target = node: its Poisson spot interruption (sim/core/preemption.h)
  reclaim_wave,     //!< target = pool: a correlated reclaim wave (sim/core/preemption.h)
  node_failure,     //!< target = pool, gen = draw: a hardware failure (sim/core/failures.h)
  switch_failure,   //!< target = leaf group, gen = draw: a switch failure (sim/core/failures.h)
  maint_start,      //!< target = maintenance batch, gen = repetition: its nodes go out
  node_return,      //!< target = node: reclaimed capacity can be bought again
  node_repair,      //!< target = node: a failed node is repaired
  switch_repair,    //!< target = leaf group: a failed switch is repaired
  maint_end,        //!< target = maintenance batch, gen = repetition: its nodes are back
  maint_drain,      //!< target = maintenance batch, gen = repetition: no new job on its nodes
  node_purchase,    //!< target = purchase index: staged nodes come online (sim/core/purchases.h)
  node_ready,       //!< target = node: an elastic node finished provisioning (sim/core/elastic.h)
  node_idle_check,  //!< target = node: scale in if it stayed idle for the pool's idle timeout
  price_step,       //!< target = price step index: a pool's spot price changes (sim/core/billing.h)
  spot_fallback,    //!< target = job slot: its spot-only wait ran out; it may use on-demand pools
  policy_review,    //!< target = job slot: its LAS demotion or promotion is due (queue_policy.h)
  job_arrival,      //!< target = class index
};

//! One scheduled event (24 bytes).
struct Event {
  SimTime t;        //!< [s]
  uint64_t order;   //!< kind << 32 | insertion sequence: breaks ties between equal times
  uint32_t target;  //!< job slot or class index, by kind
  uint32_t gen;     //!< generation of the target when scheduled (lazy cancellation)

  [[nodiscard]] GPUPLAN_HD EventKind kind() const { return static_cast<EventKind>(order >> 32); }
  [[nodiscard]] GPUPLAN_HD uint32_t seq() const { return static_cast<uint32_t>(order); }
};

//! Calendar state; `heap.size` is the capacity of heap and lanes together.
struct EventQueue {
  span<Event> heap;
  uint32_t n = 0;  //!< events in the heap
  uint32_t next_seq = 0;
  span<Event> lanes;         //!< [n_classes] pending job_arrival of each class; t == NEVER: none
  uint32_t n_lanes = 0;      //!< lanes holding an event
  uint32_t lane_min = NONE;  //!< lane holding the earliest event; NONE when all are empty
  bool bad_time = false;     //!< an event was scheduled at a negative or NaN time
};

//! True when a fires before b: earlier time, then lower kind, then lower sequence.
[[nodiscard]] GPUPLAN_HD inline bool fires_before(const Event& a, const Event& b) {
  // NOTE: branch-free (bitwise on the comparisons): the heap's child choice is a coin flip that
  // a branch predictor cannot learn. Times compare as integers (schedule_event keeps them at +0
  // or above), kind and sequence as one word.
  const uint64_t ta = double_bits(a.t), tb = double_bits(b.t);
  return (ta < tb) | ((ta == tb) & (a.order < b.order));
}

//! Children per heap node. NOTE: four halves the depth of a binary heap, and a node's children
//! are adjacent (96 bytes), so a pop touches half as many cache lines along its path.
inline constexpr uint32_t HEAP_ARITY = 4;

//! Position of the earliest child among heap positions [first, min(first + HEAP_ARITY, n)).
[[nodiscard]] GPUPLAN_HD inline uint32_t earliest_child(const EventQueue& q, uint32_t first,
                                                        uint32_t n) {
  if (first + HEAP_ARITY <= n) {  // a full node: a branch-free tournament
    const Event* c = &q.heap[first];
    const uint32_t a = fires_before(c[1], c[0]) ? 1u : 0u;
    const uint32_t b = fires_before(c[3], c[2]) ? 3u : 2u;
    return first + (fires_before(c[b], c[a]) ? b : a);
  }
  uint32_t best = first;
  for (uint32_t k = first + 1; k < n; ++k)
    if (fires_before(q.heap[k], q.heap[best])) best = k;
  return best;
}

//! Empties the calendar (every lane too) and restarts the insertion sequence.
GPUPLAN_HD inline void reset_events(EventQueue& q) {
  q.n = 0;
  q.next_seq = 0;
  for (uint32_t i = 0; i < q.lanes.size; ++i) q.lanes[i].t = NEVER;
  q.n_lanes = 0;
  q.lane_min = NONE;
  q.bad_time = false;
}

//! Events pending in heap and lanes.
[[nodiscard]] GPUPLAN_HD inline uint32_t pending_events(const EventQueue& q) {
  return q.n + q.n_lanes;
}

//! Time of the next event, NEVER when empty.
[[nodiscard]] GPUPLAN_HD inline SimTime peek_time(const EventQueue& q) {
  const SimTime h = q.n ? q.heap[0].t : NEVER;
  if (q.lane_min == NONE) return h;
  const SimTime l = q.lanes[q.lane_min].t;
  return l < h ? l : h;
}

//! Moves `e` up from heap position i to where the heap order holds (a new last slot, or the
//! leaf a pop's hole reached).
GPUPLAN_HD inline void sift_up(EventQueue& q, uint32_t i, const Event e) {
  while (i > 0) {
    const uint32_t parent = (i - 1) / HEAP_ARITY;
    if (!fires_before(e, q.heap[parent])) break;
    q.heap[i] = q.heap[parent];
    i = parent;
  }
  q.heap[i] = e;
}

//! Schedules an event; false (nothing changed) when the calendar is full.
[[nodiscard]] GPUPLAN_HD inline bool schedule_event(EventQueue& q, SimTime t, EventKind kind,
                                                    uint32_t target, uint32_t gen) {
  if (pending_events(q) == q.heap.size) return false;
  // NOTE: −0 becomes +0, whose bits order as a time; a negative or NaN time would sort after
  // every other, so it is flagged, and the engine stops the replica at its next step.
  if (!(t >= 0)) q.bad_time = true;
  const Event e{t + 0.0, uint64_t(kind) << 32 | q.next_seq++, target, gen};
  if (kind == EventKind::job_arrival && target < q.lanes.size && q.lanes[target].t == NEVER &&
      t < NEVER) {
    q.lanes[target] = e;
    q.n_lanes += 1;
    if (q.lane_min == NONE || fires_before(e, q.lanes[q.lane_min])) q.lane_min = target;
    return true;
  }
  sift_up(q, q.n++, e);
  return true;
}

//! Moves `e` down from position i to where the heap order holds (the hole left by a pop, or
//! the root of a subtree being heapified).
GPUPLAN_HD inline void sift_down(EventQueue& q, uint32_t i, const Event e) {
  for (;;) {
    const uint32_t first = HEAP_ARITY * i + 1;
    if (first >= q.n) break;
    const uint32_t child = earliest_child(q, first, q.n);
    if (!fires_before(q.heap[child], e)) break;
    q.heap[i] = q.heap[child];
    i = child;
  }
  q.heap[i] = e;
}

//! Removes and returns the earliest event of the heap; the heap must not be empty.
GPUPLAN_HD inline Event pop_heap_event(EventQueue& q) {
  GPUPLAN_ASSERT(q.n > 0);
  const Event top = q.heap[0];
  const uint32_t n = --q.n;
  if (n == 0) return top;
  const Event last = q.heap[n];
  // NOTE: Floyd's pop: the hole walks down along the earliest child to a leaf (no data-dependent
  // branch), then the last event rises from there (it rarely climbs far).
  uint32_t i = 0;
  for (uint32_t first = 1; first < n; first = HEAP_ARITY * i + 1) {
    const uint32_t child = earliest_child(q, first, n);
    q.heap[i] = q.heap[child];
    i = child;
  }
  sift_up(q, i, last);
  return top;
}

//! Removes and returns the earliest event; the calendar must not be empty.
GPUPLAN_HD inline Event pop_event(EventQueue& q) {
  if (q.lane_min == NONE || (q.n > 0 && fires_before(q.heap[0], q.lanes[q.lane_min])))
    return pop_heap_event(q);
  const Event e = q.lanes[q.lane_min];
  q.lanes[q.lane_min].t = NEVER;
  q.n_lanes -= 1;
  q.lane_min = NONE;
  for (uint32_t c = 0; c < q.lanes.size; ++c) {
    if (q.lanes[c].t == NEVER) continue;
    if (q.lane_min == NONE || fires_before(q.lanes[c], q.lanes[q.lane_min])) q.lane_min = c;
  }
  return e;
}

//! Drops every heap event for which `keep(e)` is false and restores the heap in O(n); the kept
//! events pop in the same order as before. Lanes (arrivals) are kept as they are. `Keep` is a
//! functor callable on host and device.
template <class Keep>
GPUPLAN_HD inline void compact_events(EventQueue& q, const Keep& keep) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < q.n; ++i) {
    const Event e = q.heap[i];
    if (keep(e)) q.heap[kept++] = e;
  }
  q.n = kept;
  // Bottom-up heapify from the last node with a child.
  for (uint32_t top = (q.n + HEAP_ARITY - 2) / HEAP_ARITY; top-- > 0;)
    sift_down(q, top, q.heap[top]);
}

}  // namespace gpuplan
