#pragma once
//! Disaggregated prefill and decode (DistServe, OSDI'24; Splitwise, ISCA'24): a prefill replica
//! computes a prompt and its first token, then hands the request's KV cache to a decode replica
//! over the network. Transfers in flight wait in a min-heap by arrival time over a preallocated
//! array (ties by request id, so the order never depends on the heap's layout).
#include "sim/serving/serving_state.h"

namespace gpuplan::serving {

//! A request whose prompt's KV cache is on its way to a decode replica.
struct Transfer {
  double at_s = 0;           //!< [s] when the KV cache has arrived
  double first_token_s = 0;  //!< [s] when the prefill replica sampled the first token
  Request req;
};

//! The transfers in flight: a binary min-heap on (at_s, req.id).
struct TransferQueue {
  span<Transfer> heap;
  uint32_t n = 0;
};

[[nodiscard]] GPUPLAN_HD inline bool arrives_before(const Transfer& a, const Transfer& b) {
  return a.at_s < b.at_s || (a.at_s == b.at_s && a.req.id < b.req.id);
}

//! Adds `t`; false when the queue is full.
GPUPLAN_HD inline bool push_transfer(TransferQueue& q, const Transfer& t) {
  if (q.n == q.heap.size) return false;
  uint32_t i = q.n++;
  while (i > 0 && arrives_before(t, q.heap[(i - 1) / 2])) {
    q.heap[i] = q.heap[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  q.heap[i] = t;
  return true;
}

//! Removes and returns the earliest transfer (the queue must not be empty).
GPUPLAN_HD inline Transfer pop_transfer(TransferQueue& q) {
  const Transfer top = q.heap[0];
  const Transfer last = q.heap[--q.n];
  uint32_t i = 0;
  for (;;) {
    uint32_t c = 2 * i + 1;
    if (c >= q.n) break;
    if (c + 1 < q.n && arrives_before(q.heap[c + 1], q.heap[c])) ++c;
    if (!arrives_before(q.heap[c], last)) break;
    q.heap[i] = q.heap[c];
    i = c;
  }
  if (q.n > 0) q.heap[i] = last;
  return top;
}

}  // namespace gpuplan::serving
