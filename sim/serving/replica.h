#pragma once
//! One serving replica (a tensor-parallel group) iteration by iteration, with vLLM's scheduler
//! rules: each step has a token budget (max_num_batched_tokens) and a cap on running sequences
//! (max_num_seqs); running decodes are scheduled first, then running partial prefills, then
//! waiting requests in arrival order (preempted ones first), their prompts chunked to the budget
//! left (chunked prefill). KV cache in blocks of block_tokens: a sequence holds the blocks of its
//! computed and scheduled tokens; when a running sequence needs a block and none is free, cached
//! prefixes nobody uses are evicted (least recently used first), then the most recently admitted
//! unscheduled sequence is preempted: its blocks are freed and it waits at the front of the queue
//! to recompute its prompt and the tokens it had generated. A waiting request is admitted only
//! when the blocks of its first chunk are free. Prefix caching: the full blocks of a request's
//! shared prefix are cached by the first request of its group that computes them, and reused by
//! later ones (at least one token is always computed, as vLLM does).
#include "sim/core/sketch.h"
#include "sim/serving/kv_transfer.h"

namespace gpuplan::serving {

//! What a replica runs: its roofline, scheduler, the workload, the router and the key of its
//! random numbers.
struct ServingView {
  StepModel step;
  SchedulerConfig sched;
  Workload load;
  Router router = Router::round_robin;
  CacheAware cache_aware;   //!< thresholds of Router::cache_aware
  uint32_t n_replicas = 1;  //!< serving replicas of the cluster
  uint32_t gpus_per_replica = 1;
  //! Disaggregated prefill and decode (sim/serving/kv_transfer.h): replicas [0, n_prefill)
  //! compute prompts and first tokens, the others decode; 0: every replica does both.
  uint32_t n_prefill = 0;
  double kv_transfer_bandwidth = 0;  //!< [B/s] prefill to decode replica (the group's links)
  double kv_transfer_latency_s = 0;  //!< [s] per transfer
  //! The decode replicas' own shape when it differs from the prefill replicas' (another GPU type
  //! or tensor parallelism, as Splitwise's and DistServe's pools): their roofline, KV blocks and
  //! GPUs. Unused when false: every replica has `step`, `sched.kv_blocks`, `gpus_per_replica`.
  bool decode_shape = false;
  StepModel decode_step;
  uint32_t decode_kv_blocks = 0;
  uint32_t decode_gpus_per_replica = 1;
  uint64_t seed = 0;        //!< scenario seed
  uint32_t mc_replica = 0;  //!< Monte Carlo replica index (the Philox key's second word)
  Autoscale autoscale;      //!< off unless max_replicas > 0 (then n_replicas = max_replicas)
  //! [s] A request's time in the API server before the engine sees it (HTTP, tokenization), as
  //! a client measures TTFT and end to end: added to both (a constant shift of every arrival
  //! leaves the engine's steps unchanged). BLIS's alpha0, "API processing overhead".
  double request_overhead_s = 0;
  //! Quiet runs of decode steps skip the records (sim/serving/quiet_steps.h): the same results,
  //! fewer instructions; false only to check that claim.
  bool quiet_runs = true;
};

//! The roofline replica `r` steps with: the decode pool's own when it has one.
[[nodiscard]] GPUPLAN_HD inline const StepModel& replica_step(const ServingView& v,
                                                              const ReplicaState& r) {
  return v.decode_shape && r.decode_pool ? v.decode_step : v.step;
}

//! KV blocks of replica `r`.
[[nodiscard]] GPUPLAN_HD inline uint32_t replica_kv_blocks(const ServingView& v,
                                                           const ReplicaState& r) {
  return v.decode_shape && r.decode_pool ? v.decode_kv_blocks : v.sched.kv_blocks;
}

//! [GPUs] of the cluster, both pools.
[[nodiscard]] GPUPLAN_HD inline double cluster_gpus(const ServingView& v) {
  if (!v.decode_shape) return double(v.n_replicas) * v.gpus_per_replica;
  return double(v.n_prefill) * v.gpus_per_replica +
         double(v.n_replicas - v.n_prefill) * v.decode_gpus_per_replica;
}

//! KV blocks of the cluster, both pools.
[[nodiscard]] GPUPLAN_HD inline double cluster_kv_blocks(const ServingView& v) {
  if (!v.decode_shape) return double(v.sched.kv_blocks) * v.n_replicas;
  return double(v.sched.kv_blocks) * v.n_prefill +
         double(v.decode_kv_blocks) * (v.n_replicas - v.n_prefill);
}

//! [s] The wait trend's abscissa for a counted request arriving at `arrival_s`: its arrival
//! after the first counted one, by cycle with staged rates (trend_time).
[[nodiscard]] GPUPLAN_HD inline double wait_trend_x(const ServingView& v, const ServingStats& st,
                                                    double arrival_s) {
  return trend_time(v.load.stages, arrival_s) -
         trend_time(v.load.stages, st.first_counted_arrival_s);
}

//! Tokens a sequence has: its prompt and what it generated (what it must hold KV for).
[[nodiscard]] GPUPLAN_HD inline uint32_t seq_tokens(const Sequence& s) {
  return s.req.prompt + s.generated;
}

//! Blocks holding `tokens` tokens.
[[nodiscard]] GPUPLAN_HD inline uint32_t blocks_for(const ServingView& v, uint32_t tokens) {
  return (tokens + v.sched.block_tokens - 1) / v.sched.block_tokens;
}

//! Blocks neither held by a sequence nor cached.
[[nodiscard]] GPUPLAN_HD inline uint32_t free_blocks(const ServingView& v, const ReplicaState& r) {
  return replica_kv_blocks(v, r) - r.private_blocks - r.cached_blocks;
}

//! Blocks in use: held by sequences or cached for a sequence using them (evictable ones are free
//! to vLLM's usage metric too).
[[nodiscard]] GPUPLAN_HD inline uint32_t used_blocks(const ReplicaState& r) {
  return r.private_blocks + r.cached_blocks - r.evictable_blocks;
}

//! Accounts the KV blocks in use from the last change until `now`.
GPUPLAN_HD inline void account_kv(const ServingView& v, ReplicaState& r, ServingStats& st,
                                  double now) {
  st.kv_block_s += double(used_blocks(r)) * (now - r.kv_since_s);
  series_add_blocks(st.series, r.kv_since_s, now, double(used_blocks(r)));
  r.kv_since_s = now;
  if (used_blocks(r) > st.kv_peak_blocks) st.kv_peak_blocks = used_blocks(r);
  const double share = double(used_blocks(r)) / replica_kv_blocks(v, r);
  if (share > st.kv_peak_share) st.kv_peak_share = share;
}

//! Evicts the least recently released cached prefix nobody uses; false when there is none.
GPUPLAN_HD inline bool evict_prefix(ReplicaState& r) {
  uint32_t best = NONE;
  for (uint32_t g = 0; g < r.group_blocks.size; ++g)
    if (r.group_blocks[g] > 0 && r.group_refs[g] == 0 &&
        (best == NONE || r.group_last_use[g] < r.group_last_use[best]))
      best = g;
  if (best == NONE) return false;
  r.cached_blocks -= r.group_blocks[best];
  r.evictable_blocks -= r.group_blocks[best];
  r.group_blocks[best] = 0;
  return true;
}

//! Frees blocks (by evicting unused cached prefixes) until `n` are free; false when they cannot be.
GPUPLAN_HD inline bool reserve_blocks(const ServingView& v, ReplicaState& r, uint32_t n) {
  while (free_blocks(v, r) < n)
    if (!evict_prefix(r)) return false;
  return true;
}

//! Releases the blocks sequence `s` holds at time `now`.
GPUPLAN_HD inline void release_blocks(ReplicaState& r, Sequence& s, double now) {
  r.private_blocks -= s.blocks;
  s.blocks = 0;
  if (s.shared > 0) {
    const uint32_t g = s.req.group;
    if (--r.group_refs[g] == 0) {
      r.evictable_blocks += r.group_blocks[g];
      r.group_last_use[g] = now;
    }
    s.shared = 0;
  }
}

//! A conversation's turn completes (Workload::turns_a): the full blocks of its computed tokens
//! become the conversation's cache entry on this replica, in place of the one its prompt shared,
//! for the next turn to hit (vLLM keeps a finished request's blocks in its prefix cache).
GPUPLAN_HD inline void keep_conversation(const ServingView& v, ReplicaState& r, Sequence& s,
                                         double now) {
  const uint32_t g = s.req.group, held = s.shared;
  if (held > 0 && --r.group_refs[g] == 0) r.evictable_blocks += r.group_blocks[g];
  // NOTE: its only user is this sequence (a stream has one request in flight), so the old entry
  // is evictable here; its blocks past the shared ones are freed.
  r.cached_blocks -= r.group_blocks[g];
  r.evictable_blocks -= r.group_blocks[g];
  const uint32_t keep = s.computed / v.sched.block_tokens;
  r.group_blocks[g] = keep;
  r.group_last_use[g] = now;
  r.cached_blocks += keep;
  r.evictable_blocks += keep;
  r.private_blocks -= keep - held;
  s.blocks -= keep - held;
  s.shared = 0;
}

//! Removes entry `i` of the running list, keeping the order.
GPUPLAN_HD inline void remove_running(ReplicaState& r, uint32_t i) {
  for (uint32_t j = i + 1; j < r.n_running; ++j) r.running[j - 1] = r.running[j];
  r.n_running -= 1;
}

//! Preempts running entry `i` by recompute: frees its blocks, puts it first in the queue.
GPUPLAN_HD inline void preempt(ReplicaState& r, ServingStats& st, uint32_t i, double now) {
  const uint32_t idx = r.running[i];
  Sequence& s = r.seqs[idx];
  release_blocks(r, s, now);
  s.computed = 0;
  s.scheduled = 0;
  s.decoding = false;
  s.kv_ready = false;  // recomputed here, prompt and all
  s.preemptions += 1;
  st.preemptions += 1;
  series_add_preemption(st.series, now);
  remove_running(r, i);
  r.wait_head = (r.wait_head + r.waiting.size - 1) % r.waiting.size;
  r.waiting[r.wait_head] = idx;
  r.n_waiting += 1;
}

//! The budget and batch of the step being scheduled.
struct StepPlan {
  uint32_t budget = 0;  //!< tokens left
  BatchMix mix;
};

//! Schedules `n` tokens of running entry `i` (a decode when `decode`), preempting the most
//! recently admitted unscheduled sequences for blocks; returns the entry's index after the
//! preemptions, or NONE when it had to preempt itself.
GPUPLAN_HD inline uint32_t schedule_running(const ServingView& v, ReplicaState& r, ServingStats& st,
                                            StepPlan& p, uint32_t i, uint32_t n, bool decode,
                                            double now) {
  for (;;) {
    Sequence& s = r.seqs[r.running[i]];
    const uint32_t held = s.blocks + s.shared;
    // NOTE: most steps fit in the blocks held; the division only when a block is needed.
    const uint32_t need =
        s.computed + n <= held * v.sched.block_tokens ? 0 : blocks_for(v, s.computed + n) - held;
    if (reserve_blocks(v, r, need)) {
      s.blocks += need;
      r.private_blocks += need;
      s.scheduled = n;
      s.decoding = decode;
      p.budget -= n;
      if (decode)
        add_decode(p.mix, double(s.computed) + 1);
      else
        add_prefill(p.mix, double(s.computed), double(n));
      return i;
    }
    // NOTE: victims come from the end of the running list (lowest priority under FCFS) and must
    // not hold tokens of this step already.
    uint32_t victim = NONE;
    for (uint32_t j = r.n_running; j-- > 0;)
      if (j != i && r.seqs[r.running[j]].scheduled == 0) {
        victim = j;
        break;
      }
    if (victim == NONE) {
      preempt(r, st, i, now);
      return NONE;
    }
    preempt(r, st, victim, now);
    if (victim < i) i -= 1;
  }
}

//! Admits the first waiting request if it was there by `seen_by` (asynchronous scheduling's
//! planning time) and the running cap, the budget and the blocks of its first chunk allow; false
//! when it cannot (admission stops: FCFS).
GPUPLAN_HD inline bool admit_waiting(const ServingView& v, ReplicaState& r, ServingStats& st,
                                     StepPlan& p, double now, double seen_by) {
  if (r.n_waiting == 0 || r.n_running >= v.sched.max_num_seqs || p.budget == 0) return false;
  const uint32_t idx = r.waiting[r.wait_head];
  Sequence& s = r.seqs[idx];
  if ((s.kv_ready ? s.kv_arrived_s : s.req.arrival_s) > seen_by) return false;
  const uint32_t tokens = seq_tokens(s);
  const uint32_t B = v.sched.block_tokens;
  if (s.kv_ready) {
    // Its prompt's KV cache came over the network: it holds blocks for it and decodes at once.
    const uint32_t need = blocks_for(v, s.computed + 1);
    if (!reserve_blocks(v, r, need)) return false;
    r.wait_head = (r.wait_head + 1) % r.waiting.size;
    r.n_waiting -= 1;
    r.running[r.n_running++] = idx;
    s.blocks = need;
    r.private_blocks += need;
    s.scheduled = 1;
    s.decoding = true;
    p.budget -= 1;
    add_decode(p.mix, double(s.computed) + 1);
    if (s.req.id >= v.load.warmup_requests)
      add(st.decode_wait_trend, wait_trend_x(v, st, s.req.arrival_s), now - s.kv_arrived_s);
    return true;
  }
  // Prefix cache hit: the group's cached full blocks, leaving at least one token to compute.
  uint32_t hit = 0;
  const uint32_t g = s.req.group;
  if (v.sched.prefix_caching && g != NONE && r.group_blocks[g] > 0) {
    hit = r.group_blocks[g];
    if (hit * B >= tokens) hit = (tokens - 1) / B;
  }
  const uint32_t remaining = tokens - hit * B;
  if (!v.sched.chunked_prefill && remaining > p.budget) return false;
  const uint32_t n = remaining < p.budget ? remaining : p.budget;
  const uint32_t need = blocks_for(v, hit * B + n) - hit;
  // NOTE: the hit's blocks are pinned before reserving, so eviction cannot take them.
  if (hit > 0 && r.group_refs[g]++ == 0) r.evictable_blocks -= r.group_blocks[g];
  if (!reserve_blocks(v, r, need)) {
    if (hit > 0 && --r.group_refs[g] == 0) r.evictable_blocks += r.group_blocks[g];
    return false;
  }
  r.wait_head = (r.wait_head + 1) % r.waiting.size;
  r.n_waiting -= 1;
  r.running[r.n_running++] = idx;
  s.shared = hit;
  s.blocks = need;
  r.private_blocks += need;
  s.computed = hit * B;
  s.scheduled = n;
  s.decoding = false;
  p.budget -= n;
  add_prefill(p.mix, double(s.computed), double(n));
  st.prompt_tokens += tokens;
  st.prefix_hit_tokens += uint64_t(hit) * B;
  if (s.admitted_s < 0) {
    s.admitted_s = now;
    if (s.req.id >= v.load.warmup_requests) {
      add(st.wait.moments, now - s.req.arrival_s);
      sketch_add(st.wait.sketch, now - s.req.arrival_s);
      add(st.wait_trend, wait_trend_x(v, st, s.req.arrival_s), now - s.req.arrival_s);
    }
  }
  return true;
}

//! Schedules the step starting at `now` and sets its end; false (replica idle) when nothing can
//! run. A replica with work but nothing it can run cannot progress: flagged saturated.
GPUPLAN_HD inline bool begin_step(const ServingView& v, ReplicaState& r, ServingStats& st,
                                  double now) {
  account_kv(v, r, st, now);
  StepPlan p;
  p.budget = v.sched.max_num_batched_tokens;
  // 1. Running decodes (one token each), in admission order.
  bool prefilling = false;
  // NOTE: the decodes that fit in their blocks are summed here and join the mix once: their KV
  // lengths are whole numbers, so the sums are exact in any order.
  uint32_t held_decodes = 0;
  double held_context = 0;
  for (uint32_t i = 0; i < r.n_running && p.budget > 0;) {
    Sequence& s = r.seqs[r.running[i]];
    if (s.scheduled == 0 && s.generated > 0 && seq_tokens(s) - s.computed == 1) {
      // NOTE: most decodes fit in the blocks held: schedule_running's outcome, without its call.
      if (s.computed + 1 <= (s.blocks + s.shared) * v.sched.block_tokens) {
        s.scheduled = 1;
        s.decoding = true;
        p.budget -= 1;
        held_decodes += 1;
        held_context += double(s.computed) + 1;
        ++i;
        continue;
      }
      const uint32_t at = schedule_running(v, r, st, p, i, 1, true, now);
      i = at == NONE ? i : at + 1;
    } else {
      prefilling = true;
      ++i;
    }
  }
  p.mix.decode_tokens += held_decodes;
  p.mix.decode_context += held_context;
  // 2. Running partial prefills, chunked to the budget left.
  for (uint32_t i = 0; prefilling && i < r.n_running && p.budget > 0;) {
    const Sequence& s = r.seqs[r.running[i]];
    const uint32_t remaining = seq_tokens(s) - s.computed;
    if (s.scheduled == 0 && !(s.generated > 0 && remaining == 1) &&
        (v.sched.chunked_prefill || remaining <= p.budget)) {
      const uint32_t n = remaining < p.budget ? remaining : p.budget;
      const uint32_t at = schedule_running(v, r, st, p, i, n, false, now);
      i = at == NONE ? i : at + 1;
    } else {
      ++i;
    }
  }
  // 3. Waiting requests, first come first served. NOTE: with asynchronous scheduling a step that
  // follows another (it ends now) was planned when that one began: only the requests there by
  // then join it, unless nothing else would run (an idle GPU is not planned ahead).
  const bool ahead = v.sched.async_scheduling && r.step_end_s == now;
  while (admit_waiting(v, r, st, p, now, ahead ? r.step_start_s : now)) {
  }
  if (ahead && !(p.mix.prefill_tokens + p.mix.decode_tokens > 0))
    while (admit_waiting(v, r, st, p, now, now)) {
    }
  const double tokens = p.mix.prefill_tokens + p.mix.decode_tokens;
  if (!(tokens > 0)) {
    r.busy = false;
    if (r.n_waiting > 0 || r.n_running > 0) st.saturated = true;
    return false;
  }
  const double dt = step_time_s(replica_step(v, r), p.mix);
  r.busy = true;
  r.step_start_s = now;
  r.step_end_s = now + dt;
  st.steps += 1;
  st.busy_s += dt;
  if (uint64_t(tokens) > st.max_step_tokens) st.max_step_tokens = uint64_t(tokens);
  if (r.n_running > st.max_running) st.max_running = r.n_running;
  return true;
}

//! Records one latency value.
GPUPLAN_HD inline void record(Latency& l, double v) {
  add(l.moments, v);
  sketch_add(l.sketch, v);
}

//! [s] Time to move the KV cache of `tokens` tokens from a prefill to a decode replica.
[[nodiscard]] GPUPLAN_HD inline double kv_transfer_s(const ServingView& v, double tokens) {
  return v.kv_transfer_latency_s + v.step.kv_bytes_per_token * tokens / v.kv_transfer_bandwidth;
}

//! Hands running entry `i` of prefill replica `r`, whose first token was sampled at `now`, to
//! the decode replicas: its KV cache leaves on the network, its blocks and record are freed.
GPUPLAN_HD inline void hand_off(const ServingView& v, ReplicaState& r, ServingStats& st,
                                TransferQueue& out, uint32_t i, double now) {
  const uint32_t idx = r.running[i];
  Sequence& s = r.seqs[idx];
  Transfer t;
  t.at_s = now + kv_transfer_s(v, double(s.req.prompt));
  t.first_token_s = now;
  t.req = s.req;
  if (!push_transfer(out, t)) st.saturated = true;
  r.outstanding_tokens -= double(s.req.output - s.generated);  // the decode replica's now
  release_blocks(r, s, now);
  remove_running(r, i);
  r.free_seqs[r.n_free_seqs++] = idx;
}

//! Ends the step in flight at `now` (its end): computes its tokens, samples the next token of
//! every sequence whose tokens are all computed, finishes the complete ones and caches prefixes.
//! A prefill replica (`handoff` given) hands each sequence to the decode replicas once its first
//! token is out.
GPUPLAN_HD inline void end_step(const ServingView& v, ReplicaState& r, ServingStats& st, double now,
                                TransferQueue* handoff = nullptr) {
  account_kv(v, r, st, now);
  const uint32_t B = v.sched.block_tokens;
  // NOTE: a token whose previous one came out of the previous step has the step's duration as
  // its gap: those are counted together, one sketch lookup per step instead of one per token.
  uint32_t step_gaps = 0;
  // NOTE: counted here and added once after the loop (whole numbers: exact in any order).
  uint64_t decode_tokens = 0, sampled = 0, outstanding_done = 0;
  uint32_t fewest_left = 0xFFFFFFFFu;  // NOTE: 0 once a sequence is not decoding (quiet runs)
  for (uint32_t i = 0; i < r.n_running;) {
    const uint32_t idx = r.running[i];
    Sequence& s = r.seqs[idx];
    const uint32_t n = s.scheduled;
    if (n == 0) {
      fewest_left = 0;
      ++i;
      continue;
    }
    s.scheduled = 0;
    s.computed += n;
    if (s.decoding)
      decode_tokens += n;
    else
      st.prefill_tokens += n;
    if (s.prompt_done < s.req.prompt && s.computed > s.prompt_done) {
      const uint32_t done = s.computed < s.req.prompt ? s.computed : s.req.prompt;
      outstanding_done += done - s.prompt_done;
      s.prompt_done = done;
    }
    // The first request of a group to compute its prefix's full blocks caches them.
    const uint32_t g = s.req.group;
    if (v.sched.prefix_caching && g != NONE && s.shared == 0 && r.group_blocks[g] == 0) {
      const uint32_t k = s.req.prefix / B;
      if (k > 0 && s.computed >= k * B && s.blocks >= k) {
        r.group_blocks[g] = k;
        r.group_refs[g] = 1;
        r.cached_blocks += k;
        r.private_blocks -= k;
        s.blocks -= k;
        s.shared = k;
      }
    }
    if (s.computed < seq_tokens(s)) {
      fewest_left = 0;
      ++i;
      continue;
    }
    // Every token computed: the step samples the next one.
    s.generated += 1;
    sampled += 1;
    const bool counted = s.req.id >= v.load.warmup_requests;
    if (s.generated == 1) {
      s.first_token_s = now;
      if (counted) record(st.ttft, now - s.req.arrival_s + v.request_overhead_s);
    } else if (counted) {
      if (s.last_token_s == r.step_start_s)
        step_gaps += 1;
      else
        record(st.itl, now - s.last_token_s);
    }
    s.last_token_s = now;
    if (s.generated < s.req.output) {
      const uint32_t left = s.req.output - s.generated;
      fewest_left = left < fewest_left ? left : fewest_left;
      if (handoff != nullptr && s.generated == 1)
        hand_off(v, r, st, *handoff, i, now);
      else
        ++i;
      continue;
    }
    // Complete.
    st.completed += 1;
    if (now > st.end_s) st.end_s = now;
    if (counted) {
      st.counted += 1;
      const double ttft = s.first_token_s - s.req.arrival_s + v.request_overhead_s;
      const double tpot =
          s.req.output > 1 ? (s.last_token_s - s.first_token_s) / double(s.req.output - 1) : 0;
      record(st.e2e, now - s.req.arrival_s + v.request_overhead_s);
      if (s.req.output > 1) record(st.tpot, tpot);
      const bool ttft_ok = !(v.load.ttft_slo_s > 0) || ttft <= v.load.ttft_slo_s;
      const bool tpot_ok = !(v.load.tpot_slo_s > 0) || tpot <= v.load.tpot_slo_s;
      if (ttft_ok && tpot_ok) st.met_slo += 1;
    }
    if (r.done.size > 0) r.done[r.n_done++] = uint64_t(s.req.id) << 32 | s.req.stream;
    if (v.load.turns_a > 0 && v.sched.prefix_caching) keep_conversation(v, r, s, now);
    release_blocks(r, s, now);
    remove_running(r, i);
    r.free_seqs[r.n_free_seqs++] = idx;
  }
  r.min_left = fewest_left;
  st.decode_tokens += decode_tokens;
  st.sampled_tokens += sampled;
  r.outstanding_tokens -= double(outstanding_done + sampled);
  if (step_gaps > 0) {
    const double gap = now - r.step_start_s;
    st.itl.moments.n += step_gaps;
    st.itl.moments.sum += gap * step_gaps;
    if (gap > st.itl.moments.max) st.itl.moments.max = gap;
    st.itl.sketch[sketch_bin(gap)] += step_gaps;
  }
  r.busy = false;
}

//! A fresh record for request `q` at the back of the waiting queue (a free record must exist).
GPUPLAN_HD inline Sequence& enqueue(ReplicaState& r, const Request& q) {
  const uint32_t idx = r.free_seqs[--r.n_free_seqs];
  Sequence& s = r.seqs[idx];
  s = Sequence{};
  s.req = q;
  r.waiting[(r.wait_head + r.n_waiting) % r.waiting.size] = idx;
  r.n_waiting += 1;
  return s;
}

//! Hands request `q` to replica `r` at its arrival `now`; starts a step when the replica is idle.
//! A replica with no free record cannot keep up: flagged saturated, the request dropped.
GPUPLAN_HD inline void arrive(const ServingView& v, ReplicaState& r, ServingStats& st,
                              const Request& q, double now) {
  st.arrived += 1;
  if (r.n_free_seqs == 0) {
    st.saturated = true;
    return;
  }
  enqueue(r, q);
  r.outstanding_tokens += double(q.prompt) + double(q.output);
  if (q.id >= v.load.warmup_requests && st.first_counted_arrival_s < 0)
    st.first_counted_arrival_s = now;
  if (!r.busy) begin_step(v, r, st, now);
}

//! Transfer `t` reaches decode replica `r` at `now`: the request waits with its prompt's KV
//! cache and first token, to decode from its next admission.
GPUPLAN_HD inline void arrive_transferred(const ServingView& v, ReplicaState& r, ServingStats& st,
                                          const Transfer& t, double now) {
  if (r.n_free_seqs == 0) {
    st.saturated = true;
    return;
  }
  Sequence& s = enqueue(r, t.req);
  s.computed = s.prompt_done = t.req.prompt;
  s.generated = 1;
  s.kv_ready = true;
  s.kv_arrived_s = now;
  s.admitted_s = t.first_token_s;  // admitted on its prefill replica (the wait counted there)
  s.first_token_s = s.last_token_s = t.first_token_s;
  r.outstanding_tokens += double(t.req.output - 1);
  if (!r.busy) begin_step(v, r, st, now);
}

}  // namespace gpuplan::serving
