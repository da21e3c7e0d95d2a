#include "sim/sharing/fragmentation.h"

#include <doctest/doctest.h>

#include <vector>

#include "sim/sharing/typical_shapes.h"

using namespace gpuplan;
using namespace gpuplan::sharing;

namespace {

PodShape shape(uint32_t cpu, uint8_t gpus, uint16_t milli) {
  PodShape p;
  p.cpu_milli = cpu;
  p.n_gpus = gpus;
  p.gpu_milli = milli;
  return p;
}

}  // namespace

TEST_CASE("sharing::fragmentation") {
  // A node of two GPUs, one idle and one half used, with 10 CPUs free.
  SharedNode n = make_node(10000, 65536, 2, 0);
  n.gpu_milli_free[1] = 500;
  const std::vector<TypicalShape> shapes = {
      {shape(1000, 1, 600), 0.5}, {shape(1000, 1, 1000), 0.25}, {shape(1000, 0, 0), 0.25}};
  const span<const TypicalShape> sh{shapes.data(), 3};

  SUBCASE("a shape that fits counts the GPUs too small for it; others count every idle GPU") {
    // 600 and 1000 milli fit GPU 0 only: GPU 1's 500 is fragment to them.
    CHECK(shape_fragment(n, shapes[0].shape) == 500);
    CHECK(shape_fragment(n, shapes[1].shape) == 500);
    // To a CPU-only shape all 1500 idle milli are fragment.
    CHECK(shape_fragment(n, shapes[2].shape) == 1500);
    // F = 0.5 × 500 + 0.25 × 500 + 0.25 × 1500 = 750.
    CHECK(node_fragmentation(n, sh) == doctest::Approx(750));
  }

  SUBCASE("too little CPU or a GPU model the shape refuses makes all idle GPU fragment") {
    SharedNode low_cpu = n;
    low_cpu.cpu_milli_free = 500;
    // None of the shapes fits: F = 1500.
    CHECK(node_fragmentation(low_cpu, sh) == doctest::Approx(1500));
    PodShape other_model = shape(1000, 1, 600);
    other_model.gpu_types = 1u << 3;
    CHECK(shape_fragment(n, other_model) == 1500);
  }

  SUBCASE("a node with nothing idle has no fragment") {
    SharedNode full = n;
    full.gpu_milli_free[0] = full.gpu_milli_free[1] = 0;
    CHECK(node_fragmentation(full, sh) == doctest::Approx(0));
  }
}

TEST_CASE("sharing::typical_shapes") {
  // Ten pods: six of shape A, three of B, one of C.
  std::vector<PodShape> pods(6, shape(1000, 1, 500));
  pods.insert(pods.end(), 3, shape(8000, 1, 1000));
  pods.push_back(shape(2000, 0, 0));

  SUBCASE("shapes are taken most frequent first until they cover the popularity, renormalised") {
    const auto ts = typical_shapes(pods, 0.9, 1);
    // A (6) and B (3) cover 9 of 10 ≥ 90 %: p = 6/9 and 3/9.
    REQUIRE(ts.size() == 2);
    CHECK(ts[0].shape.gpu_milli == 500);
    CHECK(ts[0].p == doctest::Approx(6.0 / 9.0));
    CHECK(ts[1].p == doctest::Approx(3.0 / 9.0));
  }

  SUBCASE("shapes are added a step at a time, so a step of 10 takes all three here") {
    const auto ts = typical_shapes(pods, 0.9, 10);
    REQUIRE(ts.size() == 3);
    // C, the CPU-only shape, keeps its share 1/10.
    CHECK(ts[2].shape.n_gpus == 0);
    CHECK(ts[2].p == doctest::Approx(0.1));
  }

  SUBCASE("no pods give no shapes") {
    CHECK(typical_shapes({}, 0.95).empty());
  }
}
