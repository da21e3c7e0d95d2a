#pragma once
//! A cluster of serving replicas behind one router, run event to event: the next arrival (routed
//! round-robin, to the replica with the fewest outstanding tokens, or cache-aware as SGLang's
//! router does) or the earliest end of a
//! replica's step (which starts its next step). At one instant step ends come before arrivals
//! (docs/architecture.md's rule for simultaneous events). Requests are drawn from counter-based
//! random numbers keyed by (seed, Monte Carlo replica): request k's numbers depend on k only.
#include <cmath>

#include "sim/core/exponential.h"
#include "sim/core/rng.h"
#include "sim/serving/autoscaler.h"
#include "sim/serving/quiet_steps.h"

namespace gpuplan::serving {

//! The cluster's state: replicas, statistics and the arrival cursor.
struct ClusterState {
  span<ReplicaState> replicas;
  ServingStats* stats = nullptr;
  uint64_t next_id = 0;       //!< the next request to arrive
  double last_arrival_s = 0;  //!< [s] arrival of the previous request
  // Closed loop: the streams in their pause, a binary min-heap on (ready time, stream).
  span<double> ready_s;         //!< [streams] when each is ready to send
  span<uint32_t> ready_stream;  //!< [streams] which stream
  uint32_t ready_n = 0;
  uint32_t rr_next = 0;     //!< round-robin cursor (the prefill replicas when disaggregated)
  uint32_t rr_decode = 0;   //!< round-robin cursor over the decode replicas
  TransferQueue transfers;  //!< KV caches on their way to decode replicas (disaggregated)
  // The cache-aware router's picture of the replicas' caches: what it sent where, as SGLang's
  // approximate radix tree, without its time-based eviction.
  span<uint8_t> in_tree;     //!< [replica * groups + group] the group's prefix was sent there
  span<double> tree_tokens;  //!< [replica] prompt tokens its tree holds
  ScalerState scaler;        //!< autoscaling (empty phases: off)
  // Multi-turn conversations (Workload::turns_a): each stream's conversation so far.
  span<uint32_t> history;     //!< [stream] its last turn's prompt and answer (0: none open)
  span<uint32_t> turns_left;  //!< [stream] turns the conversation has after the one in flight
  span<double> step_end_s;    //!< [replica] [s] end of its step in flight (infinite: idle)
};

//! [s] The first bin width of a run's series: the arrivals' expected span (a replay: its last
//! arrival) over half the bins, so the arrivals and the drain after them fit without widening.
[[nodiscard]] GPUPLAN_HD inline double series_width(const ServingView& v) {
  const Workload& w = v.load;
  double span = w.arrival_s.size > 0 ? w.arrival_s[w.arrival_s.size - 1]
                                     : double(w.n_requests) / w.rate_per_s;
  if (!(span > 0)) span = 1;
  return span / (SERIES_BINS / 2);
}

//! A length of kind `kind` with parameter `a` from uniform `u`.
[[nodiscard]] GPUPLAN_HD inline uint32_t draw_length(LengthKind kind, double a, double u) {
  switch (kind) {
    case LengthKind::fixed:
    case LengthKind::table:
      return static_cast<uint32_t>(a);
    case LengthKind::geometric: {
      if (!(a > 1)) return 1;
      return 1 + static_cast<uint32_t>(floor(log(u) / log(1 - 1 / a)));
    }
  }
  return 1;
}

//! Request `k`, arriving after `prev_arrival_s` (or at its time in a replayed trace; in a closed
//! loop, at `prev_arrival_s`: when its stream became ready).
[[nodiscard]] GPUPLAN_HD inline Request draw_request(const ServingView& v, uint64_t k,
                                                     double prev_arrival_s) {
  const Workload& w = v.load;
  const uint32_t lo = static_cast<uint32_t>(k), hi = static_cast<uint32_t>(k >> 32);
  const Draw a = philox_draw(v.seed, v.mc_replica, Stream::serving_arrivals, hi, lo);
  const Draw l = philox_draw(v.seed, v.mc_replica, Stream::serving_lengths, hi, lo);
  Request q;
  q.id = lo;
  const bool replay = k < w.arrival_s.size;
  if (replay)
    q.arrival_s = w.arrival_s[lo];
  else if (w.streams > 0)
    q.arrival_s = prev_arrival_s;
  else if (w.stages.size > 0)
    q.arrival_s = staged_arrival(w.stages, prev_arrival_s, exponential_first(a));
  else
    q.arrival_s = prev_arrival_s + exponential_first(a) / w.rate_per_s;
  if (w.prompt_kind == LengthKind::table && w.table.size > 0) {
    uint32_t row = replay ? lo : static_cast<uint32_t>(u01_first(l) * w.table.size);
    if (row >= w.table.size) row = w.table.size - 1;
    q.prompt = w.table[row].prompt;
    q.output = w.table[row].output;
  } else {
    q.prompt = draw_length(w.prompt_kind, w.prompt_a, u01_first(l));
    q.output = draw_length(w.output_kind, w.output_a, u01_second(l));
  }
  if (q.output < 1) q.output = 1;
  if (w.prefix_groups > 0 && u01_second(a) < w.prefix_share) {
    uint32_t g = static_cast<uint32_t>(open_u01(l.w[3], l.w[0] ^ l.w[2]) * w.prefix_groups);
    q.group = g < w.prefix_groups ? g : w.prefix_groups - 1;
    q.prefix = w.prefix_tokens;
    q.prompt += w.prefix_tokens;
  }
  if (q.prompt < 1) q.prompt = 1;
  return q;
}

//! Requests in replica r (running and waiting): the cache-aware router's load.
[[nodiscard]] GPUPLAN_HD inline uint32_t replica_load(const ClusterState& c, uint32_t r) {
  return c.replicas[r].n_running + c.replicas[r].n_waiting;
}

//! The replicas a new request may go to: [first, first + count).
struct ReplicaRange {
  uint32_t first = 0, count = 1;
};

//! The replicas arrivals go to: all of them, or the prefill replicas when disaggregated.
[[nodiscard]] GPUPLAN_HD inline ReplicaRange arrival_replicas(const ServingView& v,
                                                              const ClusterState& c) {
  return v.n_prefill > 0 ? ReplicaRange{0, v.n_prefill} : ReplicaRange{0, c.replicas.size};
}

//! SGLang's cache-aware choice for request `q` among `in`: the least loaded replica when the
//! load is imbalanced; else, when q's shared prefix is more than the threshold of its prompt, the
//! least loaded replica whose tree holds it; else the replica with the smallest tree. Ties go to
//! the lowest index. The request's prompt then joins the chosen replica's tree.
[[nodiscard]] GPUPLAN_HD inline uint32_t route_cache_aware(const ServingView& v, ClusterState& c,
                                                           const Request& q, ReplicaRange in) {
  const uint32_t G = cache_groups(v.load), end = in.first + in.count;
  uint32_t least = in.first, most = in.first;
  for (uint32_t r = in.first + 1; r < end; ++r) {
    if (replica_load(c, r) < replica_load(c, least)) least = r;
    if (replica_load(c, r) > replica_load(c, most)) most = r;
  }
  const double lo = replica_load(c, least), hi = replica_load(c, most);
  const CacheAware& k = v.cache_aware;
  uint32_t pick = NONE;
  if (hi - lo > k.balance_abs && hi > k.balance_rel * lo) {
    pick = least;
  } else {
    const bool shared = q.group != NONE && q.group < G;
    if (shared && double(q.prefix) > k.cache_threshold * double(q.prompt))
      for (uint32_t r = in.first; r < end; ++r)
        if (c.in_tree[r * G + q.group] &&
            (pick == NONE || replica_load(c, r) < replica_load(c, pick)))
          pick = r;
    if (pick == NONE) {
      pick = in.first;
      for (uint32_t r = in.first + 1; r < end; ++r)
        if (c.tree_tokens[r] < c.tree_tokens[pick]) pick = r;
    }
  }
  if (q.group != NONE && q.group < G) {
    uint8_t& held = c.in_tree[pick * G + q.group];
    c.tree_tokens[pick] += double(held ? q.prompt - q.prefix : q.prompt);
    held = 1;
  } else {
    c.tree_tokens[pick] += double(q.prompt);
  }
  return pick;
}

//! The serving replica with the fewest outstanding tokens among `in`, ties to the lowest index.
[[nodiscard]] GPUPLAN_HD inline uint32_t least_outstanding(const ClusterState& c, ReplicaRange in) {
  if (c.scaler.phase.size == 0) {  // every replica serves: the loop without the check
    uint32_t best = in.first;
    for (uint32_t r = in.first + 1; r < in.first + in.count; ++r)
      if (c.replicas[r].outstanding_tokens < c.replicas[best].outstanding_tokens) best = r;
    return best;
  }
  uint32_t best = NONE;
  for (uint32_t r = in.first; r < in.first + in.count; ++r)
    if (accepting(c.scaler, r) &&
        (best == NONE || c.replicas[r].outstanding_tokens < c.replicas[best].outstanding_tokens))
      best = r;
  return best;
}

//! The replica request `q` goes to, among `in` (arrival_replicas when not given).
[[nodiscard]] GPUPLAN_HD inline uint32_t route(const ServingView& v, ClusterState& c,
                                               const Request& q) {
  const ReplicaRange in = arrival_replicas(v, c);
  switch (v.router) {
    case Router::round_robin: {
      // NOTE: past the replicas not serving (autoscaling); at least one serves.
      for (uint32_t k = 0; k < in.count; ++k) {
        const uint32_t r = in.first + c.rr_next;
        c.rr_next = (c.rr_next + 1) % in.count;
        if (accepting(c.scaler, r)) return r;
      }
      return in.first;
    }
    case Router::least_outstanding_tokens:
      return least_outstanding(c, in);
    case Router::cache_aware:
      return route_cache_aware(v, c, q, in);
  }
  return 0;
}

//! The decode replica a transferred request goes to: round-robin under that router, else the
//! fewest outstanding tokens (its prefix is already computed, so cache affinity has no use).
[[nodiscard]] GPUPLAN_HD inline uint32_t route_decode(const ServingView& v, ClusterState& c) {
  const ReplicaRange in{v.n_prefill, c.replicas.size - v.n_prefill};
  if (v.router != Router::round_robin) return least_outstanding(c, in);
  const uint32_t r = in.first + c.rr_decode;
  c.rr_decode = (c.rr_decode + 1) % in.count;
  return r;
}

//! Multi-turn conversations: request `q` of its stream continues the stream's conversation, its
//! prompt the conversation so far (a prefix the replica may hold) and its new message, unless
//! none is open or the turn would pass max_context: then it opens one. Either way it belongs to
//! the stream's cache group, so its blocks are kept for the next turn.
GPUPLAN_HD inline void join_conversation(const ServingView& v, const ClusterState& c, Request& q) {
  const uint32_t h = c.history[q.stream];
  q.group = v.load.prefix_groups + q.stream;
  if (h > 0 && uint64_t(h) + q.prompt + q.output <= v.load.max_context) {
    q.prefix = h;
    q.prompt += h;
  }
}

//! Drops stream `k`'s conversation from every replica's prefix cache and the router's picture
//! (it has ended: its blocks can never be hit again). Nothing uses them: a stream has one request
//! in flight at most.
GPUPLAN_HD inline void forget_conversation(const ServingView& v, ClusterState& c, uint32_t k) {
  const uint32_t g = v.load.prefix_groups + k, G = cache_groups(v.load);
  for (uint32_t r = 0; r < c.replicas.size; ++r) {
    ReplicaState& rep = c.replicas[r];
    rep.cached_blocks -= rep.group_blocks[g];
    rep.evictable_blocks -= rep.group_blocks[g];
    rep.group_blocks[g] = 0;
    if (c.in_tree.size > 0) c.in_tree[r * G + g] = 0;
  }
  c.history[k] = 0;
}

//! Request `q` is sent: its stream's conversation advances, or a new one opens with its number
//! of turns drawn (the second 64 bits of q's arrival draw, which a closed loop leaves unused).
GPUPLAN_HD inline void send_turn(const ServingView& v, ClusterState& c, const Request& q) {
  const uint32_t k = q.stream;
  if (q.prefix == 0) {
    if (c.history[k] > 0) forget_conversation(v, c, k);  // the context limit ended it
    const Draw a = philox_draw(v.seed, v.mc_replica, Stream::serving_arrivals, 0, q.id);
    c.turns_left[k] = draw_length(v.load.turns_kind, v.load.turns_a, u01_second(a)) - 1;
  } else {
    c.turns_left[k] -= 1;
  }
  c.history[k] = q.prompt + q.output;
}

//! Sets `next` to the next request to arrive; false when none is due yet (a closed loop whose
//! streams all wait for a completion) or the run has sent all its requests.
[[nodiscard]] GPUPLAN_HD inline bool next_arrival(const ServingView& v, const ClusterState& c,
                                                  Request& next) {
  if (c.next_id >= v.load.n_requests) return false;
  if (v.load.streams == 0) {
    next = draw_request(v, c.next_id, c.last_arrival_s);
    return true;
  }
  if (c.ready_n == 0) return false;
  next = draw_request(v, c.next_id, c.ready_s[0]);
  next.stream = c.ready_stream[0];
  if (conversations(v.load)) join_conversation(v, c, next);
  return true;
}

//! Whether heap entry i comes before entry j: the earlier time, then the lower stream.
[[nodiscard]] GPUPLAN_HD inline bool ready_before(const ClusterState& c, uint32_t i, uint32_t j) {
  return c.ready_s[i] < c.ready_s[j] ||
         (c.ready_s[i] == c.ready_s[j] && c.ready_stream[i] < c.ready_stream[j]);
}

GPUPLAN_HD inline void swap_ready(ClusterState& c, uint32_t i, uint32_t j) {
  const double t = c.ready_s[i];
  c.ready_s[i] = c.ready_s[j];
  c.ready_s[j] = t;
  const uint32_t k = c.ready_stream[i];
  c.ready_stream[i] = c.ready_stream[j];
  c.ready_stream[j] = k;
}

//! Closed loop: stream `k` is ready to send at `at_s`.
GPUPLAN_HD inline void stream_ready(ClusterState& c, uint32_t k, double at_s) {
  uint32_t i = c.ready_n++;
  c.ready_s[i] = at_s;
  c.ready_stream[i] = k;
  while (i > 0 && ready_before(c, i, (i - 1) / 2)) {
    swap_ready(c, i, (i - 1) / 2);
    i = (i - 1) / 2;
  }
}

//! Closed loop: removes the earliest ready stream (it has sent its request).
GPUPLAN_HD inline void pop_ready(ClusterState& c) {
  c.ready_n -= 1;
  c.ready_s[0] = c.ready_s[c.ready_n];
  c.ready_stream[0] = c.ready_stream[c.ready_n];
  for (uint32_t i = 0;;) {
    const uint32_t l = 2 * i + 1, r = l + 1;
    uint32_t m = i;
    if (l < c.ready_n && ready_before(c, l, m)) m = l;
    if (r < c.ready_n && ready_before(c, r, m)) m = r;
    if (m == i) return;
    swap_ready(c, i, m);
    i = m;
  }
}

//! [s] A closed-loop pause of mean think_s: after request `id` completes (from the first 64 bits
//! of its arrival draw, which a closed loop does not use for the arrival), or with `id` = NONE
//! stream `k`'s first, before it sends at all, with its start within the ramp (the draw's second
//! 64 bits).
[[nodiscard]] GPUPLAN_HD inline double think_pause(const ServingView& v, uint32_t id, uint32_t k) {
  if (id == NONE) {
    if (!(v.load.think_s > 0) && !(v.load.ramp_s > 0)) return 0;
    const Draw a = philox_draw(v.seed, v.mc_replica, Stream::serving_arrivals, 1, k);
    return (v.load.think_s > 0 ? v.load.think_s * exponential_first(a) : 0.0) +
           v.load.ramp_s * u01_second(a);
  }
  if (!(v.load.think_s > 0)) return 0;
  const Draw a = philox_draw(v.seed, v.mc_replica, Stream::serving_arrivals, 0, id);
  return v.load.think_s * exponential_first(a);
}

//! Records replica r's step end for the event loop's scan (infinite while it is idle).
GPUPLAN_HD inline void track_step(ClusterState& c, uint32_t r) {
  c.step_end_s[r] = c.replicas[r].busy ? c.replicas[r].step_end_s : INFINITY;
}

//! Runs the workload to its last completion (or until a replica saturates).
GPUPLAN_HD inline void run_cluster(const ServingView& v, ClusterState& c) {
  ServingStats& st = *c.stats;
  const bool closed = v.load.streams > 0, talks = conversations(v.load);
  // NOTE: a closed loop's streams start in a pause, as if each had just had an answer (all at 0
  // without one).
  if (closed && c.next_id == 0 && c.ready_n == 0)
    for (uint32_t k = 0; k < v.load.streams; ++k) stream_ready(c, k, think_pause(v, NONE, k));
  const bool scaling = c.scaler.phase.size > 0;
  if (scaling && c.next_id == 0) start_scaler(v, c.scaler, st);
  // NOTE: each replica's step end (infinite when idle) side by side: the earliest is found in
  // one short scan of contiguous numbers, kept current where a replica's step changes below.
  const span<double> ends = c.step_end_s;
  for (uint32_t r = 0; r < c.replicas.size; ++r) track_step(c, r);
  Request next;
  bool pending = next_arrival(v, c, next);
  while (!st.saturated) {
    uint32_t rmin = NONE;
    double tmin = INFINITY;
    for (uint32_t r = 0; r < ends.size; ++r)
      if (ends[r] < tmin) {
        rmin = r;
        tmin = ends[r];
      }
    // The scaler acts after step ends at the same instant, before arrivals (a replica ready at
    // an arrival's instant may take it); only while requests are due or in flight.
    if (scaling && (pending || rmin != NONE)) {
      const double at = next_scaler_event(c.scaler);
      if ((rmin == NONE || at < tmin) && (!pending || at <= next.arrival_s)) {
        scaler_event(v, c.scaler, c.replicas, st, at);
        continue;
      }
    }
    // A KV cache that has arrived goes to a decode replica (after step ends at the same instant,
    // before new arrivals).
    if (c.transfers.n > 0 && (rmin == NONE || c.transfers.heap[0].at_s < tmin) &&
        !(pending && next.arrival_s < c.transfers.heap[0].at_s)) {
      const Transfer t = pop_transfer(c.transfers);
      const uint32_t r = route_decode(v, c);
      arrive_transferred(v, c.replicas[r], st, t, t.at_s);
      track_step(c, r);
      continue;
    }
    if (pending && (rmin == NONE || next.arrival_s < tmin)) {
      if (scaling) count_in_flight(c.scaler, st, next.arrival_s);
      if (talks) send_turn(v, c, next);
      const uint32_t r = route(v, c, next);
      arrive(v, c.replicas[r], st, next, next.arrival_s);
      track_step(c, r);
      c.last_arrival_s = next.arrival_s;
      c.next_id += 1;
      if (closed) pop_ready(c);
      pending = next_arrival(v, c, next);
    } else if (rmin != NONE) {
      ReplicaState& rep = c.replicas[rmin];
      if (scaling) count_in_flight(c.scaler, st, tmin);
      // A quiet run's step ends quietly, or the run hands its records back to the step's end.
      if (rep.quiet && !quiet_end_due(rep)) materialize(v, rep, true);
      if (rep.quiet) {
        quiet_end(v, rep, st, tmin);
        if (!quiet_plan(v, rep, st, tmin)) {
          materialize(v, rep, false);
          begin_step(v, rep, st, tmin);
          start_quiet(v, rep, false);
        }
        track_step(c, rmin);
        continue;
      }
      end_step(v, rep, st, tmin, rmin < v.n_prefill ? &c.transfers : nullptr);
      if (rep.n_done > 0) {  // closed loop: the streams answered send again after their pause
        for (uint32_t i = 0; i < rep.n_done; ++i) {
          const uint32_t id = uint32_t(rep.done[i] >> 32), k = uint32_t(rep.done[i]);
          if (talks && c.turns_left[k] == 0) forget_conversation(v, c, k);
          stream_ready(c, k, tmin + think_pause(v, id, k));
        }
        rep.n_done = 0;
        // NOTE: drawn again: a short pause can make another stream the next to send.
        pending = next_arrival(v, c, next);
      }
      begin_step(v, rep, st, tmin);
      start_quiet(v, rep, rmin < v.n_prefill);
      track_step(c, rmin);
    } else {
      break;
    }
  }
  if (scaling) bill_until(c.scaler, st, st.end_s);
}

}  // namespace gpuplan::serving
