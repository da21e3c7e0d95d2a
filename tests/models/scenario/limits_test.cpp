#include <chrono>
#include <cmath>
#include <string>

#include <doctest/doctest.h>

#include "models/compile/network_plan.h"
#include "models/scenario/limits.h"
#include "models/load/load.h"
#include "tests/models/loaded.h"
#include "sim/replica_buffers.h"

using namespace gpuplan;

namespace {

using gpuplan_models_test::Loaded;

Loaded load(const std::string& text, std::vector<std::string> overrides = {}) {
  return gpuplan_models_test::load_text(text, ".", std::move(overrides));
}

// A small valid scenario: 16 one-GPU nodes, one Poisson class.
const std::string BASE = R"({
  "horizon": "30d",
  "instances": [{"id": "lab.g1", "gpu": "a100-80gb", "gpus_per_node": 1,
                 "price_per_hour": {"on_demand": 2.0, "spot": 0.5}}],
  "pools": [{"name": "main", "instance": "lab.g1", "count": 16}],
  "workload": [{"name": "jobs", "arrival": {"poisson": {"rate": "10/h"}}, "gpus": 1,
                "duration": {"exponential": {"mean": "1h"}}}]
})";

bool mentions(const Diagnostic& d, const std::string& text) {
  return d.message.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("models::limits") {
  SUBCASE("the base scenario is within every limit") {
    const Loaded r = load(BASE);
    CHECK(r.sc.has_value());
  }
  SUBCASE("a lognormal whose tail overflows is refused at its pointer") {
    const Loaded r =
        load(BASE, {R"(workload.0.duration={"lognormal": {"median": "1e-300s", "p90": "12h"}})"});
    REQUIRE_FALSE(r.sc.has_value());
    const Diagnostic d = r.at("/workload/0/duration");
    CHECK(d.code == DiagCode::limit_exceeded);
    CHECK(mentions(d, "overflow"));
    CHECK(mentions(d, "limits.max_duration"));
  }
  SUBCASE("a lognormal p90 of 1e300 s and an exponential mean of 1e308 s are refused") {
    const Loaded a =
        load(BASE, {R"(workload.0.duration={"lognormal": {"median": "1h", "p90": "1e300s"}})"});
    CHECK(a.at("/workload/0/duration").code == DiagCode::limit_exceeded);
    const Loaded b = load(BASE, {R"(workload.0.duration={"exponential": {"mean": 1e308}})"});
    CHECK(b.at("/workload/0/duration").code == DiagCode::limit_exceeded);
  }
  SUBCASE("samples beyond limits.max_duration are refused until the limit is raised") {
    // An exponential mean of 1e14 s reaches 45.1 x 1e14 s in the ziggurat's tail, > 1e15 s.
    const Loaded a = load(BASE, {R"(workload.0.duration={"exponential": {"mean": 1e14}})"});
    CHECK(mentions(a.at("/workload/0/duration"), "beyond limits.max_duration"));
    const Loaded b = load(BASE, {R"(workload.0.duration={"exponential": {"mean": 1e14}})",
                                 "limits.max_duration=1e16"});
    CHECK(b.sc.has_value());
  }
  SUBCASE("an exponential so short its smallest samples round to 0 s is refused") {
    // 1e-310 s x 5.55e-17 (the smallest exponential multiple) underflows to 0.
    const Loaded r = load(BASE, {R"(workload.0.duration={"exponential": {"mean": 1e-310}})"});
    CHECK(mentions(r.at("/workload/0/duration"), "round to 0 s"));
  }
  SUBCASE("a spot return delay is checked like a job duration") {
    const Loaded r =
        load(BASE, {"pools.0.pricing=spot", "workload.0.spot_tolerant=true",
                    R"(pools.0.spot={"return_delay": {"exponential": {"mean": 1e308}}})"});
    CHECK(r.at("/pools/0/spot/return_delay").code == DiagCode::limit_exceeded);
  }
  SUBCASE("a horizon of 1e12 s is refused for its expected events, naming the key") {
    const Loaded r = load(BASE, {"horizon=1e12"});
    REQUIRE_FALSE(r.sc.has_value());
    const Diagnostic d = r.at("/workload/0/arrival");
    CHECK(d.code == DiagCode::limit_exceeded);
    CHECK(mentions(d, "limits.max_events"));
    // 10/h over 1e12 s is 2.8e9 arrivals, 5.6e9 events with their finishes: above 1e9.
    CHECK(mentions(d, "5555555556 events"));
  }
  SUBCASE("raising limits.max_events admits the same horizon") {
    const Loaded r = load(BASE, {"horizon=1e12", "limits.max_events=1e10"});
    CHECK(r.sc.has_value());
  }
  SUBCASE("a spot wave rate of 1e12/s is refused at the rate") {
    const Loaded r = load(BASE, {"pools.0.pricing=spot", "workload.0.spot_tolerant=true",
                                 R"(pools.0.spot={"waves": {"rate": 1e12}})"});
    CHECK(r.at("/pools/0/spot/waves/rate").code == DiagCode::limit_exceeded);
  }
  SUBCASE("max_active_jobs of 2^32-1 is refused for the memory it implies, in well under 1 s") {
    const Loaded r = load(BASE, {"limits.max_active_jobs=4294967295"});
    const Diagnostic d = r.at("/limits/max_active_jobs");
    CHECK(d.code == DiagCode::limit_exceeded);
    CHECK(mentions(d, "limits.max_memory"));
    CHECK(r.seconds < 1.0);
  }
  SUBCASE("a fat-tree of k = 65536 is refused before it is built") {
    const Loaded r = load(BASE, {R"(topology={"kind": "fat_tree", "k": 65536})"});
    const Diagnostic d = r.at("/topology");
    CHECK(d.code == DiagCode::limit_exceeded);
    CHECK(mentions(d, "limits.max_topology_size"));
    CHECK(r.seconds < 1.0);
  }
  SUBCASE("oversized leaf-spine, rail-optimized and tree-ring topologies are refused fast") {
    for (const char* t :
         {R"(topology={"kind": "leaf_spine", "spines": 1000000})",
          R"(topology={"kind": "rail_optimized", "su": 1000000})",
          R"(topology={"kind": "tree_ring_hybrid", "workers_per_group": 1000000})"}) {
      CAPTURE(t);
      const Loaded r = load(BASE, {t});
      CHECK(r.at("/topology").code == DiagCode::limit_exceeded);
      CHECK(r.seconds < 1.0);
    }
  }
  SUBCASE("a topology sized to the cluster passes") {
    const Loaded r =
        load(BASE, {R"(topology={"kind": "leaf_spine", "spines": 4, "nodes_per_leaf": 4})"});
    CHECK(r.sc.has_value());
  }
  SUBCASE("a leaf wider than the cluster builds only the cluster's hosts") {
    // nodes_per_leaf 1e6 on 2,080 nodes passed the size check (one leaf) yet built a leaf of
    // 1e6 hosts: 840 MB. Built, it is the one leaf of nodes_per_leaf 0 (all nodes on one leaf).
    for (const TopologyKind kind : {TopologyKind::two_level_tree, TopologyKind::leaf_spine}) {
      CAPTURE(int(kind));
      TopologyConfig wide, whole;
      wide.kind = whole.kind = kind;
      wide.nodes_per_leaf = 1000000;
      uint32_t hosts_per_node = 0;
      const auto a = build_topology(wide, 2080, 8, 400, hosts_per_node);
      const auto b = build_topology(whole, 2080, 8, 400, hosts_per_node);
      CHECK(a.hosts.size() == 2080);
      CHECK(boost::num_vertices(a.graph) == boost::num_vertices(b.graph));
      // A leaf narrower than the cluster is kept: 2,080 nodes on leaves of 16 make 130 leaves.
      TopologyConfig narrow = whole;
      narrow.nodes_per_leaf = 16;
      CHECK(build_topology(narrow, 2080, 8, 400, hosts_per_node).hosts.size() == 2080);
      CHECK(boost::num_vertices(build_topology(narrow, 2080, 8, 400, hosts_per_node).graph) >
            boost::num_vertices(a.graph));
    }
  }
  SUBCASE("a 100 KB pool name is refused with the name limit") {
    const Loaded r = load(BASE, {"pools.0.name=" + std::string(100000, 'p')});
    const Diagnostic d = r.at("/pools/0/name");
    CHECK(d.code == DiagCode::limit_exceeded);
    CHECK(mentions(d, "at most 128 bytes"));
  }
  SUBCASE("100 k nested brackets are refused before parsing, at their line") {
    const std::string deep = "{\"horizon\": \"1d\",\n \"x-deep\": " + std::string(100000, '[') +
                             std::string(100000, ']') + "}";
    const Loaded r = load(deep);
    REQUIRE(r.all.size() == 1);
    CHECK(r.all[0].code == DiagCode::limit_exceeded);
    // The brackets start on line 2.
    CHECK(r.all[0].line == 2);
    CHECK(r.seconds < 1.0);
  }
  SUBCASE("brackets inside strings and comments do not count toward the depth") {
    const std::string brackets(200, '[');
    const std::string text = "// " + brackets + "\n/* " + brackets + " */\n{\"description\": \"" +
                             brackets + "\"," + BASE.substr(1);
    const Loaded r = load(text);
    CHECK(r.sc.has_value());
  }
}

TEST_CASE("models::limits::messages") {
  SUBCASE("a seed of 1e41 is too large, with the whole range") {
    const Loaded r = load(BASE, {"seed=1e41"});
    CHECK(r.at("/seed").message ==
          "too large: must be a whole number from 0 to 18446744073709551615, got 1e+41");
  }
  SUBCASE("a GPU choice of 4294967296 is too large, not 'not a whole number'") {
    const Loaded r = load(BASE, {R"(workload.0.gpus={"choice": {"4294967296": 1}})"});
    const Diagnostic d = r.at("/workload/0/gpus/choice/4294967296");
    CHECK(d.message == "GPU count \"4294967296\" is too large; a job asks for 1 to 1048576 GPUs");
  }
  SUBCASE("4294967296 GPUs per job is out of range with the range") {
    const Loaded r = load(BASE, {"workload.0.gpus=4294967296"});
    CHECK(r.at("/workload/0/gpus").message == "must be between 1 and 1048576, got 4294967296");
  }
  SUBCASE("a 2 MB unknown instance id gets its answer at once, shown cut") {
    const Loaded r = load(BASE, {"pools.0.instance=" + std::string(2'000'000, 'x')});
    const Diagnostic d = r.at("/pools/0/instance");
    CHECK(d.code == DiagCode::unknown_name);
    CHECK(mentions(d, "(2000000 bytes)"));
    CHECK(d.message.size() < 2000);
    CHECK(r.seconds < 1.0);
  }
  SUBCASE("a near miss still gets its suggestion") {
    const Loaded r = load(BASE, {"pools.0.instance=lab.g2"});
    CHECK(mentions(r.at("/pools/0/instance"), "did you mean \"lab.g1\""));
  }
}

TEST_CASE("models::limits::sample_range") {
  SUBCASE("an exponential spans 2^-54 x 0.064 to 45.1 times its mean") {
    const SampleRange r = sample_range(DistKind::exponential, 10, 0, {});
    // the ziggurat's tail: r + 54 ln 2 = 7.697 + 37.43 = 45.13; its last layer is 0.0638 wide
    CHECK(r.hi == doctest::Approx(451.3).epsilon(1e-3));
    CHECK(r.lo == doctest::Approx(10 * 0x1p-54 * 0.06385).epsilon(1e-3));
  }
  SUBCASE("a lognormal spans exp(mu -/+ 8.65 sigma)") {
    const SampleRange r = sample_range(DistKind::lognormal, 0, 1, {});
    // sqrt(2 x 37.43) = 8.652
    CHECK(std::log(r.hi) == doctest::Approx(8.652).epsilon(1e-3));
    CHECK(std::log(r.lo) == doctest::Approx(-8.652).epsilon(1e-3));
  }
}

TEST_CASE("models::limits::bytes_per_job_slot") {
  SUBCASE("the estimate covers what a replica allocates per job slot") {
    ModelView m{};
    m.max_nodes_per_job = 4;
    m.max_active_jobs = 1000;
    const double a = double(ReplicaBuffers::bytes_per_replica(m, 0));
    m.max_active_jobs = 2000;
    const double b = double(ReplicaBuffers::bytes_per_replica(m, 0));
    // The allocation grows by (b - a) / 1000 bytes per slot without a network; the estimate is
    // meant to be an upper bound within a factor 2.
    const double per_slot = (b - a) / 1000;
    CHECK(bytes_per_job_slot(4, false) >= per_slot);
    CHECK(bytes_per_job_slot(4, false) <= 2 * per_slot);
  }
  SUBCASE("the queue index adds what its rings allocate per job slot") {
    ModelView m{};
    m.max_nodes_per_job = 4;
    m.max_gpus_per_node = 8;
    m.max_active_jobs = 1000;
    m.sched.ranked = true;
    m.queue = QueuePolicy::max_min_fairness_perf;  // ranked, no index
    const double without = double(ReplicaBuffers::bytes_per_replica(m, 0));
    m.queue = QueuePolicy::las;
    // 8 GPUs per node: 5 kinds (sizes 1, 2-3, 4-7, 8 and the rest), 4 bytes per slot each
    REQUIRE(queue_index_kinds(m) == 5);
    const double with = double(ReplicaBuffers::bytes_per_replica(m, 0));
    // 20 bytes per slot, give or take the arrays' alignment
    CHECK((with - without) / 1000 == doctest::Approx(20).epsilon(0.01));
    CHECK(bytes_per_job_slot(4, false, 5) - bytes_per_job_slot(4, false, 0) == 20);
  }
}
