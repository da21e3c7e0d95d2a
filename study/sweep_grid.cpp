#include "study/sweep_grid.h"

#include <algorithm>

namespace gpuplan {

std::optional<SweepAxis> parse_sweep_axis(const std::string& text, std::string& error) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0) {
    error = "--vary " + text + ": expected PATH=V1,V2,... (e.g. pools.0.count=8,12,16)";
    return std::nullopt;
  }
  SweepAxis axis;
  axis.path = text.substr(0, eq);
  for (std::size_t b = 0; b <= axis.path.size();) {
    const std::size_t e = std::min(axis.path.find(',', b), axis.path.size());
    if (e == b) {
      error = "--vary " + text + ": empty path in the list; join paths with ',' (e.g. " +
              "workload.0.arrival.poisson.rate,workload.1.arrival.poisson.rate=x0.9,x1.1)";
      return std::nullopt;
    }
    axis.paths.push_back(axis.path.substr(b, e - b));
    b = e + 1;
  }
  std::string current;
  int depth = 0;
  bool quoted = false;
  const auto push = [&] {
    if (current.empty()) {
      error = "--vary " + text + ": empty value in the list";
      return false;
    }
    axis.values.push_back(current);
    current.clear();
    return true;
  };
  for (std::size_t i = eq + 1; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"' && text[i - 1] != '\\') quoted = false;
    } else if (ch == '"') {
      quoted = true;
    } else if (ch == '[' || ch == '{') {
      ++depth;
    } else if (ch == ']' || ch == '}') {
      --depth;
    } else if (ch == ',' && depth == 0) {
      if (!push()) return std::nullopt;
      continue;
    }
    current += ch;
  }
  if (!push()) return std::nullopt;
  return axis;
}

std::vector<std::vector<std::size_t>> sweep_grid(const std::vector<SweepAxis>& axes) {
  std::vector<std::vector<std::size_t>> grid = {{}};
  for (const SweepAxis& axis : axes) {
    std::vector<std::vector<std::size_t>> next;
    for (const auto& prefix : grid) {
      for (std::size_t v = 0; v < axis.values.size(); ++v) {
        next.push_back(prefix);
        next.back().push_back(v);
      }
    }
    grid = std::move(next);
  }
  return grid;
}

std::vector<bool> pareto_front(const std::vector<double>& cost, const std::vector<double>& other,
                               bool maximize_other, const std::vector<bool>& eligible) {
  const std::size_t n = cost.size();
  const auto better = [&](double a, double b) { return maximize_other ? a > b : a < b; };
  std::vector<bool> front(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    if (!eligible[i]) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < n && !dominated; ++j) {
      if (j == i || !eligible[j]) continue;
      const bool no_worse = cost[j] <= cost[i] && !better(other[i], other[j]);
      const bool strictly = cost[j] < cost[i] || better(other[j], other[i]);
      dominated = no_worse && strictly;
    }
    front[i] = !dominated;
  }
  return front;
}

}  // namespace gpuplan
