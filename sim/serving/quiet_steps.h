#pragma once
//! Quiet runs: most steps of a busy replica decode one token of each of the same sequences, with
//! nothing arriving, completing or short of blocks. Such a step's end and the next step's plan
//! are worked out from sums over the batch (tokens, KV read, blocks needed, counted gaps) without
//! touching a sequence's record; the records catch up at once when the run ends (materialize).
//! Every statistic is updated at the same instant with the same values as step by step, so the
//! results are the same (serving::quiet_runs checks the bundled workloads both ways); only the
//! work per step drops from one pass over the batch to a few sums.
#include "sim/serving/replica.h"

namespace gpuplan::serving {

//! Whether the first waiting request could join a step planned after the one that began at
//! `r.step_start_s`, as admit_waiting sees it: a free place among the running sequences and
//! budget left after their decodes, and, with asynchronous scheduling (the plan made while that
//! step ran), an arrival before it began. FCFS: the ones behind it wait for it.
[[nodiscard]] GPUPLAN_HD inline bool head_may_join(const ServingView& v, const ReplicaState& r) {
  if (r.n_waiting == 0 || r.n_running >= v.sched.max_num_seqs ||
      r.n_running >= v.sched.max_num_batched_tokens)
    return false;
  const Sequence& head = r.seqs[r.waiting[r.wait_head]];
  const double came = head.kv_ready ? head.kv_arrived_s : head.req.arrival_s;
  return !(v.sched.async_scheduling && came > r.step_start_s);
}

//! After the step planned at `r.step_start_s`: starts a quiet run when that step's end and the
//! next plan can be summed. Needs every running sequence decoding one scheduled token, a counted
//! one's last token from the step before (its gap is the step's length), none finishing at the
//! step's end, no prefix to cache and blocks with less than a block's room; not on a prefill
//! replica (it hands sequences off).
GPUPLAN_HD inline void start_quiet(const ServingView& v, ReplicaState& r, bool prefill_replica) {
  // NOTE: not worth starting when a request may join the next plan or a sequence finishes within
  // two steps (the run would end at once); min_left is a lower bound, checked before the batch.
  if (!v.quiet_runs || prefill_replica || !r.busy || r.n_running == 0 || r.min_left < 3 ||
      r.n_running > v.sched.max_num_batched_tokens || head_may_join(v, r))
    return;
  const uint32_t B = v.sched.block_tokens;
  for (uint32_t b = 0; b < B; ++b) r.quiet_room[b] = 0;
  uint32_t counted = 0, min_left = 0xFFFFFFFFu;
  double context = 0;
  for (uint32_t i = 0; i < r.n_running; ++i) {
    const Sequence& s = r.seqs[r.running[i]];
    if (s.scheduled != 1 || !s.decoding) return;
    const bool is_counted = s.req.id >= v.load.warmup_requests;
    if (is_counted && s.last_token_s != r.step_start_s) return;
    const uint32_t g = s.req.group;
    if (v.sched.prefix_caching && g != NONE && s.shared == 0 && r.group_blocks[g] == 0 &&
        s.req.prefix >= B)
      return;
    const uint32_t room = (s.blocks + s.shared) * B - (s.computed + 1);
    if (room >= B) return;
    r.quiet_room[room] += 1;
    counted += is_counted;
    const uint32_t left = s.req.output - s.generated;
    min_left = left < min_left ? left : min_left;
    context += double(s.computed) + 1;
  }
  if (min_left < 3) return;  // a sequence finishes at the step's end or the next one's
  r.quiet = true;
  r.quiet_ends = 0;
  r.quiet_counted = counted;
  r.quiet_min_left = min_left;
  r.quiet_context = context;
}

//! Ends the quiet step in flight at `now`, as end_step would: every running sequence computes
//! its token and samples the next, the gaps all the step's length.
GPUPLAN_HD inline void quiet_end(const ServingView& v, ReplicaState& r, ServingStats& st,
                                 double now) {
  account_kv(v, r, st, now);
  const uint32_t n = r.n_running;
  st.decode_tokens += n;
  st.sampled_tokens += n;
  r.outstanding_tokens -= double(n);
  if (r.quiet_counted > 0) {
    const double gap = now - r.step_start_s;
    st.itl.moments.n += r.quiet_counted;
    st.itl.moments.sum += gap * r.quiet_counted;
    if (gap > st.itl.moments.max) st.itl.moments.max = gap;
    st.itl.sketch[sketch_bin(gap)] += r.quiet_counted;
  }
  r.busy = false;
  r.quiet_ends += 1;
}

//! Whether the end of the quiet step in flight is quiet: no sequence finishes at it.
[[nodiscard]] GPUPLAN_HD inline bool quiet_end_due(const ReplicaState& r) {
  return r.quiet_min_left > r.quiet_ends + 1;
}

//! Plans the run's next step at `now` as begin_step would, when no waiting request can join it
//! (head_may_join) and the blocks it needs are free without evicting; false (nothing changed)
//! otherwise.
GPUPLAN_HD inline bool quiet_plan(const ServingView& v, ReplicaState& r, ServingStats& st,
                                  double now) {
  const uint32_t j = r.quiet_ends, n = r.n_running;
  if (head_may_join(v, r)) return false;
  const uint32_t need = r.quiet_room[(j - 1) % v.sched.block_tokens];
  if (free_blocks(v, r) < need) return false;
  // NOTE: no account_kv here as begin_step has: quiet_end accounted the blocks up to `now`.
  r.private_blocks += need;
  BatchMix mix;
  mix.decode_tokens = n;
  mix.decode_context = r.quiet_context + double(n) * j;  // whole numbers: exact
  const double dt = step_time_s(replica_step(v, r), mix);
  r.busy = true;
  r.step_start_s = now;
  r.step_end_s = now + dt;
  st.steps += 1;
  st.busy_s += dt;
  if (n > st.max_step_tokens) st.max_step_tokens = n;
  return true;
}

//! Ends the quiet run: each record takes the tokens of the run's ended steps and the blocks its
//! later plans gave it. Right after a quiet_end (`planned` false), as end_step leaves them; or
//! before the end of a step the run planned (`planned`), as that plan left them.
GPUPLAN_HD inline void materialize(const ServingView& v, ReplicaState& r, bool planned) {
  const uint32_t q = r.quiet_ends, plans = planned ? q : q - 1, B = v.sched.block_tokens;
  const double last = planned ? r.step_start_s : r.step_end_s;
  for (uint32_t i = 0; i < r.n_running; ++i) {
    Sequence& s = r.seqs[r.running[i]];
    const uint32_t room = (s.blocks + s.shared) * B - (s.computed + 1);
    if (plans > room) s.blocks += 1 + (plans - room - 1) / B;
    s.computed += q;
    s.generated += q;
    s.last_token_s = last;
    s.scheduled = planned;
  }
  r.min_left = r.quiet_min_left - q;
  r.quiet = false;
}

}  // namespace gpuplan::serving
