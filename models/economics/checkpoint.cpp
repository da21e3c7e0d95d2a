#include "models/economics/checkpoint.h"

#include <cmath>

#include "models/economics/checks.h"

namespace gpuplan::economics {
namespace {

bool positive(double x) {
  return std::isfinite(x) && x > 0.0;
}

}  // namespace

std::optional<double> young_interval_s(double checkpoint_s, double mtbf_s) {
  if (!non_negative(checkpoint_s) || !positive(mtbf_s)) return std::nullopt;
  return std::sqrt(2.0 * checkpoint_s * mtbf_s);
}

std::optional<double> daly_interval_s(double checkpoint_s, double mtbf_s) {
  if (!non_negative(checkpoint_s) || !positive(mtbf_s)) return std::nullopt;
  if (checkpoint_s >= 2.0 * mtbf_s) return mtbf_s;
  const double r = checkpoint_s / (2.0 * mtbf_s);
  return std::sqrt(2.0 * checkpoint_s * mtbf_s) * (1.0 + std::sqrt(r) / 3.0 + r / 9.0) -
         checkpoint_s;
}

std::optional<double> first_order_waste(double checkpoint_s, double mtbf_s, double interval_s,
                                        double restart_s) {
  if (!non_negative(checkpoint_s) || !positive(mtbf_s) || !positive(interval_s) ||
      !non_negative(restart_s)) {
    return std::nullopt;
  }
  return checkpoint_s / interval_s + interval_s / (2.0 * mtbf_s) + restart_s / mtbf_s;
}

std::optional<double> expected_lost_time_per_interruption_s(double segment_s, double hazard_per_s) {
  if (!non_negative(segment_s) || !non_negative(hazard_per_s)) return std::nullopt;
  const double x = hazard_per_s * segment_s;
  // NOTE: for tiny λℓ the closed form cancels catastrophically; its Taylor series is
  // ℓ·(1/2 − x/12 + x³/720), accurate to 1e-12 relative for x < 1e-3.
  if (x < 1e-3) return segment_s * (0.5 - x / 12.0 + x * x * x / 720.0);
  return 1.0 / hazard_per_s - segment_s / std::expm1(x);
}

// Derivation (Bougeret, Casanova, Rabie, Robert, Vivien, "Checkpointing strategies for parallel
// jobs", SC'11, Prop. 1; also Hérault & Robert, "Fault-Tolerance Techniques for HPC", 2015, §1):
// a block of length x that restarts after each Exp(λ) interruption, paying a downtime D each
// time, takes E(x) = P(X ≥ x)·x + P(X < x)·(E[X | X < x] + D + E(x)). With
// P(X < x)·E[X | X < x] = 1/λ − e^{−λx}(x + 1/λ) this solves to E(x) = (e^{λx} − 1)(1/λ + D).
// A segment ℓ after an interruption first needs the recovery R, itself such a block, so
// E(ℓ) = (e^{λℓ} − 1)(1/λ + D + E_R) with E_R = (e^{λR} − 1)(1/λ + D), i.e.
// E(ℓ) = e^{λR}(1/λ + D)(e^{λℓ} − 1). Poisson interruptions are memoryless, so segments are
// independent and the job's expectation is the sum over its segments.
std::optional<double> expected_segment_time_s(double segment_s, double restart_s, double downtime_s,
                                              double hazard_per_s) {
  if (!non_negative(segment_s) || !non_negative(restart_s) || !non_negative(downtime_s) ||
      !non_negative(hazard_per_s)) {
    return std::nullopt;
  }
  if (hazard_per_s == 0.0) return segment_s;
  return std::exp(hazard_per_s * restart_s) * (1.0 / hazard_per_s + downtime_s) *
         std::expm1(hazard_per_s * segment_s);
}

std::optional<double> expected_completion_time_s(const CheckpointedJob& job, double interval_s,
                                                 double hazard_per_s) {
  if (!non_negative(job.work_s) || !non_negative(job.checkpoint_s) || !positive(interval_s)) {
    return std::nullopt;
  }
  if (job.work_s == 0.0) return 0.0;
  const double n_segments = std::ceil(job.work_s / interval_s);
  const double last_work_s = job.work_s - (n_segments - 1.0) * interval_s;
  const std::optional<double> full = expected_segment_time_s(
      interval_s + job.checkpoint_s, job.restart_s, job.downtime_s, hazard_per_s);
  const std::optional<double> last = expected_segment_time_s(
      last_work_s + job.checkpoint_s, job.restart_s, job.downtime_s, hazard_per_s);
  if (!full || !last) return std::nullopt;
  return (n_segments - 1.0) * *full + *last;
}

}  // namespace gpuplan::economics
