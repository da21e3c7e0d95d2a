#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "models/economics/billing.h"
#include "models/economics/checkpoint.h"

using namespace gpuplan::economics;

namespace {

constexpr double MINUTE_S = 60.0;

// τ in [lo_s, hi_s] minimising the exact expected completion time per unit of work, scanned in
// steps of step_s; work = 1000·τ so every segment is full and the ratio is the W → ∞ slowdown.
double scan_optimal_interval_s(double checkpoint_s, double mtbf_s, double lo_s, double hi_s,
                               double step_s) {
  double best_tau_s = lo_s;
  double best_ratio = std::numeric_limits<double>::infinity();
  for (double tau_s = lo_s; tau_s <= hi_s; tau_s += step_s) {
    const CheckpointedJob job{1000.0 * tau_s, checkpoint_s, 0.0, 0.0};
    const double ratio = *expected_completion_time_s(job, tau_s, 1.0 / mtbf_s) / job.work_s;
    if (ratio < best_ratio) {
      best_ratio = ratio;
      best_tau_s = tau_s;
    }
  }
  return best_tau_s;
}

// Runs `job` once with checkpoints every interval_s under Exp(hazard) interruptions: each
// segment (work + checkpoint) must run uninterrupted; after an interruption the job waits the
// downtime, then re-reads the checkpoint (which can itself be interrupted) and retries.
double simulate_completion_s(const CheckpointedJob& job, double interval_s, double hazard_per_s,
                             std::mt19937_64& rng) {
  std::exponential_distribution<double> next_interruption(hazard_per_s);
  double t_s = 0.0;
  for (double done_s = 0.0; done_s < job.work_s; done_s += interval_s) {
    const double segment_s = std::min(interval_s, job.work_s - done_s) + job.checkpoint_s;
    for (bool recovering = false;;) {
      const double need_s = recovering ? job.restart_s : segment_s;
      const double x_s = next_interruption(rng);
      if (x_s >= need_s) {
        t_s += need_s;
        if (!recovering) break;
        recovering = false;
      } else {
        t_s += x_s + job.downtime_s;
        recovering = true;
      }
    }
  }
  return t_s;
}

}  // namespace

TEST_CASE("economics::checkpoint" * doctest::test_suite("economics")) {
  SUBCASE("Daly's interval matches DATA.md 3.3: M = 24 h, delta = 5 min gives about 117 min") {
    const double tau_s = *daly_interval_s(5 * MINUTE_S, 24 * SECONDS_PER_HOUR);
    // √(2·5·1440)·(1 + ⅓·√(5/2880) + ⅑·5/2880) − 5 = 116.69 min (Daly 2006, Fig. 3: ≈ 117).
    CHECK(tau_s / MINUTE_S == doctest::Approx(116.69).epsilon(1e-3));
    // Young's first-order interval is √(2·5·1440) = 120 min.
    CHECK(*young_interval_s(5 * MINUTE_S, 24 * SECONDS_PER_HOUR) / MINUTE_S ==
          doctest::Approx(120.0));
  }

  SUBCASE("Young's interval matches the spot example: M = 3.2 h, C = 5 min gives about 44 min") {
    const double mtbf_s = SECONDS_PER_HOUR / 0.313;
    // √(2·5·191.7) = 43.78 min (DATA.md: ≈ 44).
    CHECK(*young_interval_s(5 * MINUTE_S, mtbf_s) / MINUTE_S ==
          doctest::Approx(43.78).epsilon(1e-3));
  }

  SUBCASE("Daly's interval is the MTBF when the checkpoint takes at least twice the MTBF") {
    // δ = 3 h ≥ 2M = 2 h, so τ = M = 1 h.
    CHECK(*daly_interval_s(3 * SECONDS_PER_HOUR, SECONDS_PER_HOUR) ==
          doctest::Approx(SECONDS_PER_HOUR));
    CHECK_FALSE(daly_interval_s(-1.0, SECONDS_PER_HOUR).has_value());
    CHECK_FALSE(young_interval_s(60.0, 0.0).has_value());
  }

  SUBCASE("first-order waste is checkpoint share plus half an interval lost per MTBF") {
    // 300/7200 + 7200/172800 = 0.0833 (at Young's τ both terms are equal).
    CHECK(*first_order_waste(300.0, 86400.0, 7200.0) == doctest::Approx(1.0 / 12.0));
    // A 600 s restart adds R/M = 600/86400 = 0.00694.
    CHECK(*first_order_waste(300.0, 86400.0, 7200.0, 600.0) ==
          doctest::Approx(1.0 / 12.0 + 600.0 / 86400.0));
    CHECK_FALSE(first_order_waste(300.0, 86400.0, 0.0).has_value());
  }

  SUBCASE("the exact lost time per interruption is the truncated-exponential mean") {
    // λℓ = 1: ℓ·(1 − 1/(e − 1)) = 0.418023·ℓ.
    CHECK(*expected_lost_time_per_interruption_s(3600.0, 1.0 / 3600.0) ==
          doctest::Approx(0.418023 * 3600.0).epsilon(1e-5));
    // Rare interruptions land uniformly in the segment: ℓ/2.
    CHECK(*expected_lost_time_per_interruption_s(3600.0, 1e-12) == doctest::Approx(1800.0));
    CHECK(*expected_lost_time_per_interruption_s(3600.0, 0.0) == doctest::Approx(1800.0));
    // Frequent interruptions strike early: close to the MTBF 1/λ = 100 s when ℓ ≫ 1/λ.
    CHECK(*expected_lost_time_per_interruption_s(36000.0, 0.01) == doctest::Approx(100.0));

    std::mt19937_64 rng(7);
    std::exponential_distribution<double> x(1.0 / 3600.0);
    double sum_s = 0.0;
    int n = 0;
    while (n < 200000) {
      const double xi = x(rng);
      if (xi < 3600.0) {
        sum_s += xi;
        ++n;
      }
    }
    // Monte Carlo of E[X | X < ℓ] agrees within 0.5% (standard error ≈ 0.13%).
    CHECK(sum_s / n == doctest::Approx(*expected_lost_time_per_interruption_s(3600.0, 1.0 / 3600.0))
                           .epsilon(5e-3));
  }

  SUBCASE("without interruptions a job takes its work plus one checkpoint per segment") {
    const CheckpointedJob job{36000.0 + 900.0, 120.0, 60.0, 300.0};
    // ⌈36900/1800⌉ = 21 segments: 36,900 s + 21 × 120 s = 39,420 s.
    CHECK(*expected_completion_time_s(job, 1800.0, 0.0) == doctest::Approx(39420.0));
    CHECK(*expected_completion_time_s({0.0, 120.0, 0.0, 0.0}, 1800.0, 1e-3) == 0.0);
    CHECK_FALSE(expected_completion_time_s(job, 0.0, 1e-3).has_value());
  }

  SUBCASE("the exact expected completion time agrees with a Monte Carlo of the same policy") {
    const double hazard_per_s = 1.0 / SECONDS_PER_HOUR;
    // 20 full segments and one of 900 s, so both branches of the formula are exercised.
    const CheckpointedJob job{36000.0 + 900.0, 120.0, 60.0, 300.0};
    const double interval_s = 1800.0;
    std::mt19937_64 rng(20240601);
    const int n_runs = 20000;
    double sum = 0.0;
    double sum_sq = 0.0;
    for (int i = 0; i < n_runs; ++i) {
      const double t = simulate_completion_s(job, interval_s, hazard_per_s, rng);
      sum += t;
      sum_sq += t * t;
    }
    const double mean = sum / n_runs;
    const double se = std::sqrt((sum_sq / n_runs - mean * mean) / n_runs);
    const double exact = *expected_completion_time_s(job, interval_s, hazard_per_s);
    // Per full segment e^{λR}(1/λ + D)(e^{λ(τ+C)} − 1) = 1.0168 × 3900 × 0.7046 ≈ 2,794 s; the
    // total is 20 × 2,794 + 1,299 = 57,182 s. The Monte Carlo mean lies within 4 standard errors.
    CHECK(exact == doctest::Approx(57181.7).epsilon(1e-4));
    CHECK(std::abs(mean - exact) < 4.0 * se);
  }

  SUBCASE("Daly's interval sits at the minimum of the exact expected completion time") {
    const double c_s = 5 * MINUTE_S;
    // M = 24 h: the scanned optimum is 116.7 min; Daly within 0.5%, Young (120 min) within 3%.
    const double day_opt_s =
        scan_optimal_interval_s(c_s, 24 * SECONDS_PER_HOUR, 60 * MINUTE_S, 200 * MINUTE_S, 3.0);
    CHECK(day_opt_s == doctest::Approx(*daly_interval_s(c_s, 24 * SECONDS_PER_HOUR)).epsilon(5e-3));
    CHECK(day_opt_s ==
          doctest::Approx(*young_interval_s(c_s, 24 * SECONDS_PER_HOUR)).epsilon(3e-2));

    // Spot, M = 3.2 h: the scanned optimum is 40.5 min; Daly within 0.5%, Young (43.8 min)
    // within 9%: first order overshoots once C/M is no longer small.
    const double mtbf_s = SECONDS_PER_HOUR / 0.313;
    const double spot_opt_s =
        scan_optimal_interval_s(c_s, mtbf_s, 20 * MINUTE_S, 80 * MINUTE_S, 1.0);
    CHECK(spot_opt_s == doctest::Approx(*daly_interval_s(c_s, mtbf_s)).epsilon(5e-3));
    CHECK(spot_opt_s == doctest::Approx(*young_interval_s(c_s, mtbf_s)).epsilon(9e-2));

    // The optimum is flat: Young's τ costs under 0.1% more time than the scanned optimum.
    const auto ratio = [&](double tau_s) {
      const CheckpointedJob job{1000.0 * tau_s, c_s, 0.0, 0.0};
      return *expected_completion_time_s(job, tau_s, 1.0 / mtbf_s) / job.work_s;
    };
    CHECK(ratio(*young_interval_s(c_s, mtbf_s)) / ratio(spot_opt_s) < 1.001);
  }
}
