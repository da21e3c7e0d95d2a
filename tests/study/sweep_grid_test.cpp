//! Sweep building blocks: --vary parsing, the grid of combinations and Pareto fronts.
#include <doctest/doctest.h>

#include "study/sweep_grid.h"

using namespace gpuplan;

TEST_CASE("study::sweep_grid::parse_sweep_axis") {
  std::string error;
  SUBCASE("a path and comma-separated values") {
    const auto a = parse_sweep_axis("pools.0.count=8,12,16", error);
    REQUIRE(a);
    CHECK(a->path == "pools.0.count");
    CHECK(a->values == std::vector<std::string>{"8", "12", "16"});
  }
  SUBCASE("commas inside JSON arrays, objects and strings do not split") {
    const auto a = parse_sweep_axis(R"(x=[1,2],{"a":1,"b":2},"p,q")", error);
    REQUIRE(a);
    CHECK(a->values == std::vector<std::string>{"[1,2]", R"({"a":1,"b":2})", R"("p,q")"});
  }
  SUBCASE("a missing '=' or an empty value is an error that shows the expected form") {
    CHECK_FALSE(parse_sweep_axis("pools.0.count", error));
    CHECK(error.find("PATH=V1,V2") != std::string::npos);
    CHECK_FALSE(parse_sweep_axis("a=1,,2", error));
    CHECK(error.find("empty value") != std::string::npos);
  }
}

TEST_CASE("study::sweep_grid::sweep_grid") {
  SUBCASE("every combination, the last axis varying fastest") {
    const std::vector<SweepAxis> axes = {{"a", {"1", "2"}}, {"b", {"x", "y", "z"}}};
    const auto g = sweep_grid(axes);
    // 2 x 3 = 6 points
    REQUIRE(g.size() == 6);
    CHECK(g[0] == std::vector<std::size_t>{0, 0});
    CHECK(g[1] == std::vector<std::size_t>{0, 1});
    CHECK(g[3] == std::vector<std::size_t>{1, 0});
    CHECK(g[5] == std::vector<std::size_t>{1, 2});
  }
}

TEST_CASE("study::sweep_grid::pareto_front") {
  // cost and p90 wait of five configurations; point 3 is dominated by point 1 (cheaper, shorter)
  const std::vector<double> cost = {100, 120, 150, 130, 90};
  const std::vector<double> wait = {50, 20, 10, 25, 80};
  const std::vector<bool> all(5, true);

  SUBCASE("minimising both keeps exactly the non-dominated points") {
    const auto f = pareto_front(cost, wait, false, all);
    CHECK(f == std::vector<bool>{true, true, true, false, true});
  }
  SUBCASE("an ineligible (saturated) point is on no front and dominates nothing") {
    std::vector<bool> eligible = all;
    eligible[1] = false;
    const auto f = pareto_front(cost, wait, false, eligible);
    // without point 1, point 3 is no longer dominated
    CHECK(f == std::vector<bool>{true, false, true, true, true});
  }
  SUBCASE("maximising the second objective (utilization)") {
    const std::vector<double> util = {0.7, 0.6, 0.5, 0.8, 0.4};
    const auto f = pareto_front(cost, util, true, all);
    // 90/0.4, 100/0.7 and 130/0.8 trade off; 120/0.6 and 150/0.5 are dominated by 100/0.7
    CHECK(f == std::vector<bool>{true, false, false, true, true});
  }
}

TEST_CASE("study::sweep_grid::paths") {
  std::string error;
  SUBCASE("one path is its own list of paths") {
    const auto a = parse_sweep_axis("pools.0.count=8,12", error);
    REQUIRE(a);
    CHECK(a->paths == std::vector<std::string>{"pools.0.count"});
  }
  SUBCASE("paths joined by ',' move together, with wildcards and multipliers kept as written") {
    const auto a =
        parse_sweep_axis("workload.*.arrival.poisson.rate,demand.load_scale=x0.9,x1", error);
    REQUIRE(a);
    CHECK(a->path == "workload.*.arrival.poisson.rate,demand.load_scale");
    CHECK(a->paths ==
          std::vector<std::string>{"workload.*.arrival.poisson.rate", "demand.load_scale"});
    CHECK(a->values == std::vector<std::string>{"x0.9", "x1"});
  }
  SUBCASE("an empty path in the list is an error") {
    CHECK_FALSE(parse_sweep_axis("a,,b=1", error));
    CHECK(error.find("empty path") != std::string::npos);
    CHECK_FALSE(parse_sweep_axis("a,=1", error));
  }
}
