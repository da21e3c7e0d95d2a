//! result.json of a Monte Carlo study through study::aggregate and the one builder: the summary
//! shape of the result contract, bands, the rule for replicas that saturated, economics and
//! uplink loads against each replication run alone.
#include <doctest/doctest.h>

#include <string>

#include "models/load/load.h"
#include "reports/format.h"
#include "reports/result_json.h"
#include "sim/mc_metrics.h"
#include "study/aggregate.h"
#include "sim/single_run.h"
#include "study/run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;
using nlohmann::json;

namespace {

struct Study {
  CompiledScenario cs;
  McStudy st;
  McSummary sum;
  json result;
};

Study run_study(const Scenario& sc, uint32_t n) {
  Study s{compile(sc), {}, {}, {}};
  McOptions o;
  o.replications = n;
  s.st = run_monte_carlo(s.cs.view(), o);
  s.sum = summarize_study(s.cs.view(), s.st, s.cs.pool_names, s.cs.class_names);
  study::StudyInfo info;
  info.monte_carlo = true;
  info.replications_requested = n;
  s.result = result_json(sc, s.cs, study::aggregate(sc, s.cs, s.st, info));
  return s;
}

}  // namespace

TEST_CASE("study::result::monte_carlo") {
  Scenario sc = test::one_pool(4, 1, 2100, 100);
  sc.workload.push_back(test::mm_class(3.0, 1.0));
  sc.limits.time_bins = 12;
  const Study s = run_study(sc, 10);
  const json& summary = s.result["summary"];

  SUBCASE("every headline path has mean, CI and spread in the contract's keys") {
    for (const char* path : {"metrics.wait_s.mean", "metrics.wait_s.p90", "metrics.jct_s.mean",
                             "metrics.gpu_utilization", "cost_usd.total", "metrics.jobs_submitted",
                             "metrics.saturated", "cost_usd.per_gpu_hour"}) {
      CAPTURE(path);
      REQUIRE(summary.contains(path));
      for (const char* key : {"mean", "ci95_low", "ci95_high", "p05", "p50", "p95"})
        CHECK(summary[path][key].is_number());
      CHECK(summary[path]["ci95_low"].get<double>() <= summary[path]["mean"].get<double>());
      CHECK(summary[path]["mean"].get<double>() <= summary[path]["ci95_high"].get<double>());
    }
  }

  SUBCASE("the headline indices point at the headline paths") {
    const std::vector<std::string> paths = metric_paths({{"main"}, {"jobs"}});
    CHECK(paths[HeadlineIndex::WAIT_MEAN] == "metrics.wait_s.mean");
    CHECK(paths[HeadlineIndex::JCT_MEAN] == "metrics.jct_s.mean");
    CHECK(paths[HeadlineIndex::GPU_UTILIZATION] == "metrics.gpu_utilization");
    CHECK(paths[HeadlineIndex::SATURATED] == "metrics.saturated");
    CHECK(paths[HeadlineIndex::COST_TOTAL] == "cost_usd.total");
    // one value per path
    CHECK(s.sum.rows[0].size() == paths.size());
  }

  SUBCASE("per-pool and per-class paths are summarised too") {
    for (const char* path : {"cost_usd.per_pool.main", "per_pool.main.gpu_utilization",
                             "per_class.jobs.wait_s.mean", "per_class.jobs.jct_s.p99"})
      CHECK(summary.contains(path));
  }

  SUBCASE("metrics keep the single-run shape with means across replicas") {
    const json& m = s.result["metrics"];
    // N = 10 replications
    CHECK(s.result["replications"] == 10);
    CHECK(m["wait_s"]["mean"].get<double>() ==
          doctest::Approx(summary["metrics.wait_s.mean"]["mean"].get<double>()));
    CHECK(m["gpu_utilization"].get<double>() ==
          doctest::Approx(summary["metrics.gpu_utilization"]["mean"].get<double>()));
    // no replica saturated: share 0
    CHECK(m["saturated"].get<double>() == 0);
    CHECK(s.result["cost_usd"]["per_pool"].contains("main"));
  }

  SUBCASE("bands hold p10 <= p50 <= p90 for every time bin") {
    for (const char* band : {"busy_gpus", "queued_jobs", "cumulative_spend_usd"}) {
      CAPTURE(band);
      const json& b = s.result["bands"][band];
      // one entry per time bin: 12
      REQUIRE(b["p10"].size() == 12);
      for (std::size_t i = 0; i < 12; ++i) {
        CHECK(b["p10"][i].get<double>() <= b["p50"][i].get<double>());
        CHECK(b["p50"][i].get<double>() <= b["p90"][i].get<double>());
      }
    }
    // cumulative spend ends at the whole-horizon spend: 4 nodes x $1/h x 2100 s
    CHECK(s.result["bands"]["cumulative_spend_usd"]["p50"][11].get<double>() ==
          doctest::Approx(4 * 2100 / 3600.0));
  }

  SUBCASE("the study's statistics match the replicas' rows") {
    // mean of the wait means over the 10 rows
    double total = 0;
    for (const auto& row : s.sum.rows) total += row[HeadlineIndex::WAIT_MEAN];
    CHECK(s.sum.at("metrics.wait_s.mean").mean == doctest::Approx(total / 10));
  }
}

TEST_CASE("study::result::saturated_replicas") {
  // M/M/1 at rho = 0.95 with room for only 16 jobs: over 200 s some replicas overflow, some not.
  Scenario sc = test::one_pool(1, 1, 200, 0);
  sc.workload.push_back(test::mm_class(0.95, 1.0));
  sc.limits.max_active_jobs = 16;
  const Study s = run_study(sc, 16);
  const uint32_t saturated = s.sum.n_saturated;
  CAPTURE(saturated);
  REQUIRE(saturated > 0);
  REQUIRE(saturated < 16);

  SUBCASE("metrics.saturated is the share of replicas that saturated") {
    // saturated / 16
    CHECK(s.result["metrics"]["saturated"].get<double>() == doctest::Approx(saturated / 16.0));
    CHECK(s.result["summary"]["metrics.saturated"]["n"] == 16);
    CHECK(s.result["monte_carlo"]["saturated_replications"] == saturated);
  }

  SUBCASE("waits are averaged over the replicas that kept up only") {
    double total = 0;
    uint32_t kept = 0;
    for (std::size_t k = 0; k < s.st.replicas.size(); ++k) {
      if (s.st.replicas[k].metrics.saturated()) continue;
      total += s.sum.rows[k][HeadlineIndex::WAIT_MEAN];
      ++kept;
    }
    // 16 - saturated replicas in statistics, and their plain mean
    CHECK(s.result["summary"]["metrics.wait_s.mean"]["n"] == kept);
    CHECK(s.result["metrics"]["wait_s"]["mean"].get<double>() == doctest::Approx(total / kept));
  }

  SUBCASE("a warning says how many replicas could not keep up and what the figures cover") {
    bool found = false;
    for (const auto& w : s.result["warnings"])
      found = found || w.get<std::string>().find("cannot keep up in " + std::to_string(saturated) +
                                                 " of 16") != std::string::npos;
    CHECK(found);
  }

  SUBCASE("when every replica saturates, the figures cover all of them and say so") {
    sc.horizon_s = 2000;
    const Study all = run_study(sc, 8);
    // all 8 overflow over 2,000 s
    CHECK(all.sum.n_saturated == 8);
    CHECK(all.result["monte_carlo"]["statistics_over"] == "all_replications");
    CHECK(all.result["summary"]["metrics.wait_s.mean"]["n"] == 8);
  }
}

TEST_CASE("study::result::economics") {
  // hybrid_burst: an on-prem base with a spot burst pool (reclaims, checkpoints) and a TCO section.
  Diagnostics d;
  const auto sc =
      load_scenario(std::string(GPUPLAN_SOURCE_DIR) + "/scenarios/hybrid_burst.json", {}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  const uint32_t n = 3;
  const Study s = run_study(*sc, n);

  SUBCASE("each replication's economics and network paths equal that replication run alone") {
    for (uint32_t k = 0; k < n; ++k) {
      CAPTURE(k);
      const json alone = result_json(*sc, s.cs, study::run(*sc, s.cs, {.replica_idx = k}));
      const auto value = [&](const std::string& path) {
        return s.sum.rows[k][s.sum.index_of(path)];
      };
      for (const char* key : {"provisioned", "busy", "useful", "lost_to_preemption",
                              "checkpoint_overhead", "restart_overhead"})
        CHECK(value(std::string("gpu_hours.") + key) == alone["gpu_hours"][key].get<double>());
      CHECK(value("cost_usd.idle") == doctest::Approx(alone["cost_usd"]["idle"].get<double>()));
      CHECK(value("cost_usd.per_useful_gpu_hour") ==
            alone["cost_usd"]["per_useful_gpu_hour"].get<double>());
      CHECK(value("preemption.preemptions") == alone["preemption"]["preemptions"].get<double>());
      CHECK(value("preemption.restarts_per_job") ==
            alone["preemption"]["restarts_per_job"].get<double>());
      CHECK(value("network.stranded_gpus") == alone["network"]["stranded_gpus"].get<double>());
      for (const json& c : alone["per_class"]) {
        const std::string p = "per_class." + c["name"].get<std::string>() + ".";
        CHECK(value(p + "cost_usd") == c["cost_usd"].get<double>());
        CHECK(value(p + "preemptions") == c["preemptions"].get<double>());
      }
    }
    // the burst pool is spot: some replication saw a reclaim, so the paths are not trivially 0
    CHECK(s.sum.at("preemption.preemptions").mean > 0);
  }

  SUBCASE("the TCO projection: per-replication NPVs summarised, bands around the mean") {
    const json& tco = s.result["tco"];
    REQUIRE(tco.is_object());
    CHECK(tco["replications"] == n);
    for (const auto& item : tco["options"].items()) {
      // NOTE: named, not bound: clang 14 cannot capture a structured binding in CAPTURE.
      const std::string name = item.key();
      const json& option = item.value();
      CAPTURE(name);
      // the mean NPV is the mean of each replication's own projection
      double sum = 0;
      for (uint32_t k = 0; k < n; ++k) {
        const json alone = result_json(*sc, s.cs, study::run(*sc, s.cs, {.replica_idx = k}));
        sum += alone["tco"]["options"][name]["npv_usd"].get<double>();
      }
      CHECK(option["npv_usd"].get<double>() == doctest::Approx(sum / n).epsilon(1e-12));
      const json& m = s.result["summary"]["tco.options." + name + ".npv_usd"];
      CHECK(m["mean"].get<double>() == doctest::Approx(sum / n).epsilon(1e-12));
      CHECK(m["ci95_low"].get<double>() <= m["mean"].get<double>());
      // the band brackets its median month by month
      const json& band = option["cumulative_usd_band"];
      REQUIRE(band["p10"].size() == option["cumulative_usd"].size());
      for (std::size_t i = 0; i < band["p10"].size(); ++i) {
        CHECK(band["p10"][i].get<double>() <= band["p50"][i].get<double>());
        CHECK(band["p50"][i].get<double>() <= band["p90"][i].get<double>());
      }
    }
    CHECK(tco["months"] == 36);  // shared by every replication: kept exact, not averaged
  }
}

TEST_CASE("study::result::uplink_loads") {
  // leaf_spine_3to1: gangs cross oversubscribed leaf uplinks, so the loads are not trivially 0.
  Diagnostics d;
  const auto sc =
      load_scenario(std::string(GPUPLAN_SOURCE_DIR) + "/scenarios/leaf_spine_3to1.json", {}, d);
  REQUIRE_MESSAGE(sc.has_value(), d.to_text());
  const uint32_t n = 2;
  const Study s = run_study(*sc, n);
  const std::size_t groups = s.cs.view().net.n_groups;
  REQUIRE(s.sum.uplink_crossing_nodes.size() == groups);
  std::vector<double> mean_crossing(groups, 0.0), mean_congested(groups, 0.0);
  for (uint32_t k = 0; k < n; ++k) {
    // each replication's loads are those of the replication run alone
    const SingleRun one = run_single(s.cs.view(), {}, k);
    std::vector<double> crossing, congested;
    uplink_window_means(s.cs.view(), one.state(), crossing, congested);
    CHECK(s.st.replicas[k].uplink_crossing_nodes == crossing);
    CHECK(s.st.replicas[k].uplink_congested_share == congested);
    for (std::size_t g = 0; g < groups; ++g) {
      mean_crossing[g] += crossing[g] / n;
      mean_congested[g] += congested[g] / n;
    }
  }
  double busiest = 0;
  for (std::size_t g = 0; g < groups; ++g) {
    CHECK(s.sum.uplink_crossing_nodes[g] == doctest::Approx(mean_crossing[g]).epsilon(1e-12));
    CHECK(s.sum.uplink_congested_share[g] == doctest::Approx(mean_congested[g]).epsilon(1e-12));
    busiest = std::max(busiest, mean_crossing[g]);
  }
  CHECK(busiest > 0);
  // the result lists every uplink below the top with its mean load, and shades the drawing
  const json& links = s.result["topology"]["links"];
  CHECK(links.size() > 0);
  CHECK(s.result["topology"]["dot"].get<std::string>().find("penwidth") != std::string::npos);
  // the drawing is stored sanitized, so report.html embeds result.json's own drawing unchanged
  if (s.result["topology"].contains("svg")) {
    const std::string svg = s.result["topology"]["svg"].get<std::string>();
    CHECK(svg == gpuplan::reports::sanitize_svg(svg));
    CHECK(svg.find("<!DOCTYPE") == std::string::npos);
  }
}
