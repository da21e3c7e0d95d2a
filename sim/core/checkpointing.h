#pragma once
//! A job run's timeline under periodic checkpoints: [restart R] then cycles of τ seconds of
//! compute followed by a checkpoint write of C seconds; no checkpoint after the last segment.
//! Daly's interval (the same formula as models/economics/checkpoint.h) for "auto".
#include <cmath>

#include "sim/core/class_run_spec.h"
#include "sim/core/pool_supply_spec.h"

namespace gpuplan {

//! Where the time of a run went, from its start to some instant [s].
struct RunSplit {
  double restart_s;     //!< reloading the checkpoint
  double checkpoint_s;  //!< writing checkpoints (complete or not)
  double compute_s;     //!< computing
  double saved_s;       //!< compute covered by a completed checkpoint
};

//! Splits `elapsed_s` of a run with reload `restart_s`, interval `interval_s` (NEVER = no
//! checkpoints) and write time `checkpoint_s`.
[[nodiscard]] GPUPLAN_HD inline RunSplit split_run(double elapsed_s, double restart_s,
                                                   double interval_s, double checkpoint_s) {
  RunSplit r{};
  r.restart_s = elapsed_s < restart_s ? elapsed_s : restart_s;
  const double e = elapsed_s - r.restart_s;
  if (!(interval_s < NEVER)) {
    r.compute_s = e;
    return r;
  }
  const double cycle = interval_s + checkpoint_s;
  const double k = floor(e / cycle);
  const double rest = e - k * cycle;
  r.compute_s = k * interval_s + (rest < interval_s ? rest : interval_s);
  r.checkpoint_s = k * checkpoint_s + (rest > interval_s ? rest - interval_s : 0.0);
  r.saved_s = k * interval_s;
  return r;
}

//! Wall time [s] of a run that must compute `compute_s` seconds: R + compute + C per full
//! interval that ends before the work does.
[[nodiscard]] GPUPLAN_HD inline double run_wall_s(double compute_s, double restart_s,
                                                  double interval_s, double checkpoint_s) {
  double writes = 0;
  if (interval_s < NEVER && compute_s > 0) {
    // NOTE: 1e-9 relative slack: work that is an exact multiple of τ needs no final write.
    writes = ceil(compute_s / interval_s * (1.0 - 1e-12) - 1e-9) - 1.0;
    if (writes < 0) writes = 0;
  }
  return restart_s + compute_s + writes * checkpoint_s;
}

//! Daly's higher-order optimal interval [s] for write time C and mean time to interrupt M:
//! √(2CM)·[1 + ⅓√(C/2M) + ⅑(C/2M)] − C for C < 2M, else M (Daly, FGCS 22(3), 2006).
[[nodiscard]] GPUPLAN_HD inline double daly_interval(double checkpoint_s, double mtbf_s) {
  if (checkpoint_s >= 2.0 * mtbf_s) return mtbf_s;
  const double r = checkpoint_s / (2.0 * mtbf_s);
  return sqrt(2.0 * checkpoint_s * mtbf_s) * (1.0 + sqrt(r) / 3.0 + r / 9.0) - checkpoint_s;
}

//! Rate [1/s] at which a gang of `n_nodes` nodes of pool `e` is interrupted: n·λ for
//! independent reclaims plus Λ·(1 − (1 − f̄)^n) for waves that take at least one of its nodes.
[[nodiscard]] GPUPLAN_HD inline double gang_interrupt_rate(const PoolSupplySpec& e,
                                                           uint32_t n_nodes) {
  double rate = e.hazard_per_node_s * n_nodes;
  if (e.wave_q_n > 0 && e.wave_mean_fraction < 1.0)
    rate += e.wave_rate_per_s * (1.0 - exp(n_nodes * log(1.0 - e.wave_mean_fraction)));
  else if (e.wave_q_n > 0)
    rate += e.wave_rate_per_s;
  return rate;
}

//! Checkpoint interval [s] of class `c` for a gang of `n_nodes` on pool `e` that hardware
//! failures also interrupt at `failure_rate_per_s` (sim/core/failure_spec.h); NEVER = none.
//! "auto" takes Daly's interval at the combined rate of spot reclaims and failures.
[[nodiscard]] GPUPLAN_HD inline double checkpoint_interval(const ClassRunSpec& c,
                                                           const PoolSupplySpec& e,
                                                           uint32_t n_nodes,
                                                           double failure_rate_per_s) {
  if (!c.checkpoints) return NEVER;
  if (!c.auto_interval) return c.interval_s;
  const double rate = gang_interrupt_rate(e, n_nodes) + failure_rate_per_s;
  if (!(rate > 0)) return NEVER;  // nothing interrupts this pool: checkpoints only cost time
  return daly_interval(c.checkpoint_s, 1.0 / rate);
}

}  // namespace gpuplan
