//! One replica's row of Monte Carlo metrics: the spend billed to no class, and the registry
//! of metrics (each path reads its own value).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "models/compile/compile.h"
#include "sim/mc_metrics.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

TEST_CASE("sim::mc_metrics::idle_cost") {
  Scenario sc = test::one_pool(2, 1, 1000, 0);
  sc.workload.push_back(test::mm_class(0.5, 1.0));
  sc.workload.push_back(test::mm_class(0.5, 1.0));
  sc.workload[1].name = "second";
  const CompiledScenario cs = compile(sc);
  const ModelView m = cs.view();
  const std::vector<std::string> paths = metric_paths({{"pool"}, {"a", "b"}});
  const auto idle = std::find(paths.begin(), paths.end(), "cost_usd.idle") - paths.begin();
  ReplicaMetrics r;
  r.pools.resize(1);
  r.classes.resize(2);

  SUBCASE("a cluster billed wholly to its classes has no idle spend, not float residue") {
    // 0.3 - (0.1 + 0.2) is -5.6e-17 in doubles; a total of 1e6 split 1/3 + 2/3 leaves a residue
    // of the order of 1e-10: both are the classes' whole spend, so idle is exactly 0.
    r.cost_usd = 0.3;
    r.classes[0].cost_usd = 0.1;
    r.classes[1].cost_usd = 0.2;
    CHECK(metric_row(m, r)[idle] == 0.0);
    r.cost_usd = 1e6;
    r.classes[0].cost_usd = 1e6 / 3;
    r.classes[1].cost_usd = 2e6 / 3;
    CHECK(metric_row(m, r)[idle] == 0.0);
  }
  SUBCASE("spend on capacity no class used is idle") {
    // $1,000 billed, $250 + $500 of it used by the classes: $250 idle
    r.cost_usd = 1000;
    r.classes[0].cost_usd = 250;
    r.classes[1].cost_usd = 500;
    CHECK(metric_row(m, r)[idle] == doctest::Approx(250.0));
  }
}

//! A replica whose every field holds its own value: whole numbers for the counts, numbers with a
//! fraction for the rest, so a metric that reads another field reads another value.
ReplicaMetrics distinct_replica() {
  double next = 2;  // NOTE: from 2, so no count reads as the saturated flag (1)
  const auto count = [&] { return uint64_t(next++); };
  const auto real = [&] { return 0.25 + next++; };
  const auto durations = [&] { return DurationStats{real(), real(), real(), real()}; };
  ReplicaMetrics r;
  r.jobs_submitted = count();
  r.jobs_completed = count();
  r.jobs_unfinished = count();
  r.wait_s = durations();
  r.jct_s = durations();
  r.jct_mean_lower_bound_s = real();
  r.gpu_utilization = real();
  r.mean_queued_jobs = real();
  r.mean_jobs_in_system = real();
  r.cost_usd = real();
  r.saturation = SaturationCause::queue_overflow;
  r.events = count();
  r.gpu_hours = {real(), real(), real(), real(), real(), real()};
  r.preemption = {count(), count(), count(), count()};
  r.network = {real(), real(), count(), count()};
  r.failures = {count(), count(), count(), real(), real(), real(), real()};
  r.failures_by_cause = {count(), count()};
  r.maintenance = {count(), count(), real(), real(), real()};
  r.jobs_waited_for_room = count();
  for (int p = 0; p < 2; ++p)
    r.pools.push_back({real(), real(), real(), real(), count(), real(), real()});
  for (int c = 0; c < 2; ++c) {
    ClassMetrics k;
    k.submitted = count();
    k.completed = count();
    k.unfinished = count();
    k.wait_s = durations();
    k.jct_s = durations();
    k.cost_usd = real();
    k.preemptions = count();
    k.scheduler_preemptions = count();
    k.restarts = count();
    k.gpu_hours = {real(), real(), real(), real(), real(), real()};
    k.requeued_gpu_hours = real();
    k.effective_training_time = real();
    k.jct_mean_lower_bound_s = real();
    r.classes.push_back(k);
  }
  TeamMetrics t;
  t.submitted = count();
  t.completed = count();
  t.unfinished = count();
  t.wait_s = durations();
  t.jct_s = durations();
  t.gpu_hours_used = real();
  t.gpu_hours_borrowed = real();
  t.mean_gpus = real();
  t.quota_use = real();
  t.reclaim_preemptions = count();
  t.cost_share = real();
  t.cost_usd = real();
  r.teams.push_back(t);
  // NOTE: more than the classes' spend, so some of it is idle (cost_usd.idle is not 0).
  r.cost_usd = r.classes[0].cost_usd + r.classes[1].cost_usd + 1000.25;
  return r;
}

TEST_CASE("sim::mc_metrics::registry") {
  const MetricNames names{{"a", "b"}, {"x", "y"}, {"node", "switch"}, {"t"}};
  const MetricFeatures all{true, true, true, true};
  const std::vector<MetricColumn> columns = metric_columns(names, all);
  const ReplicaMetrics r = distinct_replica();
  const std::vector<double> row = metric_row(all, r);
  const auto value = [&](const std::string& path) {
    for (std::size_t i = 0; i < columns.size(); ++i)
      if (columns[i].path == path) return row[i];
    FAIL("no metric " << path);
    return 0.0;
  };

  SUBCASE("a row has one value per path, and no path twice") {
    REQUIRE(row.size() == columns.size());
    std::vector<std::string> paths = metric_paths(names, all);
    std::sort(paths.begin(), paths.end());
    CHECK(std::adjacent_find(paths.begin(), paths.end()) == paths.end());
  }
  SUBCASE("every metric reads a field of its own") {
    // every field holds its own value, and the ratios divide them, so two metrics that agree
    // read the same field
    for (std::size_t i = 0; i < row.size(); ++i)
      for (std::size_t j = i + 1; j < row.size(); ++j)
        CHECK_MESSAGE(row[i] != row[j], columns[i].path << " and " << columns[j].path);
  }
  SUBCASE("counts and flags read whole numbers, the rest the fields with a fraction") {
    // counts hold whole numbers; every other field holds k + 0.25, and no ratio here is whole
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool whole = row[i] == std::floor(row[i]);
      const bool counted =
          columns[i].unit == MetricUnit::count || columns[i].unit == MetricUnit::flag;
      CHECK_MESSAGE(whole == counted, columns[i].path << " = " << row[i]);
    }
  }
  SUBCASE("representative metrics equal their fields, or the ratios docs/outputs.md states") {
    CHECK(value("metrics.wait_s.p90") == r.wait_s.p90);
    CHECK(value("metrics.saturated") == 1.0);
    CHECK(value("cost_usd.per_gpu_hour") == r.cost_usd / r.gpu_hours.provisioned);
    CHECK(value("gpu_hours.lost_to_preemption") == r.gpu_hours.lost);
    CHECK(value("network.mean_comm_slowdown") == r.network.mean_comm_slowdown);
    CHECK(value("cost_usd.per_pool.b") == r.pools[1].cost_usd);
    CHECK(value("per_pool.b.mean_nodes") == r.pools[1].mean_nodes);
    CHECK(value("per_class.y.jct_s.p99") == r.classes[1].jct_s.p99);
    CHECK(value("per_class.y.restarts_per_job") ==
          double(r.classes[1].restarts) / double(r.classes[1].completed));
    CHECK(value("per_class.x.effective_training_time") == r.classes[0].effective_training_time);
    CHECK(value("failures.by_cause.switch") == double(r.failures_by_cause[1]));
    CHECK(value("per_team.t.quota_use") == r.teams[0].quota_use);
    CHECK(value("per_team.t.cost_usd") == r.teams[0].cost_usd);
    CHECK(value("maintenance.node_hours") == r.maintenance.node_hours);
    CHECK(value("sharing.jobs_waited_for_room") == double(r.jobs_waited_for_room));
    CHECK(value("metrics.compute_used") == (r.pools[0].compute_gpu_s + r.pools[1].compute_gpu_s) /
                                               (r.gpu_hours.provisioned * 3600.0));
    CHECK(value("per_pool.b.compute_used") == r.pools[1].compute_used);
    CHECK(value("per_class.y.jct_mean_lower_bound_s") == r.classes[1].jct_mean_lower_bound_s);
  }
  SUBCASE("a feature's metrics follow those of every model, in feature order") {
    const std::vector<std::string> plain = metric_paths(names);
    const std::vector<std::string> full = metric_paths(names, all);
    REQUIRE(full.size() == plain.size() + 5 + 1 + 3 + 3);
    CHECK(std::equal(plain.begin(), plain.end(), full.begin()));
    CHECK(full[plain.size()] == "maintenance.node_windows");
    CHECK(full[plain.size() + 5] == "sharing.jobs_waited_for_room");
    CHECK(full[plain.size() + 6] == "metrics.compute_used");
    CHECK(full.back() == "per_class.y.jct_mean_lower_bound_s");
  }
}
