#include <doctest/doctest.h>

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

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
  SUBCASE("links shaded by load: colour and percent label per measured edge, none otherwise") {
    std::vector<double> load(boost::num_edges(t.graph), std::nan(""));
    load[0] = 0.0;   // measured, idle
    load[1] = 0.25;  // halfway from green to amber
    load[2] = 1.7;   // oversubscribed: clamped to red
    const std::string shaded = to_dot(t, load);
    CHECK(shaded.find("100G \u00b7 0%\", color=\"#aab4be\"") != std::string::npos);
    CHECK(shaded.find("100G \u00b7 25%\", color=\"" + load_color(0.25)) != std::string::npos);
    CHECK(shaded.find("100G \u00b7 170%\", color=\"#d1443c\"") != std::string::npos);
    // unmeasured edges keep the plain label: 48 links, 3 shaded
    size_t plain = 0;
    for (size_t pos = shaded.find("[label=\"100G\"]"); pos != std::string::npos;
         pos = shaded.find("[label=\"100G\"]", pos + 1))
      ++plain;
    CHECK(plain == 45);
  }
  SUBCASE("load colours run grey (idle), green, amber (50%), red (100% and above)") {
    CHECK(load_color(0) == "#aab4be");
    CHECK(load_color(1e-9) == "#2e9d5b");
    CHECK(load_color(0.5) == "#e8a33d");
    CHECK(load_color(1.0) == "#d1443c");
    CHECK(load_color(3.0) == "#d1443c");
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

TEST_CASE("topologies::graphviz::limits") {
  SUBCASE("a topology above DOT_MAX_ELEMENTS is not handed to dot, and the error says why") {
    // k = 16: 1,024 hosts + 320 switches + 3,072 links = 4,416 > 2,000.
    std::string error;
    CHECK_FALSE(drawable(fat_tree(16, {100, SWITCH_HOP_S}), error));
    CHECK(error.find("4416 switches, hosts and links") != std::string::npos);
    // k = 4: 16 + 20 + 48 = 84.
    CHECK(drawable(fat_tree(4, {100, SWITCH_HOP_S}), error));
  }
  SUBCASE("a dot that runs too long is killed, its temporary file removed, and an error returned") {
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / ("gpuplan-dot-" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir / "bin");
    fs::create_directories(dir / "tmp");
    {
      std::ofstream fake(dir / "bin" / "dot");
      fake << "#!/bin/sh\nexec sleep 60\n";
    }
    fs::permissions(dir / "bin" / "dot", fs::perms::owner_all);
    const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    const char* old_tmp = std::getenv("TMPDIR");
    const std::string saved_tmp = old_tmp ? old_tmp : "";
    setenv("PATH", ((dir / "bin").string() + ":" + old_path).c_str(), 1);
    setenv("TMPDIR", (dir / "tmp").string().c_str(), 1);
    std::string svg, error;
    const auto t0 = std::chrono::steady_clock::now();
    const bool ok = render_svg("graph g { a -- b }", svg, error, 0.5);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    setenv("PATH", old_path.c_str(), 1);
    if (old_tmp) {
      setenv("TMPDIR", saved_tmp.c_str(), 1);
    } else {
      unsetenv("TMPDIR");
    }
    CHECK_FALSE(ok);
    CHECK(error.find("took longer than") != std::string::npos);
    // Stopped at the 0.5 s deadline, not after the fake dot's 60 s.
    CHECK(took < 10);
    CHECK(fs::is_empty(dir / "tmp"));
    fs::remove_all(dir);
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
    CHECK_THROWS_AS((void)custom(vs, {{"a", "x", {}}}), std::invalid_argument);
  }
}
