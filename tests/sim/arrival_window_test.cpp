//! Statistics by arrival window (ModelView::count_until, count_first_job): the jobs that arrive in
//! a window are followed until each finishes, against a queue whose every sojourn is known.
#include <doctest/doctest.h>

#include <vector>

#include "sim/mc_metrics.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

constexpr double H = 3600;

//! An overloaded D/D/1 queue: one GPU, job k (0-based) submitted at k hours, each 1.5 h long, so
//! job k starts at 1.5 k h, finishes at 1.5 (k + 1) h and spends 1.5 + 0.5 k h in the system.
Scenario overloaded_queue(double horizon_s, double warmup_s = 0) {
  Scenario sc = test::one_pool(1, 1, horizon_s, warmup_s);
  std::vector<double> submits;
  for (int k = 0; k < 40; ++k) submits.push_back(k * H);
  sc.workload.push_back(test::trace_class(submits, 1.5 * H, 1));
  return sc;
}

}  // namespace

TEST_CASE("sim::statistics::arrival_window") {
  SUBCASE("jobs 10..19 followed to completion: their mean is the queue's exact mean") {
    // mean of 1.5 + 0.5 k over k = 10..19 = 1.5 + 0.5 * 14.5 = 8.75 h
    Scenario by_index = overloaded_queue(100 * H);
    by_index.statistics.first_job = 10;
    by_index.statistics.end_job = 20;
    Scenario by_time = overloaded_queue(100 * H, 10 * H);
    by_time.statistics.arrivals_until_s = 20 * H;
    for (const Scenario& sc : {by_index, by_time}) {
      const ReplicaMetrics m = test::run(sc).metrics;
      CHECK(m.jobs_submitted == 10);
      CHECK(m.jobs_completed == 10);
      CHECK(m.jct_s.mean == doctest::Approx(8.75 * H).epsilon(1e-12));
      // every followed job finished: the lower bound is the mean itself
      CHECK(m.jct_mean_lower_bound_s == doctest::Approx(8.75 * H).epsilon(1e-12));
    }
  }

  SUBCASE("a window cut by the horizon: the completions alone understate, the bound does not") {
    // Horizon 20 h: jobs 10, 11 and 12 finish (at 16.5, 18 and 19.5 h; 6.5, 7 and 7.5 h in the
    // system), jobs 13..19 are still in it, aged 20 - k h = 7, 6, ..., 1 h.
    Scenario sc = overloaded_queue(20 * H);
    sc.statistics.first_job = 10;
    sc.statistics.end_job = 20;
    const ReplicaMetrics m = test::run(sc).metrics;
    CHECK(m.jobs_submitted == 10);
    CHECK(m.jobs_completed == 3);
    CHECK(m.jobs_unfinished == 7);
    CHECK(m.jct_s.mean == doctest::Approx(7.0 * H).epsilon(1e-12));
    // (6.5 + 7 + 7.5 + 28) / 10 h
    CHECK(m.jct_mean_lower_bound_s == doctest::Approx(4.9 * H).epsilon(1e-12));
    CHECK(m.classes[0].jct_mean_lower_bound_s == m.jct_mean_lower_bound_s);
  }

  SUBCASE("the default window counts every job submitted after the warmup") {
    // warmup 10 h, horizon 40 h: jobs 10..39 count; those finishing by 40 h are k <= 25
    const ReplicaMetrics m = test::run(overloaded_queue(40 * H, 10 * H)).metrics;
    CHECK(m.jobs_submitted == 30);
    CHECK(m.jobs_completed == 16);
    // mean of 1.5 + 0.5 k over k = 10..25 = 1.5 + 0.5 * 17.5 h
    CHECK(m.jct_s.mean == doctest::Approx(10.25 * H).epsilon(1e-12));
  }

  SUBCASE("the lower bound is reported only for a followed window") {
    const CompiledScenario plain = compile(overloaded_queue(40 * H));
    CHECK_FALSE(follows_arrivals(plain.view()));
    Scenario sc = overloaded_queue(40 * H);
    sc.statistics.arrivals_until_s = 20 * H;
    const CompiledScenario followed = compile(sc);
    CHECK(follows_arrivals(followed.view()));
    const std::vector<std::string> paths = metric_paths({{"main"}, {"jobs"}}, {.followed = true});
    CHECK(paths[paths.size() - 2] == "metrics.jct_mean_lower_bound_s");
    CHECK(paths.back() == "per_class.jobs.jct_mean_lower_bound_s");
    const ReplicaMetrics m = test::run(sc).metrics;
    CHECK(metric_row(followed.view(), m).size() == paths.size());
  }
}
