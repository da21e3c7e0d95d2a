#pragma once
//! Compute used, beside the GPUs allocated (docs/sharing.md, "Allocation and compute used"): a
//! job of a class with gpu_fraction u uses u of a GPU's compute when it runs at full speed. On a
//! MIG instance of speed factor f it runs at min(1, f / u) of that speed, so it uses min(u, f); a
//! time-sliced GPU with k jobs delivers min(sum of their u, its capacity: 1 alone, 1 / (1 +
//! interference) shared); a milli-GPU job uses its guaranteed milli; a whole-GPU job u per GPU it
//! holds. Kept per pool, in GPUs, and integrated over the statistics window only when some pool
//! shares its GPUs (SharedView::n_shared_pools > 0), where allocation and use part ways.
#include "sim/core/state.h"

namespace gpuplan {

//! Adds (`on`) or removes the compute of the job in `slot` that holds whole GPUs of its pool; a
//! shared job holds none (Job::gpus = 0), so this adds nothing for it.
GPUPLAN_HD inline void note_whole_compute(const ModelView& m, ReplicaState& s, uint32_t slot,
                                          bool on) {
  if (m.share.n_shared_pools == 0) return;
  const Job& j = s.jobs[slot];
  if (j.gpus == 0) return;
  const double c = j.gpus * m.share.class_compute[j.class_idx * m.pools.size + j.pool];
  s.share.pool_compute[j.pool] += on ? c : -c;
  // NOTE: an idle pool uses exactly nothing (no rounding residue of the sums above survives).
  if (s.pool_busy_gpus[j.pool] == 0) s.share.pool_compute[j.pool] = 0;
}

//! [GPUs] Compute a time-sliced GPU with k jobs whose fractions sum to `demand` delivers.
[[nodiscard]] GPUPLAN_HD inline double time_sliced_compute(double demand, uint32_t k,
                                                           double interference) {
  if (k == 0) return 0;
  const double capacity = k == 1 ? 1.0 : 1.0 / (1.0 + interference);
  return demand < capacity ? demand : capacity;
}

//! [GPUs] Sum of the fractions u of the first k jobs on time-sliced GPU `gpu`.
[[nodiscard]] GPUPLAN_HD inline double time_sliced_demand(const ModelView& m, const ReplicaState& s,
                                                          uint32_t gpu, uint32_t k) {
  const uint32_t* jobs = &s.share.gpu_jobs[gpu * m.share.max_slots];
  double demand = 0;
  for (uint32_t i = 0; i < k; ++i) demand += m.share.class_fraction[s.jobs[jobs[i]].class_idx];
  return demand;
}

//! Moves pool p's compute in use by `delta` [GPUs]; exactly 0 once nothing of it is busy.
GPUPLAN_HD inline void add_shared_compute(ReplicaState& s, uint32_t p, double delta) {
  s.share.pool_compute[p] += delta;
  if (s.share.pool_busy_units[p] == 0) s.share.pool_compute[p] = 0;
}

//! Integrates every pool's compute in use over `dt` [s] of the statistics window.
GPUPLAN_HD inline void advance_compute(const ModelView& m, ReplicaState& s, double dt) {
  if (!(dt > 0)) return;
  for (uint32_t p = 0; p < m.pools.size; ++p)
    s.share.pool_compute_gpu_s[p] += s.share.pool_compute[p] * dt;
}

}  // namespace gpuplan
