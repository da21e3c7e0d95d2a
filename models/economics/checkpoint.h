#pragma once
//! Checkpoint/restart under Poisson interruptions: Young and Daly intervals, first-order waste,
//! and the exact expected lost work and completion time (Young, CACM 1974; Daly, FGCS 22(3), 2006).
#include <optional>

namespace gpuplan::economics {

//! Young's first-order optimal checkpoint interval [s], τ = √(2·C·M); nullopt when C < 0,
//! M ≤ 0 or either is not finite.
[[nodiscard]] std::optional<double> young_interval_s(double checkpoint_s, double mtbf_s);

//! Daly's higher-order optimal interval [s]: √(2CM)·[1 + ⅓√(C/2M) + ⅑(C/2M)] − C for C < 2M,
//! else M (Daly, FGCS 22(3), 2006); nullopt as for young_interval_s.
[[nodiscard]] std::optional<double> daly_interval_s(double checkpoint_s, double mtbf_s);

//! First-order expected waste [fraction of wall time] C/τ + τ/(2M) + R/M; nullopt when
//! τ ≤ 0, M ≤ 0, C or R < 0, or a value is not finite.
[[nodiscard]] std::optional<double> first_order_waste(double checkpoint_s, double mtbf_s,
                                                      double interval_s, double restart_s = 0.0);

//! Exact expected time lost to one interruption [s] in a segment of `segment_s` seconds (work
//! since the last checkpoint, plus the checkpoint write when it is included in the segment):
//! E[X | X < ℓ] = 1/λ − ℓ/(e^{λℓ} − 1) for X ~ Exp(λ); ℓ/2 when λ = 0. nullopt when
//! segment_s < 0, λ < 0 or a value is not finite.
[[nodiscard]] std::optional<double> expected_lost_time_per_interruption_s(double segment_s,
                                                                          double hazard_per_s);

//! A job protected by periodic checkpoints; all fields in seconds of wall time.
struct CheckpointedJob {
  double work_s = 0.0;        //!< [s] failure-free compute time
  double checkpoint_s = 0.0;  //!< [s] C: time to write one checkpoint
  double restart_s = 0.0;     //!< [s] R: time to read the checkpoint back (can be interrupted)
  double downtime_s = 0.0;    //!< [s] D: wait for a replacement after each interruption
                              //!< (no interruption can strike during it)
};

//! Exact expected wall time [s] to finish one segment of `segment_s` seconds that must run
//! uninterrupted, e^{λR}·(1/λ + D)·(e^{λℓ} − 1); exactly ℓ when λ = 0. nullopt on a negative
//! or non-finite input.
[[nodiscard]] std::optional<double> expected_segment_time_s(double segment_s, double restart_s,
                                                            double downtime_s, double hazard_per_s);

//! Exact expected completion time [s] of `job` checkpointed every `interval_s` seconds of work
//! under Poisson interruptions at `hazard_per_s`: the work is cut into ⌈W/τ⌉ segments (the last
//! one shorter when τ does not divide W), each followed by a checkpoint. nullopt when
//! interval_s ≤ 0 or another input is negative or not finite.
[[nodiscard]] std::optional<double> expected_completion_time_s(const CheckpointedJob& job,
                                                               double interval_s,
                                                               double hazard_per_s);

}  // namespace gpuplan::economics
