#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "models/economics/spot.h"
#include "tests/data_files.h"

using namespace gpuplan::economics;

namespace {

// Bamboo p3 trace (uclasystem/bamboo traces/p3-trace.csv): "time_ms,add|remove,node_id", no
// header; node names become indices in order of first appearance.
std::vector<SpotTraceEvent> read_bamboo_trace(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<SpotTraceEvent> events;
  std::map<std::string, uint32_t> node_idx;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream row(line);
    std::string t_ms, kind, node;
    REQUIRE(std::getline(row, t_ms, ','));
    REQUIRE(std::getline(row, kind, ','));
    REQUIRE(std::getline(row, node));
    const auto [it, _] = node_idx.try_emplace(node, static_cast<uint32_t>(node_idx.size()));
    events.push_back({std::stod(t_ms) / 1000.0,
                      kind == "add" ? SpotEventKind::add : SpotEventKind::remove, it->second});
  }
  return events;
}

// days_from_civil (H. Hinnant): days since 1970-01-01 of a proleptic Gregorian date.
long days_from_civil(long y, unsigned m, unsigned d) {
  y -= m <= 2;
  const long era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<long>(doe) - 719468;
}

// Bamboo GCP series (traces/gcloud/a100x1-east1b.txt): "YYYY-MM-DD, HH:MM:SS, live", no header.
std::vector<LiveCountSample> read_live_counts(const std::string& path) {
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot open " << path);
  std::vector<LiveCountSample> samples;
  std::string line;
  double t0_s = 0.0;
  while (std::getline(in, line)) {
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    unsigned live = 0;
    REQUIRE(std::sscanf(line.c_str(), "%d-%d-%d, %d:%d:%d, %u", &y, &mo, &d, &h, &mi, &s, &live) ==
            7);
    const double t_s = days_from_civil(y, mo, d) * 86400.0 + h * 3600.0 + mi * 60.0 + s;
    if (samples.empty()) t0_s = t_s;
    samples.push_back({t_s - t0_s, live});
  }
  return samples;
}

}  // namespace

TEST_CASE("economics::spot" * doctest::test_suite("economics")) {
  SUBCASE("notice periods follow the provider rules of DATA.md 3.1") {
    // AWS warns 2 minutes ahead; GCP and Azure 30 s.
    CHECK(preemption_notice_s(SpotProvider::aws) == 120.0);
    CHECK(preemption_notice_s(SpotProvider::gcp) == 30.0);
    CHECK(preemption_notice_s(SpotProvider::azure) == 30.0);
  }

  SUBCASE("an advisor band becomes a hazard that interrupts its midpoint share per month") {
    // "<5%" → 2.5%/month → −ln(0.975)/730 h = 3.468e-5 per node-hour.
    CHECK(advisor_band_hazard_per_node_hour(SpotAdvisorBand::under_5_pct) ==
          doctest::Approx(3.468e-5).epsilon(1e-3));
    // ">20%" → 25%/month → −ln(0.75)/730 h = 3.941e-4 per node-hour.
    CHECK(advisor_band_hazard_per_node_hour(SpotAdvisorBand::over_20_pct) ==
          doctest::Approx(3.941e-4).epsilon(1e-3));
    // Round trip: over 730 h the band's hazard interrupts exactly its share, 12.5%.
    const double h = advisor_band_hazard_per_node_hour(SpotAdvisorBand::from_10_to_15);
    CHECK(*interruption_probability(h, 730.0) == doctest::Approx(0.125));
    // The advisor's index r = 3 is the 15–20% band.
    CHECK(*advisor_band_from_index(3) == SpotAdvisorBand::from_15_to_20);
    CHECK_FALSE(advisor_band_from_index(5).has_value());
    CHECK_FALSE(hazard_from_monthly_fraction(1.0).has_value());
  }

  SUBCASE("cluster MTBF shrinks with the node count") {
    // DATA.md 3.3: 0.61 per node-hour × 32 nodes → 1/19.52 h ≈ 3.07 min.
    CHECK(*cluster_mtbf_h(0.61, 32) * 60.0 == doctest::Approx(3.074).epsilon(1e-3));
    CHECK_FALSE(cluster_mtbf_h(0.61, 0).has_value());
  }

  SUBCASE("a wave takes round(f x live) nodes, at least one and at most all") {
    // 8.7% of 24 live = 2.09 → 2 nodes.
    CHECK(nodes_in_wave(0.087, 24) == 2);
    // 1% of 10 rounds to 0, but a wave always takes one node.
    CHECK(nodes_in_wave(0.01, 10) == 1);
    CHECK(nodes_in_wave(1.5, 10) == 10);
    CHECK(nodes_in_wave(0.5, 0) == 0);
  }

  SUBCASE("wave-size quantile tables invert the Beta or the empirical distribution") {
    ReclaimWaveModel m;
    m.fraction_alpha = 2.0;
    m.fraction_beta = 2.0;
    const std::vector<double> q = *wave_fraction_quantiles(m, 5);
    // Beta(2, 2) is symmetric: median 0.5, ends 0 and 1.
    CHECK(q[0] == doctest::Approx(0.0));
    CHECK(q[2] == doctest::Approx(0.5));
    CHECK(q[4] == doctest::Approx(1.0));
    // Its CDF is 3x² − 2x³, which is 0.25 at x = 0.326352.
    CHECK(q[1] == doctest::Approx(0.326352).epsilon(1e-5));
    m.size_kind = WaveSizeKind::empirical;
    m.fraction_samples = {0.3, 0.1, 0.2};
    const std::vector<double> e = *wave_fraction_quantiles(m, 3);
    // Sorted samples 0.1, 0.2, 0.3 at p = 0, 0.5, 1.
    CHECK(e[0] == doctest::Approx(0.1));
    CHECK(e[1] == doctest::Approx(0.2));
    CHECK(e[2] == doctest::Approx(0.3));
    CHECK_FALSE(wave_fraction_quantiles(m, 1).has_value());
    m.size_kind = WaveSizeKind::beta;
    m.fraction_alpha = 0.0;
    CHECK_FALSE(wave_fraction_quantiles(m, 5).has_value());
  }

  SUBCASE(
      "the fit groups removals at one instant into a wave and returns capacity first in first "
      "out") {
    // Three nodes at 0 s; nodes 0 and 1 reclaimed together at 100 s; node 3 added at 400 s;
    // node 2 reclaimed at 700 s; node 4 added at 1000 s, where the trace ends.
    using K = SpotEventKind;
    const std::vector<SpotTraceEvent> ev{{0, K::add, 0},      {0, K::add, 1},      {0, K::add, 2},
                                         {100, K::remove, 0}, {100, K::remove, 1}, {400, K::add, 3},
                                         {700, K::remove, 2}, {1000, K::add, 4}};
    const ReclaimWaveFit f = *fit_reclaim_waves(ev);
    // Waves: 2 of 3 live at 100 s, 1 of 2 live at 700 s.
    CHECK(f.n_waves == 2);
    CHECK(f.n_removals == 3);
    CHECK(f.wave_fractions[0] == doctest::Approx(2.0 / 3.0));
    CHECK(f.wave_fractions[1] == doctest::Approx(0.5));
    // Λ = 2 waves / (1000 s = 0.2778 h) = 7.2 per hour.
    CHECK(f.model.wave_rate_per_hour == doctest::Approx(7.2));
    // Live node-seconds 3·100 + 1·300 + 2·300 + 1·300 = 1,500 = 0.41667 node-hours.
    CHECK(f.node_hours == doctest::Approx(1500.0 / 3600.0));
    // Shares mean 7/12, sample variance 2/144 → α + β = (7/12)(5/12)/(2/144) − 1 = 16.5,
    // α = 9.625, β = 6.875.
    CHECK(f.model.fraction_alpha == doctest::Approx(9.625));
    CHECK(f.model.fraction_beta == doctest::Approx(6.875));
    // FIFO: the add at 400 s returns a 100 s removal (300 s), the add at 1000 s the other
    // (900 s); the 700 s removal is censored after 300 s. MLE (300 + 900 + 300) / 2 = 750 s.
    CHECK(f.n_returns == 2);
    CHECK(f.n_returns_censored == 1);
    CHECK(f.return_delays_s[0] == doctest::Approx(300.0));
    CHECK(f.return_delays_s[1] == doctest::Approx(900.0));
    CHECK(f.return_delay_median_s == doctest::Approx(600.0));
    CHECK(f.model.return_delay_mean_s == doctest::Approx(750.0));
    // Each wave waits 300 s for the next add.
    CHECK(f.next_add_delay_mean_s == doctest::Approx(300.0));
  }

  SUBCASE("waves that all take the same share cannot fit a Beta and are rejected") {
    using K = SpotEventKind;
    // Both waves take every live node (share 1 twice): no spread.
    const std::vector<SpotTraceEvent> ev{{0, K::add, 0},
                                         {100, K::remove, 0},
                                         {400, K::add, 1},
                                         {700, K::remove, 1},
                                         {1000, K::add, 2}};
    CHECK_FALSE(fit_reclaim_waves(ev).has_value());
  }

  SUBCASE("malformed traces are rejected") {
    const std::vector<SpotTraceEvent> unknown{{0, SpotEventKind::remove, 0}};
    CHECK_FALSE(fit_reclaim_waves(unknown).has_value());
    const std::vector<SpotTraceEvent> backwards{{10, SpotEventKind::add, 0},
                                                {5, SpotEventKind::add, 1}};
    CHECK_FALSE(fit_reclaim_waves(backwards).has_value());
    const std::vector<SpotTraceEvent> twice{{0, SpotEventKind::add, 0}, {5, SpotEventKind::add, 0}};
    CHECK_FALSE(fit_reclaim_waves(twice).has_value());
  }
}

TEST_CASE("economics::spot_traces::bamboo_p3" * doctest::test_suite("economics")) {
  const auto path =
      gpuplan_test_data::data_file("bamboo_p3_spot_trace.csv", "economics::spot_traces::bamboo_p3");
  if (!path) return;
  SUBCASE("the Bamboo p3 trace fits Lambda = 6.95 waves/h of 8.7% of live nodes") {
    const std::vector<SpotTraceEvent> ev = read_bamboo_trace(*path);
    REQUIRE(ev.size() == 344);
    const ReclaimWaveFit f = *fit_reclaim_waves(ev);
    // shared/data/README.md: 167 removals at 79 distinct times, 11.37 h, up to 32 nodes.
    CHECK(f.n_removals == 167);
    CHECK(f.n_waves == 79);
    CHECK(f.n_adds == 177);
    CHECK(f.max_live_nodes == 32);
    CHECK(f.duration_h == doctest::Approx(11.3667).epsilon(1e-4));
    // 273.12 live node-hours (mean 24.0 live nodes) → 167 / 273.12 = 0.611 per node-hour,
    // DATA.md 3.2's 0.61.
    CHECK(f.node_hours == doctest::Approx(273.117).epsilon(1e-4));
    CHECK(f.removals_per_node_hour == doctest::Approx(0.6115).epsilon(1e-3));
    // Λ = 79 waves / 11.367 h = 6.950 per hour; 2.11 nodes per wave.
    CHECK(f.model.wave_rate_per_hour == doctest::Approx(6.9501).epsilon(1e-4));
    CHECK(f.mean_nodes_per_wave == doctest::Approx(2.1139).epsilon(1e-4));
    // Wave share of live nodes: mean 0.0871, sd 0.0500 → Beta(2.68, 28.09) by moments.
    CHECK(f.fraction_mean == doctest::Approx(0.08709).epsilon(1e-3));
    CHECK(f.fraction_sd == doctest::Approx(0.05003).epsilon(1e-3));
    CHECK(f.model.fraction_alpha == doctest::Approx(2.6795).epsilon(1e-3));
    CHECK(f.model.fraction_beta == doctest::Approx(28.086).epsilon(1e-3));
    // The Beta's mean reproduces the sample mean by construction: α/(α + β).
    CHECK(f.model.fraction_alpha / (f.model.fraction_alpha + f.model.fraction_beta) ==
          doctest::Approx(f.fraction_mean));
    // Returns: 145 removals matched to a later add (median 840 s, mean 1,287 s), 22 still open
    // at the end; censored exponential MLE (186,660 + 132,240) s / 145 = 2,199 s.
    CHECK(f.n_returns == 145);
    CHECK(f.n_returns_censored == 22);
    CHECK(f.return_delay_median_s == doctest::Approx(840.0));
    CHECK(f.model.return_delay_mean_s == doctest::Approx(2199.31).epsilon(1e-4));
    // Alternative reading: a wave waits 556 s on average for the next add of any node.
    CHECK(f.next_add_delay_mean_s == doctest::Approx(555.62).epsilon(1e-4));
    // The empirical model keeps the matched delays: mean 1,287.3 s.
    ReclaimWaveModel empirical = f.model;
    empirical.return_kind = ReturnDelayKind::empirical;
    CHECK(*mean_return_delay_s(empirical) == doctest::Approx(1287.31).epsilon(1e-4));
    // Consistency: Λ × nodes per wave / mean live nodes = the pooled per-node hazard.
    CHECK(f.model.wave_rate_per_hour * f.mean_nodes_per_wave / (f.node_hours / f.duration_h) ==
          doctest::Approx(f.removals_per_node_hour));
  }
}

TEST_CASE("economics::spot_traces::bamboo_gcp_a100" * doctest::test_suite("economics")) {
  const auto path = gpuplan_test_data::data_file("bamboo_gcp_a100_preemptible.txt",
                                                 "economics::spot_traces::bamboo_gcp_a100");
  if (!path) return;
  SUBCASE("the Bamboo GCP A100 live counts imply about 0.10 preemptions per instance-hour") {
    const std::vector<LiveCountSample> s = read_live_counts(*path);
    REQUIRE(s.size() == 268);
    const LiveCountPreemption r = *preemption_rate_from_live_counts(s);
    // 27.02 h, 1,548.2 instance-hours (mean 57.3 live), 154 instances lost in 36 drops.
    CHECK(r.duration_h == doctest::Approx(27.0183).epsilon(1e-4));
    CHECK(r.instance_hours == doctest::Approx(1548.23).epsilon(1e-4));
    CHECK(r.n_drops == 36);
    CHECK(r.nodes_lost == 154);
    CHECK(r.nodes_gained == 163);
    CHECK(r.largest_drop == 36);
    // 154 / 1,548.2 = 0.0995 per instance-hour (a lower bound: sampling hides churn).
    CHECK(r.preemptions_per_instance_hour == doctest::Approx(0.09947).epsilon(1e-3));
    // One gap of 5.0 h in the sampling.
    CHECK(r.max_gap_s == doctest::Approx(18060.0));
  }
}
