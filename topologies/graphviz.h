#pragma once
//! Pictures of a topology: Graphviz DOT text, and SVG rendered by the `dot` program.
#include <span>
#include <string>
#include <string_view>

#include "topologies/topology.h"

namespace gpuplan::topologies {

//! DOT text of `t`: one node per vertex (labelled with its name; hosts as ellipses, switches as
//! boxes, one rank per level, highest level on top) and one edge per link labelled in Gb/s.
//! With `edge_load` (one value per edge in boost::edges order: demand / capacity, NaN = not
//! measured) every link is also shaded by its load (load_color) and labelled with it in percent.
[[nodiscard]] std::string to_dot(const Topology& t, std::span<const double> edge_load = {});

//! Colour of a link at `load` (demand / capacity): grey when idle, then green through amber
//! (50 %) to red at 100 % and above; "#hhhhhh".
[[nodiscard]] std::string load_color(double load);

//! Renders DOT text to SVG by running `dot -Tsvg`; returns false and sets `error` to a sentence
//! naming the fix when `dot` is missing or fails.
[[nodiscard]] bool render_svg(std::string_view dot, std::string& svg, std::string& error);

}  // namespace gpuplan::topologies
