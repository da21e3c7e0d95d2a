#pragma once
//! Pieces of `gpuplan sweep` that do not need the CLI: the value lists of --vary, the grid of
//! their combinations, and Pareto fronts over the points.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace gpuplan {

//! One --vary PATH=V1,V2,...: scenario paths that move together and the values they take.
struct SweepAxis {
  std::string path;                 //!< as written (several paths joined by ',')
  std::vector<std::string> values;  //!< as written; each is applied like a --set value
                                    //!< (`x<number>` multiplies what is there)
  std::vector<std::string> paths;   //!< each path of `path`; each may hold '*' (every entry)
};

//! Parses "PATH=V1,V2,..." or "PATH1,PATH2=V1,V2,..." (each value goes to every path); commas
//! inside [], {} or "..." do not split values (JSON values may hold them). Returns nullopt with
//! `error` set when there is no '=', no path, an empty path in the list or an empty value.
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
