#pragma once
//! Plain state of the serving simulator: the configuration a replica runs with, its sequences,
//! KV blocks and prefix cache over preallocated arrays, and the streamed statistics. Capacities
//! come from the configuration (sim/serving/serving_buffers.h sizes them on the host).
#include <cstdint>

#include "sim/core/portable.h"
#include "sim/core/sketch_bins.h"
#include "sim/serving/rate_stages.h"
#include "sim/serving/step_time.h"

namespace gpuplan::serving {

inline constexpr uint32_t NONE = 0xFFFFFFFFu;  //!< no index

//! How a replica schedules (vLLM's knobs, vllm/config/scheduler.py).
struct SchedulerConfig {
  uint32_t max_num_batched_tokens = 2048;  //!< token budget of one step
  uint32_t max_num_seqs = 256;             //!< sequences running at once
  uint32_t block_tokens = 16;              //!< tokens per KV block
  uint32_t kv_blocks = 0;                  //!< KV blocks of the replica (memory after weights)
  bool chunked_prefill = true;             //!< prompts may be split across steps
  bool prefix_caching = true;              //!< full blocks of a shared prefix are reused
  //! vLLM's asynchronous scheduling: a step is planned while the one before it runs, so a request
  //! that arrives during a step joins the step after next; a replica with nothing running admits
  //! it at once. Off here (the engine's own tests); scenarios and the quote's check turn it on,
  //! as vLLM does by default since vllm-project/vllm#27614.
  bool async_scheduling = false;
};

//! Autoscaling on concurrency (sim/serving/autoscaler.h); max_replicas 0: off, the cluster's
//! replicas always serve.
struct Autoscale {
  uint32_t min_replicas = 1, max_replicas = 0;
  double target_requests = 1;       //!< requests in a replica (running + waiting) aimed at
  double interval_s = 15;           //!< [s] between evaluations
  double provision_s = 0;           //!< [s] from asking for a replica to its first request
  double scale_down_delay_s = 300;  //!< [s] fewer wanted this long before any is drained
};

//! How requests are routed to replicas.
enum class Router : uint8_t {
  round_robin,
  least_outstanding_tokens,
  cache_aware,  //!< SGLang's router: prefix affinity while the load is balanced (CacheAware)
};

//! The cache-aware router's thresholds, with the defaults of SGLang's router
//! (sgl-project/sglang, sgl-model-gateway src/policies/mod.rs, `CacheAwareConfig::default`).
struct CacheAware {
  //! A request goes to a replica whose router tree holds its prefix when the prefix is more than
  //! this share of its prompt.
  double cache_threshold = 0.5;
  //! The load (requests in a replica) is imbalanced when max - min exceeds this ...
  uint32_t balance_abs = 32;
  //! ... and max exceeds this times min; then the least loaded replica takes the request.
  double balance_rel = 1.1;
};

//! How a length is drawn.
enum class LengthKind : uint8_t {
  fixed,      //!< a = the length
  geometric,  //!< mean a (>= 1): 1 + Geometric, for the M/M/c check (memoryless in steps)
  table,      //!< a row of the length table, uniformly (a trace or a stratified sample)
};

//! One (prompt, output) row of a length table.
struct LengthRow {
  uint32_t prompt = 0;
  uint32_t output = 1;
};

//! The workload: Poisson arrivals of `n_requests` (or a trace's, replayed), lengths, shared
//! prefixes, SLOs.
struct Workload {
  double rate_per_s = 1;  //!< [1/s] Poisson arrivals of the cluster (a replay: its mean rate)
  //! [s] A replayed trace: request k arrives at arrival_s[k] with the lengths of table row k
  //! (n_requests <= its size); empty: Poisson arrivals at rate_per_s, rows drawn uniformly.
  span<const double> arrival_s;
  //! Staged constant rates, the cycle repeating (sim/serving/rate_stages.h); empty: one rate.
  //! rate_per_s is then their mean over the cycle.
  span<const RateStage> stages;
  //! Closed loop: this many streams, each sending its next request an exponential pause of mean
  //! `think_s` after its previous one completes (0: open-loop arrivals, as above). rate_per_s is
  //! then only a first guess of the rate the streams make, for the series' first bin width.
  uint32_t streams = 0;
  double think_s = 0;  //!< [s] the mean pause between a completion and the stream's next request
  //! [s] Closed loop: each stream sends its first request at a uniform time within this, after
  //! its first pause (0: all start together)
  double ramp_s = 0;
  uint64_t n_requests = 0;       //!< requests in the run
  uint64_t warmup_requests = 0;  //!< the first ones are served but not counted
  LengthKind prompt_kind = LengthKind::fixed;
  double prompt_a = 0;  //!< see LengthKind (table: ignored, the table gives both lengths)
  LengthKind output_kind = LengthKind::fixed;
  double output_a = 1;
  span<const LengthRow> table;  //!< rows for LengthKind::table
  double prefix_share = 0;      //!< share of requests that start with a shared prefix
  uint32_t prefix_groups = 0;   //!< distinct shared prefixes (system prompts), uniformly drawn
  uint32_t prefix_tokens = 0;   //!< tokens of each shared prefix, added before the prompt
  //! Closed loop only: each stream holds multi-turn conversations of this many turns (fixed or
  //! geometric, as LengthKind; 0: every request stands alone). A turn's prompt is the
  //! conversation so far (earlier prompts and answers) and its new message; the conversation is
  //! cached, as vLLM's prefix cache keeps a finished request's blocks, under the stream's own
  //! group, prefix_groups + stream (cache_groups).
  LengthKind turns_kind = LengthKind::fixed;
  double turns_a = 0;
  //! [tokens] A conversation whose next turn would pass this starts anew (a client's context
  //! window).
  uint32_t max_context = 0;
  double ttft_slo_s = 0;  //!< [s] a request meets its SLO with TTFT at most this (0: any)
  double tpot_slo_s = 0;  //!< [s] ... and mean time per output token at most this (0: any)
};

//! Whether the streams hold multi-turn conversations.
[[nodiscard]] GPUPLAN_HD inline bool conversations(const Workload& w) {
  return w.streams > 0 && w.turns_a > 0;
}

//! Prefix cache groups: the shared prefixes, then one per stream's conversation.
[[nodiscard]] GPUPLAN_HD inline uint32_t cache_groups(const Workload& w) {
  return w.prefix_groups + (conversations(w) ? w.streams : 0);
}

//! A request as drawn.
struct Request {
  uint32_t prompt = 0;     //!< prompt tokens, shared prefix included
  uint32_t output = 1;     //!< tokens to generate (>= 1)
  uint32_t group = NONE;   //!< shared prefix group (or the stream's conversation)
  uint32_t prefix = 0;     //!< tokens of the shared prefix (or of the conversation so far)
  uint32_t id = 0;         //!< its place in the arrivals (requests per run are fewer than 2^32)
  uint32_t stream = NONE;  //!< the closed-loop stream that sent it (Workload::streams)
  double arrival_s = 0;
};

//! One sequence in a replica. NOTE: what every step reads and writes comes first, in the first
//! 64 bytes of a cache-line-aligned record: a step touches one line per running sequence.
struct alignas(64) Sequence {
  Request req;
  uint32_t computed = 0;        //!< tokens whose KV is computed
  uint32_t generated = 0;       //!< output tokens sampled
  uint32_t scheduled : 30 = 0;  //!< tokens scheduled in the step in flight
  uint32_t decoding : 1 = 0;    //!< the scheduled token is a decode
  uint32_t kv_ready : 1 = 0;    //!< its prompt's KV cache came from a prefill replica
  uint32_t shared = 0;          //!< blocks of the group's cached prefix it uses
  uint32_t blocks = 0;          //!< private KV blocks held
  uint32_t prompt_done = 0;     //!< prompt tokens ever computed (outstanding-token accounting)
  double last_token_s = 0;
  double admitted_s = -1;  //!< first admission (NOTE: -1 until admitted, only for the wait)
  double first_token_s = 0;
  double kv_arrived_s = 0;  //!< [s] when its KV cache reached this decode replica
  uint32_t preemptions = 0;
};

//! Streamed count, sum and maximum of a latency. NOTE: a sum, not Welford's update: one add per
//! token, and a division per token cost a third of a step.
struct Moments {
  uint64_t n = 0;
  double sum = 0;
  double max = 0;
  [[nodiscard]] GPUPLAN_HD double mean() const { return n > 0 ? sum / double(n) : 0.0; }
};

GPUPLAN_HD inline void add(Moments& m, double v) {
  m.n += 1;
  m.sum += v;
  if (v > m.max) m.max = v;
}

//! One latency: moments and a quantile sketch (sim/core/sketch.h).
struct Latency {
  Moments moments;
  uint32_t sketch[SKETCH_BINS];
};

//! Least-squares sums of the admission wait (y) against the arrival time (x, from the first
//! counted arrival) of the counted requests. A cluster that keeps up has waits with no trend; one
//! offered rho > 1 times what it serves admits the request arriving at t at about rho t: it waits
//! (rho - 1) t, so the slope is rho - 1.
struct WaitTrend {
  uint64_t n = 0;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  [[nodiscard]] GPUPLAN_HD double slope() const {
    const double d = double(n) * sxx - sx * sx;
    return n > 1 && d > 0 ? (double(n) * sxy - sx * sy) / d : 0.0;
  }
};

GPUPLAN_HD inline void add(WaitTrend& t, double x, double y) {
  t.n += 1;
  t.sx += x;
  t.sy += y;
  t.sxx += x * x;
  t.sxy += x * y;
}

//! Adds the sums of `o` (another replica's run) to `t`.
GPUPLAN_HD inline void merge(WaitTrend& t, const WaitTrend& o) {
  t.n += o.n;
  t.sx += o.sx;
  t.sy += o.sy;
  t.sxx += o.sxx;
  t.sxy += o.sxy;
}

//! Bins of a run's time series (ServingSeries): their width doubles as the run goes on, so the
//! series covers the whole run in fixed memory.
inline constexpr uint32_t SERIES_BINS = 128;

//! KV blocks in use and preemptions over a run, all replicas together: SERIES_BINS bins of
//! `width_s` from time 0. A time past the last bin merges the bins in pairs and doubles the width.
struct ServingSeries {
  double width_s = 1;                      //!< [s] of each bin
  double kv_block_s[SERIES_BINS] = {};     //!< [block·s] blocks in use integrated over the bin
  uint32_t preemptions[SERIES_BINS] = {};  //!< sequences preempted in the bin
  double replica_s[SERIES_BINS] = {};      //!< [replica·s] replicas billed integrated over the bin
};

//! Doubles the width of `s`, merging its bins in pairs.
GPUPLAN_HD inline void series_widen(ServingSeries& s) {
  for (uint32_t b = 0; b < SERIES_BINS / 2; ++b) {
    s.kv_block_s[b] = s.kv_block_s[2 * b] + s.kv_block_s[2 * b + 1];
    s.preemptions[b] = s.preemptions[2 * b] + s.preemptions[2 * b + 1];
    s.replica_s[b] = s.replica_s[2 * b] + s.replica_s[2 * b + 1];
  }
  for (uint32_t b = SERIES_BINS / 2; b < SERIES_BINS; ++b) {
    s.kv_block_s[b] = 0;
    s.preemptions[b] = 0;
    s.replica_s[b] = 0;
  }
  s.width_s *= 2;
}

//! Widens `s` until time `t` [s] falls inside its bins.
GPUPLAN_HD inline void series_cover(ServingSeries& s, double t) {
  while (t >= s.width_s * SERIES_BINS) series_widen(s);
}

//! Adds `level` held over [t0, t1) [s] to the bins of series `Bins` of `s` the interval crosses.
//! NOTE: the series is a template argument so each caller adds at a fixed offset (the KV blocks'
//! call is in every step).
template <double (ServingSeries::*Bins)[SERIES_BINS]>
GPUPLAN_HD inline void series_add_level(ServingSeries& s, double t0, double t1, double level) {
  if (!(t1 > t0) || level == 0) return;
  series_cover(s, t1);
  uint32_t b = static_cast<uint32_t>(t0 / s.width_s);
  for (double t = t0; t < t1 && b < SERIES_BINS; ++b) {
    const double end = (b + 1) * s.width_s;
    if (end <= t) continue;  // NOTE: t0 / width can round down at an exact bin edge
    const double upto = t1 < end ? t1 : end;
    (s.*Bins)[b] += level * (upto - t);
    t = upto;
  }
}

//! Adds `blocks` in use over [t0, t1) [s] to the bins the interval crosses.
GPUPLAN_HD inline void series_add_blocks(ServingSeries& s, double t0, double t1, double blocks) {
  series_add_level<&ServingSeries::kv_block_s>(s, t0, t1, blocks);
}

//! Adds `replicas` billed over [t0, t1) [s] to the bins the interval crosses.
GPUPLAN_HD inline void series_add_replicas(ServingSeries& s, double t0, double t1,
                                           double replicas) {
  series_add_level<&ServingSeries::replica_s>(s, t0, t1, replicas);
}

//! Counts a preemption at time `t` [s].
GPUPLAN_HD inline void series_add_preemption(ServingSeries& s, double t) {
  series_cover(s, t);
  const uint32_t b = static_cast<uint32_t>(t / s.width_s);
  s.preemptions[b < SERIES_BINS ? b : SERIES_BINS - 1] += 1;
}

//! The statistics of a run, flat in the number of requests.
struct ServingStats {
  Latency ttft;  //!< [s] arrival -> first token
  Latency itl;   //!< [s] gap between consecutive tokens of a request (every gap)
  Latency tpot;  //!< [s] (last token - first token) / (output - 1), per request with output > 1
  Latency e2e;   //!< [s] arrival -> last token
  Latency wait;  //!< [s] arrival -> first admission into the running batch
  WaitTrend wait_trend;  //!< the admission wait against the arrival time
  //! Disaggregated: a decode replica's wait to admit a request whose KV cache has arrived,
  //! against the request's arrival time (a decode pool that cannot keep up grows it).
  WaitTrend decode_wait_trend;
  uint64_t arrived = 0, completed = 0, counted = 0;  //!< counted: completed after the warmup
  uint64_t met_slo = 0;                              //!< counted requests meeting both SLOs
  uint64_t preemptions = 0;                          //!< sequences preempted (recomputed later)
  uint64_t prompt_tokens = 0;      //!< prompt tokens at each admission (a readmission too)
  uint64_t prefix_hit_tokens = 0;  //!< prompt tokens served from the prefix cache
  uint64_t prefill_tokens = 0;     //!< tokens computed in prefill chunks (recompute included)
  uint64_t decode_tokens = 0;      //!< tokens computed by decodes
  uint64_t sampled_tokens = 0;     //!< output tokens generated, all requests
  uint64_t steps = 0;              //!< iterations of all replicas
  uint64_t max_step_tokens = 0;    //!< largest step (never above the budget)
  uint32_t max_running = 0;        //!< most sequences in one step
  uint32_t kv_peak_blocks = 0;     //!< most blocks in use (private + cached) in one replica
  double kv_peak_share = 0;        //!< the largest share of its own KV cache a replica used
  double kv_block_s = 0;           //!< [block·s] blocks in use integrated over time, all replicas
  ServingSeries series;            //!< the same blocks and the preemptions over time
  double busy_s = 0;               //!< [s] replica time spent in steps
  //! Autoscaling: [replica·s] replicas billed integrated over the run, the most billed at once,
  //! and the evaluations that asked for more or drained some
  double replica_s = 0;
  uint32_t peak_replicas = 0, scale_ups = 0, scale_downs = 0;
  double first_counted_arrival_s = -1;  //!< NOTE: -1 until a counted request arrives
  double end_s = 0;                     //!< [s] last completion
  bool saturated = false;               //!< a waiting queue overflowed: the cluster cannot keep up
};

//! A replica: its sequences, waiting ring, running list, KV blocks and prefix cache.
struct ReplicaState {
  span<Sequence> seqs;       //!< sequence records (running + waiting capacity)
  span<uint32_t> free_seqs;  //!< stack of free records
  uint32_t n_free_seqs = 0;
  span<uint32_t> running;  //!< records running, in admission order
  uint32_t n_running = 0;
  span<uint32_t> waiting;  //!< ring of records waiting, FCFS (preempted ones at the front)
  uint32_t wait_head = 0, n_waiting = 0;
  // KV cache (counts suffice: paged blocks do not fragment).
  uint32_t private_blocks = 0;    //!< held by sequences
  uint32_t cached_blocks = 0;     //!< held by prefix cache entries (in use or evictable)
  uint32_t evictable_blocks = 0;  //!< cached blocks no sequence uses
  span<uint32_t> group_blocks;    //!< [group] cached blocks of the group's prefix (0: not cached)
  span<uint32_t> group_refs;      //!< [group] sequences using the cached prefix
  span<double> group_last_use;    //!< [group] [s] when its last user released it (LRU)
  bool decode_pool = false;       //!< a decode replica of a disaggregated cluster
  // The step in flight.
  bool busy = false;
  double step_start_s = 0, step_end_s = 0;
  double outstanding_tokens = 0;  //!< prompt + output tokens not yet computed, for the router
  double kv_since_s = 0;          //!< [s] KV integral accounted up to here
  //! Closed loop: the requests the last step completed (at most max_num_seqs), each as its id
  //! << 32 | its stream, for the cluster to send their streams' next ones; empty otherwise.
  span<uint64_t> done;
  uint32_t n_done = 0;
  //! Fewest tokens a running sequence had left to sample after the last step's end (0 when one
  //! was not decoding): a quiet run needs a few (sim/serving/quiet_steps.h).
  uint32_t min_left = 0;
  //! A quiet run (sim/serving/quiet_steps.h): the step in flight and those after it are decodes
  //! of the same sequences, each sequence's record left as it was when the run began.
  bool quiet = false;
  uint32_t quiet_ends = 0;      //!< steps of the run ended (not applied to the records)
  uint32_t quiet_counted = 0;   //!< running sequences past the warmup (their gaps are counted)
  uint32_t quiet_min_left = 0;  //!< fewest tokens a running sequence had left at the run's start
  double quiet_context = 0;     //!< [tokens] KV read by the run's first step, all decodes
  //! [block_tokens] running sequences by the room their blocks had after the first step's
  //! token: the run's step j gives a block to those with room (j - 1) mod block_tokens.
  span<uint32_t> quiet_room;
};

}  // namespace gpuplan::serving
