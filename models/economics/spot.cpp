#include "models/economics/spot.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

#include <boost/math/special_functions/beta.hpp>

#include "models/economics/billing.h"
#include "models/economics/checks.h"

namespace gpuplan::economics {
namespace {

// Type-7 (linear interpolation) quantile of sorted values.
double sorted_quantile(const std::vector<double>& sorted, double p) {
  const double pos = p * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(std::floor(pos));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return sorted_quantile(v, 0.5);
}

}  // namespace

double preemption_notice_s(SpotProvider provider) {
  switch (provider) {
    case SpotProvider::aws:
      return 120.0;
    case SpotProvider::gcp:
      return 30.0;
    case SpotProvider::azure:
      return 30.0;
  }
  return 0.0;
}

std::optional<SpotAdvisorBand> advisor_band_from_index(uint32_t r) {
  if (r > static_cast<uint32_t>(SpotAdvisorBand::over_20_pct)) return std::nullopt;
  return static_cast<SpotAdvisorBand>(r);
}

double advisor_band_monthly_fraction(SpotAdvisorBand band) {
  switch (band) {
    case SpotAdvisorBand::under_5_pct:
      return 0.025;
    case SpotAdvisorBand::from_5_to_10:
      return 0.075;
    case SpotAdvisorBand::from_10_to_15:
      return 0.125;
    case SpotAdvisorBand::from_15_to_20:
      return 0.175;
    // NOTE: the band is open-ended; 25% sits as far above its edge as the midpoints sit above
    // theirs, and sweeps can pass a measured hazard instead.
    case SpotAdvisorBand::over_20_pct:
      return 0.25;
  }
  return 0.0;
}

std::optional<double> hazard_from_monthly_fraction(double fraction) {
  if (!std::isfinite(fraction) || fraction < 0.0 || fraction >= 1.0) return std::nullopt;
  return -std::log1p(-fraction) / HOURS_PER_MONTH;
}

double advisor_band_hazard_per_node_hour(SpotAdvisorBand band) {
  return -std::log1p(-advisor_band_monthly_fraction(band)) / HOURS_PER_MONTH;
}

std::optional<double> interruption_probability(double hazard_per_node_hour, double duration_h) {
  if (!non_negative(hazard_per_node_hour) || !non_negative(duration_h)) return std::nullopt;
  return -std::expm1(-hazard_per_node_hour * duration_h);
}

std::optional<double> cluster_mtbf_h(double hazard_per_node_hour, uint32_t n_nodes) {
  if (!std::isfinite(hazard_per_node_hour) || hazard_per_node_hour <= 0.0 || n_nodes == 0) {
    return std::nullopt;
  }
  return 1.0 / (hazard_per_node_hour * n_nodes);
}

uint32_t nodes_in_wave(double fraction, uint32_t live_nodes) {
  if (live_nodes == 0) return 0;
  const double f = std::isfinite(fraction) ? std::clamp(fraction, 0.0, 1.0) : 0.0;
  const auto n = static_cast<uint32_t>(std::lround(f * live_nodes));
  return std::clamp<uint32_t>(n, 1, live_nodes);
}

std::optional<std::vector<double>> wave_fraction_quantiles(const ReclaimWaveModel& model,
                                                           uint32_t n_points) {
  if (n_points < 2) return std::nullopt;
  std::vector<double> q(n_points);
  switch (model.size_kind) {
    case WaveSizeKind::beta: {
      const double a = model.fraction_alpha;
      const double b = model.fraction_beta;
      if (!std::isfinite(a) || !std::isfinite(b) || a <= 0.0 || b <= 0.0) return std::nullopt;
      using namespace boost::math::policies;
      using NoThrow = policy<domain_error<ignore_error>, overflow_error<ignore_error>,
                             evaluation_error<ignore_error>>;
      for (uint32_t i = 0; i < n_points; ++i) {
        const double p = static_cast<double>(i) / (n_points - 1);
        q[i] = boost::math::ibeta_inv(a, b, p, NoThrow());
        if (!std::isfinite(q[i])) return std::nullopt;
      }
      return q;
    }
    case WaveSizeKind::empirical: {
      std::vector<double> s = model.fraction_samples;
      if (s.empty()) return std::nullopt;
      for (double f : s) {
        if (!std::isfinite(f) || f < 0.0 || f > 1.0) return std::nullopt;
      }
      std::sort(s.begin(), s.end());
      for (uint32_t i = 0; i < n_points; ++i) {
        q[i] = sorted_quantile(s, static_cast<double>(i) / (n_points - 1));
      }
      return q;
    }
  }
  return std::nullopt;
}

std::optional<double> mean_return_delay_s(const ReclaimWaveModel& model) {
  switch (model.return_kind) {
    case ReturnDelayKind::exponential:
      if (!non_negative(model.return_delay_mean_s)) return std::nullopt;
      return model.return_delay_mean_s;
    case ReturnDelayKind::empirical: {
      const std::vector<double>& s = model.return_delay_samples_s;
      if (s.empty() || !std::all_of(s.begin(), s.end(), non_negative)) return std::nullopt;
      return std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
    }
  }
  return std::nullopt;
}

std::optional<ReclaimWaveFit> fit_reclaim_waves(std::span<const SpotTraceEvent> events) {
  if (events.empty()) return std::nullopt;
  uint32_t n_node_ids = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    if (!std::isfinite(events[i].t_s)) return std::nullopt;
    if (i > 0 && events[i].t_s < events[i - 1].t_s) return std::nullopt;
    n_node_ids = std::max(n_node_ids, events[i].node_idx + 1);
  }

  ReclaimWaveFit fit;
  std::vector<bool> is_live(n_node_ids, false);
  uint32_t live = 0;
  std::deque<double> unmatched_removal_t_s;  // FIFO: the oldest reclaim is replaced first
  std::vector<double> wave_t_s;
  std::vector<double> add_t_s;
  double node_seconds = 0.0;
  double prev_t_s = events.front().t_s;

  for (size_t begin = 0; begin < events.size();) {
    const double t = events[begin].t_s;
    size_t end = begin;
    while (end < events.size() && events[end].t_s == t) ++end;
    node_seconds += live * (t - prev_t_s);
    prev_t_s = t;
    // NOTE: removals at one instant act before adds, so the wave share uses the count of nodes
    // that were live when the wave struck, and a node may be re-added at the same instant.
    const uint32_t live_before = live;
    uint32_t removed = 0;
    for (size_t i = begin; i < end; ++i) {
      const SpotTraceEvent& e = events[i];
      if (e.kind != SpotEventKind::remove) continue;
      if (!is_live[e.node_idx]) return std::nullopt;
      is_live[e.node_idx] = false;
      --live;
      ++removed;
      unmatched_removal_t_s.push_back(t);
    }
    if (removed > 0) {
      fit.wave_fractions.push_back(static_cast<double>(removed) / live_before);
      wave_t_s.push_back(t);
      fit.n_removals += removed;
    }
    for (size_t i = begin; i < end; ++i) {
      const SpotTraceEvent& e = events[i];
      if (e.kind != SpotEventKind::add) continue;
      if (is_live[e.node_idx]) return std::nullopt;
      is_live[e.node_idx] = true;
      ++live;
      ++fit.n_adds;
      add_t_s.push_back(t);
      if (!unmatched_removal_t_s.empty()) {
        fit.return_delays_s.push_back(t - unmatched_removal_t_s.front());
        unmatched_removal_t_s.pop_front();
      }
    }
    fit.max_live_nodes = std::max(fit.max_live_nodes, live);
    begin = end;
  }

  fit.n_waves = static_cast<uint32_t>(fit.wave_fractions.size());
  fit.n_returns = static_cast<uint32_t>(fit.return_delays_s.size());
  fit.n_returns_censored = static_cast<uint32_t>(unmatched_removal_t_s.size());
  fit.duration_h = (events.back().t_s - events.front().t_s) / SECONDS_PER_HOUR;
  fit.node_hours = node_seconds / SECONDS_PER_HOUR;
  if (fit.n_waves < 2 || fit.n_returns == 0 || fit.duration_h <= 0.0 || fit.node_hours <= 0.0) {
    return std::nullopt;
  }

  const double n = fit.n_waves;
  fit.removals_per_node_hour = fit.n_removals / fit.node_hours;
  fit.mean_nodes_per_wave = fit.n_removals / n;
  const std::vector<double>& f = fit.wave_fractions;
  fit.fraction_mean = std::accumulate(f.begin(), f.end(), 0.0) / n;
  double ss = 0.0;
  for (double x : f) ss += (x - fit.fraction_mean) * (x - fit.fraction_mean);
  const double var = ss / (n - 1.0);
  fit.fraction_sd = std::sqrt(var);
  // Method of moments for Beta(α, β): α + β = m(1 − m)/v − 1, α = m(α + β).
  const double m = fit.fraction_mean;
  const double concentration = m * (1.0 - m) / var - 1.0;
  if (!(var > 0.0) || !(concentration > 0.0)) return std::nullopt;

  double censored_s = 0.0;
  for (double t : unmatched_removal_t_s) censored_s += events.back().t_s - t;
  const double matched_s =
      std::accumulate(fit.return_delays_s.begin(), fit.return_delays_s.end(), 0.0);
  fit.return_delay_median_s = median(fit.return_delays_s);

  double next_add_sum_s = 0.0;
  uint32_t n_next_add = 0;
  for (double t : wave_t_s) {
    const auto it = std::lower_bound(add_t_s.begin(), add_t_s.end(), t);
    if (it == add_t_s.end()) continue;
    next_add_sum_s += *it - t;
    ++n_next_add;
  }
  fit.next_add_delay_mean_s = next_add_sum_s / n_next_add;  // ≥ 1: some removal was matched

  ReclaimWaveModel& model = fit.model;
  model.wave_rate_per_hour = n / fit.duration_h;
  model.size_kind = WaveSizeKind::beta;
  model.fraction_alpha = m * concentration;
  model.fraction_beta = (1.0 - m) * concentration;
  model.fraction_samples = fit.wave_fractions;
  model.return_kind = ReturnDelayKind::exponential;
  model.return_delay_mean_s = (matched_s + censored_s) / fit.n_returns;
  model.return_delay_samples_s = fit.return_delays_s;
  return fit;
}

std::optional<LiveCountPreemption> preemption_rate_from_live_counts(
    std::span<const LiveCountSample> samples) {
  if (samples.size() < 2) return std::nullopt;
  LiveCountPreemption r;
  double instance_s = 0.0;
  for (size_t i = 1; i < samples.size(); ++i) {
    const LiveCountSample& a = samples[i - 1];
    const LiveCountSample& b = samples[i];
    if (!std::isfinite(a.t_s) || !std::isfinite(b.t_s) || b.t_s < a.t_s) return std::nullopt;
    instance_s += a.live * (b.t_s - a.t_s);
    r.max_gap_s = std::max(r.max_gap_s, b.t_s - a.t_s);
    if (b.live < a.live) {
      const uint32_t drop = a.live - b.live;
      ++r.n_drops;
      r.nodes_lost += drop;
      r.largest_drop = std::max(r.largest_drop, drop);
    } else {
      r.nodes_gained += b.live - a.live;
    }
  }
  r.duration_h = (samples.back().t_s - samples.front().t_s) / SECONDS_PER_HOUR;
  r.instance_hours = instance_s / SECONDS_PER_HOUR;
  if (r.instance_hours <= 0.0) return std::nullopt;
  r.preemptions_per_instance_hour = r.nodes_lost / r.instance_hours;
  return r;
}

}  // namespace gpuplan::economics
