#include "topologies/graphviz.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace gpuplan::topologies {
namespace {

// DOT double-quoted string body.
std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string gbps_label(double gbps) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%gG", gbps);
  return buf;
}

//! A link's label: its bandwidth, and with a measured load its load in percent.
std::string edge_attributes(double gbps, double load) {
  if (!std::isfinite(load)) return "[label=" + quoted(gbps_label(gbps)) + "]";
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s \u00b7 %.0f%%", gbps_label(gbps).c_str(), 100 * load);
  const double width = 1.0 + 2.5 * std::min(load, 1.0);
  char style[64];
  std::snprintf(style, sizeof style, ", penwidth=%.2f", width);
  return "[label=" + quoted(buf) + ", color=\"" + load_color(load) + "\", fontcolor=\"" +
         load_color(load) + "\"" + style + "]";
}

}  // namespace

std::string load_color(double load) {
  if (!(load > 0)) return "#aab4be";  // idle: no gang crossed the link
  // Green (0) -> amber (0.5) -> red (>= 1), linear in RGB between the stops.
  struct Rgb {
    double r, g, b;
  };
  constexpr Rgb GREEN{0x2e, 0x9d, 0x5b}, AMBER{0xe8, 0xa3, 0x3d}, RED{0xd1, 0x44, 0x3c};
  const double x = std::min(load, 1.0);
  const Rgb& a = x < 0.5 ? GREEN : AMBER;
  const Rgb& b = x < 0.5 ? AMBER : RED;
  const double f = x < 0.5 ? x / 0.5 : (x - 0.5) / 0.5;
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x",
                static_cast<unsigned>(a.r + f * (b.r - a.r) + 0.5),
                static_cast<unsigned>(a.g + f * (b.g - a.g) + 0.5),
                static_cast<unsigned>(a.b + f * (b.b - a.b) + 0.5));
  return buf;
}

std::string to_dot(const Topology& t, std::span<const double> edge_load) {
  const Graph& g = t.graph;
  std::string out = "graph " + quoted(t.name) + " {\n";
  out += "  graph [rankdir=BT, splines=false, nodesep=0.15];\n";
  out += "  node [fontsize=9, height=0.3];\n  edge [fontsize=7];\n";
  std::map<uint32_t, std::vector<Vertex>> by_level;
  for (const Vertex v : boost::make_iterator_range(boost::vertices(g)))
    by_level[g[v].level].push_back(v);
  for (const auto& [level, vs] : by_level) {
    out += "  { rank=same;\n";
    for (const Vertex v : vs) {
      const VertexProps& p = g[v];
      const char* shape = p.kind == VertexKind::host          ? "ellipse"
                          : p.kind == VertexKind::controller  ? "doubleoctagon"
                          : p.kind == VertexKind::node_switch ? "box, style=rounded"
                                                              : "box";
      out +=
          "    v" + std::to_string(v) + " [label=" + quoted(p.name) + ", shape=" + shape + "];\n";
    }
    out += "  }\n";
  }
  std::size_t i = 0;
  for (const Edge e : boost::make_iterator_range(boost::edges(g))) {
    const double load = i < edge_load.size() ? edge_load[i] : std::nan("");
    ++i;
    out += "  v" + std::to_string(boost::source(e, g)) + " -- v" +
           std::to_string(boost::target(e, g)) + " " + edge_attributes(g[e].bandwidth_gbps, load) +
           ";\n";
  }
  return out + "}\n";
}

bool render_svg(std::string_view dot, std::string& svg, std::string& error) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0) {
    error =
        "cannot draw the topology: Graphviz 'dot' is not on PATH; install the graphviz "
        "package or use the DOT export instead";
    return false;
  }
  // NOTE: popen is one-way, so the DOT text goes through a private temporary file.
  char path[] = "/tmp/gpuplan_topology_XXXXXX";
  const int fd = mkstemp(path);
  if (fd < 0) {
    error = "cannot draw the topology: no temporary file for the DOT text";
    return false;
  }
  const bool written = write(fd, dot.data(), dot.size()) == static_cast<ssize_t>(dot.size());
  close(fd);
  if (!written) {
    unlink(path);
    error = "cannot draw the topology: writing the temporary DOT file failed";
    return false;
  }
  const std::string cmd = std::string("dot -Tsvg ") + path + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) {
    unlink(path);
    error = "cannot draw the topology: starting 'dot' failed";
    return false;
  }
  std::string text;
  char buf[4096];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) text.append(buf, n);
  const int status = pclose(pipe);
  unlink(path);
  if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = "cannot draw the topology: 'dot' failed: " + text;
    return false;
  }
  svg = std::move(text);
  return true;
}

}  // namespace gpuplan::topologies
