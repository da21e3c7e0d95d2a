//! Replica outcomes as bytes for MPI (sim/outcome_pack.h) and the split of a round across
//! processes (sim/backends/mc_mpi.h), both checked without MPI.
#include <doctest/doctest.h>

#include <stdexcept>

#include "sim/backends/mc_cpu.h"
#include "sim/backends/mc_mpi.h"
#include "sim/outcome_pack.h"
#include "tests/sim/scenario_builder.h"

using namespace gpuplan;

namespace {

std::vector<std::byte> packed(const std::vector<ReplicaOutcome>& v) {
  std::vector<std::byte> bytes;
  pack_outcomes(v.data(), v.size(), bytes);
  return bytes;
}

}  // namespace

TEST_CASE("sim::outcome_pack") {
  Scenario sc = test::one_pool(2, 2, 2000, 100);
  JobClass a = test::mm_class(2.0, 1.5), b = test::mm_class(0.5, 3.0);
  b.name = "big";
  sc.workload = {a, b};
  sc.limits.time_bins = 5;
  const CompiledScenario cs = compile(sc);
  CpuBackend cpu(cs.view(), 1);
  std::vector<ReplicaOutcome> outcomes(3);
  cpu.run_batch(7, 3, outcomes.data());
  // Hand-set values that a study rarely produces, so every kind of field is exercised.
  outcomes[1].metrics.saturation = SaturationCause::event_overflow;
  outcomes[1].metrics.saturated_at_s = 1234.5;
  outcomes[1].metrics.classes[1].jct_s.p99 = 42.25;
  outcomes[2].wait_hist.clear();

  SUBCASE("a round trip keeps every field, vectors included") {
    const std::vector<std::byte> bytes = packed(outcomes);
    std::vector<ReplicaOutcome> back(3);
    unpack_outcomes(bytes.data(), bytes.size(), back.data(), back.size());
    // packing what was unpacked gives the same bytes: no field is lost or reordered
    CHECK(packed(back) == bytes);
    CHECK(back[1].metrics.saturated());
    CHECK(back[1].metrics.saturation == SaturationCause::event_overflow);
    CHECK(back[1].metrics.saturated_at_s == 1234.5);
    // the scenario has two classes
    REQUIRE(back[1].metrics.classes.size() == 2);
    CHECK(back[1].metrics.classes[1].jct_s.p99 == 42.25);
    CHECK(back[0].metrics.jobs_submitted == outcomes[0].metrics.jobs_submitted);
    CHECK(back[0].metrics.wait_s.mean == outcomes[0].metrics.wait_s.mean);
    CHECK(back[0].metrics.pools.size() == 1);
    // five time bins per series
    CHECK(back[2].busy_gpus == outcomes[2].busy_gpus);
    CHECK(back[2].busy_gpus.size() == 5);
    CHECK(back[0].wait_hist == outcomes[0].wait_hist);
    CHECK(back[2].wait_hist.empty());
  }

  SUBCASE("truncated or surplus bytes are refused") {
    std::vector<std::byte> bytes = packed(outcomes);
    std::vector<ReplicaOutcome> back(3);
    CHECK_THROWS_AS(unpack_outcomes(bytes.data(), bytes.size() - 1, back.data(), 3),
                    std::runtime_error);
    CHECK_THROWS_AS(unpack_outcomes(bytes.data(), bytes.size(), back.data(), 2),
                    std::runtime_error);
  }

  SUBCASE("no outcomes pack to no bytes") {
    CHECK(packed({}).empty());
    unpack_outcomes(nullptr, 0, nullptr, 0);
  }
}

TEST_CASE("sim::mc_mpi") {
  SUBCASE("slices of a round are contiguous, in rank order, cover it and differ by at most one") {
    for (uint32_t size : {1u, 2u, 3u, 4u, 7u}) {
      for (uint32_t n : {0u, 1u, 3u, 10u, 256u, 1025u}) {
        CHECK(slice_begin(n, 0, size) == 0);
        CHECK(slice_begin(n, size, size) == n);
        for (uint32_t r = 0; r < size; ++r) {
          const uint32_t len = slice_begin(n, r + 1, size) - slice_begin(n, r, size);
          CHECK(len >= n / size);
          CHECK(len <= n / size + 1);
        }
      }
    }
  }

  SUBCASE("without a launcher there is one process and collectives do nothing") {
    const ProcessGroup g = mpi_world();
    CHECK(g.rank == 0);
    CHECK(g.size == 1);
    CHECK(all_true(g, true));
    CHECK_FALSE(all_true(g, false));
    std::vector<uint64_t> h{1, 2};
    sum_to_root(g, h);
    CHECK(h == std::vector<uint64_t>{1, 2});
    CHECK(gather_to_root(g, 5) == std::vector<uint32_t>{5});
  }
}
