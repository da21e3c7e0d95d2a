//! The queue index of the ranked passes (sim/core/queue_index.h): each kind's ring holds exactly
//! the queue's jobs of that kind, in the queue's order, after every event, and a scan over the
//! index starts and preempts the same jobs at the same instants as the plain scan of the queue.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "sim/core/engine.h"
#include "sim/replica_buffers.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

//! Two overloaded classes of 1-, 2-, 3-, 4- and 8-GPU jobs (and 16-GPU gangs) on four 8-GPU
//! nodes under `policy`: long queues of every kind, LAS demotions and promotions, preemptions.
Scenario overloaded(QueuePolicy policy, uint64_t seed, bool grace) {
  Scenario sc = test::one_pool(4, 8, 3 * 86400.0);
  sc.seed = seed;
  sc.scheduler.queue = policy;
  sc.scheduler.las_thresholds_gpu_s = {3600.0, 36000.0};
  sc.scheduler.las_promote_knob = 4;
  if (grace) sc.scheduler.preemption_grace_s = 120;
  for (uint32_t k = 0; k < 2; ++k) {
    JobClass c = test::mm_class(k == 0 ? 14.0 / 3600 : 4.0 / 3600, 3600.0);
    c.name = k == 0 ? "small" : "large";
    c.gpus.values = k == 0 ? std::vector<uint32_t>{1, 2, 3, 4} : std::vector<uint32_t>{4, 8, 16};
    c.gpus.probs =
        k == 0 ? std::vector<double>{0.6, 0.2, 0.1, 0.1} : std::vector<double>{0.4, 0.4, 0.2};
    c.duration.kind = DistKind::lognormal;
    c.duration.a = std::log(1200.0);  // median 20 min
    c.duration.b = 1.5;
    c.econ.checkpoints = true;
    c.econ.interval_s = 600;
    c.econ.checkpoint_s = 10;
    c.priority = k == 1 && policy == QueuePolicy::backfill ? 1 : 0;
    sc.workload.push_back(c);
  }
  sc.scheduler.priority_preemption = policy == QueuePolicy::backfill;
  sc.limits.max_active_jobs = 4096;
  sc.limits.time_bins = 24;
  return sc;
}

//! What a replica looks like after an event: enough to tell two runs apart.
struct Snapshot {
  double now;
  uint64_t started;
  uint32_t queue_len;
  uint32_t running;
  double busy_gpu_s;
  bool operator==(const Snapshot&) const = default;
};

//! The replica's snapshots, event by event; `indexed` false turns the queue index off after init.
std::vector<Snapshot> snapshots(const ModelView& m, bool indexed, bool* index_agrees) {
  ReplicaBuffers buf(m, 0);
  ReplicaState& s = buf.state;
  init_replica(m, s, 0);
  if (!indexed) s.policy.index.n_kinds = 0;
  std::vector<Snapshot> out;
  while (step(m, s)) {
    out.push_back({s.now, s.totals.jobs_started, s.queue_len, s.running, s.totals.busy_gpu_s});
    const QueueIndex& ix = s.policy.index;
    for (uint32_t k = 0; k < ix.n_kinds && index_agrees != nullptr; ++k) {
      std::vector<uint32_t> want, got;
      for (uint32_t i = 0; i < s.queue_len; ++i)
        if (index_kind(m, s, queue_at(s, i)) == k) want.push_back(queue_at(s, i));
      for (uint32_t i = 0; i < ix.len[k]; ++i) got.push_back(index_at(s, k, i));
      *index_agrees &= want == got;
    }
  }
  return out;
}

}  // namespace

TEST_CASE("sim::queue_index") {
  SUBCASE("the policies that keep queued ranks have an index; fifo, fair share and teams none") {
    // 8 GPUs per node: size kinds 1, 2-3, 4-7, 8+, and one for every other job
    CHECK(queue_index_kinds(QueuePolicy::las, true, false, 8) == 5);
    CHECK(queue_index_kinds(QueuePolicy::srtf, true, false, 1) == 2);
    // at most MAX_INDEX_KINDS kinds: 1024 GPUs per node fold into the top size kind
    CHECK(queue_index_kinds(QueuePolicy::sjf, true, false, 1024) == MAX_INDEX_KINDS);
    CHECK(queue_index_kinds(QueuePolicy::backfill, false, false, 8) == 0);
    CHECK(queue_index_kinds(QueuePolicy::fifo, true, false, 8) == 0);
    CHECK(queue_index_kinds(QueuePolicy::las, true, true, 8) == 0);
    CHECK(queue_index_kinds(QueuePolicy::max_min_fairness_perf, true, false, 8) == 0);
  }

  for (const QueuePolicy policy :
       {QueuePolicy::las, QueuePolicy::srtf, QueuePolicy::sjf, QueuePolicy::backfill}) {
    for (uint64_t seed = 1; seed <= 3; ++seed) {
      CAPTURE(int(policy));
      CAPTURE(seed);
      const CompiledScenario cs = compile(overloaded(policy, seed, seed == 3));
      const ModelView m = cs.view();
      SUBCASE("each kind's ring is the queue's jobs of that kind, in order, after every event") {
        REQUIRE(queue_index_kinds(m) == 5);
        bool agrees = true;
        const std::vector<Snapshot> with = snapshots(m, true, &agrees);
        CHECK(agrees);
        // the queue grows long: a scan passes over many jobs
        uint32_t longest = 0;
        for (const Snapshot& x : with) longest = x.queue_len > longest ? x.queue_len : longest;
        CHECK(longest > 50);
      }
      SUBCASE(
          "the scan over the index starts the same jobs at the same instants as the plain one") {
        const std::vector<Snapshot> with = snapshots(m, true, nullptr);
        const std::vector<Snapshot> without = snapshots(m, false, nullptr);
        REQUIRE(with.size() == without.size());
        CHECK(with == without);
      }
    }
  }
}
