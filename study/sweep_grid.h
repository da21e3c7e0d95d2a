#pragma once
//! Pieces of `gpuplan sweep` that do not need the CLI: the value lists of --vary, the grid of
//! their combinations, and Pareto fronts over the points.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

//! One --vary PATH=V1,V2,...: a scenario path and the values it takes.
struct SweepAxis {
  std::string path;
  std::vector<std::string> values;  //!< as written; each is parsed like a --set value
};

//! Parses "PATH=V1,V2,..."; commas inside [], {} or "..." do not split (JSON values may hold
//! them). Returns nullopt with `error` set when there is no '=', no path or an empty value.
[[nodiscard]] std::optional<SweepAxis> parse_sweep_axis(const std::string& text,
                                                        std::string& error);

//! Every combination of the axes' value indices, the last axis varying fastest; one empty
//! combination when there are no axes.
[[nodiscard]] std::vector<std::vector<std::size_t>> sweep_grid(const std::vector<SweepAxis>& axes);

//! Marks the points on the Pareto front of minimising `cost` against `other` (minimised, or
//! maximised when `maximize_other`): a point is on it when no eligible point is at least as good in
//! both and better in one. Ineligible points (e.g. saturated ones) are never on it and dominate
//! none.
[[nodiscard]] std::vector<bool> pareto_front(const std::vector<double>& cost,
                                             const std::vector<double>& other, bool maximize_other,
                                             const std::vector<bool>& eligible);

}  // namespace gpuplan
