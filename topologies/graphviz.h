#pragma once
//! Pictures of a topology: Graphviz DOT text, and SVG rendered by the `dot` program.
#include <string>
#include <string_view>

#include "topologies/topology.h"

namespace gpuplan::topologies {

//! DOT text of `t`: one node per vertex (labelled with its name; hosts as ellipses, switches as
//! boxes, one rank per level, highest level on top) and one edge per link labelled in Gb/s.
[[nodiscard]] std::string to_dot(const Topology& t);

//! Renders DOT text to SVG by running `dot -Tsvg`; returns false and sets `error` to a sentence
//! naming the fix when `dot` is missing or fails.
[[nodiscard]] bool render_svg(std::string_view dot, std::string& svg, std::string& error);

}  // namespace gpuplan::topologies
