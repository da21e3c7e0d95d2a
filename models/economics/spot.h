#pragma once
//! Spot interruption models: independent per-node Poisson hazard (given directly or from the AWS
//! Spot Advisor band), provider notice periods, and a correlated reclaim-wave model with its fit
//! to add/remove traces and to sampled live-instance counts (provider spot documentation,
//! SkyPilot spot-traces, Bamboo traces; docs/spot-wave-fit.md).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace gpuplan::economics {

//! Cloud provider whose spot rules apply.
enum class SpotProvider : uint8_t { aws, gcp, azure };

//! Warning time before a spot node is reclaimed [s]: AWS 120, GCP 30, Azure 30.
[[nodiscard]] double preemption_notice_s(SpotProvider provider);

//! AWS Spot Instance Advisor "frequency of interruption" band (trailing month); the enumerator
//! order is the advisor's band index r = 0..4.
enum class SpotAdvisorBand : uint8_t {
  under_5_pct,    //!< < 5%
  from_5_to_10,   //!< 5–10%
  from_10_to_15,  //!< 10–15%
  from_15_to_20,  //!< 15–20%
  over_20_pct,    //!< > 20%
};

//! Band from the advisor's index r (spot-advisor-data.json), nullopt when r > 4.
[[nodiscard]] std::optional<SpotAdvisorBand> advisor_band_from_index(uint32_t r);

//! Representative share of instances interrupted per month for a band [0, 1]: the band's
//! midpoint (2.5%, 7.5%, 12.5%, 17.5%) and 25% for the open "> 20%" band.
[[nodiscard]] double advisor_band_monthly_fraction(SpotAdvisorBand band);

//! Per-node Poisson hazard [per node-hour] that interrupts a share p of nodes within one month
//! (730 h): λ = −ln(1 − p) / 730; nullopt when p is outside [0, 1) or not finite.
[[nodiscard]] std::optional<double> hazard_from_monthly_fraction(double fraction);

//! Per-node hazard [per node-hour] of an advisor band (midpoint converted as above).
[[nodiscard]] double advisor_band_hazard_per_node_hour(SpotAdvisorBand band);

//! Probability [0, 1] that one node is interrupted within `duration_h` hours at a per-node
//! hazard [per node-hour]; nullopt on a negative or non-finite input.
[[nodiscard]] std::optional<double> interruption_probability(double hazard_per_node_hour,
                                                             double duration_h);

//! Mean time to the first interruption among `n_nodes` independent nodes [h] = 1/(N·λ); nullopt
//! when the hazard is not positive or n_nodes is 0.
[[nodiscard]] std::optional<double> cluster_mtbf_h(double hazard_per_node_hour, uint32_t n_nodes);

//! Distribution of the share of live nodes a wave takes.
enum class WaveSizeKind : uint8_t {
  beta,       //!< Beta(fraction_alpha, fraction_beta)
  empirical,  //!< the observed fractions in fraction_samples, equally likely
};

//! Distribution of the delay until a reclaimed node's capacity can be bought again.
enum class ReturnDelayKind : uint8_t {
  exponential,  //!< mean return_delay_mean_s
  empirical,    //!< the observed delays in return_delay_samples_s, equally likely
};

//! Correlated reclaims: waves arrive as a Poisson process at wave_rate_per_hour; each wave takes
//! nodes_in_wave(f, live) nodes, f drawn from the wave-size distribution; each reclaimed node's
//! capacity returns after a delay drawn from the return-delay distribution.
struct ReclaimWaveModel {
  double wave_rate_per_hour = 0.0;  //!< [per hour] Λ
  WaveSizeKind size_kind = WaveSizeKind::beta;
  double fraction_alpha = 1.0;           //!< [-] Beta shape α
  double fraction_beta = 1.0;            //!< [-] Beta shape β
  std::vector<double> fraction_samples;  //!< [0, 1] for WaveSizeKind::empirical
  ReturnDelayKind return_kind = ReturnDelayKind::exponential;
  double return_delay_mean_s = 0.0;            //!< [s] for ReturnDelayKind::exponential
  std::vector<double> return_delay_samples_s;  //!< [s] for ReturnDelayKind::empirical
};

//! Nodes a wave of share `fraction` takes from `live_nodes`: round(f·live) clamped to
//! [1, live] (a wave is only seen when it takes a node); 0 when nothing is live.
[[nodiscard]] uint32_t nodes_in_wave(double fraction, uint32_t live_nodes);

//! Table of `n_points` (≥ 2) wave-size quantiles at p = i/(n_points − 1), for the engine to
//! invert a uniform draw by linear interpolation; nullopt on invalid shapes, an empty or
//! out-of-[0, 1] sample list, or n_points < 2.
[[nodiscard]] std::optional<std::vector<double>> wave_fraction_quantiles(
    const ReclaimWaveModel& model, uint32_t n_points);

//! Mean return delay [s] of the model's return-delay distribution; nullopt when it is empty or
//! negative.
[[nodiscard]] std::optional<double> mean_return_delay_s(const ReclaimWaveModel& model);

//! Kind of one spot trace event.
enum class SpotEventKind : uint8_t { add, remove };

//! One event of an add/remove spot trace (node names already mapped to indices).
struct SpotTraceEvent {
  double t_s = 0.0;  //!< [s] since trace start
  SpotEventKind kind = SpotEventKind::add;
  uint32_t node_idx = 0;
};

//! Reclaim-wave model fitted to a trace, with the statistics behind it.
struct ReclaimWaveFit {
  ReclaimWaveModel model;   //!< Beta wave sizes (moments), exponential return (MLE)
  double duration_h = 0.0;  //!< [h] first to last event
  double node_hours = 0.0;  //!< [node-h] integral of live nodes over the trace
  uint32_t n_adds = 0;
  uint32_t n_removals = 0;
  uint32_t n_waves = 0;  //!< distinct removal timestamps
  uint32_t max_live_nodes = 0;
  double removals_per_node_hour = 0.0;  //!< [per node-hour] pooled independent-node hazard
  double mean_nodes_per_wave = 0.0;
  double fraction_mean = 0.0;           //!< [-] mean share of live nodes per wave
  double fraction_sd = 0.0;             //!< [-] sample standard deviation of that share
  std::vector<double> wave_fractions;   //!< [-] one per wave, in time order
  uint32_t n_returns = 0;               //!< removals matched to a later add
  uint32_t n_returns_censored = 0;      //!< removals still unmatched at the trace end
  std::vector<double> return_delays_s;  //!< [s] matched delays, in removal order
  double return_delay_median_s = 0.0;   //!< [s] median of the matched delays
  double next_add_delay_mean_s = 0.0;   //!< [s] mean over waves of the wait to the next add
};

//! Fits a ReclaimWaveModel to a time-ordered add/remove trace: removals at one timestamp form a
//! wave (share = removed / live just before); Λ = waves / duration; Beta by the method of
//! moments; each add returns the oldest unmatched removal (FIFO), and the exponential mean is the
//! censored MLE (Σ matched + Σ censored) / matched. nullopt when times decrease or are not
//! finite, a node is added while live or removed while not live, there are fewer than two waves,
//! the wave shares have no spread, or no removal is ever matched.
[[nodiscard]] std::optional<ReclaimWaveFit> fit_reclaim_waves(
    std::span<const SpotTraceEvent> events);

//! One sample of a live-instance count series.
struct LiveCountSample {
  double t_s = 0.0;  //!< [s] since series start
  uint32_t live = 0;
};

//! Preemption statistics implied by a sampled live-instance count.
struct LiveCountPreemption {
  double duration_h = 0.0;      //!< [h] first to last sample
  double instance_hours = 0.0;  //!< [instance-h] count held constant until the next sample
  uint32_t n_drops = 0;         //!< sample-to-sample decreases
  uint32_t nodes_lost = 0;      //!< sum of the decreases
  uint32_t nodes_gained = 0;    //!< sum of the increases
  uint32_t largest_drop = 0;
  double max_gap_s = 0.0;                      //!< [s] longest interval between samples
  double preemptions_per_instance_hour = 0.0;  //!< nodes_lost / instance_hours (a lower bound)
};

//! Preemption rate implied by a live-count series; a lower bound, since a loss and a gain
//! between two samples cancel. nullopt with fewer than two samples, decreasing or non-finite
//! times, or zero instance-hours.
[[nodiscard]] std::optional<LiveCountPreemption> preemption_rate_from_live_counts(
    std::span<const LiveCountSample> samples);

}  // namespace gpuplan::economics
