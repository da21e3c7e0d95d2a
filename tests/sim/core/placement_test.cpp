//! Placement policies on one job stream: fragmentation, waits and communication slowdown.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "models/compile/compile.h"
#include "sim/single_run.h"
#include "tests/sim/scenario_builder.h"

namespace gpuplan {
namespace {

//! What one policy did with the stream.
struct PolicyRun {
  double stranded_gpus = 0;  //!< time-average free GPUs on partly used nodes (fragmentation)
  double mean_wait_s = 0;
  double mean_comm_slowdown = 0;  //!< over completed multi-node jobs
  uint64_t multi_node = 0;
};

//! 16 nodes of 8 GPUs under 4 leaves of 4 nodes at 3:1, a Philly-like mix with gangs of up to
//! 32 GPUs (Gavel's GPU counts stretched to multi-node), offered load ~0.7, 30% of a step in
//! network all-reduce for every gang; 60 simulated days, the same random stream for all.
PolicyRun run_policy(Placement placement, uint64_t seed = 42) {
  Scenario sc = test::one_pool(16, 8, 60 * 86400.0, 2 * 86400.0);
  sc.seed = seed;
  sc.topology.kind = TopologyKind::leaf_spine;
  sc.topology.nodes_per_leaf = 4;
  sc.topology.link_gbps = 400;
  sc.topology.oversubscription = 3;
  sc.topology.comm_fraction = 0.3;
  sc.scheduler.placement = placement;
  sc.scheduler.queue = QueuePolicy::backfill;
  JobClass jc = test::mm_class(5.5 / 3600, 3 * 3600);
  jc.gpus.values = {1, 2, 4, 8, 16, 32};
  jc.gpus.probs = {0.5, 0.1, 0.15, 0.1, 0.1, 0.05};
  sc.workload.push_back(jc);
  const CompiledScenario cs = compile(sc);
  const SingleRun r = run_single(cs.view());
  const NetState& n = r.state().net;
  PolicyRun out;
  out.stranded_gpus = n.stranded_gpu_s / (sc.horizon_s - sc.warmup_s);
  out.mean_wait_s = r.metrics.wait_s.mean;
  out.multi_node = n.multi_node_completed;
  out.mean_comm_slowdown =
      n.multi_node_completed ? n.comm_slowdown_sum / n.multi_node_completed : 0;
  return out;
}

}  // namespace

TEST_CASE("sim::placement") {
  // Eight independent streams (seeds 1-8): each comparison holds stream by stream, not on one
  // stream's luck.
  const uint32_t n_seeds = 8;
  double diff_sum = 0, diff_sum2 = 0;  // topology_aware minus pack, mean comm slowdown
  for (uint64_t seed = 1; seed <= n_seeds; ++seed) {
    CAPTURE(seed);
    const PolicyRun best = run_policy(Placement::best_fit, seed);
    const PolicyRun pack = run_policy(Placement::pack, seed);
    const PolicyRun spread = run_policy(Placement::spread, seed);
    const PolicyRun topo = run_policy(Placement::topology_aware, seed);
    for (const auto& [name, r] : {std::pair{"best_fit", best}, std::pair{"pack", pack},
                                  std::pair{"spread", spread}, std::pair{"topology_aware", topo}})
      MESSAGE(std::string(name) << ": stranded GPUs " << r.stranded_gpus << ", mean wait "
                                << r.mean_wait_s << " s, mean comm slowdown "
                                << r.mean_comm_slowdown << " over " << r.multi_node << " gangs");
    // Same seed, same stream: hundreds of multi-node jobs complete under each policy.
    CHECK(best.multi_node > 100);
    CHECK(spread.multi_node > 100);
    // Worst fit (spread) breaks a fresh node for every small job while nodes are free, so
    // partly used nodes, and the GPUs they strand, pile up; best fit fills partial nodes first.
    CHECK(best.stranded_gpus < spread.stranded_gpus);
    CHECK(pack.stranded_gpus < spread.stranded_gpus);
    // A gang needs whole free nodes; spread leaves fewer of them, so queues are longer.
    CHECK(best.mean_wait_s < spread.mean_wait_s);
    // topology_aware puts a gang under the smallest switch group that holds it, so fewer gangs
    // cross the 3:1 uplinks than under best fit, and spread crosses them by design. Every
    // slowdown is >= 1 (ideal = one leaf).
    CHECK(topo.mean_comm_slowdown < best.mean_comm_slowdown);
    CHECK(topo.mean_comm_slowdown < spread.mean_comm_slowdown);
    CHECK(topo.mean_comm_slowdown >= 1.0);
    const double d = topo.mean_comm_slowdown - pack.mean_comm_slowdown;
    diff_sum += d, diff_sum2 += d * d;
  }
  // Pack fills nodes in index order, and a leaf's nodes are consecutive, so its gangs mostly
  // stay under one leaf too: stream by stream either may come out ahead (by about 0.02), so
  // topology_aware is held to pack's level within three standard errors of the paired mean.
  const double mean = diff_sum / n_seeds;
  const double se = std::sqrt((diff_sum2 / n_seeds - mean * mean) / (n_seeds - 1));
  CHECK(mean <= 3 * se);
}

}  // namespace gpuplan
