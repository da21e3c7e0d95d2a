#pragma once
//! Shared GPUs in the engine (docs/sharing.md, "In the engine"). A shared job holds one entry of
//! one GPU: a MIG instance of its profile (its duration already divided by the instance's speed
//! factor at compile, as any per-pool slowdown), one time-slicing replica, or a milli-GPU share
//! and memory of a fractional GPU (sim/core/fractional_gpus.h). A time-sliced GPU is
//! processor sharing: each of its k jobs runs at 1 / (k (1 + interference)) of its solo speed (full
//! speed alone) when each could use the whole GPU; a class that uses only a fraction u of a GPU
//! gets min(u, L) of it, max-min fair (time_slice_level). Whenever k changes the others are
//! re-rated by the network model's mechanism
//! (net_progress, then move_finish: work done so far kept, finish event moved). Shared jobs hold
//! no whole GPUs (Job::gpus = 0); busy shared GPUs are counted here in SHARE_UNITS: a MIG
//! instance counts its compute slices, a time-sliced GPU with any job counts whole, a fractional
//! job its milli (so a fractional pool's utilization is its GPU allocation ratio); the compute
//! they use beside it is kept by sim/core/compute_used.h.
#include "sim/core/capacity.h"
#include "sim/core/compute_used.h"
#include "sim/core/fractional_gpus.h"
#include "sim/core/network.h"

namespace gpuplan {

//! True when some pool shares its GPUs (the model has shared tables).
[[nodiscard]] GPUPLAN_HD inline bool sharing_on(const ModelView& m) {
  return m.share.n_shared_pools > 0;
}

//! True when class c asks for a shared GPU (a MIG instance, a time-sliced replica or milli-GPU).
[[nodiscard]] GPUPLAN_HD inline bool shared_class(const ModelView& m, uint32_t c) {
  return sharing_on(m) && m.share.class_kind[c] != ShareKind::whole;
}

//! Duration multiplier of each of k jobs time-sliced on one GPU that could each use the whole
//! GPU: 1 alone, else k (1 + interference) (the inverse of sim/sharing/time_slicing.h's
//! time_sliced_speed).
[[nodiscard]] GPUPLAN_HD inline double time_slice_stretch(uint32_t k, double interference) {
  return k <= 1 ? 1.0 : k * (1.0 + interference);
}

//! Compute share each job on time-sliced GPU `gpu` with `k` jobs may take: the level L with
//! sum over its jobs of min(fraction, L) = the GPU's capacity (1 alone, else 1 / (1 +
//! interference)), max-min fair; +inf when every job gets all it can use. A job of fraction u then
//! runs at min(1, L / u) of its solo speed (with every u = 1: 1 / time_slice_stretch).
[[nodiscard]] GPUPLAN_HD inline double time_slice_level(const ModelView& m, const ReplicaState& s,
                                                        uint32_t gpu, uint32_t k,
                                                        double interference) {
  const double cap = k <= 1 ? 1.0 : 1.0 / (1.0 + interference);
  const uint32_t* jobs = &s.share.gpu_jobs[gpu * m.share.max_slots];
  double level = cap / k;
  // NOTE: each pass moves at least one job under the level or stops, so at most k passes.
  for (uint32_t pass = 0; pass <= k; ++pass) {
    double small = 0;
    uint32_t n_big = 0;
    for (uint32_t i = 0; i < k; ++i) {
      const double u = m.share.class_fraction[s.jobs[jobs[i]].class_idx];
      if (u < level) {
        small += u;
      } else {
        ++n_big;
      }
    }
    if (n_big == 0) return NEVER;
    const double next = (cap - small) / n_big;
    if (!(next > level)) return level;
    level = next;
  }
  return level;
}

//! Duration multiplier of a job of fraction u at compute level L: max(1, u / L).
[[nodiscard]] GPUPLAN_HD inline double level_stretch(double u, double level) {
  return u > level ? u / level : 1.0;
}

//! Frees every shared GPU (at replica start).
GPUPLAN_HD inline void reset_shared(const ModelView& m, ReplicaState& s) {
  if (!sharing_on(m)) return;
  for (uint32_t i = 0; i < s.share.gpu_used.size; ++i) s.share.gpu_used[i] = 0;
  for (uint32_t p = 0; p < m.pools.size; ++p) {
    s.share.pool_busy_units[p] = 0;
    s.share.pool_compute[p] = s.share.pool_compute_gpu_s[p] = 0;
    if (m.share.pools[p].kind == ShareKind::fractional) frac_reset_pool(m, s, p);
  }
  s.share.busy_units = 0;
  s.share.jobs_waited_for_room = 0;
}

//! Adds (`on`) or removes busy shared compute of pool p [SHARE_UNITS].
GPUPLAN_HD inline void note_shared_busy(ReplicaState& s, uint32_t p, uint32_t units, bool on) {
  if (on) {
    s.share.pool_busy_units[p] += units;
    s.share.busy_units += units;
  } else {
    s.share.pool_busy_units[p] -= units;
    s.share.busy_units -= units;
  }
}

//! Finds a GPU for the queued shared job in `slot` in the pools of `pool_mask` it may use, in pool
//! order, nodes and GPUs in index order: MIG, the first free instance of its profile; time-sliced,
//! the GPU with the fewest jobs below its replicas (the fastest), ties to the lowest; fractional,
//! the pool's packing rule over its free-milli lists (frac_pick, no scan). Writes the node to
//! nodes[0] and remembers GPU and entry; returns 1, or 0 when nothing is free (a fractional job
//! then counts once in jobs_waited_for_room; its job_gpu is NONE while it waits).
[[nodiscard]] GPUPLAN_HD inline uint32_t shared_place(const ModelView& m, ReplicaState& s,
                                                      uint32_t slot, uint64_t pool_mask,
                                                      uint32_t* nodes) {
  const uint32_t c = s.jobs[slot].class_idx;
  uint32_t best = NONE, best_entry = 0, best_load = NONE;
  for (uint32_t p = 0; p < m.pools.size && best_load != 0; ++p) {
    const uint32_t allowed = m.share.class_entries[c * m.pools.size + p];
    if (allowed == 0 || !((pool_mask >> p) & 1)) continue;
    const SharedPoolSpec& sp = m.share.pools[p];
    if (sp.kind == ShareKind::fractional) {
      best = frac_pick(m, s, p, m.share.class_milli[c], m.share.class_mem_mib[c]);
      if (best != NONE) break;
      continue;
    }
    const PoolSpec& pool = m.pools[p];
    for (uint32_t n = pool.first_node; n < pool_slots_end(m, s, p) && best_load != 0; ++n) {
      for (uint32_t g = 0; g < pool.gpus_per_node && best_load != 0; ++g) {
        const uint32_t gpu = n * m.max_gpus_per_node + g;
        const uint32_t used = s.share.gpu_used[gpu];
        if (sp.kind == ShareKind::mig) {
          const uint32_t free = allowed & ~used;
          if (free == 0) continue;
          best = gpu;
          best_entry = lowest_bit(free);
          best_load = 0;  // any free instance of the profile is as good: stop here
        } else if (used < sp.slots && used < best_load) {
          best = gpu;
          best_load = used;  // an idle GPU (0 jobs) ends the search
        }
      }
    }
  }
  if (best == NONE) {
    // NOTE: a slot's job_gpu is a real GPU once its job started (sharing has no preemption), so
    // NONE marks this job as counted.
    if (m.share.class_kind[c] == ShareKind::fractional && s.share.job_gpu[slot] != NONE) {
      s.share.job_gpu[slot] = NONE;
      if (s.jobs[slot].counted) ++s.share.jobs_waited_for_room;
    }
    return 0;
  }
  nodes[0] = best / m.max_gpus_per_node;
  s.share.job_gpu[slot] = best;
  s.share.job_entry[slot] = best_entry;
  return 1;
}

//! Re-rates the jobs on time-sliced GPU `gpu` (except `skip`) at compute level `level` whose
//! speed changes: their work so far is kept and their finish events move. Jobs ending at this
//! instant keep theirs. False when the calendar overflowed.
[[nodiscard]] GPUPLAN_HD inline bool rerate_time_sliced(const ModelView& m, ReplicaState& s,
                                                        uint32_t gpu, uint32_t skip, uint32_t k,
                                                        double level) {
  bool ok = true;
  for (uint32_t i = 0; i < k; ++i) {
    const uint32_t o = s.share.gpu_jobs[gpu * m.share.max_slots + i];
    if (o == skip || !(s.jobs[o].finish > s.now)) continue;
    const JobNet& jn = s.net.jobs[o];
    const double stretch = jn.gpu_slowdown * jn.comm_slowdown *
                           level_stretch(m.share.class_fraction[s.jobs[o].class_idx], level);
    if (stretch == jn.stretch) continue;  // e.g. small jobs that still get all they use
    net_progress(m, s, o);
    ok = move_finish(m, s, o, stretch) && ok;
  }
  return ok;
}

//! Takes the GPU entry shared_place chose for the job in `slot`, just started (pool set, its
//! finish set by net_start): counts it busy and, time-sliced, rates it and its GPU's other jobs
//! for their new number. False when the calendar overflowed.
[[nodiscard]] GPUPLAN_HD inline bool shared_start(const ModelView& m, ReplicaState& s,
                                                  uint32_t slot) {
  Job& j = s.jobs[slot];
  const uint32_t gpu = s.share.job_gpu[slot];
  const SharedPoolSpec& sp = m.share.pools[j.pool];
  if (sp.kind == ShareKind::mig) {
    const uint32_t e = s.share.job_entry[slot];
    s.share.gpu_used[gpu] |= 1u << e;
    note_shared_busy(s, j.pool, m.share.entry_units[sp.entry0 + e], true);
    add_shared_compute(s, j.pool, m.share.class_compute[j.class_idx * m.pools.size + j.pool]);
    return true;
  }
  if (sp.kind == ShareKind::fractional) {
    const uint32_t milli = m.share.class_milli[j.class_idx];
    frac_move(m, s, j.pool, gpu, milli, m.share.class_mem_mib[j.class_idx], true);
    note_shared_busy(s, j.pool, milli * (SHARE_UNITS / MILLI_PER_GPU), true);
    add_shared_compute(s, j.pool, m.share.class_compute[j.class_idx * m.pools.size + j.pool]);
    return true;
  }
  const uint32_t k = ++s.share.gpu_used[gpu];
  s.share.gpu_jobs[gpu * m.share.max_slots + k - 1] = slot;
  s.share.job_entry[slot] = k - 1;
  if (k == 1) note_shared_busy(s, j.pool, SHARE_UNITS, true);
  const double demand = time_sliced_demand(m, s, gpu, k);
  add_shared_compute(s, j.pool,
                     time_sliced_compute(demand, k, sp.interference) -
                         time_sliced_compute(demand - m.share.class_fraction[j.class_idx], k - 1,
                                             sp.interference));
  JobNet& jn = s.net.jobs[slot];
  if (m.net.n_levels == 0) {  // net_start keeps no rate without a topology: start one here
    jn.gpu_slowdown = m.slowdown[j.class_idx * m.pools.size + j.pool];
    jn.comm_slowdown = 1;
    jn.work_left = j.work;
    jn.since = jn.started = s.now;
    jn.comm_integral = 0;
    jn.row = jn.span_level = jn.list_pos = NONE;
  }
  const double level = time_slice_level(m, s, gpu, k, sp.interference);
  jn.stretch = jn.gpu_slowdown * jn.comm_slowdown *
               level_stretch(m.share.class_fraction[j.class_idx], level);
  j.finish = s.now + j.work * jn.stretch;
  return rerate_time_sliced(m, s, gpu, slot, k, level);
}

//! Gives back the GPU entry of the shared job in `slot` that ends now (after its GPUs are
//! released): time-sliced, the GPU's remaining jobs speed up. False when the calendar overflowed.
[[nodiscard]] GPUPLAN_HD inline bool shared_release(const ModelView& m, ReplicaState& s,
                                                    uint32_t slot) {
  const Job& j = s.jobs[slot];
  const uint32_t gpu = s.share.job_gpu[slot];
  const SharedPoolSpec& sp = m.share.pools[j.pool];
  if (sp.kind == ShareKind::mig) {
    const uint32_t e = s.share.job_entry[slot];
    s.share.gpu_used[gpu] &= ~(1u << e);
    note_shared_busy(s, j.pool, m.share.entry_units[sp.entry0 + e], false);
    add_shared_compute(s, j.pool, -m.share.class_compute[j.class_idx * m.pools.size + j.pool]);
    return true;
  }
  if (sp.kind == ShareKind::fractional) {
    const uint32_t milli = m.share.class_milli[j.class_idx];
    frac_move(m, s, j.pool, gpu, milli, m.share.class_mem_mib[j.class_idx], false);
    note_shared_busy(s, j.pool, milli * (SHARE_UNITS / MILLI_PER_GPU), false);
    add_shared_compute(s, j.pool, -m.share.class_compute[j.class_idx * m.pools.size + j.pool]);
    return true;
  }
  uint32_t* jobs = &s.share.gpu_jobs[gpu * m.share.max_slots];
  const uint32_t k = --s.share.gpu_used[gpu];
  const uint32_t pos = s.share.job_entry[slot];
  jobs[pos] = jobs[k];  // the last job takes the leaver's place
  s.share.job_entry[jobs[pos]] = pos;
  if (k == 0) note_shared_busy(s, j.pool, SHARE_UNITS, false);
  const double demand = time_sliced_demand(m, s, gpu, k);
  add_shared_compute(s, j.pool,
                     time_sliced_compute(demand, k, sp.interference) -
                         time_sliced_compute(demand + m.share.class_fraction[j.class_idx], k + 1,
                                             sp.interference));
  if (k == 0) return true;
  return rerate_time_sliced(m, s, gpu, NONE, k, time_slice_level(m, s, gpu, k, sp.interference));
}

}  // namespace gpuplan
