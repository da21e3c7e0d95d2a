//! Compute used beside allocation (sim/core/compute_used.h): time-sliced, MIG and whole-GPU jobs
//! against hand-computed integrals; a job's compute over its life is its fraction times its
//! reference duration, whatever sharing stretches it to.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "sim/mc_metrics.h"
#include "sim/sharing/mig.h"
#include "tests/sim/run_records.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! One node with one A100-80GB shared as `kind` (MIG: seven 1g.10gb instances; time-sliced:
//! `replicas` with `interference`), over `horizon_s`.
Scenario shared_gpu(ShareKind kind, double horizon_s, uint32_t replicas = 2,
                    double interference = 0) {
  Scenario sc = test::one_pool(1, 1, horizon_s);
  PoolSharing& ps = sc.pools[0].sharing;
  ps.kind = kind;
  ps.replicas = replicas;
  ps.interference = interference;
  if (kind == ShareKind::mig) {
    ps.mig = sharing::find_mig_spec("A100-80GB");
    ps.layout.n = 7;
    for (uint8_t i = 0; i < 7; ++i) ps.layout.instances[i] = sharing::MigInstance{0, i};
  }
  return sc;
}

//! A trace class of shared jobs (submit, reference duration) of `kind` using `fraction` of a GPU.
JobClass shared_jobs(const std::vector<std::pair<double, double>>& jobs, ShareKind kind,
                     double fraction) {
  JobClass c;
  c.name = "shared";
  c.trace = TraceFormat{};
  for (const auto& [t, d] : jobs) c.trace_rows.push_back(TraceRow{t, d, 1, 0});
  c.share.kind = kind;
  c.share.fraction = fraction;
  if (kind == ShareKind::mig) c.share.mig_profile = "1g.10gb";
  return c;
}

}  // namespace

TEST_CASE("sim::compute_used") {
  SUBCASE("a time-sliced GPU's interference costs compute, not allocation") {
    Scenario sc = shared_gpu(ShareKind::time_sliced, 100, 2, 0.5);
    sc.workload.push_back(shared_jobs({{0, 10}, {2, 4}}, ShareKind::time_sliced, 1.0));
    const ReplicaMetrics m = test::run(sc).metrics;
    // A alone 0-2 (1 GPU of compute), both 2-14 at capacity 1 / 1.5 (8 GPU-s), A alone 14-18
    // (4): 14 GPU-s, the jobs' 10 + 4 s of work; the GPU is allocated 0-18
    CHECK(m.pools[0].compute_gpu_s == doctest::Approx(14).epsilon(1e-12));
    CHECK(m.pools[0].compute_used == doctest::Approx(0.14).epsilon(1e-12));
    CHECK(m.pools[0].gpu_utilization == doctest::Approx(0.18).epsilon(1e-12));
  }

  SUBCASE("jobs using a quarter of a GPU each use a quarter of its compute when time-sliced") {
    Scenario sc = shared_gpu(ShareKind::time_sliced, 100);
    sc.workload.push_back(shared_jobs({{0, 10}, {2, 4}}, ShareKind::time_sliced, 0.25));
    const ReplicaMetrics m = test::run(sc).metrics;
    // 0.25 + 0.25 fit in one GPU: both at full speed, 0.25 x 10 + 0.25 x 4 = 3.5 GPU-s of
    // compute, while the GPU counts allocated from 0 to 10
    CHECK(m.pools[0].compute_gpu_s == doctest::Approx(3.5).epsilon(1e-12));
    CHECK(m.pools[0].gpu_utilization == doctest::Approx(0.10).epsilon(1e-12));
  }

  SUBCASE("a MIG job uses the smaller of its fraction and its instance's SM share") {
    // 1g.10gb on an A100: 14 of 108 SMs
    const double f = 14.0 / 108.0;
    Scenario sc = shared_gpu(ShareKind::mig, 20);
    sc.workload.push_back(shared_jobs({{0, 1}}, ShareKind::mig, 0.5));
    const test::Outcome big = test::run(sc);
    // u = 0.5 > f: the 1 s job runs 0.5 / f s using f of the GPU, 0.5 GPU-s in all; the
    // instance's 1/7 of the GPU is allocated for those 0.5 / f s
    CHECK(big.jobs[0].finish_s == doctest::Approx(0.5 / f).epsilon(1e-12));
    CHECK(big.metrics.pools[0].compute_gpu_s == doctest::Approx(0.5).epsilon(1e-12));
    CHECK(big.metrics.pools[0].busy_gpu_s == doctest::Approx(0.5 / f / 7).epsilon(1e-12));
    sc.workload[0] = shared_jobs({{0, 1}}, ShareKind::mig, 0.1);
    const test::Outcome small = test::run(sc);
    // u = 0.1 < f: full speed, 1 s using 0.1 of the GPU
    CHECK(small.jobs[0].finish_s == doctest::Approx(1).epsilon(1e-12));
    CHECK(small.metrics.pools[0].compute_gpu_s == doctest::Approx(0.1).epsilon(1e-12));
  }

  SUBCASE("a whole-GPU job beside shared pools uses its fraction of every GPU it holds") {
    Scenario sc = shared_gpu(ShareKind::mig, 50);
    sc.instances.push_back(test::test_instance(2));
    Pool whole = sc.pools[0];
    whole.name = "whole";
    whole.instance = sc.instances.back().id;
    whole.sharing = PoolSharing{};
    sc.pools.push_back(whole);
    sc.workload.push_back(shared_jobs({{0, 1}}, ShareKind::mig, 0.1));
    JobClass w = test::trace_class({0, 0}, 5, 1);
    w.name = "whole";
    w.share.fraction = 0.25;
    sc.workload.push_back(w);
    const ReplicaMetrics m = test::run(sc).metrics;
    // two 1-GPU jobs of 5 s at 0.25: 2.5 GPU-s of compute for 10 allocated GPU-s, so the pool's
    // compute used is a quarter of its allocation
    CHECK(m.pools[1].compute_gpu_s == doctest::Approx(2.5).epsilon(1e-12));
    CHECK(m.pools[1].busy_gpu_s == doctest::Approx(10).epsilon(1e-12));
    CHECK(m.pools[1].compute_used ==
          doctest::Approx(0.25 * m.pools[1].gpu_utilization).epsilon(1e-12));
  }

  SUBCASE("without a shared pool nothing is kept and no compute path is listed") {
    Scenario sc = test::one_pool(1, 1, 50);
    JobClass w = test::trace_class({0}, 5, 1);
    w.share.fraction = 0.25;
    sc.workload.push_back(w);
    const ReplicaMetrics m = test::run(sc).metrics;
    CHECK(m.pools[0].compute_gpu_s == 0);
    const std::vector<std::string> plain = metric_paths({{"p"}, {"c"}});
    CHECK(std::find(plain.begin(), plain.end(), "metrics.compute_used") == plain.end());
    const std::vector<std::string> shared = metric_paths({{"p"}, {"c"}}, {.shared = true});
    REQUIRE(shared.size() == plain.size() + 2);
    CHECK(shared[plain.size()] == "metrics.compute_used");
    CHECK(shared.back() == "per_pool.p.compute_used");
  }
}
