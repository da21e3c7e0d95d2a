#include "topologies/graphviz.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

#include <cerrno>
#include <chrono>
#include <csignal>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
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

bool drawable(const Topology& t, std::string& error) {
  const std::size_t size = boost::num_vertices(t.graph) + boost::num_edges(t.graph);
  if (size <= DOT_MAX_ELEMENTS) return true;
  error = "not drawn: the topology has " + std::to_string(size) +
          " switches, hosts and links, more than the " + std::to_string(DOT_MAX_ELEMENTS) +
          " Graphviz lays out in reasonable time; the tables above describe it, and "
          "topology.dot in result.json can be drawn with 'dot -Tsvg' (or 'sfdp') by hand";
  return false;
}

bool render_svg(std::string_view dot, std::string& svg, std::string& error, double timeout_s) {
  // NOTE: dot reads the text from a private temporary file, so only its output needs a pipe.
  const char* tmpdir = std::getenv("TMPDIR");
  std::string path = std::string(tmpdir && *tmpdir ? tmpdir : "/tmp") + "/gpuplan_topology_XXXXXX";
  const int fd = mkstemp(path.data());
  if (fd < 0) {
    error = "cannot draw the topology: no temporary file for the DOT text";
    return false;
  }
  // Removes the temporary file on every way out.
  struct Unlink {
    const std::string& p;
    ~Unlink() { unlink(p.c_str()); }
  } unlink_tmp{path};
  const bool written = write(fd, dot.data(), dot.size()) == static_cast<ssize_t>(dot.size());
  close(fd);
  if (!written) {
    error = "cannot draw the topology: writing the temporary DOT file failed";
    return false;
  }
  int out[2];
  if (pipe2(out, O_CLOEXEC) != 0) {
    error = "cannot draw the topology: no pipe for 'dot'";
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, out[1], STDERR_FILENO);
  char arg0[] = "dot", arg1[] = "-Tsvg";
  char* argv[] = {arg0, arg1, path.data(), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "dot", &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  close(out[1]);
  if (spawned != 0) {
    close(out[0]);
    error = spawned == ENOENT
                ? "cannot draw the topology: Graphviz 'dot' is not on PATH; install the graphviz "
                  "package or use the DOT export instead"
                : "cannot draw the topology: starting 'dot' failed";
    return false;
  }
  // Reads dot's output until it closes the pipe or the deadline passes.
  std::string text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  bool timed_out = false;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    pollfd p{out[0], POLLIN, 0};
    const int ready = poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    char buf[4096];
    const ssize_t n = read(out[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  close(out[0]);
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", timeout_s);
    error = "not drawn: Graphviz 'dot' took longer than " + std::string(limit) +
            " s and was stopped; the tables above describe the topology, and topology.dot in "
            "result.json can be drawn by hand";
    return false;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    error = "cannot draw the topology: 'dot' failed: " + text.substr(0, 400);
    return false;
  }
  svg = std::move(text);
  return true;
}

}  // namespace gpuplan::topologies
