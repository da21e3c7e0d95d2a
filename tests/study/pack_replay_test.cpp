#include "study/pack_replay.h"

#include <doctest/doctest.h>

#include <cmath>

#include "models/trace/openb_trace.h"
#include "tests/data_files.h"

using namespace gpuplan;
using sharing::PackPolicy;

namespace {

//! The openb trace from the data path, or nullopt after reporting `what` skipped.
std::optional<OpenbTrace> openb(const std::string& what) {
  const auto nodes = gpuplan_test_data::data_file(OPENB_NODES_FILE, what);
  const auto pods = gpuplan_test_data::data_file(OPENB_PODS_FILE, what);
  if (!nodes || !pods) return std::nullopt;
  Diagnostics diags;
  auto t = read_openb(*nodes, *pods, diags);
  REQUIRE(t);
  return t;
}

PackReplayResult replay(const OpenbTrace& t, PackPolicy p, uint64_t seed, PodOrder order) {
  PackReplayOptions o;
  o.policy = p;
  o.seed = seed;
  o.order = order;
  return replay_openb(t, o);
}

}  // namespace

TEST_CASE("study::pack_replay") {
  SUBCASE("a tiny cluster: pods arrive until the demand reaches the capacity, curve per 1 %") {
    OpenbTrace t;
    t.models = {"G2"};
    t.nodes = {{"n0", 8000, 65536, 2, 0}};
    // Pods of 0.5, 0.5, 1 and 1 GPU: 3 GPUs asked of 2.
    for (uint16_t m : {500, 500, 1000, 1000})
      t.pods.push_back({"p", 1000, 1024, 1, m, 0xFFFFFFFFu, 0, 10, 2});
    const auto r = replay(t, PackPolicy::best_fit, 1, PodOrder::trace);
    // Arrivals stop before the 4th pod (3000 > 2000): 2000 of 2000 milli arrived, all placed.
    CHECK(r.pods_arrived == 3);
    CHECK(r.pods_placed == 3);
    CHECK(r.arrived_load == doctest::Approx(1.0));
    CHECK(r.allocation_ratio == doctest::Approx(1.0));
    // One point at 0 and one at every whole percent to 100 %.
    CHECK(r.curve.size() == 101);
    CHECK(r.curve[50].x == doctest::Approx(0.5));
    CHECK(r.curve[50].allocation_ratio == doctest::Approx(0.5));
  }

  SUBCASE("with departures a pod's GPUs come back at its deletion time") {
    OpenbTrace t;
    t.models = {"G2"};
    t.nodes = {{"n0", 8000, 65536, 1, 0}};
    // Pod 0 holds the GPU during [0, 10); pod 1 arrives at 10 and fits; pod 2 at 5 does not.
    t.pods = {{"a", 1000, 1024, 1, 1000, 0xFFFFFFFFu, 0, 10, 2},
              {"b", 1000, 1024, 1, 1000, 0xFFFFFFFFu, 10, 20, 3},
              {"c", 1000, 1024, 1, 600, 0xFFFFFFFFu, 5, 6, 4}};
    PackReplayOptions o;
    o.policy = PackPolicy::fgd;
    o.departures = true;
    const auto r = replay_openb(t, o);
    CHECK(r.pods_arrived == 3);
    CHECK(r.pods_placed == 2);
    CHECK(r.pods_unplaceable == 1);
    // The GPU is busy over the whole arrival window [0, 10]: mean allocation 1.
    CHECK(r.allocation_ratio == doctest::Approx(1.0));
  }

  SUBCASE("openb: FGD ≥ best-fit ≥ random allocation at full arrived load, across seeds") {
    const auto t = openb("study::pack_replay openb ordering");
    if (!t) return;
    CHECK(t->nodes.size() == 1213);
    CHECK(t->pods.size() == 8152);
    for (uint64_t seed : {42, 43, 44}) {
      CAPTURE(seed);
      const auto fgd = replay(*t, PackPolicy::fgd, seed, PodOrder::shuffled);
      const auto bf = replay(*t, PackPolicy::best_fit, seed, PodOrder::shuffled);
      const auto rnd = replay(*t, PackPolicy::random, seed, PodOrder::shuffled);
      // The paper's ordering (Weng et al., ATC'23, Fig. 7): FGD allocates the most, random least.
      CHECK(fgd.allocation_ratio >= bf.allocation_ratio);
      CHECK(bf.allocation_ratio >= rnd.allocation_ratio);
      // Every run sees the same arrivals (up to 100 % of 6,212 GPUs).
      CHECK(fgd.arrived_load == doctest::Approx(bf.arrived_load));
      CHECK(fgd.arrived_load > 0.99);
      // Allocation can never exceed what arrived.
      CHECK(fgd.allocation_ratio <= fgd.arrived_load);
    }
  }

  SUBCASE("openb at load 1.3, ten seeds shuffled: each policy within 0.3 points of the artifact") {
    // The artifact's own results (hkust-adsl/kubernetes-scheduler-simulator,
    // experiments/analysis/expected_results/analysis_allo_discrete.csv, workload
    // openb_pod_list_default, tune 1.3, seeds 42-51): the ten seeds' mean allocation [%] at 100 %
    // and 130 % of the GPUs arrived. At 130 %: FGD 95.29, 95.32, 95.44, 95.48, 95.49, 95.27, 95.37,
    // 95.47, 95.35, 95.43 (mean 95.391); BestFit 93.13, 93.25, 93.09, 93.14, 93.19, 93.04, 92.95,
    // 93.21, 92.87, 92.89 (mean 93.076); Random mean 87.470. At 100 %: FGD 95.227, BestFit
    // 92.862, Random 86.303. The seeds shuffle differently there (Go's generator), so the
    // ten-seed means are what compare.
    const auto t = openb("study::pack_replay openb against the artifact");
    if (!t) return;
    struct Published {
      sharing::PackPolicy policy;
      double at_100, at_130;
    };
    for (const Published p : {Published{sharing::PackPolicy::fgd, 95.227, 95.391},
                              Published{sharing::PackPolicy::best_fit, 92.862, 93.076},
                              Published{sharing::PackPolicy::random, 86.303, 87.470}}) {
      double at_100 = 0, at_130 = 0;
      for (uint64_t seed = 42; seed < 52; ++seed) {
        PackReplayOptions o;
        o.seed = seed;
        o.order = PodOrder::shuffled;
        o.load = 1.3;
        o.policy = p.policy;
        const PackReplayResult r = replay_openb(*t, o);
        REQUIRE(r.curve.size() == 131);  // every 1 % of arrived load, 0 to 130 %
        at_100 += 100 * r.curve[100].allocation_ratio / 10;
        at_130 += 100 * r.allocation_ratio / 10;
      }
      CAPTURE(static_cast<int>(p.policy));
      CAPTURE(at_100);
      CAPTURE(at_130);
      CHECK(std::abs(at_100 - p.at_100) <= 0.3);
      CHECK(std::abs(at_130 - p.at_130) <= 0.3);
    }
  }

  SUBCASE("openb in trace order: the same ordering, and FGD fragments fewer GPUs than best-fit") {
    const auto t = openb("study::pack_replay openb trace order");
    if (!t) return;
    const auto fgd = replay(*t, PackPolicy::fgd, 42, PodOrder::trace);
    const auto bf = replay(*t, PackPolicy::best_fit, 42, PodOrder::trace);
    const auto rnd = replay(*t, PackPolicy::random, 42, PodOrder::trace);
    CHECK(fgd.allocation_ratio >= bf.allocation_ratio);
    CHECK(bf.allocation_ratio >= rnd.allocation_ratio);
    CHECK(fgd.fragmented_gpus <= bf.fragmented_gpus);
  }
}
