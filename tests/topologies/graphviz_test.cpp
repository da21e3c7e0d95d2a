#include <doctest/doctest.h>

#include "topologies/builders.h"
#include "topologies/graphviz.h"
#include "topologies/queries.h"

using namespace gpuplan::topologies;

TEST_CASE("topologies::graphviz") {
  const Topology t = fat_tree(4, {100, SWITCH_HOP_S});
  const std::string dot = to_dot(t);

  SUBCASE("the DOT export names every vertex and has one line per link") {
    for (const Vertex v : boost::make_iterator_range(boost::vertices(t.graph))) {
      std::string label = "label=\"";
      label += t.graph[v].name;
      CHECK(dot.find(label + '"') != std::string::npos);
    }
    size_t links = 0;
    for (size_t pos = dot.find(" -- "); pos != std::string::npos; pos = dot.find(" -- ", pos + 1))
      ++links;
    // k = 4: 16 host links + 16 edge-agg + 16 agg-core = 48.
    CHECK(links == 48);
  }
  SUBCASE("SVG rendering goes through dot and returns an svg document") {
    std::string svg;
    std::string error;
    const bool ok = render_svg(dot, svg, error);
    // Graphviz is a build dependency (Debian graphviz); without it the error names the fix.
    if (ok) {
      CHECK(svg.find("<svg") != std::string::npos);
    } else {
      CHECK(error.find("graphviz") != std::string::npos);
    }
  }
}

TEST_CASE("topologies::custom") {
  SUBCASE("an edge list builds hosts in list order and rejects unknown link ends") {
    const std::vector<CustomVertex> vs = {{"a", VertexKind::host, 0},
                                          {"b", VertexKind::host, 0},
                                          {"s", VertexKind::network_switch, 1}};
    const Topology t = custom(vs, {{"a", "s", {100, 1e-6}}, {"b", "s", {25, 1e-6}}});
    // Two hosts, one switch; the 25 Gb/s link is the bottleneck.
    CHECK(t.n_hosts() == 2);
    CHECK(bottleneck_gbps(t, 0, 1) == doctest::Approx(25));
    CHECK_THROWS_AS(custom(vs, {{"a", "x", {}}}), std::invalid_argument);
  }
}
