//! A single run (sim/single_run.h): per-job records stream through a fixed buffer, and the
//! percentiles it reports are within the sketch's bound of the exact ones.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "sim/core/sketch.h"
#include "sim/mc_stats.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! M/M/8 at 85 % load, 1 s mean service, about `jobs` arrivals, 10 % warmup.
CompiledScenario mm8(double jobs) {
  const double lambda = 0.85 * 8;
  Scenario sc = test::one_pool(8, 1, jobs / lambda, 0.1 * jobs / lambda);
  sc.workload.push_back(test::mm_class(lambda, 1.0));
  sc.limits.max_active_jobs = 1024;
  return compile(sc);
}

}  // namespace

TEST_CASE("sim::single_run") {
  const CompiledScenario cs = mm8(3.2 * RECORD_CHUNK);
  const ModelView v = cs.view();
  std::vector<JobRecord> records;
  uint64_t chunks = 0;
  const SingleRun r = run_single(v, [&](const JobRecord* rec, std::size_t n) {
    ++chunks;
    records.insert(records.end(), rec, rec + n);
  });

  SUBCASE("every finished job reaches the sink once, in completion order, chunk by chunk") {
    // ~209,000 jobs over 65,536-record chunks: at least 3 drains plus the final one
    CHECK(chunks >= 4);
    std::vector<bool> seen(r.state().arrivals_made[0], false);
    uint64_t counted = 0;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const JobRecord& j = records[i];
      if (i > 0) CHECK(j.finish_s >= records[i - 1].finish_s);
      REQUIRE(j.job_idx < seen.size());
      CHECK_FALSE(seen[j.job_idx]);
      seen[j.job_idx] = true;
      if (j.submit_s >= v.warmup) ++counted;
    }
    // the counted records are exactly the completed jobs of the statistics window
    CHECK(counted == r.metrics.jobs_completed);
  }

  SUBCASE("the record buffer is a fixed chunk plus one record per job slot, not one per job") {
    // 65,536 + max_active_jobs (1,024), however long the run
    CHECK(r.state().records.size == RECORD_CHUNK + 1024);
    CHECK(records.size() > r.state().records.size);
  }

  SUBCASE("without a sink no records are kept and the metrics are the same") {
    const SingleRun bare = run_single(v);
    CHECK(bare.state().records.size == 0);
    CHECK(bare.metrics.wait_s.mean == r.metrics.wait_s.mean);
    CHECK(bare.metrics.jct_s.p99 == r.metrics.jct_s.p99);
  }

  SUBCASE("reported percentiles are within 0.5 % + 1 ms of the exact ones of the records") {
    std::vector<double> waits, jcts;
    for (const JobRecord& j : records) {
      if (j.submit_s < v.warmup) continue;
      waits.push_back(j.start_s - j.submit_s);
      jcts.push_back(j.finish_s - j.submit_s);
    }
    const struct {
      double got, q;
      const std::vector<double>& values;
    } cases[] = {{r.metrics.wait_s.p50, 0.5, waits},  {r.metrics.wait_s.p90, 0.9, waits},
                 {r.metrics.wait_s.p99, 0.99, waits}, {r.metrics.jct_s.p50, 0.5, jcts},
                 {r.metrics.jct_s.p90, 0.9, jcts},    {r.metrics.jct_s.p99, 0.99, jcts}};
    for (const auto& c : cases) {
      const double exact = quantile_type7(c.values, c.q);
      CAPTURE(c.q);
      CAPTURE(exact);
      CAPTURE(c.got);
      // the sketch bound (sim/core/sketch.h)
      CHECK(std::abs(c.got - exact) <= SKETCH_REL_ERROR * exact + SKETCH_FLOOR);
    }
    // means stay exact: sums over the same jobs, up to summation order
    double sum = 0;
    for (double w : waits) sum += w;
    CHECK(r.metrics.wait_s.mean == doctest::Approx(sum / double(waits.size())).epsilon(1e-12));
  }
}
