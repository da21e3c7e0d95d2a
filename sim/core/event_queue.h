#pragma once
//! The event calendar: a binary min-heap of small POD events over a fixed array.
//! Order is (time, kind, insertion sequence), so simultaneous events have one fixed order.
#include "sim/core/types.h"

namespace gpuplan {

//! Event kinds; declaration order is the tie-break at equal times (releases before arrivals):
//! finishes, then spot reclaims (a job that ends at the reclaim instant completes), then
//! capacity changes (returns, nodes ready, idle scale-in, price steps), then fallback timers,
//! then arrivals.
enum class EventKind : uint8_t {
  job_finish,       //!< target = job slot; stale when the slot's generation moved on
  node_reclaim,     //!< target = node: its Poisson spot interruption (sim/core/preemption.h)
  reclaim_wave,     //!< target = pool: a correlated reclaim wave (sim/core/preemption.h)
  node_return,      //!< target = node: reclaimed capacity can be bought again
  node_ready,       //!< target = node: an elastic node finished provisioning (sim/core/elastic.h)
  node_idle_check,  //!< target = node: scale in if it stayed idle for the pool's idle timeout
  price_step,       //!< target = price step index: a pool's spot price changes (sim/core/billing.h)
  spot_fallback,    //!< target = job slot: its spot-only wait ran out; it may use on-demand pools
  job_arrival,      //!< target = class index
};

//! One scheduled event (24 bytes).
struct Event {
  SimTime t;        //!< [s]
  uint32_t seq;     //!< insertion sequence, breaks ties between equal (t, kind)
  uint32_t target;  //!< job slot or class index, by kind
  uint32_t gen;     //!< generation of the target when scheduled (lazy cancellation)
  EventKind kind;
};

//! Heap state; `heap.size` is the capacity.
struct EventQueue {
  span<Event> heap;
  uint32_t n = 0;
  uint32_t next_seq = 0;
};

[[nodiscard]] GPUPLAN_HD inline bool fires_before(const Event& a, const Event& b) {
  if (a.t != b.t) return a.t < b.t;
  if (a.kind != b.kind) return a.kind < b.kind;
  return a.seq < b.seq;
}

//! Time of the next event, NEVER when empty.
[[nodiscard]] GPUPLAN_HD inline SimTime peek_time(const EventQueue& q) {
  return q.n ? q.heap[0].t : NEVER;
}

//! Schedules an event; false (nothing changed) when the calendar is full.
[[nodiscard]] GPUPLAN_HD inline bool schedule_event(EventQueue& q, SimTime t, EventKind kind,
                                                    uint32_t target, uint32_t gen) {
  if (q.n == q.heap.size) return false;
  Event e{t, q.next_seq++, target, gen, kind};
  uint32_t i = q.n++;
  while (i > 0) {  // sift up
    const uint32_t parent = (i - 1) / 2;
    if (!fires_before(e, q.heap[parent])) break;
    q.heap[i] = q.heap[parent];
    i = parent;
  }
  q.heap[i] = e;
  return true;
}

//! Moves `e` down from position i to where the heap order holds (the hole left by a pop, or
//! the root of a subtree being heapified).
GPUPLAN_HD inline void sift_down(EventQueue& q, uint32_t i, const Event e) {
  for (;;) {
    uint32_t child = 2 * i + 1;
    if (child >= q.n) break;
    if (child + 1 < q.n && fires_before(q.heap[child + 1], q.heap[child])) ++child;
    if (!fires_before(q.heap[child], e)) break;
    q.heap[i] = q.heap[child];
    i = child;
  }
  q.heap[i] = e;
}

//! Removes and returns the earliest event; the queue must not be empty.
GPUPLAN_HD inline Event pop_event(EventQueue& q) {
  GPUPLAN_ASSERT(q.n > 0);
  const Event top = q.heap[0];
  const Event last = q.heap[--q.n];
  if (q.n) sift_down(q, 0, last);
  return top;
}

//! Drops every event for which `keep(e)` is false and restores the heap in O(n); the kept
//! events pop in the same order as before. `Keep` is a functor callable on host and device.
template <class Keep>
GPUPLAN_HD inline void compact_events(EventQueue& q, const Keep& keep) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < q.n; ++i) {
    const Event e = q.heap[i];
    if (keep(e)) q.heap[kept++] = e;
  }
  q.n = kept;
  for (uint32_t top = q.n / 2; top-- > 0;) sift_down(q, top, q.heap[top]);  // bottom-up heapify
}

}  // namespace gpuplan
